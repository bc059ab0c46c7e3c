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
	b, r := u.parts(false), ref.parts(false)
	var out resolver.URL
	// Rule3986 is a rule: the engine's one error, a rule that is none,
	// cannot happen.
	_, _ = resolver.Resolve(&out, &b, &r, resolver.Rule3986, nil, false, nil)
	v := fromParts(&out)
	return &v
}
