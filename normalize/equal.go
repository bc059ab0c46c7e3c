package normalize

import (
	"strconv"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/resolve"
)

// Equal reports whether a and b are the same URL: whether they are equal
// component by component once both are normalized (Normalize), absent and
// empty components kept apart. It is an equivalence relation: reflexive,
// symmetric and transitive. "http://info.cern.ch/albert/bertram/marie-claude"
// equals ".../marie%2Dclaude" and does not equal ".../bertram%2Fmarie-claude"
// (RFC 1630, examples 1 and 2).
//
// Normalizer.Equal compares with optional normalizations too.
func Equal(a, b *urlkit.URL, m urlkit.Mode) bool {
	na, nb := normalize(a, m, nil), normalize(b, m, nil)
	return na.SameComponents(&nb)
}

// Comparison is ExplainEqual's account of a comparison: the verdict, the
// normalized forms, what normalization did to each side, and the
// components that still differ.
type Comparison struct {
	Equal          bool
	A, B           urlkit.URL         // the normalized forms
	StepsA, StepsB []resolve.RuleStep // the rules that changed each side (Explain)
	Differences    []Difference       // the components that differ after normalization, in urlkit.URL order
}

// Difference is a component that differs between two normalized URLs.
type Difference struct {
	Component string // scheme, authority, user, password, host, port, path, query or fragment
	A, B      string // the values, quoted, or "(none)" for an absent component
	Note      string // the rule that keeps them apart, when one does
}

// String formats the difference as `COMPONENT: A != B (NOTE)`.
func (d Difference) String() string {
	s := d.Component + ": " + d.A + " != " + d.B
	if d.Note != "" {
		s += " (" + d.Note + ")"
	}
	return s
}

// ExplainEqual compares a and b like Equal and says why: when they are
// equal, which rules made them so (StepsA and StepsB); when not, which
// components differ after normalization.
func ExplainEqual(a, b *urlkit.URL, m urlkit.Mode) Comparison {
	return Normalizer{Mode: m}.ExplainEqual(a, b)
}

// ExplainEqual compares a and b like n.Equal and says why, as the
// function ExplainEqual does.
func (n Normalizer) ExplainEqual(a, b *urlkit.URL) Comparison {
	var c Comparison
	c.A, c.StepsA = n.Explain(a)
	c.B, c.StepsB = n.Explain(b)
	c.Equal = c.A.SameComponents(&c.B)
	if c.Equal {
		return c
	}
	x, y := &c.A, &c.B
	diff := func(comp string, va string, ha bool, vb string, hb bool, note string) {
		if ha == hb && va == vb {
			return
		}
		d := Difference{Component: comp, A: optQuote(va, ha), B: optQuote(vb, hb)}
		if ha != hb {
			d.Note = note
		}
		c.Differences = append(c.Differences, d)
	}
	diff("scheme", x.Scheme, true, y.Scheme, true, "")
	if x.HasAuthority != y.HasAuthority {
		xa, _ := x.Authority()
		ya, _ := y.Authority()
		diff("authority", xa, x.HasAuthority, ya, y.HasAuthority, "")
	} else {
		diff("user", x.User, x.HasUser, y.User, y.HasUser, "RFC 1738 3.1: an empty user name is not the same as no user name")
		diff("password", x.Password, x.HasPassword, y.Password, y.HasPassword, "RFC 1738 3.1: an empty password is not the same as no password")
		diff("host", x.Host, true, y.Host, true, "")
		diff("port", x.Port, x.HasPort, y.Port, y.HasPort, "")
	}
	diff("path", x.Path, true, y.Path, true, "")
	diff("query", x.Query, x.HasQuery, y.Query, y.HasQuery, "an empty query is not the same as no query")
	diff("fragment", x.Fragment, x.HasFragment, y.Fragment, y.HasFragment, "an empty fragment is not the same as no fragment")
	return c
}

func optQuote(v string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return strconv.Quote(v)
}
