package normalize

import (
	"testing"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
)

// firstChangeByte is firstChange as the rules read, a byte at a time.
func firstChangeByte(s string, k part, std bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			if mustEncode(c, k, std) {
				return i
			}
			continue
		}
		if i+2 >= len(s) || !cc.IsHex(s[i+1]) || !cc.IsHex(s[i+2]) {
			return i
		}
		d := cc.Unhex(s[i+1])<<4 | cc.Unhex(s[i+2])
		if decodable(d, k, std) || s[i:i+3] != cc.Escaped(d) {
			return i
		}
		i += 2
	}
	return -1
}

// FuzzFirstChange: firstChange, eight bytes a round through a table,
// finds the byte the rules find, for every component in every mode.
func FuzzFirstChange(f *testing.F) {
	for _, s := range []string{"", "/a/b", "/abcdefgh/ijklmnop/q r", "%41%2f%2F%zz%", "~x~", "a+b%2Bc", "ABCdef%7e", "0123456789abcdef\x00", "\x80/////////"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := normUser; k <= normFragment; k++ {
			for _, std := range []bool{false, true} {
				if got, want := firstChange(s, k, std), firstChangeByte(s, k, std); got != want {
					t.Fatalf("firstChange(%q, %d, %v) = %d, want %d", s, k, std, got, want)
				}
			}
		}
	})
}

// FuzzCanonicalWeb: a URL canonicalWeb passes is one the rules leave as
// it is, in both modes that take the shortcut.
func FuzzCanonicalWeb(f *testing.F) {
	for _, s := range []string{"http://a.example/b?c#d", "https://www.example.com/", "http://A.example/", "http://a/./b", "http://a/%7e", "http://a", "http://[::1]/", "http://[2001:db8:0:0:0:0:0:1]/", "http://u@a/", "http://a:80/", "HTTP://a/", "http://a/b c", "http://a/b?%41", "http://a/b#%zz", "http:///x", "http://a/b/..", "http://a/b/.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []urlkit.Mode{urlkit.RFC3986, urlkit.Lenient} {
			u, _, err := urlkit.ParseMode(s, m)
			if err != nil || !canonicalWeb(&u) {
				continue
			}
			if n := normalizeRules(&u, m, true, nil); !n.SameComponents(&u) {
				t.Fatalf("%v: %q passes canonicalWeb, but the rules make it %q", m, s, n.String())
			}
		}
	})
}
