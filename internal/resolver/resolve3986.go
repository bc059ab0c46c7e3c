package resolver

import "strings"

// branch3986 is the branch of RFC 3986 5.2.2's pseudocode that a
// reference takes.
type branch3986 uint8

const (
	absoluteRef     branch3986 = iota // R has a scheme: T is R
	networkPathRef                    // R has an authority: T is B's scheme and the rest of R
	emptyPathRef                      // R's path is empty: T is B up to its path, R's query if it has one
	absolutePathRef                   // R's path starts with "/": T is B up to its path, then R
	relativePathRef                   // T is B up to its path's last "/", then R
)

// branchOf3986 decides which branch of 5.2.2 ref takes. With compat, a
// scheme the same as the base's is ignored (the "non-strict" parser of
// 5.2.2).
func branchOf3986(base, ref *URL, compat bool, t *Trace) branch3986 {
	hasScheme := ref.Scheme != ""
	if hasScheme && compat && sameScheme(ref.Scheme, base.Scheme) {
		hasScheme = false
		t.compat3986(ref.Scheme)
	}
	switch {
	case hasScheme:
		return absoluteRef
	case ref.HasAuthority:
		return networkPathRef
	case ref.Path == "":
		return emptyPathRef
	case ref.Path[0] == '/':
		return absolutePathRef
	}
	return relativePathRef
}

// resolve3986 is RFC 3986 5.2.2's pseudocode, step by step.
func resolve3986(out, base, ref *URL, compat bool, t *Trace, text bool) string {
	p := plan{query: fromRef, frag: fromRef}
	switch branchOf3986(base, ref, compat, t) {
	case absoluteRef:
		p.scheme, p.auth = ref.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		t.absolute3986(ref.Path)
	case networkPathRef:
		p.scheme, p.auth = base.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		t.networkPath3986(ref, base.Scheme)
	case emptyPathRef:
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathB = base.Path
		if !ref.HasQuery {
			p.query = fromBase
		}
		t.emptyPath3986(base.Path, ref.HasQuery)
	case absolutePathRef:
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathB, p.dots = ref.Path, true
		t.absolutePath3986(ref.Path)
	default:
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathA, p.pathB, p.dots = mergeBase(base), ref.Path, true
		t.merge3986(base, p.pathA, p.pathB)
	}
	s := p.assemble(out, base, ref, t, "RFC 3986 5.2.4", text)
	q := pick(p.query, base, ref)
	t.queryFragment3986(q.Query, q.HasQuery, ref.Fragment, ref.HasFragment)
	return s
}

// mergeBase returns the part of the base path that RFC 3986 5.2.3 keeps
// when merging a relative path: "/" for a base with an authority and an
// empty path, else everything up to and including the last "/".
func mergeBase(base *URL) string {
	if base.HasAuthority && base.Path == "" {
		return "/"
	}
	return base.Path[:strings.LastIndexByte(base.Path, '/')+1]
}

// Text3986 is resolve3986's text for a base and a reference in their
// written form (as the parser returns them), cut from their texts: every
// branch makes the target the base's text up to where the reference
// takes over, then the reference's text from there ("/" between them
// when a base with an authority and an empty path is merged), before
// its path is cleaned. Two copies, where writing the target component by
// component (plan.write) took one per component and a branch on each
// one's presence: ResolveString took 0.22 of net/url's time that way,
// 0.19 this way (BenchmarkResolve).
func Text3986(base, ref *URL, compat bool) string {
	refPathEnd := ref.beforeQuery()
	refPathAt := refPathEnd - len(ref.Path)
	k, j, mid := 0, refPathAt, "" // base.Written[:k] + mid + ref.Written[j:]
	pathAt, hasAuth := base.pathAt(), base.HasAuthority
	switch branchOf3986(base, ref, compat, nil) {
	case absoluteRef:
		if firstDotSegment(ref.Path) < 0 {
			return ref.Written
		}
		j, pathAt, hasAuth = 0, refPathAt, ref.HasAuthority
	case networkPathRef:
		k, j, hasAuth = len(base.Scheme)+1, 0, true
		if ref.Scheme != "" {
			j = len(ref.Scheme) + 1
		}
		pathAt = k + refPathAt - j
	case emptyPathRef:
		// T's path is B's, as it is: no dot segment is removed.
		k = base.beforeFragment()
		if ref.HasQuery {
			k = base.beforeQuery()
		}
		return base.Written[:k] + ref.Written[refPathAt:]
	case absolutePathRef:
		k = pathAt
	default:
		if dir := mergeBase(base); len(dir) <= len(base.Path) {
			k = pathAt + len(dir)
		} else {
			k, mid = pathAt, dir // "/", not in the base's text
		}
	}
	n := k + len(mid) + len(ref.Written) - j
	room := n
	if !hasAuth {
		room += 2 // for the guard's "/."
	}
	var scratch [256]byte // cleaned in place, then copied into the string
	var b []byte
	if room <= len(scratch) {
		b = scratch[:n]
	} else {
		b = make([]byte, n, room)
	}
	copy(b, base.Written[:k])
	copy(b[k:], mid)
	copy(b[k+len(mid):], ref.Written[j:])
	b, pathEnd := removeDotSegmentsIn(b, pathAt, n-(len(ref.Written)-refPathEnd), nil, "")
	if !hasAuth {
		b, _ = guardPath(b, pathAt, pathEnd, nil)
	}
	return string(b)
}
