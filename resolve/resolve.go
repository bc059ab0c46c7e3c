// Package resolve turns relative references into absolute URLs under
// each of the four rules the standards defined (Rule): RFC 3986 section
// 5.2 (strict, or with Compat), RFC 2396 section 5.2, RFC 1808 section 4
// (the companion of RFC 1738, with ";params" kept apart) and RFC 1630's
// partial form (string surgery on the base, N leading slashes keeping
// the base up to its first run of exactly N slashes). Where RFC 1630 is
// silent urlkit chose, as Rule1630 documents: the empty reference is the
// base and "#frag" the base with that fragment; a final ".." counts as
// "../"; N slashes with no run of exactly N keep only "scheme:".
//
// Relative is the inverse (the shortest reference that resolves back to
// a target), and Explain lists the steps a resolution took. For RFC 3986
// alone, (*urlkit.URL).ResolveReference is the net/url-shaped entry.
package resolve

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/internal/safetext"
)

// Resolve returns the absolute URL that ref stands for in the context of
// base, following rule. base must be absolute (it has a scheme; its
// fragment plays no part, except as the result of RFC 1808's empty
// reference). The result shares the strings of base and ref: under
// Rule3986 and Rule2396 only a merged or cleaned path is new, so Resolve
// allocates at most once (none at all for "?q", "#f", "/path" or "//host"
// references without dot segments); Rule1808 and Rule1630, which their
// RFCs define on the text, build the text and allocate a few times more.
// ResolveString returns the text. See Rule for what each rule does and
// where urlkit had to choose.
func Resolve(base, ref *urlkit.URL, rule Rule) (urlkit.URL, error) {
	if err := resolver.Rule(rule).Check(); err != nil {
		return urlkit.URL{}, err
	}
	if err := notAbsolute("resolve", base, "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"); err != nil {
		return urlkit.URL{}, err
	}
	b, r := texts(base, ref, rule)
	var out resolver.URL
	if _, err := resolver.Resolve(&out, &b, &r, resolver.Rule(rule), nil, false, split); err != nil {
		return urlkit.URL{}, err
	}
	return fromParts(&out), nil
}

// ResolveString parses base as an absolute URL and ref as a reference,
// both in the RFC3986 mode (whose grammar holds every example of RFC
// 1808, 2396 and 3986), and returns the resolved URL as text. Under
// Rule3986 it allocates once, for the result, or not at all when the
// result is ref itself or a part of base.
func ResolveString(base, ref string, rule Rule) (string, error) {
	if err := resolver.Rule(rule).Check(); err != nil {
		return "", err
	}
	bu, _, err := urlkit.ParseMode(base, urlkit.RFC3986)
	if err != nil {
		return "", err
	}
	if err := notAbsolute("resolve", &bu, "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"); err != nil {
		return "", err
	}
	ru, _, err := urlkit.ParseReference(ref, urlkit.RFC3986)
	if err != nil {
		return "", err
	}
	// String hands back the text a parsed URL's components lie in (the
	// input, less a "URL:" prefix), without allocating.
	b, r := parts(&bu), parts(&ru)
	b.Written, r.Written = bu.String(), ru.String()
	if rule == Rule3986 || rule == Rule3986|Compat {
		return resolver.EscapePrefix(resolver.Text3986(&b, &r, rule&Compat != 0)), nil
	}
	return resolver.Resolve(nil, &b, &r, resolver.Rule(rule), nil, true, split)
}

// RuleStep is one step of an explanation: the rule applied, named by its
// section, and what it did to which text. Explain and package
// normalize's Explain return them.
type RuleStep struct {
	Section string // the rule's section: "RFC 3986 5.2.4 C", "RFC 1738 2.2"
	Note    string // what the step did, with the values involved
}

// String formats the step as "SECTION: NOTE".
func (s RuleStep) String() string { return s.Section + ": " + s.Note }

// steps converts the engine's steps.
func steps(in []resolver.Step) []RuleStep {
	out := make([]RuleStep, len(in))
	for i, s := range in {
		out[i] = RuleStep(s)
	}
	return out
}

// Explain is Resolve that also reports the steps taken: which step of
// the rule fired, what was kept from the base and what taken from the
// reference, and which dot segments were removed.
func Explain(base, ref *urlkit.URL, rule Rule) (urlkit.URL, []RuleStep, error) {
	if err := resolver.Rule(rule).Check(); err != nil {
		return urlkit.URL{}, nil, err
	}
	if err := notAbsolute("resolve", base, "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"); err != nil {
		return urlkit.URL{}, nil, err
	}
	t := &resolver.Trace{}
	b, r := texts(base, ref, Rule1808)
	var out resolver.URL
	s, err := resolver.Resolve(&out, &b, &r, resolver.Rule(rule), t, true, split)
	if err != nil {
		return urlkit.URL{}, steps(t.Steps), err
	}
	t.Result(s)
	return fromParts(&out), steps(t.Steps), nil
}

// ErrUnreachable is the cause of Relative's error when no reference
// resolves to the target under the rule: for example a target with dot
// segments under Rule3986, whose results never have any.
var ErrUnreachable = resolver.ErrUnreachable

// Relative returns the shortest reference that Resolve, with the same
// base and rule, turns back into target: Resolve(base, Relative(base,
// target, rule), rule) prints exactly as target does. base and target must
// be absolute.
//
// The candidates are every form a reference can take: the empty
// reference, "#fragment", "?query", relative paths (with "./" where the
// first segment holds a ":" or would start with "/", and "../" as many
// times as needed), ";params" for Rule1808, an absolute path, a network
// path "//authority/path", for Rule1630 every tail of the target that
// starts with a run of slashes, and the target itself. Each is resolved,
// and the shortest that gives the target back wins (the earlier in that
// list on a tie). When none does, not even the target itself (Rule3986
// removes the dot segments of every result, so "http://a/b/../c" is out of
// its reach), the error wraps ErrUnreachable.
func Relative(base, target *urlkit.URL, rule Rule) (urlkit.URL, error) {
	if err := resolver.Rule(rule).Check(); err != nil {
		return urlkit.URL{}, err
	}
	if err := notAbsolute("relative", base, "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"); err != nil {
		return urlkit.URL{}, err
	}
	if err := notAbsolute("relative", target, "the target must be an absolute URL: it has no scheme"); err != nil {
		return urlkit.URL{}, err
	}
	b, tg := texts(base, target, Rule1808)
	u, err := resolver.Relative(&b, &tg, resolver.Rule(rule), split)
	if err != nil {
		return urlkit.URL{}, err
	}
	return fromParts(&u), nil
}

// notAbsolute returns the error for a URL without a scheme where an
// absolute one is needed, or nil.
func notAbsolute(op string, u *urlkit.URL, why string) error {
	if u.Scheme != "" {
		return nil
	}
	return &urlkit.Error{Op: op, Input: safetext.RedactURL(u.String()), Offset: 0, Err: urlkit.ErrMissingScheme, Rule: why}
}

// split is the engine's splitter: RFC 3986's decomposition of a text a
// rule built, by the parser. A text that reads as RFC 1738's "URL:"
// prefix before a URL (a path "http:..." under a scheme "url") is split
// as the URL it is, not as the prefixed one; one the parser refuses
// (no rule builds one from valid URLs) is kept whole as a path.
func split(s string) resolver.URL {
	text := s
	if resolver.ReadsAsPrefix(s) {
		text = resolver.EscapePrefix(s)
	}
	u, _, err := urlkit.ParseReference(text, urlkit.RFC3986)
	if err != nil {
		return resolver.URL{Path: s, Written: s}
	}
	p := parts(&u)
	p.Written = u.String()
	if text != s {
		p.Path = s[4 : 4+len(p.Path)-2] // "%XX" back to its byte
		p.Written = s
	}
	return p
}

// texts returns base's and ref's components as the engine reads them,
// with their texts when the rule works on the text (RFC 1808's and 1630's
// do; String hands a parsed URL's text back without building it), so
// that the engine does not build them again.
func texts(base, ref *urlkit.URL, rule Rule) (b, r resolver.URL) {
	b, r = parts(base), parts(ref)
	if k := rule &^ Compat; k == Rule1808 || k == Rule1630 {
		b.Written, r.Written = base.String(), ref.String()
	}
	return b, r
}

// parts returns u's components as the engine reads them.
func parts(u *urlkit.URL) resolver.URL {
	return resolver.URL{
		Scheme: u.Scheme, User: u.User, Password: u.Password, Host: u.Host,
		Port: u.Port, Path: u.Path, Query: u.Query, Fragment: u.Fragment,
		HasAuthority: u.HasAuthority, HasUser: u.HasUser, HasPassword: u.HasPassword,
		HasPort: u.HasPort, HasQuery: u.HasQuery, HasFragment: u.HasFragment,
	}
}

// fromParts is parts' inverse.
func fromParts(p *resolver.URL) urlkit.URL {
	return urlkit.URL{
		Scheme: p.Scheme, User: p.User, Password: p.Password, Host: p.Host,
		Port: p.Port, Path: p.Path, Query: p.Query, Fragment: p.Fragment,
		HasAuthority: p.HasAuthority, HasUser: p.HasUser, HasPassword: p.HasPassword,
		HasPort: p.HasPort, HasQuery: p.HasQuery, HasFragment: p.HasFragment,
	}
}
