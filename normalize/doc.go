// Package normalize brings URLs to a canonical form and compares them.
//
// Normalize brings a URL to RFC 1630's "same encoding level" with the
// rules of RFC 1738 2.2 (escapes of unreserved characters decoded,
// reserved ones never touched, unsafe ones encoded, upper-case hex,
// lower-case scheme and host, default port dropped) and the scheme rules
// the specifications define (the optional "/" before an empty url-path,
// gopher's type 1, ftp type codes, file://localhost). Equal compares
// normalized URLs; ExplainEqual says why they differ or which rules made
// them equal, Explain which rules changed a URL. In the RFC3986 and
// Lenient modes the form is RFC 3986 6.2.2's and 6.2.3's, with IPv6
// literals in RFC 5952's text form.
//
// A Normalizer adds optional normalizations (Flags, named after purell's
// flags) for crawlers and caches: a sorted query, no fragment, no
// tracking parameters, no "www.", no trailing slash, host names as IDNA
// A-labels or as Unicode. Most change what a URL means to some server;
// each flag's documentation says so.
package normalize
