package resolver

import (
	"slices"
	"strings"
	"testing"
)

// dotStepE is RFC 2396 5.2 step 6e as its text reads, the way dotSteps
// once did it: find the leftmost "<segment>/../" (segment not ".."),
// remove it, search again from the start, until none is left.
func dotStepE(segs []string, t *Trace, sec, lead string) []string {
	for {
		i := 0
		for ; i+2 < len(segs); i++ {
			if segs[i] != ".." && segs[i+1] == ".." {
				break
			}
		}
		if i+2 >= len(segs) {
			return segs
		}
		seg := segs[i]
		segs = append(segs[:i], segs[i+2:]...)
		t.segmentDotDotRemoved(sec, "e", seg, lead, segs)
	}
}

// TestDotStepsOnePass: dotSteps' one pass of step e removes the same
// pairs, in the same order, as the search from the start after each
// removal, on every path of up to seven segments drawn from "", ".",
// "..", "a" and "b", with and without a leading "/": same result, same
// explanation.
func TestDotStepsOnePass(t *testing.T) {
	alphabet := []string{"", ".", "..", "a", "b"}
	const maxSegs = 7
	checked := 0
	var segs []string
	var walk func()
	walk = func() {
		if len(segs) > 0 {
			for _, lead := range []string{"", "/"} {
				checkDotSteps(t, lead+strings.Join(segs, "/"))
				checked++
			}
		}
		if len(segs) == maxSegs {
			return
		}
		for _, s := range alphabet {
			segs = append(segs, s)
			walk()
			segs = segs[:len(segs)-1]
		}
	}
	walk()
	if checked < 2*5*5*5*5*5*5*5 {
		t.Fatalf("only %d paths checked", checked)
	}
}

// checkDotSteps compares dotSteps on path with steps c, d and f as
// dotSteps does them and step e as dotStepE does it.
func checkDotSteps(t *testing.T, path string) {
	t.Helper()
	got := &Trace{}
	gotPath := dotSteps(path, got, "s", [4]string{"c", "d", "e", "f"})
	if !HasDotSegment(path) {
		if gotPath != path || len(got.Steps) != 0 {
			t.Fatalf("%q: %q, %v", path, gotPath, got.Steps)
		}
		return
	}
	// The reference: dotSteps' own steps c and d, then dotStepE, then f.
	want := &Trace{}
	lead, rest := "", path
	if strings.HasPrefix(rest, "/") {
		lead, rest = "/", rest[1:]
	}
	all := strings.Split(rest, "/")
	removed := 0
	segs := slices.DeleteFunc(slices.Clone(all[:len(all)-1]), func(s string) bool {
		if s == "." {
			removed++
			return true
		}
		return false
	})
	segs = append(segs, all[len(all)-1])
	if removed > 0 {
		want.dotsRemoved("s", "c", removed, lead, segs)
	}
	if segs[len(segs)-1] == "." {
		segs[len(segs)-1] = ""
		want.finalDotRemoved("s", "d", lead, segs)
	}
	segs = dotStepE(segs, want, "s", lead)
	if n := len(segs); n >= 2 && segs[n-1] == ".." && segs[n-2] != ".." {
		seg := segs[n-2]
		segs = append(segs[:n-2], "")
		want.finalSegmentDotDotRemoved("s", "f", seg, lead, segs)
	}
	wantPath := lead + strings.Join(segs, "/")
	if gotPath != wantPath || !slices.Equal(got.Steps, want.Steps) {
		t.Fatalf("%q: got %q %v, want %q %v", path, gotPath, got.Steps, wantPath, want.Steps)
	}
}
