// Package urlkit parses, checks, escapes and serializes URLs as the
// original standard defines them: RFC 1738 (Uniform Resource Locators),
// RFC 1630 (URIs in WWW: partial forms, fragments, escaping) and the
// 1993-94 URI working group drafts, with RFC 3986 for today's URLs.
//
// # The URL type
//
// A URL keeps every component as written, still escaped, so that
// Parse(s).String() == s for every valid s. Absent and empty components
// stay apart (RFC 1738 3.1: ftp://@host.com/ has an empty user name,
// ftp://host.com/ none, ftp://foo:@host.com/ an empty password). The
// decomposition is RFC 3986's in every mode:
//
//	scheme ":" [ "//" [ user [ ":" password ] "@" ] host [ ":" port ] ] path [ "?" query ] [ "#" fragment ]
//
// RFC 1738's url-path is what follows the "/" after the host (URLPath);
// the meaning of each scheme's parts is the business of package scheme.
//
// # Modes
//
//   - RFC1738 (the default) checks RFC 1738 section 5's BNF: the common
//     Internet scheme syntax of section 3.1 for the schemes that use it
//     (hostname, hostnumber, port, user and password exactly as the BNF
//     says; no user or password where a scheme's production has none),
//     each scheme's own production of section 5 (ftptype, fsegment,
//     search, gopher search, addr-spec, group and article, the wais
//     forms, fileurl, fieldspec), the generic scheme ":" *xchar for other
//     schemes, and an optional "#" fragment (RFC 1630's fragmentaddress)
//     of xchar.
//   - RFC1630 checks RFC 1630's generic URI BNF (xalpha, xpalpha). Its
//     reserved characters ; : = are accepted in paths and searches where
//     they serve their reserved purpose (the BNF lists them as reserved but
//     puts them in no production, while its own examples use them).
//   - RFC3986 checks RFC 3986's URI-reference: IPv6 and IPvFuture
//     literals, reg-name hosts, relative references.
//   - Lenient repairs what real text contains and then requires RFC 3986
//     (see Lenient).
//   - WHATWG is the WHATWG URL Standard's basic URL parser, as browsers
//     read URLs: the URL is the standard's href and its components, and
//     the setters of a URL parsed so are the standard's (see WHATWG).
//
// A mode is chosen one way: a Mode argument (ParseMode, ParseReference,
// Check, CheckLimit), never a name suffix or a function per dialect, so
// that a program that reads the mode from a flag or a file
// (Mode.UnmarshalText) calls the same functions as one that names it,
// and a new mode adds a constant, not a family of functions. Parse is
// the RFC1738 mode's short form, as most callers want the default.
//
// # Deliberate choices
//
//   - A port above 65535 is an error in every mode: the BNFs say only
//     "digits", but a port is a 16-bit number.
//   - A "%" not followed by two hex digits is an error in every strict
//     mode: RFC 1630 reserves such sequences for future extension. The
//     Lenient mode encodes it as %25.
//   - In the RFC1738 mode a "?" in the user or password (which the BNF
//     allows) does not end the authority when an "@" follows it before the
//     next "/".
//   - Zone identifiers in IPv6 literals (RFC 6874) are refused: RFC 3986
//     does not have them.
//
// # Schemes
//
// What the generic code knows of each scheme is one row of
// internal/registry: name, default port (DefaultPort), whether it uses
// the common Internet scheme syntax, whether a login is allowed, host or
// hostport, its section-5 production, status, title and section. The
// RFC1738 check here, package scheme (views, safety concerns, access
// plans), extract and the command line all read that table; none keeps
// one of its own. The registry is a leaf below both this package and
// package scheme because this package may import nothing of the module
// but internal packages, and scheme imports this one.
//
// The RFC1738 check of a scheme with a production of its own (section 5)
// is in grammar.go; a scheme whose url-path the generic rules cover (most
// later schemes, and the experimental "x-" ones) is one registry row and
// one file in package scheme.
//
// # Relative references and equivalence
//
// (*URL).ResolveReference resolves a reference as RFC 3986 section 5.2
// says, as net/url's method does. Package resolve has the four rules the
// standards defined (RFC 3986, 2396, 1808 and RFC 1630's partial form),
// make-relative and the explanation of each step; package normalize has
// Normalize and Equal (RFC 1738 2.2's "same encoding level", RFC 3986
// 6.2.2 and 6.2.3), the optional normalizations of crawlers and caches
// and their explanations.
//
// # Queries and changing URLs
//
// Query is a query string as an ordered list of key=value pairs that
// keeps each pair's text, so that an unchanged query encodes back byte for
// byte; QuerySyntax states the separator and whether "+" is a space (RFC
// 1630). The setters (SetScheme, SetUser, SetHost, SetPort, SetPath,
// SetQuery, SetFragment and the Raw forms) encode one component each and
// refuse what no encoding makes valid; JoinPath appends path segments.
// QueryEscape, QueryUnescape, PathEscape and PathUnescape are the
// escapes Go programmers know from net/url.
//
// # Errors
//
// Parse returns the first problem (the one at the lowest offset); Check
// returns all of them. Each is an *Error naming the byte offset and the
// rule broken, with the input quoted and its password replaced by
// "xxxxx", and wrapping a sentinel (ErrInvalidChar, ErrBadEscape,
// ErrBadHost, ...) for errors.Is.
//
// # Comparing URLs
//
// SameComponents compares the components and flags; package normalize's
// Equal compares URLs once normalized. == works on URLs too, with one
// exception: a URL from Parse (or ParseMode, ParseReference, Clone,
// UnmarshalText, FromNetURL) also keeps the text it was parsed from, so
// that String hands it back without building it again, and == compares
// that text as well. Two URLs parsed from the same text are ==, and so
// are two URLs built as literals with the same components; a parsed URL
// and a literal with the same components are not ==, nor is a parsed URL
// whose components were changed and one parsed from the changed text.
//
// Parsing does not allocate on valid input; DESIGN.md says how.
package urlkit
