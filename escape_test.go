package urlkit

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		set      Set
		flags    EscapeFlags
		in, want string
	}{
		// RFC 1738 3.2.2: "/" and ";" inside a name or CWD component.
		{SetSegment, 0, "a/b;c", "a%2Fb%3Bc"},
		{SetPath, 0, "/a b/c;type=a", "/a%20b/c;type=a"},
		{SetPath, 0, "/~user/#x?y", "/%7Euser/%23x%3Fy"},
		// RFC 1630: "+" in a query stands for a space, so a real "+" is encoded.
		{SetQuery, 0, "a+b c&d=e?f", "a%2Bb%20c&d=e%3Ff"},
		// Issue 10, D10: what an HTTP search accepts (RFC 1738 section 5).
		{SetQuery, 0, "a/b?c", "a%2Fb%3Fc"},
		{SetQuery, PlusAsSpace, "a+b c", "a%2Bb+c"},
		// RFC 1738 3.1: ":", "@" and "/" in a user or password.
		{SetUserinfo, 0, "us:er@x/y;z", "us%3Aer%40x%2Fy;z"},
		{SetFragment, 0, "sec 2#b/c", "sec%202%23b/c"},
		// RFC 1738 2.2: unsafe characters and non-graphic octets only.
		{SetUnsafe, 0, "a b<c>\"#%{}|\\^~[]`;/?:@=&\x00\x7f\xff", "a%20b%3Cc%3E%22%23%25%7B%7D%7C%5C%5E%7E%5B%5D%60;/?:@=&%00%7F%FF"},
		{SetAll, 0, "a-b.c_d$e+f!g*h'i(j)k,l;m/n", "a-b.c_d$e+f!g*h'i(j)k,l%3Bm%2Fn"},
		{SetAll, 0, "caf\xc3\xa9", "caf%C3%A9"},
		{SetPath, 0, "", ""},
	} {
		if got := Escape(tc.in, tc.set, tc.flags); got != tc.want {
			t.Errorf("Escape(%q, %v, %d) = %q, want %q", tc.in, tc.set, tc.flags, got, tc.want)
		}
		back, err := Unescape(tc.want, tc.flags)
		if err != nil || back != tc.in {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tc.want, back, err, tc.in)
		}
	}
}

func TestEscapeNoCopy(t *testing.T) {
	s := "already-fine/path"
	if allocs := testing.AllocsPerRun(100, func() { _ = Escape(s, SetPath, 0) }); allocs != 0 {
		t.Errorf("Escape allocates %v times on input with nothing to encode", allocs)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = Unescape(s, 0) }); allocs != 0 {
		t.Errorf("Unescape allocates %v times on input with nothing to decode", allocs)
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct {
		in    string
		flags EscapeFlags
		want  string
		off   int // -1: no error
	}{
		{"a%2Fb%2fc", 0, "a/b/c", -1},
		{"a+b%2B", PlusAsSpace, "a b+", -1},
		{"a+b", 0, "a+b", -1},
		{"100%", 0, "", 3},
		{"%zz", 0, "", 0},
		{"asdf%*.fred", 0, "", 4}, // RFC 1630 example 3
		{"ab%4", 0, "", 2},
		{"100%", AllowBadEscapes, "100%", -1},
		{"%zz%41", AllowBadEscapes, "%zzA", -1},
	} {
		got, err := Unescape(tc.in, tc.flags)
		if tc.off >= 0 {
			var e *Error
			if !errors.As(err, &e) || e.Offset != tc.off || !errors.Is(err, ErrBadEscape) {
				t.Errorf("Unescape(%q) error = %v, want offset %d", tc.in, err, tc.off)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestSetNames(t *testing.T) {
	for _, name := range SetNames() {
		s, err := SetByName(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseSetName(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := SetByName("everything"); err == nil {
		t.Error("ParseSetName accepted an unknown name")
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
		set    Set
		prefix string
		suffix string
	}{
		{SetPath, "http://h/", ""},
		{SetSegment, "ftp://h/", ""},
		{SetQuery, "x-generic://h/?", ""},
		{SetQuery, "http://h/?", ""}, // issue 10, D10
		{SetUserinfo, "ftp://", "@h/"},
		{SetFragment, "http://h/#", ""},
	} {
		s := tc.prefix + Escape(raw, tc.set, 0) + tc.suffix
		if _, err := Parse(s); err != nil {
			t.Errorf("%v: %v", tc.set, err)
		}
	}
}

// setComponents places the output of each named set in the component it
// is named for, in URLs whose strict check applies that component's
// production: RFC 1738 section 5's hpath (SetPath is an HTTP path; an FTP
// path is built from SetSegment's fsegments), fsegment, search (httpurl,
// gopherurl), user and password (login), fragment (RFC 1630's
// fragmentid), a generic scheme's *xchar, and for SetAll every one of
// those.
var setComponents = map[Set][]string{
	SetPath:     {"http://h/%s"},
	SetSegment:  {"ftp://h/%s/x", "http://h/%s/x", "gopher://h/1%s"},
	SetQuery:    {"http://h/p?%s", "gopher://h/7s%%09%s"},
	SetUserinfo: {"ftp://%s@h/", "ftp://u:%s@h/", "telnet://%s@h/"},
	SetFragment: {"http://h/p#%s", "x:y#%s"},
	SetUnsafe:   {"x:%s"},
	SetAll:      {"http://h/%s", "ftp://h/%s/x", "http://h/p?%s", "ftp://%s@h/", "ftp://u:%s@h/", "http://h/p#%s", "x:%s"},
}

// checkSets reports where Escape(s, set) is not what the strict check of
// the set's component accepts (issue 10, D10), in the RFC 1738 and RFC
// 3986 modes.
func checkSets(t *testing.T, s string) {
	t.Helper()
	for set := Set(0); set < numSets; set++ {
		e := Escape(s, set, 0)
		for _, tmpl := range setComponents[set] {
			u := fmt.Sprintf(tmpl, e)
			for _, m := range []Mode{RFC1738, RFC3986} {
				if m == RFC3986 && strings.HasPrefix(tmpl, "x:") && strings.HasPrefix(e, "//") {
					continue // an authority: RFC 3986 reads a host there
				}
				if list := Check(u, m); len(list) != 0 {
					t.Errorf("Escape(%q, %v) = %q, but %v rejects %q: %v", s, set, e, m, u, list[0])
				}
			}
		}
		if back, err := Unescape(e, 0); err != nil || back != s {
			t.Errorf("Unescape(Escape(%q, %v)) = %q, %v", s, set, back, err)
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
