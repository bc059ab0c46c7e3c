package charclass

import "testing"

// FuzzWordEq: WordEq marks exactly the bytes equal to c, for any word.
func FuzzWordEq(f *testing.F) {
	f.Add("abcdefgh", byte('d'))
	f.Add("\x00\x01\x00\x01\xff\x80\x7f\x00", byte(0))
	f.Add("////////", byte('/'))
	f.Fuzz(func(t *testing.T, s string, c byte) {
		if len(s) < 8 {
			return
		}
		w, m := Word(s), WordEq(Word(s), c)
		for i := range 8 {
			if byte(w>>(8*i)) != s[i] {
				t.Fatalf("Word(%q) byte %d = %#x", s, i, byte(w>>(8*i)))
			}
			if got, want := m>>(8*i)&0xff, uint64(0); s[i] == c && got != 0x80 || s[i] != c && got != want {
				t.Fatalf("WordEq(%q, %q) byte %d = %#x", s[:8], c, i, got)
			}
		}
	})
}
