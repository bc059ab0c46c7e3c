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
// A scheme's production is named by an enumeration (registry.Production)
// that the parser switches on, calling its own methods, rather than a
// function value in the row: an indirect call would make the parser and
// the URL escape to the heap and cost allocations on every parse (see
// -gcflags=-m and the benchmarks). So a scheme with a production of its
// own adds a Production value and its check in grammar.go; a scheme
// whose url-path the generic rules cover (most later schemes, and the
// experimental "x-" ones) is one registry row and one file in package
// scheme. The url-paths that the strict check and the views both read
// (ftp, gopher) are split once, by registry's allocation-free splitters,
// whose offsets the check reports and the views keep.
//
// # Relative references
//
// Resolve turns a reference into an absolute URL under one of the four
// rules the standards defined (Rule): RFC 3986 section 5.2 (the default,
// strict, or with Compat), RFC 2396 section 5.2, RFC 1808 section 4 (the
// companion of RFC 1738, with ";params" kept apart) and RFC 1630's partial
// form (string surgery on the base, N leading slashes keeping the base up
// to its first run of exactly N slashes). Where RFC 1630 is silent urlkit
// chose, as Rule1630 documents: the empty reference is the base and
// "#frag" the base with that fragment; a final ".." counts as "../"; N
// slashes with no run of exactly N keep only "scheme:". Relative is the
// inverse (the shortest reference that resolves back to a target), and
// ExplainResolve lists the steps taken.
//
// # Equivalence
//
// Normalize brings a URL to RFC 1630's "same encoding level" with the
// rules of RFC 1738 2.2 (escapes of unreserved characters decoded,
// reserved ones never touched, unsafe ones encoded, upper-case hex,
// lower-case scheme and host, default port dropped) and the scheme rules
// the specifications define (the optional "/" before an empty url-path,
// gopher's type 1, ftp type codes, file://localhost). Equal compares
// normalized URLs; ExplainEqual says why they differ or which rules made
// them equal. In the RFC3986 and Lenient modes the form is RFC 3986
// 6.2.2's and 6.2.3's, with IPv6 literals in RFC 5952's text form.
//
// A Normalizer adds optional normalizations (NormalizeFlags, named after
// purell's flags) for crawlers and caches: a sorted query, no fragment,
// no tracking parameters, no "www.", no trailing slash, host names as
// IDNA A-labels or as Unicode. Most change what a URL means to some
// server; each flag's documentation says so.
//
// # Queries and changing URLs
//
// Query is a query string as an ordered list of key=value pairs that
// keeps each pair's text, so that an unchanged query encodes back byte for
// byte; QuerySyntax states the separator and whether "+" is a space (RFC
// 1630). The setters (SetScheme, SetUser, SetHost, SetPort, SetPath,
// SetQuery, SetFragment and the Raw forms) encode one component each and
// refuse what no encoding makes valid; JoinPath appends path segments.
// QueryEscape and PathEscape are the escapes Go programmers know from
// net/url.
//
// # Errors
//
// Parse returns the first problem (the one at the lowest offset); Check
// returns all of them. Each is an *Error naming the byte offset and the
// rule broken, with the input quoted and its password replaced by
// "xxxxx", and wrapping a sentinel (ErrInvalidChar, ErrBadEscape,
// ErrBadHost, ...) for errors.Is.
//
// # Speed
//
// Parsing does not allocate on valid input: the URL's fields are
// substrings of the input, and the scanner tests each byte against a
// generated [256] class table (internal/charclass). Most valid URLs are
// read by one pass (parseFast) over a table of each component's bytes
// in each mode, eight bytes at a time, with RFC 1738's HTTP and file
// productions folded into it as classes; anything else (an error, a
// userinfo, an IP literal, another production, the RFC1630 mode) goes
// to the parser proper, which alone explains errors. A change to those
// two productions in grammar.go changes their classes in parse.go too:
// every parser fuzz target checks that the pass and the parser agree.
package urlkit
