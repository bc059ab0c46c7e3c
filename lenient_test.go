package urlkit

import (
	"errors"
	"strings"
	"testing"
)

func TestLenient(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		warnings       []string // substrings, in order
	}{
		{"RFC 1738 appendix: wrapper broken after ';'",
			"<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d>", "ftp://info.cern.ch/pub/www/doc;type=d",
			[]string{"<...> wrapper removed", "\"URL:\" prefix removed", "whitespace inside <...> removed"}},
		{"RFC 1738 appendix: wrapper broken inside the host",
			"<URL:ftp://ds.in\n      ternic.net/rfc>", "ftp://ds.internic.net/rfc",
			[]string{"wrapper removed", "prefix removed", "whitespace"}},
		{"RFC 1738 appendix: fragment kept inside the wrapper",
			"<URL:http://ds.internic.\n      net/instructions/overview.HTM#WARNING>", "http://ds.internic.net/instructions/overview.HTM#WARNING",
			[]string{"wrapper removed", "prefix removed", "whitespace"}},
		{"URL: prefix alone", "URL:http://host/", "http://host/", []string{"prefix removed"}},
		{"plain <...> wrapper", "<http://host/a>", "http://host/a", []string{"wrapper removed"}},
		{"surrounding whitespace", "  http://host/ \n", "http://host/", []string{"leading whitespace", "trailing whitespace"}},
		{"space", "http://host/a b", "http://host/a%20b", []string{"space encoded as %20"}},
		{"line break outside a wrapper", "http://host/a\n   b", "http://host/ab", []string{"line break"}},
		{"tab", "http://host/a\tb", "http://host/ab", []string{"tab removed"}},
		{"raw UTF-8", "http://host/caf\xc3\xa9", "http://host/caf%C3%A9", []string{`non-ASCII character "é" encoded as %C3%A9`}},
		{"national characters", "http://host/a|b{c}^`\\", "http://host/a%7Cb%7Bc%7D%5E%60%5C", []string{"'|'", "'{'", "'}'", "'^'", "'`'", `'\'`}},
		{"bad escape", "http://host/100%", "http://host/100%25", []string{"'%' not followed by two hex digits"}},
		{"second #", "http://host/a#b#c", "http://host/a#b%23c", []string{"'#' is unsafe"}},
		{"brackets outside the host", "http://[::1]/a[1]", "http://[::1]/a%5B1%5D", []string{"'['", "']'"}},
		{"IDN host", "http://b\xc3\xbccher.example/", "http://xn--bcher-kva.example/", []string{"IDNA A-label xn--bcher-kva.example"}},
		{"@ in the userinfo (WHATWG: the last @ ends it)", "ftp://joe@example.com:secret@host/", "ftp://joe%40example.com:secret@host/", []string{"'@' inside the userinfo encoded as %40"}},
		{"leading control characters (WHATWG trims C0 controls)", "\x00\x1b http://host/", "http://host/", []string{"leading whitespace and control characters"}},
		{"a byte order mark (the first line of a file)", "\ufeffhttp://host/", "http://host/", []string{"byte order mark (U+FEFF) removed"}},
		{"a byte order mark, then spaces", "\ufeff  http://host/", "http://host/", []string{"byte order mark (U+FEFF) removed", "leading whitespace"}},
		{"tilde stays", "http://host/~user", "http://host/~user", nil},
		{"nothing to repair", "https://ex_ample.com/a?b#c", "https://ex_ample.com/a?b#c", nil},
	} {
		u, warns, err := ParseMode(tc.in, Lenient)
		if err != nil {
			t.Errorf("%s: ParseLenient(%q): %v", tc.name, tc.in, err)
			continue
		}
		if got := u.String(); got != tc.want {
			t.Errorf("%s: ParseLenient(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
		if len(warns) != len(tc.warnings) {
			t.Errorf("%s: warnings %v, want %d like %q", tc.name, warns, len(tc.warnings), tc.warnings)
			continue
		}
		for i, w := range warns {
			if !strings.Contains(w.Message, tc.warnings[i]) {
				t.Errorf("%s: warning %d = %q, want ...%s...", tc.name, i, w.Message, tc.warnings[i])
			}
			if w.Offset < 0 || w.Offset > len(tc.in) {
				t.Errorf("%s: warning offset %d out of range", tc.name, w.Offset)
			}
		}
		// The repaired form is a valid RFC 3986 URI and repairs nothing more.
		if _, _, err := ParseMode(u.String(), RFC3986); err != nil {
			t.Errorf("%s: repaired form invalid: %v", tc.name, err)
		}
		if _, again, _ := ParseMode(u.String(), Lenient); len(again) != 0 {
			t.Errorf("%s: repaired form repaired again: %v", tc.name, again)
		}
	}
}

func TestLenientWarningOffsets(t *testing.T) {
	in := "http://host/a b|c"
	_, warns, err := ParseMode(in, Lenient)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 || in[warns[0].Offset] != ' ' || in[warns[1].Offset] != '|' {
		t.Errorf("warnings %v do not point at the repaired bytes", warns)
	}
}

func TestLenientErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
		rule   string
	}{
		{"no scheme here", 0, "missing scheme"},
		{"http://host:99x/", 14, "in the port"},
		{"  http://host:99x/ ", 16, "in the port"}, // offsets in the input, not the repaired form
		{"http://[::1/", 7, "IP literal"},
		{"http://a\xffb/", 7, "IDNA"},
	} {
		_, _, err := ParseMode(tc.in, Lenient)
		e, ok := err.(*Error)
		if !ok || e.Offset != tc.offset || !strings.Contains(e.Rule, tc.rule) {
			t.Errorf("ParseLenient(%q) = %v; want offset %d ...%s...", tc.in, err, tc.offset, tc.rule)
		}
	}
}

// TestLenientURLPrefixIdempotent: "URL:" is the appendix's prefix only
// before a scheme; otherwise it is a scheme named URL, so the canonical
// form reads back the same (found by fuzzing package extract).
func TestLenientURLPrefixIdempotent(t *testing.T) {
	u, _, err := ParseMode("<URL:URL:0>", Lenient)
	if err != nil || u.String() != "URL:0" {
		t.Fatalf("ParseLenient(<URL:URL:0>) = %q, %v", u.String(), err)
	}
	v, warns, err := ParseMode(u.String(), Lenient)
	if err != nil || len(warns) != 0 || !v.SameComponents(&u) {
		t.Errorf("ParseLenient(%q) = %q, %v, %v", u.String(), v.String(), warns, err)
	}
}

// TestLenientURLPrefixCases: whitespace of a line break inside the scheme,
// and repeated prefixes (found in review).
func TestLenientURLPrefixCases(t *testing.T) {
	for in, want := range map[string]string{
		"<URL:ht\n     tp://h/x>": "http://h/x",
		"URL:URL:news:x":          "news:x",
		"<URL:URL:0>":             "URL:0",
		"URL: http://h/":          "http://h/",
	} {
		u, _, err := ParseMode(in, Lenient)
		if err != nil || u.String() != want {
			t.Errorf("ParseLenient(%q) = %q, %v; want %q", in, u.String(), err, want)
			continue
		}
		v, warns, err := ParseMode(want, Lenient)
		if err != nil || len(warns) != 0 || !v.SameComponents(&u) {
			t.Errorf("ParseLenient(%q) again = %q, %v, %v", want, v.String(), warns, err)
		}
	}
}

// TestURLPrefixEveryMode: in every mode "URL:" before a scheme is RFC
// 1738's prefix, not a scheme named URL (issue 10, D1); the strict modes
// say it was removed, and their errors name offsets in the input.
func TestURLPrefixEveryMode(t *testing.T) {
	for _, m := range []Mode{RFC1738, RFC1630, RFC3986, Lenient} {
		u, warns, err := parse("URL:http://host/", m, false)
		if err != nil || u.Scheme != "http" || u.Host != "host" || u.String() != "http://host/" {
			t.Errorf("%v: parse(URL:http://host/) = %q (scheme %q), %v", m, u.String(), u.Scheme, err)
		}
		if len(warns) != 1 || warns[0].Offset != 0 || !strings.Contains(warns[0].Message, `"URL:" prefix removed`) {
			t.Errorf("%v: warnings %v, want one at offset 0 saying the prefix was removed", m, warns)
		}
		if list := Check("URL:http://host/", m); len(list) != 0 {
			t.Errorf("%v: Check(URL:http://host/) = %v", m, list)
		}
		// Offsets of errors are in the input, the prefix counted.
		in := "url:URL:http://host:99x/"
		_, _, err = ParseMode(in, m)
		e, ok := err.(*Error)
		if !ok || e.Offset != 22 || e.Input != in || !strings.Contains(e.Rule, "port") {
			t.Errorf("%v: ParseMode(%q) = %v, want offset 22 in the port", m, in, err)
		}
		if list := Check(in, m); len(list) == 0 || list[0].Offset != 22 {
			t.Errorf("%v: Check(%q) = %v, want offset 22", m, in, list)
		}
		// "URL:" before no scheme is a scheme named URL.
		if u, warns, err := parse("URL:x", m, false); err != nil || u.Scheme != "URL" || len(warns) != 0 {
			t.Errorf("%v: parse(URL:x) = %q %v %v, want the scheme URL", m, u.Scheme, warns, err)
		}
	}
}

// TestLenientHostRepairs: a lenient repair yields a host the host rules
// accept or an error, never "a%20b" (issue 10, D5).
func TestLenientHostRepairs(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
	}{
		{"ftp://a b/", 7},
		{"http://host{x}/", 11},
		{"http://ho%st/", 9},
		{"http://a\x01b/", 8},
		{"http://user:pw@a b:80/", 16},
	} {
		for _, ref := range []bool{false, true} {
			u, _, err := parse(tc.in, Lenient, ref)
			e, ok := err.(*Error)
			if !ok || e.Offset != tc.offset || !errors.Is(err, ErrBadHost) || !strings.Contains(e.Rule, "a host is a name, an address or an internationalized") {
				t.Errorf("lenient %q = %q, %v; want ErrBadHost at offset %d", tc.in, u.String(), err, tc.offset)
			}
		}
		if list := Check(tc.in, Lenient); len(list) != 1 || list[0].Offset != tc.offset || list[0].Op != "check" {
			t.Errorf("Check(%q, Lenient) = %v", tc.in, list)
		}
	}
	// Line wrapping inside a host is still dropped (RFC 1738 appendix).
	for in, want := range map[string]string{
		"<URL:ftp://ds.in ternic.net/rfc>": "ftp://ds.internic.net/rfc",
		"ftp://ds.in\n  ternic.net/rfc":    "ftp://ds.internic.net/rfc",
		"http://b\xc3\xbccher.example/a b": "http://xn--bcher-kva.example/a%20b",
	} {
		if u, _, err := ParseMode(in, Lenient); err != nil || u.String() != want {
			t.Errorf("ParseLenient(%q) = %q, %v; want %q", in, u.String(), err, want)
		}
	}
}

// TestLenientWarningsBounded: a repair per byte of a long line gives the
// first 1,000 warnings and one that counts the rest, not a warning each.
func TestLenientWarningsBounded(t *testing.T) {
	in := "http://a/" + strings.Repeat("a b", 5000)
	u, ws, err := ParseMode(in, Lenient)
	if err != nil || u.Path != "/"+strings.Repeat("a%20b", 5000) {
		t.Fatalf("%v, path %.40q", err, u.Path)
	}
	if len(ws) != maxRepairWarnings+1 || ws[len(ws)-1].Message != "and 4000 more repairs, not listed (the first 1000 are)" {
		t.Fatalf("%d warnings, the last %+v", len(ws), ws[len(ws)-1])
	}
	if last := ws[len(ws)-1]; last.Offset != 9+3*1000+1 || in[last.Offset] != ' ' {
		t.Errorf("the count is at offset %d", last.Offset)
	}
}
