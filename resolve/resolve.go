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
	var u urlkit.URL
	err := resolveInto(&u, base, ref, rule)
	return u, err
}

// resolveInto is Resolve writing the result into u, which Resolve, small
// enough to be inlined, declares where the caller receives it.
func resolveInto(u, base, ref *urlkit.URL, rule Rule) error {
	if err := check("resolve", base, rule); err != nil {
		return err
	}
	var b, r, out resolver.URL
	partsOf(&b, base)
	partsOf(&r, ref)
	if k := rule &^ Compat; k == Rule1808 || k == Rule1630 {
		// Rules that work on the text read it rather than build it.
		b.Written, r.Written = base.String(), ref.String()
	}
	resolver.Resolve(&out, &b, &r, resolver.Rule(rule), nil, false)
	fromParts(u, &out)
	return nil
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
	b, err := resolver.Parse(base)
	if err != nil {
		return "", err
	}
	if b.Scheme == "" {
		return "", missingScheme("resolve", b.Written, baseNotAbsolute)
	}
	r, err := resolver.Parse(ref)
	if err != nil {
		return "", err
	}
	if rule&^Compat == Rule3986 {
		return resolver.EscapePrefix(resolver.Text3986(&b, &r, rule&Compat != 0)), nil
	}
	return resolver.Resolve(nil, &b, &r, resolver.Rule(rule), nil, true), nil
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
	if err := check("resolve", base, rule); err != nil {
		return urlkit.URL{}, nil, err
	}
	t := &resolver.Trace{}
	b, r := textOf(base), textOf(ref)
	var out resolver.URL
	t.Result(resolver.Resolve(&out, &b, &r, resolver.Rule(rule), t, true))
	var u urlkit.URL
	fromParts(&u, &out)
	return u, steps(t.Steps), nil
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
	if err := check("relative", base, rule); err != nil {
		return urlkit.URL{}, err
	}
	if target.Scheme == "" {
		return urlkit.URL{}, missingScheme("relative", target.String(), "the target must be an absolute URL: it has no scheme")
	}
	b, tg := textOf(base), textOf(target)
	u, err := resolver.Relative(&b, &tg, resolver.Rule(rule))
	if err != nil {
		return urlkit.URL{}, err
	}
	var v urlkit.URL
	fromParts(&v, &u)
	return v, nil
}

// partsOf sets p to u's components, as the engine reads them; textOf
// adds u's text, for the rules and results that cut from it; fromParts
// is partsOf's inverse. The root converts its own URLs the same way (for
// ResolveReference and String), with the text it alone can see; this
// package, outside the root, cannot call that conversion without the
// URLs escaping to the heap (a call through a function value installed
// by the root: measured, one or two allocations more a call) or the root
// exporting it. Each assigns field by field into its destination: a URL
// built aside and copied in whole stalled every resolution.
func partsOf(p *resolver.URL, u *urlkit.URL) {
	p.Scheme, p.User, p.Password, p.Host = u.Scheme, u.User, u.Password, u.Host
	p.Port, p.Path, p.Query, p.Fragment = u.Port, u.Path, u.Query, u.Fragment
	p.HasAuthority, p.HasUser, p.HasPassword = u.HasAuthority, u.HasUser, u.HasPassword
	p.HasPort, p.HasQuery, p.HasFragment = u.HasPort, u.HasQuery, u.HasFragment
}

// textOf returns u's components with its text (see partsOf).
func textOf(u *urlkit.URL) (p resolver.URL) {
	partsOf(&p, u)
	p.Written = u.String()
	return p
}

// fromParts sets u to p's components (see partsOf). p's text is left
// out, which the root alone can keep: String builds it when asked.
func fromParts(u *urlkit.URL, p *resolver.URL) {
	u.Scheme, u.User, u.Password, u.Host = p.Scheme, p.User, p.Password, p.Host
	u.Port, u.Path, u.Query, u.Fragment = p.Port, p.Path, p.Query, p.Fragment
	u.HasAuthority, u.HasUser, u.HasPassword = p.HasAuthority, p.HasUser, p.HasPassword
	u.HasPort, u.HasQuery, u.HasFragment = p.HasPort, p.HasQuery, p.HasFragment
}

// check returns the error for a rule that is none, else for a base that
// is not absolute.
func check(op string, base *urlkit.URL, rule Rule) error {
	if err := resolver.Rule(rule).Check(); err != nil {
		return err
	}
	return notAbsolute(op, base)
}

// notAbsolute returns the error for a base URL without a scheme, or nil.
func notAbsolute(op string, base *urlkit.URL) error {
	if base.Scheme != "" {
		return nil
	}
	return missingScheme(op, base.String(), baseNotAbsolute)
}

const baseNotAbsolute = "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"

// missingScheme returns the error for the URL s, which has no scheme
// where an absolute URL is needed.
func missingScheme(op, s, why string) error {
	return &urlkit.Error{Op: op, Input: safetext.RedactURL(s), Offset: 0, Err: urlkit.ErrMissingScheme, Rule: why}
}
