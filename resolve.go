package urlkit

import "github.com/urlkit/urlkit/internal/resolver"

// ResolveReference resolves a URI reference to an absolute URI from an
// absolute base URI u, per RFC 3986 section 5.2, as net/url's method of
// the same name does: ref may be relative or absolute, and the result is
// a new URL, whose fields share the strings of u and ref except a merged
// or cleaned path. It always returns a URL; when u is not absolute (no
// scheme) the result has none either. The earlier rules (RFC 2396, 1808,
// 1630), make-relative and the explanation of each step are in package
// resolve.
//
// One deviation from RFC 3986, as in package resolve: when the target has
// no authority and its path starts with "//" (base "a:/b", reference
// "..//c"), the path is written "/.//c", since "a://c" would read as an
// authority (RFC 3986 3.3).
func (u *URL) ResolveReference(ref *URL) *URL {
	v := new(URL)
	u.resolveInto(v, ref)
	return v
}

func init() { resolver.Parse = parseParts }

// parseParts is the engine's parser (resolver.Parse): ParseReference in
// the RFC3986 mode, into the engine's URL.
func parseParts(s string) (p resolver.URL, err error) {
	var u URL
	if parseFast(&u, s, RFC3986, true) != len(s) {
		if u, _, err = parse(s, RFC3986, true); err != nil {
			return p, err
		}
	}
	u.parts(&p)
	p.Written = u.written // a URL as the parser returns it is in its written form
	return p, nil
}

// resolveInto is ResolveReference writing the result into v, which
// ResolveReference, small enough to be inlined, allocates where the
// caller can keep it on the stack.
func (u *URL) resolveInto(v, ref *URL) {
	var b, r, out resolver.URL
	u.parts(&b)
	ref.parts(&r)
	resolver.Resolve(&out, &b, &r, resolver.Rule3986, nil, false)
	v.fromParts(&out)
}
