package scheme_test

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// TestConcernsBounded: a URL with thousands of dangerous escapes gets
// the first 64 concerns and one that sums up the rest (a megabyte of %0D
// used to make 349,000 of them: 120 MB for get, 248 MB for explain).
func TestConcernsBounded(t *testing.T) {
	u, err := urlkit.Parse("ftp://h/" + strings.Repeat("%0D", 5000))
	if err != nil {
		t.Fatal(err)
	}
	cs := scheme.Concerns(&u, nil)
	if len(cs) != 65 {
		t.Fatalf("%d concerns, want 64 and a summary", len(cs))
	}
	last := cs[len(cs)-1]
	if !last.Refuse || !strings.Contains(last.Message, "and 4936 more concerns") || last.Offset != 8+64*3 {
		t.Errorf("summary %+v", last)
	}
	allocs := testing.AllocsPerRun(3, func() { scheme.Concerns(&u, nil) })
	if allocs > 400 {
		t.Errorf("%v allocations", allocs)
	}
}
