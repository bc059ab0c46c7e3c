package urlkit

import "strings"

// resolve3986 is RFC 3986 5.2.2's pseudocode, step by step.
func resolve3986(out, base, ref *URL, compat bool, t *trace, text bool) string {
	p := plan{query: fromRef, frag: fromRef}
	hasScheme := ref.Scheme != ""
	if hasScheme && compat && sameScheme(ref.Scheme, base.Scheme) {
		hasScheme = false
		t.compat3986(ref.Scheme)
	}
	switch {
	case hasScheme:
		p.scheme, p.auth = ref.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		t.absolute3986(ref.Path)
	case ref.HasAuthority:
		p.scheme, p.auth = base.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		t.networkPath3986(ref, base.Scheme)
	case ref.Path == "":
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathB = base.Path
		if !ref.HasQuery {
			p.query = fromBase
		}
		t.emptyPath3986(base.Path, ref.HasQuery)
	case ref.Path[0] == '/':
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
