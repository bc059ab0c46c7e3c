package urlkit

import (
	"errors"
	"fmt"
	"strings"
)

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
	Rule3986 Rule = iota
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
	Rule2396
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
	Rule1808
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
	Rule1630
	numRules
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
const Compat Rule = 0x80

var ruleNames = [numRules]string{"rfc3986", "rfc2396", "rfc1808", "rfc1630"}

var ruleTitles = [numRules]string{
	"RFC 3986 section 5.2",
	"RFC 2396 section 5.2",
	"RFC 1808 section 4",
	"RFC 1630, partial (relative) form",
}

// Rules lists the four rules, newest first.
func Rules() []Rule { return []Rule{Rule3986, Rule2396, Rule1808, Rule1630} }

func (r Rule) kind() Rule   { return r &^ Compat }
func (r Rule) compat() bool { return r&Compat != 0 }

// String returns the rule's name as the command line spells it:
// "rfc3986", "rfc2396", "rfc1808" or "rfc1630", with "+compat" for Compat.
func (r Rule) String() string {
	k := r.kind()
	if k >= numRules || r&^(Compat|0x7f) != 0 {
		return fmt.Sprintf("Rule(%d)", uint8(r))
	}
	if r.compat() {
		return ruleNames[k] + "+compat"
	}
	return ruleNames[k]
}

// ParseRule returns the rule called name: "rfc3986", "rfc2396", "rfc1808"
// or "rfc1630", optionally followed by "+compat".
func ParseRule(name string) (Rule, error) {
	base, compat := strings.CutSuffix(name, "+compat")
	for i, n := range ruleNames {
		if n == base {
			r := Rule(i)
			if compat {
				r |= Compat
			}
			return r, r.check()
		}
	}
	return 0, fmt.Errorf("urlkit: unknown resolution rule %q (want rfc3986, rfc2396, rfc1808 or rfc1630)", name)
}

// MarshalText returns the rule's name.
func (r Rule) MarshalText() ([]byte, error) { return []byte(r.String()), r.check() }

// UnmarshalText parses a rule name (ParseRule).
func (r *Rule) UnmarshalText(b []byte) error {
	v, err := ParseRule(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// ErrCompat is the error for Compat with a rule that has no compatible
// variant.
var ErrCompat = errors.New("urlkit: compat is defined only for the rfc3986 and rfc2396 rules (RFC 3986 5.2.2, RFC 2396 5.2 step 3)")

func (r Rule) check() error {
	if r.kind() >= numRules || r&^(Compat|0x7f) != 0 {
		return fmt.Errorf("urlkit: unknown resolution rule %d", uint8(r))
	}
	if r.compat() && r.kind() != Rule3986 && r.kind() != Rule2396 {
		return ErrCompat
	}
	return nil
}

// Step is one step of an explanation: the rule applied, named by its
// section, and what it did to which text. ExplainResolve and
// ExplainNormalize return them.
type Step struct {
	Section string // the rule's section: "RFC 3986 5.2.4 C", "RFC 1738 2.2"
	Note    string // what the step did, with the values involved
}

// String formats the step as "SECTION: NOTE".
func (s Step) String() string { return s.Section + ": " + s.Note }

// trace collects the steps of an explanation. Every call site checks for
// nil first, so that resolving without an explanation builds no message
// and boxes no argument.
type trace struct{ steps []Step }

func (t *trace) add(section, format string, args ...any) {
	t.steps = append(t.steps, Step{Section: section, Note: fmt.Sprintf(format, args...)})
}

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
func Resolve(base, ref *URL, rule Rule) (URL, error) {
	var u URL
	_, err := resolve(&u, base, ref, rule, nil, false)
	return u, err
}

// ResolveString parses base as an absolute URL and ref as a reference, both
// in the RFC3986 mode (whose grammar holds every example of RFC 1808,
// 2396 and 3986), and returns the resolved URL as text. It allocates once,
// for the result, under Rule3986.
func ResolveString(base, ref string, rule Rule) (string, error) {
	b, err := ParseMode(base, RFC3986)
	if err != nil {
		return "", err
	}
	r, err := ParseReference(ref, RFC3986)
	if err != nil {
		return "", err
	}
	var u URL
	return resolve(&u, &b, &r, rule, nil, true)
}

// ExplainResolve is Resolve that also reports the steps taken: which step
// of the rule fired, what was kept from the base and what taken from the
// reference, and which dot segments were removed.
func ExplainResolve(base, ref *URL, rule Rule) (URL, []Step, error) {
	t := &trace{}
	var u URL
	s, err := resolve(&u, base, ref, rule, t, true)
	if err != nil {
		return URL{}, t.steps, err
	}
	t.add("result", "%s", s)
	return u, t.steps, nil
}

// resolve writes the target into out and, when text is set, returns its
// text, built with one allocation, which out's fields then slice. Without
// text, out's fields slice the base and the reference wherever they can,
// and only a merged or cleaned path is new.
func resolve(out, base, ref *URL, rule Rule, t *trace, text bool) (string, error) {
	if err := rule.check(); err != nil {
		return "", err
	}
	if base.Scheme == "" {
		return "", &Error{Op: "resolve", Input: redactInput(base.String()), Offset: 0, Err: ErrMissingScheme,
			Rule: "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"}
	}
	if t != nil {
		mode := "strict"
		if rule.compat() {
			mode = "compat"
		}
		if k := rule.kind(); k == Rule3986 || k == Rule2396 {
			t.add("rule", "%s (%s, %s)", ruleNames[k], ruleTitles[k], mode)
		} else {
			t.add("rule", "%s (%s)", ruleNames[k], ruleTitles[k])
		}
	}
	switch rule.kind() {
	case Rule3986:
		return resolve3986(out, base, ref, rule.compat(), t, text), nil
	case Rule2396:
		return resolve2396(out, base, ref, rule.compat(), t, text), nil
	case Rule1808:
		return resolve1808(out, base, ref, t, text), nil
	default:
		return resolve1630(out, base, ref, t, text), nil
	}
}

// copyOf sets out to u and returns its text when text is set: the result
// of a rule that takes the base or the reference as it is.
func copyOf(out, u *URL, text bool) string {
	*out = *u
	if !text {
		return ""
	}
	return u.String()
}

// sameScheme compares two schemes ignoring ASCII case.
func sameScheme(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i]|0x20 != b[i]|0x20 {
			return false
		}
	}
	return true
}

// plan is the target of a resolution before it is written: where each
// component comes from. The path is pathA followed by pathB (the merged
// base directory and reference path of RFC 3986 5.2.3, without building
// the concatenation), with dot segments removed when dots is set. The
// plan names the base or the reference as the source of each component
// rather than copying their fields, which keeps the hot path free of
// large copies.
type plan struct {
	scheme       string
	auth         source // whose authority the target has, if that one has one
	query        source // whose query the target has, if that one has one
	frag         source // whose fragment the target has, if that one has one
	pathA, pathB string
	dots         bool
}

// source names where a component of the target comes from. The plan
// holds no pointer to the base or the reference: escape analysis cannot
// tell the plan's fields apart, and a pointer in it would make the base
// and the reference escape to the heap with the plan's strings.
type source uint8

const (
	fromNone source = iota
	fromBase
	fromRef
)

// pick returns the URL a source names, or nil.
func pick(s source, base, ref *URL) *URL {
	switch s {
	case fromBase:
		return base
	case fromRef:
		return ref
	}
	return nil
}

// resolve3986 is RFC 3986 5.2.2's pseudocode, step by step.
func resolve3986(out, base, ref *URL, compat bool, t *trace, text bool) string {
	const sec = "RFC 3986 5.2.2"
	p := plan{query: fromRef, frag: fromRef}
	hasScheme := ref.Scheme != ""
	if hasScheme && compat && sameScheme(ref.Scheme, base.Scheme) {
		hasScheme = false
		if t != nil {
			t.add(sec, "compat: the reference's scheme %q is the base's, so it is ignored (the note of 5.2.2)", ref.Scheme)
		}
	}
	switch {
	case hasScheme:
		p.scheme, p.auth = ref.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		if t != nil {
			t.add(sec, "the reference has a scheme: it is absolute; everything comes from it, its path %q through remove_dot_segments", ref.Path)
		}
	case ref.HasAuthority:
		p.scheme, p.auth = base.Scheme, fromRef
		p.pathB, p.dots = ref.Path, true
		if t != nil {
			a, _ := ref.Authority()
			t.add(sec, "the reference has an authority %q (a network-path reference): scheme %q kept from the base, path %q through remove_dot_segments", a, base.Scheme, ref.Path)
		}
	case ref.Path == "":
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathB = base.Path
		if !ref.HasQuery {
			p.query = fromBase
		}
		if t != nil {
			q := "the reference's"
			if !ref.HasQuery {
				q = "the base's"
			}
			t.add(sec, "the reference's path is empty: scheme, authority and path %q kept from the base, and %s query", base.Path, q)
		}
	case ref.Path[0] == '/':
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathB, p.dots = ref.Path, true
		if t != nil {
			t.add(sec, "the reference's path %q is absolute: scheme and authority kept from the base, the path through remove_dot_segments", ref.Path)
		}
	default:
		p.scheme, p.auth = base.Scheme, fromBase
		p.pathA, p.pathB, p.dots = mergeBase(base), ref.Path, true
		if t != nil {
			t.add(sec, "the reference's path %q is relative: scheme and authority kept from the base", ref.Path)
			if base.HasAuthority && base.Path == "" {
				t.add("RFC 3986 5.2.3", "merge: the base has an authority and an empty path, so \"/\" and the reference's path give %q", p.pathA+p.pathB)
			} else {
				t.add("RFC 3986 5.2.3", "merge: the base path %q without its last segment (%q) and the reference's path give %q", base.Path, base.Path[len(p.pathA):], p.pathA+p.pathB)
			}
		}
	}
	s := p.assemble(out, base, ref, t, "RFC 3986 5.2.4", text)
	if t != nil {
		q := pick(p.query, base, ref)
		t.add(sec, "query %s and fragment %s", describeOpt(q.Query, q.HasQuery), describeOpt(ref.Fragment, ref.HasFragment))
	}
	return s
}

// mergeBase returns the part of the base path that RFC 3986 5.2.3 keeps
// when merging a relative path: "/" for a base with an authority and an
// empty path, else everything up to and including the last "/".
func mergeBase(base *URL) string {
	if base.HasAuthority && base.Path == "" {
		return "/"
	}
	return base.Path[:strings.LastIndexByte(base.Path, '/')+1]
}

func describeOpt(v string, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%q", v)
}

// assemble sets out to the planned target. With text, it builds the
// target's text with one allocation, out's fields slice it, and it returns
// the text; without, out's fields slice the base and the reference, and
// only a merged or cleaned path is a new string.
func (p *plan) assemble(out, base, ref *URL, t *trace, sec string, text bool) string {
	if p.dots && (hasDotSegment(p.pathA) || hasDotSegment(p.pathB)) {
		return p.assembleDots(out, base, ref, t, sec, text)
	}
	if p.dots && t != nil {
		t.add(sec, "remove_dot_segments: %q has no \".\" or \"..\" segment", p.pathA+p.pathB)
	}
	if text {
		return p.write(out, base, ref, nil, false, t)
	}
	p.fields(out, base, ref, nil, false, t)
	return ""
}

// assembleDots is assemble for a path with dot segments: they are
// removed in a stack buffer (a heap one for a path over 256 bytes).
func (p *plan) assembleDots(out, base, ref *URL, t *trace, sec string, text bool) string {
	var scratch [256]byte
	b := scratch[:0]
	if n := len(p.pathA) + len(p.pathB); n > len(scratch) {
		b = make([]byte, 0, n)
	}
	b = append(append(b, p.pathA...), p.pathB...)
	clean := removeDotSegments(b, t, sec)
	if text {
		return p.write(out, base, ref, clean, true, t)
	}
	p.fields(out, base, ref, clean, true, t)
	return ""
}

// guard reports whether the target's path starts with "//" while it has
// no authority. RFC 3986 3.3 forbids that (the path would read as an
// authority), so "/." is written before such a path.
func (p *plan) guard(a *URL, clean []byte, cleaned bool, t *trace) bool {
	if a != nil && a.HasAuthority {
		return false
	}
	g := false
	if cleaned {
		g = len(clean) >= 2 && clean[0] == '/' && clean[1] == '/'
	} else {
		g = startsDoubleSlash(p.pathA, p.pathB)
	}
	if g && t != nil {
		t.add("RFC 3986 3.3", "the path starts with \"//\" and there is no authority: \"/.\" written before it")
	}
	return g
}

// fields sets out to the target without building its text: every
// component but a merged or cleaned path is the base's or the
// reference's own string.
func (p *plan) fields(out, base, ref *URL, clean []byte, cleaned bool, t *trace) {
	a := pick(p.auth, base, ref)
	guard := p.guard(a, clean, cleaned, t)
	var path string
	switch {
	case cleaned && guard:
		var b strings.Builder
		b.Grow(2 + len(clean))
		b.WriteString("/.")
		b.Write(clean)
		path = b.String()
	case cleaned:
		path = string(clean)
	case guard:
		path = "/." + p.pathA + p.pathB
	case p.pathA == "":
		path = p.pathB
	default:
		path = p.pathA + p.pathB
	}
	u := URL{Scheme: p.scheme, Path: path}
	if a != nil && a.HasAuthority {
		u.User, u.Password, u.Host, u.Port = a.User, a.Password, a.Host, a.Port
		u.HasAuthority, u.HasUser, u.HasPassword, u.HasPort = true, a.HasUser, a.HasPassword, a.HasPort
	}
	if q := pick(p.query, base, ref); q != nil && q.HasQuery {
		u.Query, u.HasQuery = q.Query, true
	}
	if f := pick(p.frag, base, ref); f != nil && f.HasFragment {
		u.Fragment, u.HasFragment = f.Fragment, true
	}
	*out = u
}

// write builds the target's text with one allocation and sets out to the
// URL whose fields slice it. The path is clean when cleaned is set, else
// pathA followed by pathB.
func (p *plan) write(out, base, ref *URL, clean []byte, cleaned bool, t *trace) string {
	pathLen := len(clean)
	if !cleaned {
		pathLen = len(p.pathA) + len(p.pathB)
	}
	a, q, f := pick(p.auth, base, ref), pick(p.query, base, ref), pick(p.frag, base, ref)
	hasAuth := a != nil && a.HasAuthority
	guard := p.guard(a, clean, cleaned, t)
	if guard {
		pathLen += 2
	}
	hasQuery := q != nil && q.HasQuery
	hasFrag := f != nil && f.HasFragment
	n := len(p.scheme) + 1 + pathLen
	if hasAuth {
		n += 2 + len(a.User) + 1 + len(a.Password) + 1 + len(a.Host) + 1 + len(a.Port)
	}
	if hasQuery {
		n += 1 + len(q.Query)
	}
	if hasFrag {
		n += 1 + len(f.Fragment)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(p.scheme)
	b.WriteByte(':')
	var userAt, passAt, hostAt, portAt int
	if hasAuth {
		b.WriteString("//")
		if a.HasUser {
			userAt = b.Len()
			b.WriteString(a.User)
			if a.HasPassword {
				b.WriteByte(':')
				passAt = b.Len()
				b.WriteString(a.Password)
			}
			b.WriteByte('@')
		}
		hostAt = b.Len()
		b.WriteString(a.Host)
		if a.HasPort {
			b.WriteByte(':')
			portAt = b.Len()
			b.WriteString(a.Port)
		}
	}
	pathAt := b.Len()
	if guard {
		b.WriteString("/.")
	}
	if cleaned {
		b.Write(clean)
	} else {
		b.WriteString(p.pathA)
		b.WriteString(p.pathB)
	}
	pathEnd := b.Len()
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(q.Query)
	}
	if hasFrag {
		b.WriteByte('#')
		b.WriteString(f.Fragment)
	}
	s := b.String()
	// The sources may be out itself: read them before writing out.
	var user, pass, host, port, query, frag string
	var hasUser, hasPass, hasPort bool
	if hasAuth {
		hasUser, hasPass, hasPort = a.HasUser, a.HasPassword, a.HasPort
		if hasUser {
			user = s[userAt : userAt+len(a.User)]
		}
		if hasPass {
			pass = s[passAt : passAt+len(a.Password)]
		}
		host = s[hostAt : hostAt+len(a.Host)]
		if hasPort {
			port = s[portAt : portAt+len(a.Port)]
		}
	}
	if hasQuery {
		query = s[pathEnd+1 : pathEnd+1+len(q.Query)]
	}
	if hasFrag {
		frag = s[len(s)-len(f.Fragment):]
	}
	*out = URL{
		Scheme: s[:len(p.scheme)], User: user, Password: pass, Host: host, Port: port,
		Path: s[pathAt:pathEnd], Query: query, Fragment: frag,
		HasAuthority: hasAuth, HasUser: hasUser, HasPassword: hasPass, HasPort: hasPort,
		HasQuery: hasQuery, HasFragment: hasFrag,
	}
	return s
}

func startsDoubleSlash(a, b string) bool {
	switch {
	case len(a) >= 2:
		return a[0] == '/' && a[1] == '/'
	case len(a) == 1:
		return a[0] == '/' && len(b) > 0 && b[0] == '/'
	}
	return len(b) >= 2 && b[0] == '/' && b[1] == '/'
}

// hasDotSegment reports whether path has a complete "." or ".." segment.
// Paths are short: a plain loop beats IndexByte's call and setup.
func hasDotSegment(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '.' || i > 0 && path[i-1] != '/' {
			continue
		}
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return true
		}
	}
	return false
}

// removeDotSegments is RFC 3986 5.2.4's algorithm, in place: the output
// buffer is b[:out] and the input buffer b[in:], and out never passes
// in, since every step consumes at least as much input as it writes
// output. The input buffer starts with "/" except at the very start and
// after rule A, so only there can rules A and D apply.
func removeDotSegments(b []byte, t *trace, sec string) []byte {
	if t != nil {
		t.add(sec, "remove_dot_segments on %q", string(b))
	}
	in, out, n := 0, 0, len(b)
	for in < n {
		if b[in] == '/' {
			switch dots(b, in+1) {
			case 1: // B: "/./" or a final "/." becomes "/"
				if t != nil {
					if in+2 == n {
						t.add(sec+" B", "the final \"/.\" replaced by \"/\"")
					} else {
						t.add(sec+" B", "\"/./\" replaced by \"/\"")
					}
				}
				if in+2 == n {
					in++
					b[in] = '/'
				} else {
					in += 2
				}
				continue
			case 2: // C: "/../" or a final "/.." becomes "/", and the last output segment goes
				last := lastSlash(b[:out])
				if t != nil {
					what := "\"/../\""
					if in+3 == n {
						what = "the final \"/..\""
					}
					if out == 0 {
						t.add(sec+" C", "%s replaced by \"/\"; the output has no segment to remove", what)
					} else {
						t.add(sec+" C", "%s replaced by \"/\" and the segment %q removed from the output", what, string(b[last:out]))
					}
				}
				if in+3 == n {
					in += 2
					b[in] = '/'
				} else {
					in += 3
				}
				out = last
				continue
			}
		} else if d := dots(b, in); d > 0 {
			if in+d == n { // D: the input is "." or ".."
				if t != nil {
					t.add(sec+" D", "the input %q alone removed", string(b[in:n]))
				}
				in = n
				continue
			}
			// A: a prefix "./" or "../"
			if t != nil {
				t.add(sec+" A", "the prefix %q removed from the input", string(b[in:in+d+1]))
			}
			in += d + 1
			continue
		}
		// E: the first segment moves to the output.
		j := in + 1
		for j < n && b[j] != '/' {
			j++
		}
		if out != in {
			copy(b[out:], b[in:j])
		}
		out += j - in
		in = j
	}
	if t != nil {
		t.add(sec, "result %q", string(b[:out]))
	}
	return b[:out]
}

// dots returns 1 or 2 when b[i:] starts with a complete "." or ".."
// segment (followed by "/" or the end), else 0.
func dots(b []byte, i int) int {
	n := len(b)
	if i >= n || b[i] != '.' {
		return 0
	}
	if i+1 == n || b[i+1] == '/' {
		return 1
	}
	if b[i+1] == '.' && (i+2 == n || b[i+2] == '/') {
		return 2
	}
	return 0
}

// lastSlash returns the index of the last "/" of b, or 0 when it has none
// (RFC 3986 5.2.4 C: "remove the last segment and its preceding '/' (if
// any) from the output buffer").
func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}

// hierarchicalScheme reports whether a scheme is "known to always use
// the <hier_part> syntax", for RFC 2396 5.2 step 3's compatibility rule:
// the schemes of RFC 1738's common Internet scheme syntax, and https.
// Normalize uses the same list for the optional "/" before an empty
// url-path.
func hierarchicalScheme(name string) bool {
	if s := lookupScheme(name); s != nil && (s.Grammar1738 && s.IP || s.Name == "https") {
		return true
	}
	return false
}

// resolve2396 is RFC 2396 section 5.2, steps 1 to 7.
func resolve2396(out, base, ref *URL, compat bool, t *trace, text bool) string {
	const sec = "RFC 2396 5.2"
	if ref.Scheme == "" && !ref.HasAuthority && ref.Path == "" && !ref.HasQuery {
		p := plan{scheme: base.Scheme, auth: fromBase, query: fromBase, frag: fromRef, pathB: base.Path}
		if t != nil {
			t.add(sec+" step 2", "empty path and no scheme, authority or query: a reference to the current document, the base without its fragment; fragment %s", describeOpt(ref.Fragment, ref.HasFragment))
		}
		return p.assemble(out, base, ref, t, sec, text)
	}
	if ref.Scheme != "" {
		if !(compat && sameScheme(ref.Scheme, base.Scheme) && hierarchicalScheme(base.Scheme)) {
			if t != nil {
				note := "the reference has a scheme: it is absolute and taken as it is"
				if compat && sameScheme(ref.Scheme, base.Scheme) {
					note += " (compat removes only the scheme of a scheme known to use the <hier_part> syntax)"
				}
				t.add(sec+" step 3", "%s", note)
			}
			return copyOf(out, ref, text)
		}
		if t != nil {
			t.add(sec+" step 3", "compat: the reference's scheme %q is the base's and always uses the <hier_part> syntax, so it is removed", ref.Scheme)
		}
	}
	p := plan{scheme: base.Scheme, auth: fromBase, query: fromRef, frag: fromRef}
	switch {
	case ref.HasAuthority:
		p.auth = fromRef
		p.pathB = ref.Path
		if t != nil {
			t.add(sec+" step 4", "the reference has an authority (a network path): only the scheme %q comes from the base", base.Scheme)
		}
	case strings.HasPrefix(ref.Path, "/"):
		p.pathB = ref.Path
		if t != nil {
			t.add(sec+" step 5", "the reference's path %q is absolute: scheme and authority from the base, the path as it is", ref.Path)
		}
	default:
		dir := mergeBase(base)
		if t != nil {
			t.add(sec+" step 4", "no authority in the reference: scheme and authority from the base")
			if base.HasAuthority && base.Path == "" {
				t.add(sec+" step 6a", "the base has an authority and no path: the buffer starts with \"/\" (RFC 3986 5.2.3's fix; RFC 2396 would glue the path to the host)")
			} else {
				t.add(sec+" step 6a", "the base path %q without its last segment: %q", base.Path, dir)
			}
			t.add(sec+" step 6b", "the reference's path %q appended: %q", ref.Path, dir+ref.Path)
		}
		p.pathB = dotSteps(dir+ref.Path, t, sec+" step 6", [4]string{"c", "d", "e", "f"})
		if t != nil {
			if strings.HasPrefix(p.pathB, "/../") || p.pathB == "/.." {
				t.add(sec+" step 6g", "\"..\" segments left at the start are kept")
			}
		}
	}
	if t != nil {
		t.add(sec+" step 7", "query %s and fragment %s from the reference", describeOpt(ref.Query, ref.HasQuery), describeOpt(ref.Fragment, ref.HasFragment))
	}
	return p.assemble(out, base, ref, t, sec, text)
}

// dotSteps applies RFC 2396 5.2 step 6c to 6f (RFC 1808 section 4 step 6a
// to 6d, the same text) to a merged path: remove every "./" where "." is
// a complete segment; remove a final "."; remove "<segment>/../" where
// <segment> is a complete segment other than "..", leftmost first, until
// none is left; remove a final "<segment>/..". A leading "/" is not
// preceded by a segment.
func dotSteps(path string, t *trace, sec string, labels [4]string) string {
	if !hasDotSegment(path) {
		return path
	}
	lead := ""
	if strings.HasPrefix(path, "/") {
		lead, path = "/", path[1:]
	}
	segs := strings.Split(path, "/")
	show := func(label, format string, args ...any) {
		if t != nil {
			t.add(sec+label, format+": %q", append(args, lead+strings.Join(segs, "/"))...)
		}
	}
	// c) "./" where "." is a complete segment.
	kept := segs[:0]
	removed := 0
	for i, s := range segs {
		if s == "." && i < len(segs)-1 {
			removed++
			continue
		}
		kept = append(kept, s)
	}
	segs = kept
	if removed > 0 {
		show(labels[0], "%d \"./\" removed", removed)
	}
	// d) a final ".".
	if segs[len(segs)-1] == "." {
		segs[len(segs)-1] = ""
		show(labels[1], "the final \".\" removed")
	}
	// e) "<segment>/../", leftmost first, until none is left.
	for {
		i := 0
		for ; i+2 < len(segs); i++ {
			if segs[i] != ".." && segs[i+1] == ".." {
				break
			}
		}
		if i+2 >= len(segs) {
			break
		}
		seg := segs[i]
		segs = append(segs[:i], segs[i+2:]...)
		show(labels[2], "%q removed", seg+"/../")
	}
	// f) a final "<segment>/..".
	if n := len(segs); n >= 2 && segs[n-1] == ".." && segs[n-2] != ".." {
		seg := segs[n-2]
		segs = append(segs[:n-2], "")
		show(labels[3], "the final %q removed", seg+"/..")
	}
	return lead + strings.Join(segs, "/")
}

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

// String recombines the parts (RFC 1808 step 7), and the length of the
// scheme (-1 for none), for splitURL.
func (p *parts1808) String() (string, int) {
	var b strings.Builder
	k := -1
	if p.hasScheme {
		b.WriteString(p.scheme)
		b.WriteByte(':')
		k = len(p.scheme)
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
	return b.String(), k
}

// resolve1808 is RFC 1808 section 4, steps 1 to 7.
func resolve1808(out, base, ref *URL, t *trace, text bool) string {
	const sec = "RFC 1808 step "
	rs := ref.String()
	if rs == "" {
		if t != nil {
			t.add(sec+"2a", "the reference is empty: it is the whole base, fragment included")
		}
		return copyOf(out, base, text)
	}
	bp := parse1808(base.String())
	r := parse1808(rs)
	if r.hasScheme {
		if t != nil {
			t.add(sec+"2b", "the reference starts with a scheme name: it is absolute and taken as it is")
		}
		return copyOf(out, ref, text)
	}
	r.scheme, r.hasScheme = bp.scheme, true
	if t != nil {
		t.add(sec+"2c", "the reference inherits the scheme %q", bp.scheme)
	}
	switch {
	case r.netloc != "":
		if t != nil {
			t.add(sec+"3", "the reference's net_loc %q is not empty: done", r.netloc)
		}
	case r.slash:
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		if t != nil {
			t.add(sec+"3", "the reference's net_loc is empty: it inherits the base's, %s", describeOpt(bp.netloc, bp.hasNetloc))
			t.add(sec+"4", "the reference's path is preceded by \"/\": it is not relative, done")
		}
	case r.path == "":
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		r.path, r.slash = bp.path, bp.slash
		if t != nil {
			t.add(sec+"3", "the reference's net_loc is empty: it inherits the base's, %s", describeOpt(bp.netloc, bp.hasNetloc))
			t.add(sec+"5", "the reference's path is empty: it inherits the base path %q", slashPath(bp.slash, bp.path))
		}
		if r.params != "" {
			if t != nil {
				t.add(sec+"5a", "the reference's params %q are not empty: done", r.params)
			}
			break
		}
		r.params, r.hasParams = bp.params, bp.hasParams
		if t != nil {
			t.add(sec+"5a", "the reference has no params: it inherits the base's, %s", describeOpt(bp.params, bp.hasParams))
		}
		if r.query != "" {
			if t != nil {
				t.add(sec+"5b", "the reference's query %q is not empty: done", r.query)
			}
			break
		}
		r.query, r.hasQuery = bp.query, bp.hasQuery
		if t != nil {
			t.add(sec+"5b", "the reference has no query: it inherits the base's, %s", describeOpt(bp.query, bp.hasQuery))
		}
	default:
		r.netloc, r.hasNetloc = bp.netloc, bp.hasNetloc
		dir := bp.path[:strings.LastIndexByte(bp.path, '/')+1]
		r.slash = bp.slash || bp.hasNetloc
		if t != nil {
			t.add(sec+"3", "the reference's net_loc is empty: it inherits the base's, %s", describeOpt(bp.netloc, bp.hasNetloc))
			t.add(sec+"6", "the last segment of the base path %q removed (params %s and query play no part) and the reference's path %q appended: %q",
				slashPath(bp.slash, bp.path), describeOpt(bp.params, bp.hasParams), r.path, slashPath(r.slash, dir+r.path))
			if bp.hasNetloc && !bp.slash {
				t.add(sec+"6", "the base has a net_loc and no path: \"/\" separates them (RFC 1808 2.2: net_path = \"//\" net_loc [ abs_path ])")
			}
		}
		r.path = dotSteps(dir+r.path, t, sec+"6", [4]string{"a", "b", "c", "d"})
	}
	return finish(out, &r, t)
}

func slashPath(slash bool, path string) string {
	if slash {
		return "/" + path
	}
	return path
}

// finish recombines RFC 1808 parts (step 7) and guards a path that starts
// with "//" when there is no net_loc.
func finish(out *URL, r *parts1808, t *trace) string {
	if !r.hasNetloc && r.slash && strings.HasPrefix(r.path, "/") {
		r.path = "./" + r.path
		if t != nil {
			t.add("RFC 3986 3.3", "the path starts with \"//\" and there is no authority: \"/.\" written before it")
		}
	}
	s, k := r.String()
	*out = splitURL(s, k)
	return s
}

// resolve1630 is RFC 1630's partial-form rule; see Rule1630.
func resolve1630(out, base, ref *URL, t *trace, text bool) string {
	const sec = "RFC 1630"
	if ref.Scheme != "" {
		if t != nil {
			t.add(sec, "the reference has a colon before any slash: it is absolute and taken as it is")
		}
		return copyOf(out, ref, text)
	}
	ctx := *base
	ctx.HasFragment, ctx.Fragment = false, ""
	cs := ctx.String()
	rs := ref.String()
	schemeLen := len(base.Scheme)
	rpart := rs
	if i := strings.IndexByte(rs, '#'); i >= 0 {
		rpart = rs[:i]
	}
	if rpart == "" {
		if t != nil {
			if ref.HasFragment {
				t.add(sec+" (urlkit's choice)", "a fragment alone: the context %q with fragment %q", cs, ref.Fragment)
			} else {
				t.add(sec+" (urlkit's choice)", "the empty reference: the context itself, %q", cs)
			}
		}
		s := cs + rs
		*out = splitURL(s, schemeLen)
		return s
	}
	hier := cs
	if i := strings.IndexByte(cs, '?'); i >= 0 {
		hier = cs[:i]
	}
	if n := leadingSlashes(rpart); n > 0 {
		p := firstRun(hier, schemeLen+1, n)
		var s string
		if p < 0 {
			s = cs[:schemeLen+1] + rs
			if t != nil {
				t.add(sec+" (urlkit's choice)", "the partial form starts with %d slashes and the context %q has no run of exactly %d: only the scheme %q is kept", n, cs, n, cs[:schemeLen+1])
			}
		} else {
			s = cs[:p] + rs
			if t != nil {
				t.add(sec, "the partial form starts with %d slash(es): the context up to its first run of exactly %d is kept, %q", n, n, cs[:p])
			}
		}
		return clean1630(out, s, schemeLen, t)
	}
	pathAt := schemeLen + 1
	if a, ok := ctx.Authority(); ok {
		pathAt += 2 + len(a)
	}
	path := ctx.Path
	var kept, last string
	switch i := strings.LastIndexByte(path, '/'); {
	case i >= 0:
		kept, last = cs[:pathAt+i+1], path[i+1:]
	case ctx.HasAuthority:
		kept = cs[:pathAt] + "/"
		if t != nil {
			t.add(sec+" (urlkit's choice)", "the context has an authority and an empty path: \"/\" separates them")
		}
	default:
		kept, last = cs[:pathAt], path
	}
	if t != nil {
		t.add(sec, "the last element of the context's path %q, %q, replaced by the partial form: %q", path, last, kept+rs)
	}
	return clean1630(out, kept+rs, schemeLen, t)
}

// clean1630 applies the last step of the partial-form rule to the joined
// string s, whichever way it was joined (CLI.md: "Then /. and xxx/../ are
// removed repeatedly, inside the path only"), and splits the result.
func clean1630(out *URL, s string, schemeLen int, t *trace) string {
	u := splitURL(s, schemeLen)
	pathAt := schemeLen + 1
	if a, ok := u.Authority(); ok {
		pathAt += 2 + len(a)
	}
	end := pathAt + len(u.Path)
	clean := removeDots1630(s[pathAt:end], t)
	if !u.HasAuthority && strings.HasPrefix(clean, "//") {
		clean = "/." + clean
		if t != nil {
			t.add("RFC 3986 3.3", "the path starts with \"//\" and there is no authority: \"/.\" written before it")
		}
	}
	if len(clean) != end-pathAt {
		s = s[:pathAt] + clean + s[end:]
	}
	*out = splitURL(s, schemeLen)
	return s
}

func leadingSlashes(s string) int {
	n := 0
	for n < len(s) && s[n] == '/' {
		n++
	}
	return n
}

// firstRun returns the offset in s, from i on, of the first run of exactly
// n slashes, or -1.
func firstRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '/' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '/' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// removeDots1630 removes "/." and "xxx/../" (and a final "xxx/..")
// repeatedly, leftmost first, from path; see Rule1630.
func removeDots1630(path string, t *trace) string {
	const sec = "RFC 1630"
	for {
		at, end, what := -1, 0, ""
		var protected []string
		for i := 0; i < len(path); i++ {
			// "/." where "." is a complete element.
			if path[i] == '/' && i+1 < len(path) && path[i+1] == '.' && (i+2 == len(path) || path[i+2] == '/') {
				at, end, what = i, i+2, "\"/.\""
				break
			}
			// xxx/../ where xxx is a complete element, not "..", not after
			// a run of two or more slashes.
			if path[i] == '/' || i > 0 && path[i-1] != '/' {
				continue
			}
			j := i
			for j < len(path) && path[j] != '/' {
				j++
			}
			xxx := path[i:j]
			if xxx == ".." || j+3 > len(path) || path[j+1:j+3] != ".." || j+3 < len(path) && path[j+3] != '/' {
				continue
			}
			if i >= 2 && path[i-2] == '/' {
				if t != nil {
					protected = append(protected, xxx)
				}
				continue
			}
			at, end = i, j+4
			what = fmt.Sprintf("%q", xxx+"/../")
			if j+3 == len(path) {
				end = j + 3
				what = fmt.Sprintf("the final %q (urlkit's choice: as if followed by \"/\")", xxx+"/..")
			}
			break
		}
		if at < 0 {
			for _, xxx := range protected {
				t.add(sec, "%q kept: %q follows a run of slashes, which \"..\" does not climb over", xxx+"/..", xxx)
			}
			return path
		}
		path = path[:at] + path[end:]
		if t != nil {
			t.add(sec, "%s removed: %q", what, path)
		}
	}
}

// splitURL splits s into components without checking them, the way RFC
// 3986 appendix B does, so that String gives s back. The scheme is
// s[:schemeLen] when schemeLen >= 0 (s[schemeLen] is its ":"); with
// schemeLen < 0, s is a reference without a scheme.
func splitURL(s string, schemeLen int) URL {
	var u URL
	i := 0
	if schemeLen >= 0 {
		u.Scheme = s[:schemeLen]
		i = schemeLen + 1
	}
	if strings.HasPrefix(s[i:], "//") {
		u.HasAuthority = true
		i += 2
		end := len(s)
		if k := strings.IndexAny(s[i:], "/?#"); k >= 0 {
			end = i + k
		}
		a := s[i:end]
		if at := strings.LastIndexByte(a, '@'); at >= 0 {
			u.HasUser = true
			info := a[:at]
			if c := strings.IndexByte(info, ':'); c >= 0 {
				u.User, u.HasPassword, u.Password = info[:c], true, info[c+1:]
			} else {
				u.User = info
			}
			a = a[at+1:]
		}
		hostEnd := len(a)
		if strings.HasPrefix(a, "[") {
			if k := strings.IndexByte(a, ']'); k >= 0 && k+1 < len(a) && a[k+1] == ':' {
				hostEnd = k + 1
			}
		} else if c := strings.IndexByte(a, ':'); c >= 0 {
			hostEnd = c
		}
		u.Host = a[:hostEnd]
		if hostEnd < len(a) {
			u.HasPort, u.Port = true, a[hostEnd+1:]
		}
		i = end
	}
	end := len(s)
	if k := strings.IndexAny(s[i:], "?#"); k >= 0 {
		end = i + k
	}
	u.Path = s[i:end]
	i = end
	if i < len(s) && s[i] == '?' {
		end = len(s)
		if k := strings.IndexByte(s[i:], '#'); k >= 0 {
			end = i + k
		}
		u.HasQuery, u.Query = true, s[i+1:end]
		i = end
	}
	if i < len(s) {
		u.HasFragment, u.Fragment = true, s[i+1:]
	}
	return u
}
