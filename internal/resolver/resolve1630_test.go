package resolver

import (
	"strings"
	"testing"
)

// cleanDotsSeeds are paths where RFC 1630's removals chain, overlap the
// slash runs around them, or are protected.
var cleanDotsSeeds = []string{
	"", ".", "..", "/.", "/..", "./", "../", "a/..", "a/../", "/a/..", "/a/../b", "a/b/../../c", "/./b", "a//./b",
	"//.", "/a/..//", "a//../b", "a/b//../..", "./../x", "../a/../b", "/a/./../b", "x/y/./../../z/.", "/a/.../b",
	"a/..b/c", "/./././a", "//a/./..", "/a/b/c/../../../../d", "a/../../b/..", "/a//b/../c/../..", "..../..",
}

// FuzzCleanDots1630: the one-pass cleaning gives the path that removing
// one pattern at a time, leftmost first, gives.
func FuzzCleanDots1630(f *testing.F) {
	for _, s := range cleanDotsSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if got, want := cleanDots1630(path), removeDots1630Steps(path, nil); got != want {
			t.Fatalf("cleanDots1630(%q) = %q, step by step %q", path, got, want)
		}
	})
}

// TestCleanDots1630 compares the two ways on paths made of the pieces the
// patterns are made of, and checks that a long chain takes linear time:
// a 1 MB path of removals is cleaned with a few allocations.
func TestCleanDots1630(t *testing.T) {
	pieces := []string{"/", "//", "a", "bc", ".", "..", "...", "/.", "/..", "./", "../"}
	seed := uint64(0x2545F4914F6CDD1D)
	for range 300000 {
		var b strings.Builder
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		for r := seed; r > 15; r >>= 4 {
			b.WriteString(pieces[int(r&15)%len(pieces)])
		}
		path := b.String()
		if got, want := cleanDots1630(path), removeDots1630Steps(path, nil); got != want {
			t.Fatalf("cleanDots1630(%q) = %q, step by step %q", path, got, want)
		}
	}
	long := strings.Repeat("/a", 100000) + strings.Repeat("/b/..", 100000) + strings.Repeat("/..", 50000) + "/c"
	want := strings.Repeat("/a", 50000) + "/c"
	var got string
	if allocs := testing.AllocsPerRun(1, func() { got = cleanDots1630(long) }); got != want || allocs > 40 { // the stack grows by doubling
		t.Fatalf("1 MB path: %d bytes (want %d), %.0f allocations", len(got), len(want), allocs)
	}
}
