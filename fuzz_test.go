package urlkit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/urlkit/urlkit/internal/percent"
	"github.com/urlkit/urlkit/internal/safetext"
)

// fuzzSeeds are the inputs every parser fuzz target starts from: the
// specifications' examples and the invalid cases.
func fuzzSeeds(f *testing.F) {
	for _, tc := range specExamples {
		f.Add(tc.in)
	}
	for _, tc := range invalidCases {
		f.Add(tc.in)
	}
	for _, s := range []string{"<URL:ftp://a/b;\n type=d>", " http://h/a b ", "http://m\xc3\xbcnchen.de/", "//h", "?q", "#f", "",
		// the edges of parseFast's one pass
		"a_b:c", "http://h:65536/", "http://h:/", "file://h:1/x", "file://h/a;b", "http://a..b/", "http://h?x", "http://h/?a/b", "x:%4", "//h:/p", "https://h:1:2/",
		// the scheme read as a word
		"HTTPS://H/x", "hTtP://h/", "httpx://h/", "https:x", "http:/a/b", "httpss://h/", "http+x://h/",
		// hostEnd: the "/" in each of the first three words, after them, or none
		"http://abcdefg/", "http://abcdefghijklmno/x", "http://abcdefghijklmnopqrstuv/", "http://abcdefghijklmnopqrstuvwxyz.example/",
		"http://abcdefghijklmnopqrstuvwxyz.example", "http://abcdefghijklmnopqrstuvwxyz.example:8080/", "http://u@abcdefghijklmnopqrstuvwxyz/",
		"http://abcdefghijklmnop?q/", "http://abcdefghijklmnop#f/x", "http://abcdefghijklmnop%41/", "file:///x", "file://abc/"} {
		f.Add(s)
	}
}

// fastAgrees checks parseFast against the parser: when the one pass
// accepts s, parseFull accepts it too, with the same URL and no warning;
// when it stops on an error stoppedError knows, parseFull
// returns that error. It reports whether the one pass accepted s.
func fastAgrees(t *testing.T, s string, m Mode, ref bool) bool {
	t.Helper()
	var fast URL
	end := parseFast(&fast, s, m, ref)
	if end != len(s) {
		if fastErr := stoppedError(&fast, s, m, ref, end); fastErr != nil {
			// The error the one pass knew must be the parser's, field by field.
			if _, _, err := parseFull(s, m, ref); err == nil || *err.(*Error) != *fastErr {
				t.Fatalf("stoppedError(%q, %v, reference %v) = %#v; the parser: %#v", s, m, ref, fastErr, err)
			}
		}
		return false
	}
	full, warns, err := parseFull(s, m, ref)
	if err != nil || len(warns) != 0 || !full.SameComponents(&fast) {
		t.Fatalf("parseFast(%q, %v, reference %v) = %+v; the parser: %+v, %v, %v", s, m, ref, fast, full, warns, err)
	}
	return true
}

// fuzzMode checks the properties every mode must have: no panic, the
// one pass agreeing with the parser, the round trip for valid input,
// Check agreeing with Parse, errors with an offset inside the input and
// never a password.
func fuzzMode(t *testing.T, s string, m Mode) {
	fastAgrees(t, s, m, false)
	fastAgrees(t, s, m, true)
	if m == Lenient && !needsRepair(s) {
		// What the repairs are skipped for is what they leave alone.
		r := repairer{in: s}
		if text, err := r.run(); err == nil && (text != s || len(r.warnings) > 0) {
			t.Fatalf("needsRepair(%q) is false, but the repairs give %q, %v", s, text, r.warnings)
		}
	}
	if m == Lenient {
		// The repairs are the same whether the offsets are kept (to
		// locate an error) or not, and give one offset a byte, in s.
		r, rt := repairer{in: s}, repairer{in: s, track: true}
		text, err := r.run()
		textT, errT := rt.run()
		if text != textT || (err == nil) != (errT == nil) {
			t.Fatalf("repairs of %q: %q, %v without offsets; %q, %v with", s, text, err, textT, errT)
		}
		if err == nil && len(rt.from) != len(textT) {
			t.Fatalf("repairs of %q: %d offsets for %q", s, len(rt.from), textT)
		}
		for _, off := range rt.from {
			if off < 0 || off >= len(s) {
				t.Fatalf("repairs of %q: offset %d outside it", s, off)
			}
		}
	}
	u, warns, err := parse(s, m, m == RFC3986)
	list := Check(s, m)
	if (err == nil) != (len(list) == 0) {
		t.Fatalf("Parse and Check disagree on %q: %v / %v", s, err, list)
	}
	if err != nil {
		if err.Error() != list[0].Error() {
			t.Fatalf("Parse error %v is not Check's first %v", err, list[0])
		}
		seen := map[string]bool{}
		for _, e := range list {
			if e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("offset %d outside %q", e.Offset, s)
			}
			// Two rules may be broken at one offset, but not one twice.
			if k := e.Error(); seen[k] {
				t.Fatalf("%q: %v listed twice", s, e)
			}
			seen[e.Error()] = true
		}
		if lo, hi := safetext.PasswordSpan(s); lo >= 0 && hi-lo >= 4 {
			pass := s[lo:hi]
			for _, e := range list {
				if strings.Contains(e.Input, pass) && !strings.Contains(safetext.RedactURL(s), pass) {
					t.Fatalf("password %q in %v", pass, e)
				}
			}
		}
		return
	}
	writtenFormSound(t, &u)
	if m != Lenient {
		// The round trip, after the "URL:" prefixes that are reported
		// removed (RFC 1738 appendix).
		want := s[4*len(warns):]
		if got := u.String(); got != want {
			t.Fatalf("round trip %q -> %q (warnings %v)", s, got, warns)
		}
		return
	}
	// Lenient: the repaired form is a valid RFC 3986 URI that needs no
	// further repair and parses to the same URL.
	c := u.String()
	v, warns, err := ParseMode(c, Lenient)
	if err != nil || len(warns) != 0 || !v.SameComponents(&u) {
		t.Fatalf("lenient form %q of %q: %v, %v, %+v", c, s, err, warns, v)
	}
}

// writtenFormSound checks that String hands back the text parsed only
// when that is what building it would give: on u and on every URL made
// from u by giving a component another component's value (a slice of the
// same text at another place), a copy of its own value, or by turning a
// flag over.
func writtenFormSound(t *testing.T, u *URL) {
	t.Helper()
	check := func(v *URL, how string) {
		if got, want := v.String(), v.text(false); got != want {
			t.Fatalf("%s of %q: String %q, built %q", how, u.written, got, want)
		}
		cloneSound(t, v, how)
	}
	check(u, "the URL parsed")
	if c := u.Clone(); u.written != "" && !c.writtenForm() {
		t.Fatalf("the clone of %q is not in its written form: its String would allocate", u.written)
	}
	writtenPartsAgree(t, u)
	fields := func(v *URL) []*string {
		return []*string{&v.Scheme, &v.User, &v.Password, &v.Host, &v.Port, &v.Path, &v.Query, &v.Fragment}
	}
	flags := func(v *URL) []*bool {
		return []*bool{&v.HasAuthority, &v.HasUser, &v.HasPassword, &v.HasPort, &v.HasQuery, &v.HasFragment}
	}
	for i := range fields(u) {
		v := *u
		*fields(&v)[i] = strings.Clone(*fields(u)[i])
		check(&v, "a component copied")
		for j := range fields(u) {
			v := *u
			*fields(&v)[i] = *fields(u)[j]
			check(&v, "a component given another's value")
		}
	}
	for i := range flags(u) {
		v := *u
		*flags(&v)[i] = !*flags(u)[i]
		check(&v, "a flag turned over")
		for _, f := range fields(&v) {
			*f = strings.Clone(*f)
		}
		check(&v, "a flag turned over, every component copied")
	}
}

// TestCloneOneByte: the fuzzing engine's "0" is a one-byte string made
// from bytes, which the runtime points into its static table, as it does
// the clone's text: sharing that is not sharing the input's memory.
func TestCloneOneByte(t *testing.T) {
	in := string([]byte{'0'})
	u, _, err := ParseReference(in, RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	writtenFormSound(t, &u)
}

// cloneSound checks that v.Clone has v's components, flags and String
// form, and shares no memory with v: none of its strings lies in v's
// text or in a component of v.
func cloneSound(t *testing.T, v *URL, how string) {
	t.Helper()
	c := v.Clone()
	if !c.SameComponents(v) || c.String() != v.String() {
		t.Fatalf("%s of %q: clone %+v (%q), want %+v (%q)", how, v.written, c, c.String(), *v, v.String())
	}
	own := []string{v.written, v.Scheme, v.User, v.Password, v.Host, v.Port, v.Path, v.Query, v.Fragment}
	for _, x := range []string{c.written, c.Scheme, c.User, c.Password, c.Host, c.Port, c.Path, c.Query, c.Fragment} {
		for _, y := range own {
			if overlap(x, y) {
				t.Fatalf("%s of %q: the clone's %q shares memory with %q", how, v.written, x, y)
			}
		}
	}
}

// overlap reports whether the strings a and b share a byte of memory.
// One-byte strings do not count: the runtime makes those it converts from
// bytes point into one static table, which two clones of "0" then share.
func overlap(a, b string) bool {
	if len(a) <= 1 || len(b) <= 1 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}

// writtenPartsAgree checks the composite parts (authority, userinfo,
// scheme-specific part, url-path) sliced from the text parsed against
// the same parts built from the components.
func writtenPartsAgree(t *testing.T, u *URL) {
	t.Helper()
	built := *u
	built.written = ""
	type part struct {
		v  string
		ok bool
	}
	check := func(what string, got, want part) {
		if got != want {
			t.Fatalf("%q: %s %q %v from the text, %q %v built", u.written, what, got.v, got.ok, want.v, want.ok)
		}
	}
	a, aok := u.Authority()
	ba, baok := built.Authority()
	check("authority", part{a, aok}, part{ba, baok})
	p, pok := u.URLPath()
	bp, bpok := built.URLPath()
	check("url_path", part{p, pok}, part{bp, bpok})
	check("scheme_specific_part", part{u.SchemeSpecificPart(), true}, part{built.SchemeSpecificPart(), true})
}

func FuzzParseRFC1738(f *testing.F) {
	fuzzSeeds(f)
	f.Add("news:<a@b>")
	f.Fuzz(func(t *testing.T, s string) { fuzzMode(t, s, RFC1738) })
}

func FuzzParseRFC1630(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) { fuzzMode(t, s, RFC1630) })
}

func FuzzParseRFC3986(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) { fuzzMode(t, s, RFC3986) })
}

func FuzzParseLenient(f *testing.F) {
	fuzzSeeds(f)
	f.Add("http://u@[::1]:8/x")
	f.Add("//[v1.x]/[a]")
	// The "[" of a userinfo ended by an "@" after its "]" is not the host's.
	f.Add("http://[::1]:@x/")
	// "URL:" and the scheme after it are read without the whitespace the
	// repairs drop: a line break with the spaces around it, a tab, a \v.
	f.Add("URL:www.\n :")
	f.Add("URL:ht\vtp://h/")
	f.Add("UR\nL:http://h/")
	f.Add("<U\tRL:http://h/>")
	f.Fuzz(func(t *testing.T, s string) { fuzzMode(t, s, Lenient) })
}

// FuzzEscape: unescaping what Escape produced gives the input back, for
// every set, and the escaped text is never ambiguous.
func FuzzEscape(f *testing.F) {
	f.Add("a/b;c d%", uint8(0), false)
	f.Add("caf\xc3\xa9+x", uint8(2), true)
	f.Fuzz(func(t *testing.T, s string, set uint8, plus bool) {
		var flags escapeFlags
		if plus {
			flags = plusAsSpace
		}
		e := escapeF(s, percent.Set(set%uint8(percent.All+1)), flags)
		back, err := unescapeF(e, flags)
		if err != nil || back != s {
			t.Fatalf("Unescape(Escape(%q)) = %q, %v", s, back, err)
		}
	})
}

// FuzzHostname1738: the one-pass hostname test agrees with the detailed
// checker that explains failures.
func FuzzHostname1738(f *testing.F) {
	for _, h := range []string{"a.b", "1.2.3.4", "1.2.3", "a-.b", "-a", "a..b", "3com.com", "a.3com", "", "x_y", "a.b.", "0.0.0.0.0",
		// eight bytes at a time: pairs inside a round and across two
		"abcdefg.-h", "abcdefgh.-i", "abcdefg-.h", "aaaaaaa..b", "xn--abcdef.com", "abcdefgh-", "abcdefghijklmno.", "-bcdefghij.k", "123.456.789.101112",
		// the rest after the rounds, in a last round overlapping the one before
		"abcdefghi.-j", "abcdefgh.-", "abcdefghij-", "abcdefgh..i", "abcdefgh.i-.j", "abcdefgh-.ijk", "abcdefgh.ij", "abcdefgh-ij", "abcdefghijklmnopq",
		// the last '.' from the last round's marks; bytes out of the class inside a round
		"abcdefgh.123", "10.20.30.40", "abcdefghij.k9", "abcdefgh.b/c.com", "abc:defgh.com", "abcdefgh.co m"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		p := parser{s: h, collect: true}
		p.hostname1738Detailed(h, 0, false, false)
		if fast := validHostname1738(h); fast != (len(p.errs) == 0) {
			t.Fatalf("validHostname1738(%q) = %v, detailed errors %v", h, fast, p.errs)
		}
	})
}

// TestParseFastAgrees runs fastAgrees over the specifications' examples,
// the invalid cases and the benchmark data sets, in each mode the one
// pass knows, and checks that it takes most valid lines of the data sets
// (it is there to be fast on them).
func TestParseFastAgrees(t *testing.T) {
	modes := []Mode{RFC1738, RFC3986, Lenient}
	for _, tc := range specExamples {
		for _, m := range modes {
			fastAgrees(t, tc.in, m, false)
			fastAgrees(t, tc.in, m, true)
		}
	}
	for _, tc := range invalidCases {
		for _, m := range modes {
			fastAgrees(t, tc.in, m, true)
			if fastAgrees(t, tc.in, m, m == RFC3986) && m == tc.mode && tc.err != nil {
				t.Errorf("parseFast accepts %q, invalid in %v", tc.in, m)
			}
		}
	}
	dir := os.Getenv("URLKIT_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "shared", "bench", "urls")
	}
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			if os.Getenv("URLKIT_REQUIRE_DATA") == "1" {
				t.Fatalf("bench data: %v", err)
			}
			t.Skipf("bench data not available (set URLKIT_BENCH_DIR): %v", err)
		}
		for _, m := range modes {
			valid, fast := 0, 0
			for line := range bytes.SplitSeq(data, []byte("\n")) {
				s := string(bytes.TrimSuffix(line, []byte("\r")))
				if _, _, err := ParseMode(s, m); err == nil {
					valid++
				}
				if fastAgrees(t, s, m, false) {
					fast++
				}
				fastAgrees(t, s, m, true)
			}
			if fast < valid*9/10 {
				t.Errorf("%s, %v: the one pass takes %d of %d valid lines", name, m, fast, valid)
			}
		}
	}
}
