package charclass

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTableUpToDate regenerates the table and compares it with the one
// checked in, so that gen.go and table.go never drift apart.
func TestTableUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "table.go")
	cmd := exec.Command("go", "run", "gen.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generator does not run: %v\n%s", err, msg)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, old) {
		t.Error("table.go is stale: run go generate ./internal/charclass")
	}
}

// TestClasses checks the classes against the character lists of the
// specifications, independently of the generator.
func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		class Class
		chars string
	}{
		{"RFC 1738 safe", Safe, "$-_.+"},
		{"RFC 1738 extra", Extra, "!*'(),"},
		{"RFC 1738 national", National, "{}|\\^~[]`"},
		{"RFC 1738 punctuation", Punctuation, "<>#%\""},
		{"RFC 1738 reserved", Reserved, ";/?:@=&"},
		{"RFC 1738 2.2 unsafe (errata)", Unsafe, " <>\"#%{}|\\^~[]`"},
		{"RFC 3986 gen-delims", GenDelims, ":/?#[]@"},
		{"RFC 3986 sub-delims", SubDelims, "!$&'()*+,;="},
		{"RFC 1630 safe", Safe1630, "$-_@.&"},
		{"RFC 1630 extra", Extra1630, "!*\"'(),"},
	} {
		for c := 0; c < 256; c++ {
			want := strings.IndexByte(tc.chars, byte(c)) >= 0
			if Is(byte(c), tc.class) != want {
				t.Errorf("%s: byte %q: got %v, want %v", tc.name, byte(c), !want, want)
			}
		}
	}
	// Every printable ASCII character is in exactly one of RFC 1738's
	// groups: alphanumerics, safe, extra, national, punctuation, reserved.
	for c := byte(0x21); c < 0x7f; c++ {
		n := 0
		for _, cl := range []Class{Alpha | Digit, Safe, Extra, National, Punctuation, Reserved} {
			if Is(c, cl) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q is in %d RFC 1738 groups", c, n)
		}
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		if IsHex(b) != strings.ContainsRune("0123456789abcdefABCDEF", rune(b)) {
			t.Errorf("IsHex(%q) wrong", b)
		}
		if IsHex(b) && UpperHex[Unhex(b)] != byte(strings.ToUpper(string(b))[0]) {
			t.Errorf("Unhex(%q) = %d", b, Unhex(b))
		}
	}
}
