package resolver

import "strings"

// parts1808 is a URL split as RFC 1808 section 2.4 says. path excludes
// the "/" that may precede it (slash) and the params.
type parts1808 struct {
	scheme, netloc, path, params, query, frag        string
	hasScheme, hasNetloc, slash, hasParams, hasQuery bool
	hasFrag                                          bool
}

// parse1808 is RFC 1808 section 2.4.
func parse1808(s string) (p parts1808) {
	// 2.4.1 the fragment: after the first "#".
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.frag, p.hasFrag, s = s[i+1:], true, s[:i]
	}
	// 2.4.2 the scheme: up to a ":" after the first character and before
	// any character not allowed in a scheme name.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			if i > 0 {
				p.scheme, p.hasScheme, s = s[:i], true, s[i+1:]
			}
			break
		}
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '.' || c == '-') {
			break
		}
	}
	// 2.4.3 the net_loc: after "//", up to the next "/".
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		p.netloc, p.hasNetloc, s = s[:i], true, s[i:]
	}
	// 2.4.4 the query: after the first "?".
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery, s = s[i+1:], true, s[:i]
	}
	// 2.4.5 the params: after the first ";".
	if i := strings.IndexByte(s, ';'); i >= 0 {
		p.params, p.hasParams, s = s[i+1:], true, s[:i]
	}
	// 2.4.6 the path, and the "/" that may precede it.
	if strings.HasPrefix(s, "/") {
		p.slash, s = true, s[1:]
	}
	p.path = s
	return p
}

// String recombines the parts (RFC 1808 step 7).
func (p *parts1808) String() string {
	var b strings.Builder
	if p.hasScheme {
		b.WriteString(p.scheme)
		b.WriteByte(':')
	}
	if p.hasNetloc {
		b.WriteString("//")
		b.WriteString(p.netloc)
	}
	if p.slash {
		b.WriteByte('/')
	}
	b.WriteString(p.path)
	if p.hasParams {
		b.WriteByte(';')
		b.WriteString(p.params)
	}
	if p.hasQuery {
		b.WriteByte('?')
		b.WriteString(p.query)
	}
	if p.hasFrag {
		b.WriteByte('#')
		b.WriteString(p.frag)
	}
	return b.String()
}

// resolve1808 is RFC 1808 section 4, steps 1 to 7.
func resolve1808(out, base, ref *URL, t *Trace, text bool) string {
	rs := ref.String()
	if rs == "" {
		t.empty1808()
		return copyOf(out, base, text)
	}
	bp := parse1808(base.String())
	r := parse1808(rs)
	if r.hasScheme {
		t.absolute1808()
		return copyOf(out, ref, text)
	}
	r.scheme, r.hasScheme = bp.scheme, true
	t.scheme1808(bp.scheme)
	switch {
	case r.netloc != "":
		t.netloc1808(r.netloc)
	case r.slash:
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		t.inheritNetloc1808(&bp)
		t.absolutePath1808()
	case r.path == "":
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		r.path, r.slash = bp.path, bp.slash
		t.inheritNetloc1808(&bp)
		t.inheritPath1808(&bp)
		if r.params != "" {
			t.params1808(r.params)
			break
		}
		r.params, r.hasParams = bp.params, bp.hasParams
		t.inheritParams1808(&bp)
		if r.query != "" {
			t.query1808(r.query)
			break
		}
		r.query, r.hasQuery = bp.query, bp.hasQuery
		t.inheritQuery1808(&bp)
	default:
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		dir := bp.path[:strings.LastIndexByte(bp.path, '/')+1]
		r.slash = bp.slash || bp.hasNetloc
		t.inheritNetloc1808(&bp)
		t.merge1808(&bp, &r, dir)
		r.path = dotSteps(dir+r.path, t, "RFC 1808 step 6", [4]string{"a", "b", "c", "d"})
	}
	return finish(out, &r, t)
}

// finish recombines RFC 1808 parts (step 7) and guards a path that starts
// with "//" when there is no net_loc. After a net_loc, a path or params
// can follow only the "/" of an abs_path (RFC 1808 2.2: net_path = "//"
// net_loc [ abs_path ]): a base like "a://h", whose path is empty, lends
// a reference like ";p" its path and no "/", which is then written
// ("a://h/;p"), or the params would read as part of the net_loc.
func finish(out *URL, r *parts1808, t *Trace) string {
	if r.hasNetloc && !r.slash && (r.path != "" || r.hasParams) {
		r.slash = true
		t.slashWritten1808()
	}
	if !r.hasNetloc && r.slash && strings.HasPrefix(r.path, "/") {
		r.path = "./" + r.path
		t.SlashDotWritten()
	}
	s := r.String()
	*out = split(s)
	return s
}
