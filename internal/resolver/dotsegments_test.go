package resolver

import "testing"

// FuzzHasDotSegment: the eight-bytes-a-round scan agrees with the byte
// by byte one on every path, and removing dot segments from where it
// points gives what removing them from the start gives.
func FuzzHasDotSegment(f *testing.F) {
	for _, s := range []string{"", ".", "..", "/.", "/..", "a/./b", "/a/b/c/d/e/f/g/..", "/abcdefg/.x", "/abcdefg./x",
		"/abcdefgh/../", "abcdefg/.", "/a.b.c.d.e.f/g.h", ".hidden/abcdefgh", "/////////.", "........", "/a/b/c/d/.well-known/x", "./abcdefgh", "../abcdefgh", "abcdefg/..", "abcdefgh/./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		from := firstDotSegment(path)
		if want := dotSegmentFrom(path, 0); from != want {
			t.Fatalf("firstDotSegment(%q) = %v, byte by byte %v", path, from, want)
		}
		whole := string(RemoveDotSegments([]byte(path), nil, ""))
		if from < 0 {
			if whole != path {
				t.Fatalf("%q has no dot segment, yet removing them gives %q", path, whole)
			}
			return
		}
		if got := string(removeDotSegmentsFrom([]byte(path), from, nil, "")); got != whole {
			t.Fatalf("removeDotSegmentsFrom(%q, %d) = %q, from the start %q", path, from, got, whole)
		}
	})
}
