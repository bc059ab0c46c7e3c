package normalize

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/ipv4"
	"github.com/urlkit/urlkit/internal/percent"
	"github.com/urlkit/urlkit/internal/registry"
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/resolve"
	"golang.org/x/net/idna"
)

// Flags select optional normalizations on top of a mode's
// canonical form (Normalize), for crawlers and caches that want more URLs
// to count as the same. They are named after the flags of the purell
// library, which in turn follow the "URI normalization" article's safe,
// usually safe and unsafe sets. Most of them change what a URL means to
// some server: each constant says so where it does. (Purell's safe set,
// lower-casing, escapes and the default port, is every mode's canonical
// form already, and needs no flag.) In the RFC1738 mode a flag leaves a
// URL of the mode alone where its scheme's grammar (RFC 1738 section 5)
// would refuse the result: "ftp://h/a;type=a" gets no trailing slash.
// FlagHostToIDN is the exception: it makes an IRI.
type Flags uint32

const (
	// FlagRemoveEmptyQuery drops a "?" with nothing after it:
	// "http://h/p?" is "http://h/p". Purell counts it as safe; RFC 3986
	// 6.2.3 does not ("normalization should not remove delimiters when
	// their associated component is empty"), and a server may tell the
	// two apart.
	FlagRemoveEmptyQuery Flags = 1 << iota
	// FlagRemoveTrailingSlash drops the "/"s that end a path, except a
	// path that is only "/": "http://h/a/b/" is "http://h/a/b". Usually
	// safe: most servers answer both with the same resource (or a
	// redirect), but RFC 3986 makes them different URIs.
	FlagRemoveTrailingSlash
	// FlagAddTrailingSlash ends a path with "/": "http://h/a" is
	// "http://h/a/". Usually safe, as FlagRemoveTrailingSlash, which wins
	// when both are set.
	FlagAddTrailingSlash
	// FlagRemoveDotSegments removes the dot segments of the path (RFC
	// 3986 5.2.4) in every mode; the rfc3986 and lenient modes always
	// do. In RFC 1738 and RFC 1630, "." and ".." have a meaning only in
	// relative references, so for those modes this is usually safe.
	FlagRemoveDotSegments
	// FlagRemoveDirectoryIndex drops a last path segment named index or
	// default with an extension (index.html, default.asp, in any case):
	// "http://h/a/index.html" is "http://h/a/". Unsafe: it is a server's
	// convention, not a rule.
	FlagRemoveDirectoryIndex
	// FlagRemoveFragment drops the fragment: "http://h/p#s" is
	// "http://h/p". The resource is the same, the URL names a part of it.
	FlagRemoveFragment
	// FlagForceHTTP writes https as http. Unsafe: a different scheme,
	// port and security. An https URL that has no http form (no "//";
	// in the RFC1738 mode, one that http's grammar refuses) stays.
	FlagForceHTTP
	// FlagRemoveDuplicateSlashes writes a run of "/" in a path as one:
	// "http://h/a//b" is "http://h/a/b". Unsafe: an empty segment is a
	// segment (ftp's "//" is a CWD with an empty argument).
	FlagRemoveDuplicateSlashes
	// FlagRemoveWWW drops a leading "www." from a host name that has a
	// dot after it: "http://www.example.com/" is "http://example.com/".
	// Unsafe: two host names, which may be two servers.
	FlagRemoveWWW
	// FlagAddWWW writes "www." before a host name with exactly one dot:
	// "http://example.com/" is "http://www.example.com/". Unsafe, as
	// FlagRemoveWWW, which wins when both are set.
	FlagAddWWW
	// FlagSortQuery sorts the pairs of an "&"-separated query by key,
	// then value, each as written once normalized: "?c=3&b=2&a=1&b=1" is
	// "?a=1&b=1&b=2&c=3". Unsafe: the order of pairs can matter to the
	// program that reads them.
	FlagSortQuery
	// FlagRemoveTracking drops the query pairs whose key (decoded)
	// matches one of Normalizer.TrackingParams, shell patterns as
	// path.Match takes them (DefaultTrackingParams when nil): utm_*,
	// fbclid, gclid, ... A query left empty is dropped with its "?".
	// Unsafe in principle: they are parameters like any others.
	FlagRemoveTracking
	// FlagDecodeNumericHost writes a host given as one number or as
	// dotted parts in octal or hexadecimal (inet_aton's forms) as a
	// dotted-decimal IPv4 address: "http://1113982867/",
	// "http://0x42660793/" and "http://0102.0146.07.0223/" are all
	// "http://66.102.7.147/". Purell's DecodeDWORDHost, DecodeOctalHost
	// and DecodeHexHost in one. Unsafe: a resolver need not read such a
	// name as a number.
	FlagDecodeNumericHost
	// FlagRemoveUnnecessaryHostDots drops the dots that start or end a
	// host name, and repeats of a dot: "http://.www..example.com./" is
	// "http://www.example.com/". Unsafe: "example.com." is a fully
	// qualified name, "example.com" may be searched for in local domains.
	FlagRemoveUnnecessaryHostDots
	// FlagHostToPunycode writes an internationalized host name, raw or
	// percent-encoded UTF-8, in its ASCII form, IDNA A-labels (UTS 46
	// lookup rules): "http://bücher.example/" and
	// "http://b%C3%BCcher.example/" are "http://xn--bcher-kva.example/".
	// They name the same host.
	FlagHostToPunycode
	// FlagHostToIDN writes a host name's A-labels as Unicode:
	// "http://xn--bcher-kva.example/" is "http://bücher.example/". The
	// two name the same host, but the result is an IRI, not a URL any
	// mode parses (the lenient mode encodes it back). FlagHostToPunycode
	// wins when both are set.
	FlagHostToIDN

	flagEnd // one past the last flag
)

// The sets of flags, as purell groups them (its safe set being the
// canonical form itself).
const (
	// FlagsUsuallySafe are the normalizations that rarely change the
	// resource a URL reaches: an empty query, a trailing slash, dot
	// segments.
	FlagsUsuallySafe = FlagRemoveEmptyQuery | FlagRemoveTrailingSlash | FlagRemoveDotSegments
	// FlagsUnsafe adds those that often make two different resources one,
	// and are what a crawler wants to deduplicate with.
	FlagsUnsafe = FlagsUsuallySafe | FlagRemoveDirectoryIndex | FlagRemoveFragment | FlagForceHTTP |
		FlagRemoveDuplicateSlashes | FlagRemoveWWW | FlagSortQuery | FlagRemoveTracking
	// FlagsAll adds the host rewrites of numeric and dotted hosts.
	FlagsAll = FlagsUnsafe | FlagDecodeNumericHost | FlagRemoveUnnecessaryHostDots
)

var flagNames = [...]string{
	"remove-empty-query", "remove-trailing-slash", "add-trailing-slash", "remove-dot-segments",
	"remove-directory-index", "remove-fragment", "force-http", "remove-duplicate-slashes",
	"remove-www", "add-www", "sort-query", "remove-tracking", "decode-numeric-host",
	"remove-unnecessary-host-dots", "punycode", "idn",
}

var flagSetNames = []struct {
	name  string
	flags Flags
}{{"usually-safe", FlagsUsuallySafe}, {"unsafe", FlagsUnsafe}, {"all", FlagsAll}}

// FlagNames returns the names FlagsByName takes, one per
// flag in the order of the constants, then the names of the sets.
func FlagNames() []string {
	names := slices.Clone(flagNames[:])
	for _, s := range flagSetNames {
		names = append(names, s.name)
	}
	return names
}

// String returns the flags' names separated by commas, as
// FlagsByName reads them; "" for none.
func (f Flags) String() string {
	var names []string
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if rest := f &^ (flagEnd - 1); rest != 0 {
		names = append(names, fmt.Sprintf("0x%x", uint32(rest)))
	}
	return strings.Join(names, ",")
}

// FlagsByName reads a comma-separated list of flag names
// ("sort-query,remove-fragment"), and of the set names usually-safe,
// unsafe and all. Spaces around names are ignored, and so is an empty
// list.
func FlagsByName(s string) (Flags, error) {
	var f Flags
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if i := slices.Index(flagNames[:], name); i >= 0 {
			f |= 1 << i
			continue
		}
		i := slices.IndexFunc(flagSetNames, func(e struct {
			name  string
			flags Flags
		}) bool {
			return e.name == name
		})
		if i < 0 {
			return 0, fmt.Errorf("urlkit: unknown normalization flag %q (want one of %s)", name, strings.Join(FlagNames(), ", "))
		}
		f |= flagSetNames[i].flags
	}
	return f, nil
}

// MarshalText returns the flags' names (String).
func (f Flags) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads flag names (FlagsByName).
func (f *Flags) UnmarshalText(b []byte) error {
	v, err := FlagsByName(string(b))
	if err == nil {
		*f = v
	}
	return err
}

// defaultTracking are the query keys of click and campaign tracking that
// the major analytics and advertising systems document: Google Analytics'
// utm_ campaign parameters and _ga/_gl linkers, the click identifiers of
// Google Ads (gclid, gbraid, wbraid, dclid), Facebook (fbclid), Microsoft
// Advertising (msclkid), Yandex (yclid), Twitter (twclid), TikTok
// (ttclid), Instagram (igshid), Mailchimp (mc_cid, mc_eid), HubSpot
// (_hsenc, _hsmi), Marketo (mkt_tok).
var defaultTracking = []string{
	"utm_*", "_ga", "_gl", "gclid", "gbraid", "wbraid", "dclid", "fbclid", "msclkid",
	"yclid", "twclid", "ttclid", "igshid", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok",
}

// DefaultTrackingParams returns the patterns FlagRemoveTracking uses when
// Normalizer.TrackingParams is nil: "utm_*", "fbclid", "gclid", ...
func DefaultTrackingParams() []string { return slices.Clone(defaultTracking) }

// A Normalizer brings URLs to a canonical form: the form of its Mode
// (Normalize) with its optional Flags on top. The zero value is
// Normalize in the RFC1738 mode.
type Normalizer struct {
	Mode  urlkit.Mode
	Flags Flags
	// TrackingParams are the patterns of the query keys that
	// FlagRemoveTracking drops, in path.Match's syntax, matched against
	// the whole decoded key; nil means DefaultTrackingParams. A
	// malformed pattern matches nothing.
	TrackingParams []string
}

// Normalize returns u in n's canonical form. Applied to its own result,
// it returns it unchanged.
func (n Normalizer) Normalize(u *urlkit.URL) urlkit.URL { return n.normalize(u, nil) }

// Explain is Normalize that also reports each rule and flag that changed
// something, with the text before and after.
func (n Normalizer) Explain(u *urlkit.URL) (urlkit.URL, []resolve.RuleStep) {
	t := &trace{}
	v := n.normalize(u, t)
	return v, steps(t.Steps)
}

// Equal reports whether a and b have the same canonical form. It is an
// equivalence relation.
func (n Normalizer) Equal(a, b *urlkit.URL) bool {
	na, nb := n.normalize(a, nil), n.normalize(b, nil)
	return na.SameComponents(&nb)
}

func (n Normalizer) normalize(u *urlkit.URL, t *trace) urlkit.URL {
	v := normalize(u, n.Mode, t)
	if n.Flags == 0 {
		return v
	}
	// A flag may leave work for the canonical form (a scheme whose
	// default port is another one) or for another flag (a directory
	// index that a removed trailing slash uncovers): the flags are
	// applied until nothing changes. Every flag but the two that add
	// something shortens the URL or keeps its length, and those two do
	// not undo the others, so that the loop ends; the bound is a guard.
	for range len(v.Path) + 8 {
		before := v
		n.applyFlags(&v, t)
		if v.SameComponents(&before) {
			break
		}
		v = normalize(&v, n.Mode, t)
	}
	return v
}

// applyFlags applies n's flags to v, a URL in canonical form, in an order
// that leaves nothing for a second pass to do: the host, the path from
// its segments to its end, then the query and the fragment.
func (n Normalizer) applyFlags(v *urlkit.URL, t *trace) {
	f := n.Flags
	// Without "//" an https URL has no http form: RFC 1738 3.3 gives
	// http the common Internet scheme syntax. In the RFC1738 mode it
	// has none either when http's grammar refuses the rest (a user name,
	// a "/" or "?" in the search, a host name with "_").
	if f&FlagForceHTTP != 0 && v.Scheme == "https" && v.HasAuthority {
		w := *v
		w.Scheme = "http"
		if n.allows(v, &w) {
			v.Scheme = "http"
			t.flagApplied(FlagForceHTTP, "https", "http")
		}
	}
	if v.HasAuthority {
		host := func(flag Flags, h string) {
			if h != v.Host {
				t.flagApplied(flag, v.Host, h)
				v.Host = h
			}
		}
		if f&FlagRemoveUnnecessaryHostDots != 0 {
			host(FlagRemoveUnnecessaryHostDots, trimHostDots(v.Host))
		}
		if f&FlagDecodeNumericHost != 0 {
			if a, ok := ipv4.Aton(v.Host); ok {
				host(FlagDecodeNumericHost, a.String())
			}
		}
		if f&FlagHostToPunycode != 0 {
			if a, err := idna.Lookup.ToASCII(decodedHost(v.Host)); err == nil && plainHost(a) {
				host(FlagHostToPunycode, a)
			}
		} else if h := decodedHost(v.Host); f&FlagHostToIDN != 0 && (h != v.Host || strings.Contains(h, "xn--")) {
			if a, err := idna.Lookup.ToUnicode(h); err == nil && plainHost(a) {
				host(FlagHostToIDN, a)
			}
		}
		if f&FlagRemoveWWW != 0 {
			if rest, ok := strings.CutPrefix(v.Host, "www."); ok && strings.Contains(strings.Trim(rest, "."), ".") {
				host(FlagRemoveWWW, rest)
			}
		} else if f&FlagAddWWW != 0 && strings.Count(strings.TrimSuffix(v.Host, "."), ".") == 1 && !isNumericHost(v.Host) && !strings.HasPrefix(v.Host, "[") {
			host(FlagAddWWW, "www."+v.Host)
		}
	}
	setPath := func(flag Flags, p string) {
		w := *v
		w.Path = p
		// A scheme's structured path (ftp's ";type=" last, gopher's
		// search, wais, nntp) may not take the change: the flag then
		// leaves it, unless the URL was no URL of the mode anyway.
		if p != v.Path && n.allows(v, &w) {
			t.flagApplied(flag, v.Path, p)
			v.Path = p
		}
	}
	if f&FlagRemoveDotSegments != 0 && v.Scheme != "" && resolver.HasDotSegment(v.Path) {
		setPath(FlagRemoveDotSegments, removeDots(v.Path, v.HasAuthority, nil))
	}
	// The slash flags are for a hierarchical path (a relative
	// reference's too): an opaque one (mailto:a@b./) has no segments to
	// trim or add a "/" to.
	hier := v.HasAuthority || strings.HasPrefix(v.Path, "/") || v.Scheme == ""
	if f&FlagRemoveDuplicateSlashes != 0 && hier && strings.Contains(v.Path, "//") {
		p := v.Path
		b := make([]byte, 0, len(p))
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && i > 0 && p[i-1] == '/' {
				continue
			}
			b = append(b, p[i])
		}
		setPath(FlagRemoveDuplicateSlashes, string(b))
	}
	if f&FlagRemoveDirectoryIndex != 0 && hier {
		if i := strings.LastIndexByte(v.Path, '/'); i >= 0 && isDirectoryIndex(v.Path[i+1:]) {
			setPath(FlagRemoveDirectoryIndex, v.Path[:i+1])
		}
	}
	if f&FlagRemoveTrailingSlash != 0 && hier {
		if p := strings.TrimRight(v.Path, "/"); p != "" {
			setPath(FlagRemoveTrailingSlash, p)
		} else if v.Path != "" {
			setPath(FlagRemoveTrailingSlash, "/")
		}
	} else if p := v.Path; f&FlagAddTrailingSlash != 0 && hier && p != "" && !strings.HasSuffix(p, "/") {
		setPath(FlagAddTrailingSlash, p+"/")
	}
	if v.HasQuery && f&FlagRemoveTracking != 0 && v.Query != "" {
		if q := n.dropTracking(v.Query); q != v.Query && n.keepsQuery(v, q) {
			t.flagApplied(FlagRemoveTracking, "?"+v.Query, "?"+q)
			v.Query = q
			if q == "" {
				v.HasQuery = false // every pair was tracking: no "?" left
			}
		}
	}
	if v.HasQuery && f&FlagSortQuery != 0 && strings.IndexByte(v.Query, '&') >= 0 {
		pairs := strings.Split(v.Query, "&")
		slices.SortStableFunc(pairs, comparePairs)
		if q := strings.Join(pairs, "&"); q != v.Query && n.keepsQuery(v, q) {
			t.flagApplied(FlagSortQuery, "?"+v.Query, "?"+q)
			v.Query = q
		}
	}
	if v.HasQuery && v.Query == "" && f&FlagRemoveEmptyQuery != 0 {
		t.flagApplied(FlagRemoveEmptyQuery, "?", "")
		v.HasQuery = false
	}
	if v.HasFragment && f&FlagRemoveFragment != 0 {
		t.flagApplied(FlagRemoveFragment, "#"+v.Fragment, "")
		v.HasFragment, v.Fragment = false, ""
	}
}

// allows reports whether a flag may make w of v: unless v was no URL of
// n's mode anyway, w must be one (keeps).
func (n Normalizer) allows(v, w *urlkit.URL) bool { return n.keeps(w) || !n.keeps(v) }

// keeps reports whether w, what a flag makes of a URL, is a URL of n's
// mode. Only the RFC1738 mode's scheme grammars (RFC 1738 section 5) can
// refuse it, and then the flag leaves the URL as it is.
func (n Normalizer) keeps(w *urlkit.URL) bool {
	if sch := registry.Lookup(w.Scheme); n.Mode != urlkit.RFC1738 || w.Scheme == "" || sch == nil || !sch.Grammar1738 {
		return true
	}
	_, _, err := urlkit.ParseReference(w.String(), urlkit.RFC1738)
	return err == nil
}

// keepsQuery reports whether the query flags that drop or move pairs may
// write v's query as q. In the RFC1738 mode the parser reads gopher's
// search (after a "%09") and ftp's ";type=" in the path and the query
// alike, so a pair moved or dropped can bring a "/" into the search or
// text after the type. An empty q drops the "?" as well.
func (n Normalizer) keepsQuery(v *urlkit.URL, q string) bool {
	w := *v
	w.Query, w.HasQuery = q, q != ""
	return n.allows(v, &w)
}

// decodedHost returns a reg-name host with its escapes decoded when they
// encode UTF-8 (RFC 3986 3.2.2: a reg-name's non-ASCII characters are
// percent-encoded UTF-8), for IDNA; otherwise h itself.
func decodedHost(h string) string {
	if !strings.Contains(h, "%") {
		return h
	}
	d, err := urlkit.PathUnescape(h)
	if err != nil || !utf8.ValidString(d) {
		return h
	}
	return d
}

// plainHost reports whether an IDNA result can stand as a host as it is:
// not empty, and nothing that would end the host or need an escape
// (IDNA's lookup rules refuse these already; this keeps the URL whole
// whatever they let through).
func plainHost(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c <= ' ' || c == 0x7f || strings.IndexByte("/?#[]@%:\\", c) >= 0 {
			return false
		}
	}
	return true
}

// comparePairs orders query pairs by key, then by value.
func comparePairs(a, b string) int {
	ka, va, _ := strings.Cut(a, "=")
	kb, vb, _ := strings.Cut(b, "=")
	if c := strings.Compare(ka, kb); c != 0 {
		return c
	}
	return strings.Compare(va, vb)
}

// dropTracking returns the query q without the pairs whose decoded key
// matches a tracking pattern.
func (n Normalizer) dropTracking(q string) string {
	patterns := n.TrackingParams
	if patterns == nil {
		patterns = defaultTracking
	}
	pairs := strings.Split(q, "&")
	kept := pairs[:0]
	for _, pair := range pairs {
		key, _, _ := strings.Cut(pair, "=")
		key = percent.Loose(key, true)
		if !slices.ContainsFunc(patterns, func(p string) bool { ok, _ := path.Match(p, key); return ok }) {
			kept = append(kept, pair)
		}
	}
	return strings.Join(kept, "&")
}

// isDirectoryIndex reports whether a path segment is index.EXT or
// default.EXT, EXT being letters and digits.
func isDirectoryIndex(seg string) bool {
	base, ext, ok := strings.Cut(seg, ".")
	if !ok || ext == "" || !(strings.EqualFold(base, "index") || strings.EqualFold(base, "default")) {
		return false
	}
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// trimHostDots drops the dots that start or end h and the repeats of a
// dot; an IP literal is left alone.
func trimHostDots(h string) string {
	if strings.HasPrefix(h, "[") || !strings.Contains(h, ".") {
		return h
	}
	parts := strings.Split(h, ".")
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	if len(parts) == 0 {
		return h // "." or "..": no name to keep, and an empty host is another urlkit.URL
	}
	return strings.Join(parts, ".")
}

// isNumericHost reports whether h is made of digits and dots only.
func isNumericHost(h string) bool {
	return strings.Trim(h, "0123456789.") == ""
}

// rfc5952 writes the IPv6 literal h ("[...]", with an optional RFC 6874
// zone "%25zone") in RFC 5952's text form: lower case, no leading zeros,
// the longest run of zero fields (the first of equal ones, two fields at
// least) as "::", an IPv4-mapped address with its dotted quad. Anything
// else, an IPvFuture literal among them, is returned as it is. It does
// not allocate when h is already in that form.
func rfc5952(h string) string {
	if len(h) < 2 || h[0] != '[' || h[len(h)-1] != ']' || len(h) > 2 && (h[1] == 'v' || h[1] == 'V') {
		return h
	}
	inner := h[1 : len(h)-1]
	zone := ""
	if i := strings.Index(inner, "%25"); i >= 0 {
		inner, zone = inner[:i], inner[i:]
	}
	a, err := netip.ParseAddr(inner)
	if err != nil || !a.Is6() {
		return h
	}
	var buf [64]byte
	b := a.AppendTo(buf[:0])
	if string(b) == inner {
		return h
	}
	return "[" + string(b) + zone + "]"
}
