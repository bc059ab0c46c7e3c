package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
)

// TestAppendJSONStringEveryByte checks the word-at-a-time scan against
// encoding/json for every byte at every position of strings of 1 to 17
// bytes (whole words, a tail, and the overlapping last word).
func TestAppendJSONStringEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for n := 1; n <= 17; n++ {
			for pos := 0; pos < n; pos++ {
				s := strings.Repeat("a", pos) + string([]byte{byte(c)}) + strings.Repeat("b", n-1-pos)
				checkJSONString(t, s)
			}
		}
	}
}

// FuzzAppendJSONString checks that the encoding decodes back to the input
// (invalid UTF-8 as U+FFFD) and is valid JSON.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "http://a/b?c#d", "a\"b\\c\x00\x1f\x7f", "\xff\xfe", "héllo wörld", strings.Repeat("x", 40) + "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	plain := 0
	for plain < len(s) && jsonPlain[s[plain]] {
		plain++
	}
	if got := plainPrefix(s); got != plain {
		t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, plain)
	}
	got := appendJSONString(nil, s)
	var back string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("%q: %s is not JSON: %v", s, got, err)
	}
	// Ranging over a string yields U+FFFD for each invalid byte, as the
	// encoder writes it.
	var want strings.Builder
	for _, r := range s {
		want.WriteRune(r)
	}
	if back != want.String() {
		t.Fatalf("%q: decodes to %q, want %q", s, back, want.String())
	}
	// No control reaches a terminal raw: C0, DEL, C1, the separators
	// and the bidirectional controls are escaped.
	if v := safetext.Visible(string(got)); v != string(got) {
		t.Fatalf("%q: %q is not inert on a terminal (%q)", s, got, v)
	}
}

// The characters safetext.Visible escapes are escaped in JSON too.
func TestAppendJSONStringControls(t *testing.T) {
	for in, want := range map[string]string{
		"\u009b2J":           `"\u009b2J"`,
		"a\u0085b":           `"a\u0085b"`,
		"x\u202ey":           `"x\u202ey"`,
		"\u2066\u2069":       `"\u2066\u2069"`,
		"\u2028":             `"\u2028"`,
		"\u00a0\u00e9\u2027": "\"\u00a0\u00e9\u2027\"",
	} {
		if got := string(appendJSONString(nil, in)); got != want {
			t.Errorf("appendJSONString(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestModeNamesPlain: parse --json writes the mode's name unescaped.
func TestModeNamesPlain(t *testing.T) {
	for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986, urlkit.Lenient} {
		if s := m.String(); plainPrefix(s) != len(s) {
			t.Errorf("mode name %q needs JSON escaping", s)
		}
	}
}
