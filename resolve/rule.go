package resolve

import "github.com/urlkit/urlkit/internal/resolver"

// Rule selects the algorithm that turns a reference into an absolute URL
// (Resolve) and back (Relative). The four rules are the four the
// standards defined, each followed as its text says; they agree on
// ordinary references and differ on the abnormal ones (dot segments
// beyond the root, ";params", "?query" alone, "//" inside paths).
type Rule uint8

const (
	// Rule3986 is RFC 3986 section 5.2: the reference is split into
	// scheme, authority, path, query and fragment (5.2.1), the target
	// takes each from the reference or the base (5.2.2), a relative path
	// is merged with the base path (5.2.3) and remove_dot_segments (5.2.4)
	// runs on every path taken from the reference. It is strict: a
	// reference with a scheme is absolute ("http:g" stays "http:g").
	//
	// One deviation: when the target has no authority and its path starts
	// with "//" (base "a:/b", reference "..//c"), the path is written
	// "/.//c", since "a://c" would read as an authority (RFC 3986 3.3).
	// The same guard applies to every rule.
	Rule3986 = Rule(resolver.Rule3986)
	// Rule2396 is RFC 2396 section 5.2: a reference with an empty path and
	// no scheme, authority or query is the current document (step 2); an
	// absolute path or a network path is taken as it is, without removing
	// dot segments (steps 4 and 5); a relative path is merged with the base
	// path and "./", a final ".", "<segment>/../" (leftmost first) and a
	// final "<segment>/.." are removed (step 6); ".." segments left at the
	// start are kept (6g: "../../../g" gives "http://a/../g").
	//
	// Where RFC 2396 would glue a relative path to an authority (base
	// "http://a" with no path, reference "g": step 6 gives "http://ag"),
	// a "/" is put between them, as RFC 3986 5.2.3 later fixed.
	Rule2396 = Rule(resolver.Rule2396)
	// Rule1808 is RFC 1808 section 4, the rule that accompanied RFC 1738,
	// with the parse of its section 2.4: the fragment is split off first,
	// then the scheme, the net_loc (up to the next "/"), the query (after
	// the first "?") and the ";params" (after the first ";"), which are
	// kept apart from the path: they never take part in the path merge.
	// The empty reference is the whole base, fragment included (step 2a);
	// a reference with an empty path inherits the base path, its params
	// unless the reference has non-empty params, and its query unless the
	// reference has a non-empty query (step 5); the checks are for
	// non-empty values, as the text says, so "//" and ";" inherit the
	// base's net_loc and params. Step 6 is Rule2396's step 6.
	Rule1808 = Rule(resolver.Rule1808)
	// Rule1630 is RFC 1630's partial-form rule ("Partial (relative)
	// form"), as string surgery on the context URI (the base without its
	// fragment):
	//
	//   - A reference with a scheme is absolute and taken as it is.
	//   - A partial form that starts with N slashes keeps the context up
	//     to (not including) its first run of exactly N slashes: with
	//     context magic://a/b/c//d/e/f, "/g" gives magic://a/g and "//g"
	//     gives magic://g (RFC 1630's text says the last such run with no
	//     longer run after it, which its own "/g" example contradicts; the
	//     reading here reproduces every example). The runs are looked for
	//     before the query only.
	//   - Any other partial form replaces the last element of the
	//     context's path (everything after the path's last "/"; the whole
	//     path when it has no "/").
	//   - Then, in both cases (CLI.md's reading), "/." and "xxx/../" are
	//     removed repeatedly, leftmost first, inside the path only (never after
	//     "?" or "#"), where "." is a complete element and xxx is a
	//     complete element other than ".." that does not follow a run of
	//     two or more slashes (so ".." never climbs over a "//").
	//
	// Where RFC 1630 is silent, urlkit chooses:
	//
	//   - The empty reference is the context itself, and "#frag" alone is
	//     the context with that fragment: the parts that are the same are
	//     left out, here all of them (as RFCs 1808, 2396 and 3986 say).
	//   - A final ".." counts as "xxx/../": "xxx/.." is removed and the
	//     result ends with "/" (magic://a/b/c//d/e/f with ".." gives
	//     magic://a/b/c//d/).
	//   - N slashes with no run of exactly N in the context keep only
	//     "scheme:": such a run is above every part of the context.
	//   - A context with an authority and an empty path gets the "/" that
	//     separates the two before the partial form.
	Rule1630 = Rule(resolver.Rule1630)
)

// Compat, or'ed into Rule3986 or Rule2396, treats a reference whose scheme
// equals the base's (ignoring case) as relative: "http:g" against
// "http://a/b/c/d;p?q" gives "http://a/b/c/g". RFC 3986 5.2.2 allows it
// for any scheme ("a non-strict parser may ignore a scheme in the
// reference if it is identical to the base URI's scheme"); RFC 2396 5.2
// step 3 only for schemes "known to always use the <hier_part> syntax",
// here those of RFC 1738's common Internet scheme syntax and https. RFC
// 1808 (5.2) and RFC 1630 define no such variant: Resolve rejects Compat
// with them.
const Compat = Rule(resolver.Compat)

// Rules lists the four rules, newest first.
func Rules() []Rule { return []Rule{Rule3986, Rule2396, Rule1808, Rule1630} }

// String returns the rule's name as the command line spells it:
// "rfc3986", "rfc2396", "rfc1808" or "rfc1630", with "+compat" for Compat.
func (r Rule) String() string { return resolver.Rule(r).String() }

// RuleByName returns the rule called name: "rfc3986", "rfc2396", "rfc1808"
// or "rfc1630", optionally followed by "+compat".
func RuleByName(name string) (Rule, error) {
	r, err := resolver.RuleByName(name)
	return Rule(r), err
}

// MarshalText returns the rule's name.
func (r Rule) MarshalText() ([]byte, error) { return resolver.Rule(r).MarshalText() }

// UnmarshalText parses a rule name (RuleByName).
func (r *Rule) UnmarshalText(b []byte) error { return (*resolver.Rule)(r).UnmarshalText(b) }

// ErrCompat is the error for Compat with a rule that has no compatible
// variant.
var ErrCompat = resolver.ErrCompat
