package resolver

import (
	"slices"
	"strings"
)

// resolve2396 is RFC 2396 section 5.2, steps 1 to 7.
func resolve2396(out, base, ref *URL, compat bool, t *Trace, text bool) string {
	const sec = "RFC 2396 5.2"
	if ref.Scheme == "" && !ref.HasAuthority && ref.Path == "" && !ref.HasQuery {
		p := plan{scheme: base.Scheme, auth: fromBase, query: fromBase, frag: fromRef, pathB: base.Path}
		t.currentDocument2396(ref.Fragment, ref.HasFragment)
		return p.assemble(out, base, ref, t, sec, text)
	}
	if ref.Scheme != "" {
		same := compat && sameScheme(ref.Scheme, base.Scheme)
		if !(same && HierarchicalScheme(base.Scheme)) {
			t.absolute2396(same)
			return copyOf(out, ref, text)
		}
		t.compat2396(ref.Scheme)
	}
	p := plan{scheme: base.Scheme, auth: fromBase, query: fromRef, frag: fromRef}
	switch {
	case ref.HasAuthority:
		p.auth = fromRef
		p.pathB = ref.Path
		t.networkPath2396(base.Scheme)
	case strings.HasPrefix(ref.Path, "/"):
		p.pathB = ref.Path
		t.absolutePath2396(ref.Path)
	default:
		dir := mergeBase(base)
		t.merge2396(base, dir, ref.Path)
		p.pathB = dotSteps(dir+ref.Path, t, sec+" step 6", [4]string{"c", "d", "e", "f"})
		t.leadingDots2396(p.pathB)
	}
	t.step7of2396(ref)
	return p.assemble(out, base, ref, t, sec, text)
}

// dotSteps applies RFC 2396 5.2 step 6c to 6f (RFC 1808 section 4 step 6a
// to 6d, the same text) to a merged path: remove every "./" where "." is
// a complete segment; remove a final "."; remove "<segment>/../" where
// <segment> is a complete segment other than "..", leftmost first, until
// none is left; remove a final "<segment>/..". A leading "/" is not
// preceded by a segment. labels name the four steps in the explanation.
func dotSteps(path string, t *Trace, sec string, labels [4]string) string {
	if !HasDotSegment(path) {
		return path
	}
	lead := ""
	if strings.HasPrefix(path, "/") {
		lead, path = "/", path[1:]
	}
	segs := strings.Split(path, "/")
	// c) "./" where "." is a complete segment.
	kept := segs[:0]
	removed := 0
	for i, s := range segs {
		if s == "." && i < len(segs)-1 {
			removed++
			continue
		}
		kept = append(kept, s)
	}
	segs = kept
	if removed > 0 {
		t.dotsRemoved(sec, labels[0], removed, lead, segs)
	}
	// d) a final ".".
	if segs[len(segs)-1] == "." {
		segs[len(segs)-1] = ""
		t.finalDotRemoved(sec, labels[1], lead, segs)
	}
	// e) "<segment>/../", leftmost first, until none is left. A removal
	// can only make a new pair of the segment before it and the one after
	// it, so one pass that keeps the segments so far as a stack removes the
	// same pairs in the same order; searching again from the start after
	// each removal took time quadratic in the number of segments (and
	// Relative, which resolves a candidate per segment, cubic: 3 s for a
	// base of 2,000 empty segments). The last segment is never a removed
	// "..": step f's.
	kept = segs[:0]
	for i, s := range segs {
		if s == ".." && i < len(segs)-1 && len(kept) > 0 && kept[len(kept)-1] != ".." {
			seg := kept[len(kept)-1]
			kept = kept[:len(kept)-1]
			if t != nil {
				t.segmentDotDotRemoved(sec, labels[2], seg, lead, append(slices.Clip(kept), segs[i+1:]...))
			}
			continue
		}
		kept = append(kept, s)
	}
	segs = kept
	// f) a final "<segment>/..".
	if n := len(segs); n >= 2 && segs[n-1] == ".." && segs[n-2] != ".." {
		seg := segs[n-2]
		segs = append(segs[:n-2], "")
		t.finalSegmentDotDotRemoved(sec, labels[3], seg, lead, segs)
	}
	return lead + strings.Join(segs, "/")
}
