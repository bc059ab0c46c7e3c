package urlkit

import "testing"

// FuzzHasDotSegment: the eight-bytes-a-round scan agrees with the byte
// by byte one on every path.
func FuzzHasDotSegment(f *testing.F) {
	for _, s := range []string{"", ".", "..", "/.", "/..", "a/./b", "/a/b/c/d/e/f/g/..", "/abcdefg/.x", "/abcdefg./x",
		"/abcdefgh/../", "abcdefg/.", "/a.b.c.d.e.f/g.h", ".hidden/abcdefgh", "/////////.", "........", "/a/b/c/d/.well-known/x", "./abcdefgh", "../abcdefgh", "abcdefg/..", "abcdefgh/./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if got, want := hasDotSegment(path), dotSegmentFrom(path, 0); got != want {
			t.Fatalf("hasDotSegment(%q) = %v, byte by byte %v", path, got, want)
		}
	})
}
