package urlkit

import "github.com/urlkit/urlkit/internal/safetext"

// Resolution: the entry points and the dispatch to the four rules, each
// in a file of its own (resolve3986.go, resolve2396.go, resolve1808.go,
// resolve1630.go), which share the target's assembly (resolve_target.go)
// and RFC 3986's remove_dot_segments (dotsegments.go). The explanation
// observes them (resolve_explain.go).

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
// 2396 and 3986), and returns the resolved URL as text. Under Rule3986
// it allocates once, for the result, or not at all when the result is
// ref itself or a part of base.
func ResolveString(base, ref string, rule Rule) (string, error) {
	var b, r URL
	if err := parseInto(&b, base, false); err != nil {
		return "", err
	}
	if err := parseInto(&r, ref, true); err != nil {
		return "", err
	}
	if rule == Rule3986 || rule == Rule3986|Compat {
		return escapePrefix(text3986(&b, &r, rule.compat())), nil // b and r are in their written form
	}
	return resolve(nil, &b, &r, rule, nil, true)
}

// parseInto is ParseMode (ParseReference with ref) in the RFC3986 mode,
// into u: the one pass writes the URL where it is needed, not into a
// result to be copied.
func parseInto(u *URL, s string, ref bool) error {
	end := parseFast(u, s, RFC3986, ref)
	if end == len(s) {
		return nil
	}
	if e := stoppedError(u, s, RFC3986, ref, end); e != nil {
		*u = URL{} // as parseFull leaves it on an error
		return e
	}
	v, _, err := parseFull(s, RFC3986, ref)
	*u = v
	return err
}

// ExplainResolve is Resolve that also reports the steps taken: which step
// of the rule fired, what was kept from the base and what taken from the
// reference, and which dot segments were removed.
func ExplainResolve(base, ref *URL, rule Rule) (URL, []RuleStep, error) {
	t := &trace{}
	var u URL
	s, err := resolve(&u, base, ref, rule, t, true)
	if err != nil {
		return URL{}, t.steps, err
	}
	t.result(s)
	return u, t.steps, nil
}

// resolve writes the target into out and, when text is set, returns its
// text, built with one allocation, which out's fields then slice; out may
// then be nil, for the text alone. Without text, out's fields slice the
// base and the reference wherever they can, and only a merged or cleaned
// path is new.
func resolve(out, base, ref *URL, rule Rule, t *trace, text bool) (string, error) {
	if err := rule.check(); err != nil {
		return "", err
	}
	if base.Scheme == "" {
		return "", &Error{Op: "resolve", Input: safetext.RedactURL(base.String()), Offset: 0, Err: ErrMissingScheme,
			Rule: "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"}
	}
	t.ruleChosen(rule)
	var s string
	var spare URL // RFC 1808's and 1630's rules split their text into a URL
	switch rule.kind() {
	case Rule3986:
		s = resolve3986(out, base, ref, rule.compat(), t, text)
	case Rule2396:
		s = resolve2396(out, base, ref, rule.compat(), t, text)
	case Rule1808:
		if out == nil {
			out = &spare
		}
		s = resolve1808(out, base, ref, t, text)
	default:
		if out == nil {
			out = &spare
		}
		s = resolve1630(out, base, ref, t, text)
	}
	switch {
	case text && readsAsPrefix(s):
		t.prefixEscapeWritten(s[4:])
		s = escapePrefix(s)
		if out != nil {
			*out = split(s)
		}
	case !text && pathReadsAsPrefix(out):
		t.prefixEscapeWritten(out.Path)
		out.Path = escapeFirst(out.Path)
	}
	return s, nil
}

// copyOf sets out to u and returns its text when text is set: the result
// of a rule that takes the base or the reference as it is.
func copyOf(out, u *URL, text bool) string {
	if out != nil {
		*out = *u
	}
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
