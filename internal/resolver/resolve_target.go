package resolver

import "strings"

// plan is the target of a resolution before it is written: where each
// component comes from. The path is pathA followed by pathB (the merged
// base directory and reference path of RFC 3986 5.2.3, without building
// the concatenation), with dot segments removed when dots is set. The
// plan names the base or the reference as the source of each component
// rather than copying their fields, which keeps the hot path free of
// large copies.
type plan struct {
	scheme       string
	auth         source // whose authority the target has, if that one has one
	query        source // whose query the target has, if that one has one
	frag         source // whose fragment the target has, if that one has one
	pathA, pathB string
	dots         bool
}

// source names where a component of the target comes from. The plan
// holds no pointer to the base or the reference: escape analysis cannot
// tell the plan's fields apart, and a pointer in it would make the base
// and the reference escape to the heap with the plan's strings.
type source uint8

const (
	fromNone source = iota
	fromBase
	fromRef
)

// pick returns the URL a source names, or nil.
func pick(s source, base, ref *URL) *URL {
	switch s {
	case fromBase:
		return base
	case fromRef:
		return ref
	}
	return nil
}

// assemble sets out to the planned target. With text, it builds the
// target's text with one allocation, returns it, and out's fields, when
// out is not nil, slice it; without, out's fields slice the base and the
// reference, and only a merged or cleaned path is a new string.
func (p *plan) assemble(out, base, ref *URL, t *Trace, sec string, text bool) string {
	if text {
		return p.write(out, base, ref, t, sec)
	}
	if p.dots {
		if from := p.firstDotSegment(); from >= 0 {
			p.fieldsDots(out, base, ref, t, sec, from)
			return ""
		}
		t.noDotSegments(sec, p.pathA, p.pathB)
	}
	p.fields(out, base, ref, nil, false, t)
	return ""
}

// firstDotSegment is firstDotSegment of the path pathA+pathB, which it
// does not join. pathA is "" or ends with "/" (mergeBase), so the
// segments of each are segments of the path.
func (p *plan) firstDotSegment() int {
	if i := firstDotSegment(p.pathA); i >= 0 {
		return i
	}
	switch i := firstDotSegment(p.pathB); {
	case i < 0 || p.pathA == "":
		return i
	case i == 0 && p.pathB[0] != '/':
		return len(p.pathA) - 1 // the "/" that ends pathA
	default:
		return len(p.pathA) + i
	}
}

// fieldsDots is fields for a path with dot segments, the first at from:
// they are removed in a stack buffer (a heap one for a path over 256
// bytes).
func (p *plan) fieldsDots(out, base, ref *URL, t *Trace, sec string, from int) {
	var scratch [256]byte
	b := scratch[:0]
	if n := len(p.pathA) + len(p.pathB); n > len(scratch) {
		b = make([]byte, 0, n)
	}
	b = append(append(b, p.pathA...), p.pathB...)
	clean := removeDotSegmentsFrom(b, from, t, sec)
	p.fields(out, base, ref, clean, true, t)
}

// guard reports whether the target's path starts with "//" while it has
// no authority. RFC 3986 3.3 forbids that (the path would read as an
// authority), so "/." is written before such a path.
func (p *plan) guard(a *URL, clean []byte, cleaned bool, t *Trace) bool {
	if a != nil && a.HasAuthority {
		return false
	}
	g := false
	if cleaned {
		g = len(clean) >= 2 && clean[0] == '/' && clean[1] == '/'
	} else {
		g = startsDoubleSlash(p.pathA, p.pathB)
	}
	if g {
		t.SlashDotWritten()
	}
	return g
}

// fields sets out to the target without building its text: every
// component but a merged or cleaned path is the base's or the
// reference's own string.
func (p *plan) fields(out, base, ref *URL, clean []byte, cleaned bool, t *Trace) {
	a := pick(p.auth, base, ref)
	guard := p.guard(a, clean, cleaned, t)
	var path string
	switch {
	case cleaned && guard:
		var b strings.Builder
		b.Grow(2 + len(clean))
		b.WriteString("/.")
		b.Write(clean)
		path = b.String()
	case cleaned:
		path = string(clean)
	case guard:
		path = "/." + p.pathA + p.pathB
	case p.pathA == "":
		path = p.pathB
	default:
		path = p.pathA + p.pathB
	}
	// Written straight into out (neither base nor ref): a URL built
	// aside and copied in whole cost a stall on every resolution.
	q, f := pick(p.query, base, ref), pick(p.frag, base, ref)
	*out = URL{Scheme: p.scheme, Path: path}
	if a != nil && a.HasAuthority {
		out.User, out.Password, out.Host, out.Port = a.User, a.Password, a.Host, a.Port
		out.HasAuthority, out.HasUser, out.HasPassword, out.HasPort = true, a.HasUser, a.HasPassword, a.HasPort
	}
	if q != nil && q.HasQuery {
		out.Query, out.HasQuery = q.Query, true
	}
	if f != nil && f.HasFragment {
		out.Fragment, out.HasFragment = f.Fragment, true
	}
}

// write builds the target's text with one allocation and, when out is
// not nil, sets out to the URL whose fields slice it. The path is pathA
// followed by pathB, its dot segments removed in place, in the text's
// own buffer, when p.dots is set. When the target is the reference as it
// was written, its text is the reference's own, with no allocation.
func (p *plan) write(out, base, ref *URL, t *Trace, sec string) string {
	a, q, f := pick(p.auth, base, ref), pick(p.query, base, ref), pick(p.frag, base, ref)
	hasAuth := a != nil && a.HasAuthority
	hasQuery := q != nil && q.HasQuery
	hasFrag := f != nil && f.HasFragment
	n := len(p.scheme) + 1 + len(p.pathA) + len(p.pathB)
	if hasAuth {
		n += 2 + len(a.Host)
		if a.HasUser {
			n += len(a.User) + 1
		}
		if a.HasPassword {
			n += 1 + len(a.Password)
		}
		if a.HasPort {
			n += 1 + len(a.Port)
		}
	}
	if hasQuery {
		n += 1 + len(q.Query)
	}
	if hasFrag {
		n += 1 + len(f.Fragment)
	}
	if p.fromRefAsWritten(ref, n) && !HasDotSegment(ref.Path) {
		if p.dots {
			t.noDotSegments(sec, p.pathA, p.pathB)
		}
		if out != nil {
			*out = *ref
		}
		return ref.Written
	}
	if !hasAuth {
		n += 2 // room for the "/." of the guard
	}
	var scratch [256]byte // built and cleaned in place, then copied into the string
	b := scratch[:0]
	if n > len(scratch) {
		b = make([]byte, 0, n)
	}
	b = append(b, p.scheme...)
	b = append(b, ':')
	var userAt, passAt, hostAt, portAt int
	if hasAuth {
		b = append(b, "//"...)
		if a.HasUser {
			userAt = len(b)
			b = append(b, a.User...)
			if a.HasPassword {
				b = append(b, ':')
				passAt = len(b)
				b = append(b, a.Password...)
			}
			b = append(b, '@')
		}
		hostAt = len(b)
		b = append(b, a.Host...)
		if a.HasPort {
			b = append(b, ':')
			portAt = len(b)
			b = append(b, a.Port...)
		}
	}
	pathAt := len(b)
	b = append(b, p.pathA...)
	b = append(b, p.pathB...)
	if p.dots {
		b, _ = removeDotSegmentsIn(b, pathAt, len(b), t, sec)
	}
	pathEnd := len(b)
	if !hasAuth {
		b, pathEnd = guardPath(b, pathAt, pathEnd, t)
	}
	if hasQuery {
		b = append(b, '?')
		b = append(b, q.Query...)
	}
	if hasFrag {
		b = append(b, '#')
		b = append(b, f.Fragment...)
	}
	s := string(b)
	if out == nil {
		return s
	}
	// The sources may be out itself: read them before writing out.
	var user, pass, host, port, query, frag string
	var hasUser, hasPass, hasPort bool
	if hasAuth {
		hasUser, hasPass, hasPort = a.HasUser, a.HasPassword, a.HasPort
		if hasUser {
			user = s[userAt : userAt+len(a.User)]
		}
		if hasPass {
			pass = s[passAt : passAt+len(a.Password)]
		}
		host = s[hostAt : hostAt+len(a.Host)]
		if hasPort {
			port = s[portAt : portAt+len(a.Port)]
		}
	}
	if hasQuery {
		query = s[pathEnd+1 : pathEnd+1+len(q.Query)]
	}
	if hasFrag {
		frag = s[len(s)-len(f.Fragment):]
	}
	*out = URL{
		Scheme: s[:len(p.scheme)], User: user, Password: pass, Host: host, Port: port,
		Path: s[pathAt:pathEnd], Query: query, Fragment: frag,
		HasAuthority: hasAuth, HasUser: hasUser, HasPassword: hasPass, HasPort: hasPort,
		HasQuery: hasQuery, HasFragment: hasFrag,
		Written: s,
	}
	return s
}

// fromRefAsWritten reports whether the plan takes every component from
// the reference, whose text as written, n bytes long like the target's,
// is then the target's text.
func (p *plan) fromRefAsWritten(ref *URL, n int) bool {
	return p.auth == fromRef && p.query == fromRef && p.frag == fromRef && p.pathA == "" &&
		len(ref.Written) == n && p.scheme == ref.Scheme && p.pathB == ref.Path && ref.HasAuthority
}

// guardPath writes "/." before the path b[pathAt:pathEnd] of a target
// without an authority when the path starts with "//" (guard), moving
// what follows on: b has room for it. It returns b and where the path
// now ends. Its callers skip it for a target with an authority, most.
func guardPath(b []byte, pathAt, pathEnd int, t *Trace) ([]byte, int) {
	if pathEnd-pathAt < 2 || b[pathAt] != '/' || b[pathAt+1] != '/' {
		return b, pathEnd
	}
	t.SlashDotWritten()
	b = b[:len(b)+2]
	copy(b[pathAt+2:], b[pathAt:])
	b[pathAt], b[pathAt+1] = '/', '.'
	return b, pathEnd + 2
}

func startsDoubleSlash(a, b string) bool {
	switch {
	case len(a) >= 2:
		return a[0] == '/' && a[1] == '/'
	case len(a) == 1:
		return a[0] == '/' && len(b) > 0 && b[0] == '/'
	}
	return len(b) >= 2 && b[0] == '/' && b[1] == '/'
}
