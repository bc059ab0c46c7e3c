// Package resolver is the resolution engine of urlkit: the four rules
// (RFC 3986, 2396 and 1808 section 5.2 or 4, RFC 1630's partial form),
// RFC 3986's remove_dot_segments, make-relative and the events their
// explanations write down. The root package resolves with RFC 3986
// through it ((*URL).ResolveReference); package resolve exports every
// rule; package normalize removes dot segments with it. It works on URL,
// the components of urlkit.URL, which both convert field by field.
//
// Where a rule builds the target as text (RFC 1808's and 1630's, and the
// text results), it splits that text back into components with the root
// parser's RFC 3986 decomposition (Parse), which the root, importing
// this package, installs.
package resolver

import "github.com/urlkit/urlkit/internal/registry"

// Resolution: the entry points and the dispatch to the four rules, each
// in a file of its own (resolve3986.go, resolve2396.go, resolve1808.go,
// resolve1630.go), which share the target's assembly (resolve_target.go)
// and RFC 3986's remove_dot_segments (dotsegments.go). The explanation
// observes them (resolve_explain.go).

// Resolve writes the target into out and, when text is set, returns its
// text, built with one allocation, which out's fields then slice; out may
// then be nil, for the text alone. Without text, out's fields slice the
// base and the reference wherever they can, and only a merged or cleaned
// path is new. rule is one Check accepts: every caller checks it first,
// where the error is reported.
func Resolve(out, base, ref *URL, rule Rule, t *Trace, text bool) string {
	t.ruleChosen(rule)
	var s string
	switch rule.kind() {
	case Rule3986:
		s = resolve3986(out, base, ref, rule.compat(), t, text)
	case Rule2396:
		s = resolve2396(out, base, ref, rule.compat(), t, text)
	case Rule1808:
		if out == nil {
			var spare URL // the rule splits its text into a URL
			out = &spare
		}
		s = resolve1808(out, base, ref, t, text)
	default:
		if out == nil {
			var spare URL
			out = &spare
		}
		s = resolve1630(out, base, ref, t, text)
	}
	switch {
	case text && ReadsAsPrefix(s):
		t.PrefixEscapeWritten(s[4:])
		s = EscapePrefix(s)
		if out != nil {
			*out = split(s)
		}
	case !text && PathReadsAsPrefix(out.Scheme, out.HasAuthority, out.Path):
		t.PrefixEscapeWritten(out.Path)
		out.Path, out.Written = EscapeFirst(out.Path), ""
	}
	return s
}

// Parse is the root parser's reading of s in its RFC3986 mode, as a
// reference (urlkit.ParseReference), with its text: the root installs
// it from its init, since this package, which the root imports, cannot
// call the root. It takes and returns values alone, so that escape
// analysis loses nothing through the indirect call.
var Parse func(s string) (URL, error)

// split is RFC 3986's decomposition of a text a rule built, by the
// parser. A text that reads as RFC 1738's "URL:" prefix before a URL (a
// path "http:..." under a scheme "url") is split as the URL it is, not
// as the prefixed one; one the parser refuses (no rule builds one from
// valid URLs) is kept whole as a path.
func split(s string) URL {
	text := s
	if ReadsAsPrefix(s) {
		text = EscapePrefix(s)
	}
	p, err := Parse(text)
	if err != nil {
		return URL{Path: s, Written: s}
	}
	if text != s {
		p.Path = s[4 : 4+len(p.Path)-2] // "%XX" back to its byte
		p.Written = s
	}
	return p
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

// HierarchicalScheme reports whether a scheme is "known to always use
// the <hier_part> syntax", for RFC 2396 5.2 step 3's compatibility rule:
// the schemes of RFC 1738's common Internet scheme syntax, and https.
// Normalize uses the same list for the optional "/" before an empty
// url-path.
func HierarchicalScheme(name string) bool {
	if s := registry.Lookup(name); s != nil && (s.Grammar1738 && s.IP || s.Name == "https") {
		return true
	}
	return false
}
