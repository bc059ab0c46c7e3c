package urlkit

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/percent"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		set      percent.Set
		flags    escapeFlags
		in, want string
	}{
		// RFC 1738 3.2.2: "/" and ";" inside a name or CWD component.
		{percent.Segment, 0, "a/b;c", "a%2Fb%3Bc"},
		{percent.Path, 0, "/a b/c;type=a", "/a%20b/c;type=a"},
		{percent.Path, 0, "/~user/#x?y", "/%7Euser/%23x%3Fy"},
		// RFC 1630: "+" in a query stands for a space, so a real "+" is encoded.
		{percent.Query, 0, "a+b c&d=e?f", "a%2Bb%20c&d=e%3Ff"},
		// Issue 10, D10: what an HTTP search accepts (RFC 1738 section 5).
		{percent.Query, 0, "a/b?c", "a%2Fb%3Fc"},
		{percent.Query, plusAsSpace, "a+b c", "a%2Bb+c"},
		// RFC 1738 3.1: ":", "@" and "/" in a user or password.
		{percent.Userinfo, 0, "us:er@x/y;z", "us%3Aer%40x%2Fy;z"},
		{percent.Fragment, 0, "sec 2#b/c", "sec%202%23b/c"},
		// RFC 1738 2.2: unsafe characters and non-graphic octets only.
		{percent.Unsafe, 0, "a b<c>\"#%{}|\\^~[]`;/?:@=&\x00\x7f\xff", "a%20b%3Cc%3E%22%23%25%7B%7D%7C%5C%5E%7E%5B%5D%60;/?:@=&%00%7F%FF"},
		{percent.All, 0, "a-b.c_d$e+f!g*h'i(j)k,l;m/n", "a-b.c_d$e+f!g*h'i(j)k,l%3Bm%2Fn"},
		{percent.All, 0, "caf\xc3\xa9", "caf%C3%A9"},
		{percent.Path, 0, "", ""},
	} {
		if got := escapeF(tc.in, tc.set, tc.flags); got != tc.want {
			t.Errorf("escapeF(%q, %v, %d) = %q, want %q", tc.in, tc.set, tc.flags, got, tc.want)
		}
		back, err := unescapeF(tc.want, tc.flags)
		if err != nil || back != tc.in {
			t.Errorf("unescapeF(%q) = %q, %v; want %q", tc.want, back, err, tc.in)
		}
	}
}

func TestEscapeNoCopy(t *testing.T) {
	s := "already-fine/path"
	if allocs := testing.AllocsPerRun(100, func() { _ = escapeF(s, percent.Path, 0) }); allocs != 0 {
		t.Errorf("Escape allocates %v times on input with nothing to encode", allocs)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = unescapeF(s, 0) }); allocs != 0 {
		t.Errorf("Unescape allocates %v times on input with nothing to decode", allocs)
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct {
		in    string
		flags escapeFlags
		want  string
		off   int // -1: no error
	}{
		{"a%2Fb%2fc", 0, "a/b/c", -1},
		{"a+b%2B", plusAsSpace, "a b+", -1},
		{"a+b", 0, "a+b", -1},
		{"100%", 0, "", 3},
		{"%zz", 0, "", 0},
		{"asdf%*.fred", 0, "", 4}, // RFC 1630 example 3
		{"ab%4", 0, "", 2},
		{"100%", allowBadEscapes, "100%", -1},
		{"%zz%41", allowBadEscapes, "%zzA", -1},
	} {
		got, err := unescapeF(tc.in, tc.flags)
		if tc.off >= 0 {
			var e *Error
			if !errors.As(err, &e) || e.Offset != tc.off || !errors.Is(err, ErrBadEscape) {
				t.Errorf("unescapeF(%q) error = %v, want offset %d", tc.in, err, tc.off)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("unescapeF(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestSetNames(t *testing.T) {
	for _, name := range percent.Names() {
		s, err := percent.ByName(name)
		if err != nil || s.String() != name {
			t.Errorf("ByName(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := percent.ByName("everything"); err == nil {
		t.Error("ByName accepted an unknown name")
	}
}

// Escaped output of every set is valid in the component it is made for.
func TestEscapedIsValid(t *testing.T) {
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	raw := string(all)
	for _, tc := range []struct {
		set    percent.Set
		prefix string
		suffix string
	}{
		{percent.Path, "http://h/", ""},
		{percent.Segment, "ftp://h/", ""},
		{percent.Query, "x-generic://h/?", ""},
		{percent.Query, "http://h/?", ""}, // issue 10, D10
		{percent.Userinfo, "ftp://", "@h/"},
		{percent.Fragment, "http://h/#", ""},
	} {
		s := tc.prefix + escapeF(raw, tc.set, 0) + tc.suffix
		if _, err := Parse(s); err != nil {
			t.Errorf("%v: %v", tc.set, err)
		}
	}
}

// setComponents places the output of each named set in the component it
// is named for, in URLs whose strict check applies that component's
// production: RFC 1738 section 5's hpath (percent.Path is an HTTP path; an FTP
// path is built from percent.Segment's fsegments), fsegment, search (httpurl,
// gopherurl), user and password (login), fragment (RFC 1630's
// fragmentid), a generic scheme's *xchar, and for percent.All every one of
// those.
var setComponents = map[percent.Set][]string{
	percent.Path:     {"http://h/%s"},
	percent.Segment:  {"ftp://h/%s/x", "http://h/%s/x", "gopher://h/1%s"},
	percent.Query:    {"http://h/p?%s", "gopher://h/7s%%09%s"},
	percent.Userinfo: {"ftp://%s@h/", "ftp://u:%s@h/", "telnet://%s@h/"},
	percent.Fragment: {"http://h/p#%s", "x:y#%s"},
	percent.Unsafe:   {"x:%s"},
	percent.All:      {"http://h/%s", "ftp://h/%s/x", "http://h/p?%s", "ftp://%s@h/", "ftp://u:%s@h/", "http://h/p#%s", "x:%s"},
}

// checkSets reports where escapeF(s, set) is not what the strict check of
// the set's component accepts (issue 10, D10), in the RFC 1738 and RFC
// 3986 modes.
func checkSets(t *testing.T, s string) {
	t.Helper()
	for set := percent.Set(0); set <= percent.All; set++ {
		e := escapeF(s, set, 0)
		for _, tmpl := range setComponents[set] {
			u := fmt.Sprintf(tmpl, e)
			for _, m := range []Mode{RFC1738, RFC3986} {
				if m == RFC3986 && strings.HasPrefix(tmpl, "x:") && strings.HasPrefix(e, "//") {
					continue // an authority: RFC 3986 reads a host there
				}
				if list := Check(u, m); len(list) != 0 {
					t.Errorf("escapeF(%q, %v) = %q, but %v rejects %q: %v", s, set, e, m, u, list[0])
				}
			}
		}
		if back, err := unescapeF(e, 0); err != nil || back != s {
			t.Errorf("unescapeF(escapeF(%q, %v)) = %q, %v", s, set, back, err)
		}
	}
}

func TestEscapeSetsPassTheStrictCheck(t *testing.T) {
	for c := 0; c < 256; c++ {
		checkSets(t, "a"+string([]byte{byte(c)})+"b")
	}
	for _, s := range []string{"a/b?c", "100%", "%zz", "a b", "#x", "a;type=i", "..", "a@b:c", ""} {
		checkSets(t, s)
	}
}

func FuzzEscapeSets(f *testing.F) {
	for _, s := range []string{"a/b?c", "100%", "sec 2#b/c", "us:er@x/y;z", "caf\xc3\xa9", "~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkSets(t, s) })
}

// escapeFlags are the options of the escape tests: the root has no
// general escaper any more (internal/percent is it), and its strict
// unescapers are PathUnescape and QueryUnescape.
type escapeFlags uint8

const (
	plusAsSpace escapeFlags = 1 << iota
	allowBadEscapes
)

func escapeF(s string, set percent.Set, f escapeFlags) string {
	return percent.Escape(s, set, f&plusAsSpace != 0)
}

func unescapeF(s string, f escapeFlags) (string, error) {
	if f&allowBadEscapes != 0 {
		return percent.Loose(s, f&plusAsSpace != 0), nil
	}
	return unescape(s, f&plusAsSpace != 0)
}
