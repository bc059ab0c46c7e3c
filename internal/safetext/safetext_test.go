package safetext

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                         "plain text",
		"héllo wörld ✓":                      "héllo wörld ✓",
		"\x1b[31mred\x1b[0m":                 `\x1b[31mred\x1b[0m`,
		"\x1b]0;pwned\x07":                   `\x1b]0;pwned\x07`, // OSC set title
		"\x1b]52;c;Zm9v\x1b\\":               `\x1b]52;c;Zm9v\x1b\`,
		"550 no\nurlkit: \"ftp://fake\": ok": `550 no\nurlkit: "ftp://fake": ok`,
		"a\rb\tc\x00d\x7f":                   `a\rb\tc\x00d\x7f`,
		"\u009b31m":                          `\u009b31m`, // C1 CSI
		"abc\u202edcba":                      `abc\u202edcba`,
		"bad \xff\xfe utf8":                  `bad \xff\xfe utf8`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVisibleText(t *testing.T) {
	in := "line 1\r\nline\t2\n\x1b[2Jcleared\rover"
	want := "line 1\r\nline\t2\n\\x1b[2Jcleared\\rover"
	if got := VisibleText(in); got != want {
		t.Errorf("VisibleText = %q, want %q", got, want)
	}
}

// FuzzVisible: the result never holds a byte a terminal acts on, and
// clean text is returned unchanged.
func FuzzVisible(f *testing.F) {
	f.Add("\x1b]0;x\x07\n\u009b\xff")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Visible(s), VisibleText(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q", s)
			}
			for _, r := range out {
				if r == '\n' || r == '\t' || r == '\r' {
					continue
				}
				if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Fatalf("%q kept %U", s, r)
				}
			}
		}
		if out := Visible(s); strings.ContainsAny(out, "\r\n") {
			t.Fatalf("Visible(%q) kept a line break", s)
		}
		if firstUnsafe(s, false) < 0 && Visible(s) != s {
			t.Fatalf("clean %q changed", s)
		}
	})
}

func TestRedactor(t *testing.T) {
	var r Redactor
	if got := r.Redact("nothing to hide"); got != "nothing to hide" {
		t.Errorf("zero Redactor changed text: %q", got)
	}
	r.Add("S3cr3tPW", "pw")
	for in, want := range map[string]string{
		"PASS S3cr3tPW":                      "PASS xxxxx",
		"530 Login incorrect for pw.":        "530 Login incorrect for xxxxx.",
		"password pwd upw pw":                "password pwd upw xxxxx",
		"pw":                                 "xxxxx",
		"a S3cr3tPWS3cr3tPW b":               "a xxxxxxxxxx b",
		"ftp://u:S3cr3tPW@h/ and pw@h, (pw)": "ftp://u:xxxxx@h/ and xxxxx@h, (xxxxx)",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var nilR *Redactor
	if nilR.Redact("x") != "x" {
		t.Error("nil Redactor changed text")
	}
}

func TestURLPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:S3cr3tPW@h/x":                       "S3cr3tPW",
		"gopher=ftp://gwuser:p@ss@proxy:3128/":       "p@ss",
		"--gateway=ftp=http://gw:S3@cr@t@h":          "S3@cr@t",
		"ftp://u:p%40ss@h/":                          "p%40ss|p@ss",
		"see http://a:one@h/ and ftp://b:two@h2/x y": "one|two",
		"http://h/a@b":                               "",
		"ftp://user@h/":                              "",
		"http://h:8080/x@y":                          "",
		// Invalid URLs, which messages quote: a raw "/" in the password,
		// "scheme:/" and "scheme:\\" for "://", a third slash.
		"gopher=http://u:s3cr/et@g/":                  "s3cr/et|s3cr",
		"ftp:/u:s3cret@h/":                            "s3cret",
		`ftp:\\u:s3cret@h\x`:                          "s3cret",
		"http:///u:s3cret@h/":                         "s3cret",
		"http://web.archive.org/web/http://u:pass@h/": "pass",
		"http://h/a:b@c":                              "",
		"file:///p/a:b@c":                             "",
		"mailto:a:b@c":                                "",
		"//u:pw@h/":                                   "pw",
		"ftp://u:my pass@h/":                          "my pass",
		"ftp://u:tab\tpass@h/x":                       "tab\tpass",
		"ftp://u:s3cr 3t%21@h/":                       "s3cr 3t%21|s3cr 3t!",
		// A raw "@" before a raw space: the parser's password runs to
		// the last "@" (CI's fuzzing found "ftp://:@ 000@").
		"ftp://u:p@ss word@h/": "p@ss word|p", // "p": the word "ftp://u:p@ss"
		"ftp://:@ 000@":        "@ 000",
		// And past a raw "\\", which the parser reads in the authority.
		"ftp://u:p@ss\\word@h/": "p@ss\\word",
	} {
		if got := strings.Join(URLPasswords(in), "|"); got != want {
			t.Errorf("URLPasswords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	var r Redactor
	var b strings.Builder
	w := r.Writer(&b)
	r.Add("S3cr3tPW") // added after the writer was made: still hidden
	w.Write([]byte("> S3cr3tPW\n"))
	if b.String() != "> xxxxx\n" {
		t.Errorf("got %q", b.String())
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:pw@h/":           "ftp://u:xxxxx@h/",
		"ftp://u:s3cr/et@h/":      "ftp://u:xxxxx@h/",
		"ftp://u:p w@h/":          "ftp://u:xxxxx@h/", // one URL, invalid: its error message quotes it
		"ftp://u:p@h x@y":         "ftp://u:xxxxx@y",  // one URL to the parser, its password "p@h x"
		"ftp://u:p@h\\x@y/":       "ftp://u:xxxxx@y/", // the parser's password is "p@h\\x"
		"http://h/ a:b@c":         "http://h/ a:b@c",
		"http://a:b:c@d@h/p@q":    "http://a:xxxxx@h/p@q",
		"//u:pw@h/x":              "//u:xxxxx@h/x",
		"ftp:/u:pw@h/":            "ftp:/u:xxxxx@h/",
		"http://h:8080/x@y":       "http://h:8080/x@y",
		"news:a:b@c":              "news:a:b@c",
		"x http://u:pw@h/":        "x http://u:xxxxx@h/",
		"http://h/?q=a:b@c":       "http://h/?q=a:b@c",
		"http://u:p%40w@h/?q=x@y": "http://u:xxxxx@h/?q=x@y",
		"HTTP+X://u:pw@h":         "HTTP+X://u:xxxxx@h",
		"ftp:\\\\u:pw@h\\x":       "ftp:\\\\u:xxxxx@h\\x",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzPasswordSpan: the span is a password before an "@" of s, RedactURL
// hides it, and URLPasswords, which the CLI's redaction registers, finds
// it too.
func FuzzPasswordSpan(f *testing.F) {
	for _, s := range []string{"ftp://u:pw@h/", "gopher=http://u:s3cr/et@g/", "ftp:/u:pw@h/", `ftp:\\u:pw@h\x`,
		"http:///u:pw@h/ x", "//u:pw@h", "http://h:8080/x@y", "http://web.archive.org/web/http://u:p@h/", "http://a:b:c@d@h/p@q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi := PasswordSpan(s)
		if lo < 0 {
			if hi != -1 || RedactURL(s) != s {
				t.Fatalf("PasswordSpan(%q) = %d, %d; RedactURL %q", s, lo, hi, RedactURL(s))
			}
			return
		}
		if lo < 1 || lo > hi || hi >= len(s) || s[hi] != '@' || s[lo-1] != ':' {
			t.Fatalf("PasswordSpan(%q) = %d, %d", s, lo, hi)
		}
		if r := RedactURL(s); r != s[:lo]+Mask+s[hi:] {
			t.Fatalf("RedactURL(%q) = %q", s, r)
		}
		if lo < hi && !slices.Contains(URLPasswords(s), s[lo:hi]) {
			t.Fatalf("URLPasswords(%q) = %q, without %q", s, URLPasswords(s), s[lo:hi])
		}
	})
}

// TestRedactEscapedForms: a secret is hidden in the forms urlkit's
// escapers give it, for text that was escaped before it was redacted.
func TestRedactEscapedForms(t *testing.T) {
	var r Redactor
	r.Add("p\u00e4ss\t\"1\u009b")
	for _, text := range []string{
		"reply: p\u00e4ss\t\"1\u009b.",
		"reply: " + Visible("p\u00e4ss\t\"1\u009b") + ".",
		"reply: " + EscapeBytes("p\u00e4ss\t\"1\u009b") + ".",
	} {
		if got := r.Redact(text); got != "reply: "+Mask+"." {
			t.Errorf("Redact(%q) = %q", text, got)
		}
	}
}
