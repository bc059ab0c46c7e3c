package normalize

import (
	"fmt"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
)

// The events of normalization, as Explain writes them down; as
// for resolution (internal/resolver/resolve_explain.go), each event is an
// inlinable nil test around its Note method (escapeNote for two of them). The escapes changed in one component are
// gathered (escapeDecoded, escapeUpperCased, byteEncoded) and written as
// up to three steps when the component is done.

func (t *trace) schemeLowered(from, to string) {
	if t != nil {
		t.schemeLoweredNote(from, to)
	}
}

func (t *trace) schemeLoweredNote(from, to string) {
	t.add("RFC 1738 2.1", "the scheme %q lower-cased: %q (scheme names are case-insensitive)", from, to)
}

func (t *trace) localhostIsEmpty() {
	if t != nil {
		t.add("RFC 1738 3.10", "the host \"localhost\" is the empty host: the machine the urlkit.URL is interpreted on")
	}
}

func (t *trace) emptyURLPathSlash() {
	if t != nil {
		t.add("RFC 1738 3.1", "the \"/\" before an empty url-path written (\"//\" login [ \"/\" urlpath ]: it is optional)")
	}
}

func (t *trace) emptyGopherPath() {
	if t != nil {
		t.add("RFC 1738 3.4", "an empty gopher path is item type 1 with an empty selector: \"/1\"")
	}
}

func (t *trace) ftpTypeWritten(param string, code byte) {
	if t != nil {
		t.ftpTypeWrittenNote(param, code)
	}
}

func (t *trace) mailDomainLowered(from, to string) {
	if t != nil {
		t.mailDomainLoweredNote(from, to)
	}
}

func (t *trace) escapeDecoded(esc string, c byte) {
	if t != nil {
		t.escapeNote(true, esc, c)
	}
}

func (t *trace) escapeUpperCased(esc string, c byte) {
	if t != nil {
		t.escapeNote(false, esc, c)
	}
}

func (t *trace) byteEncoded(c byte) {
	if t != nil {
		t.byteEncodedNote(c)
	}
}

func (t *trace) componentDone(k part, std bool) {
	if t != nil {
		t.componentDoneNote(k, std)
	}
}

func (t *trace) reservedDotElement(seg, written string) {
	if t != nil {
		t.reservedDotElementNote(seg, written)
	}
}

func (t *trace) hostLowered(from, to string) {
	if t != nil {
		t.hostLoweredNote(from, to)
	}
}

func (t *trace) emptyPortDropped() {
	if t != nil {
		t.add("RFC 3986 6.2.3", "an empty port is the default port: the \":\" dropped")
	}
}

func (t *trace) defaultPortDropped(port, scheme string) {
	if t != nil {
		t.defaultPortDroppedNote(port, scheme)
	}
}

func (t *trace) portWritten(from, to string) {
	if t != nil {
		t.portWrittenNote(from, to)
	}
}

func (t *trace) ftpTypeWrittenNote(param string, code byte) {
	t.add("RFC 1738 3.2.2", "%q written \";type=%c\" (the literal and the type code compare case-insensitively)", param, code)
}

func (t *trace) mailDomainLoweredNote(from, to string) {
	t.add("RFC 3986 6.2.3", "the mail domain lower-cased: %q is %q (a domain is case-insensitive, RFC 822 3.4.7; the local part is not)", from, to)
}

// escapeNote notes the escape esc of c decoded, or else upper-cased: one
// method for both, too large to be inlined into their events (each
// alone would be, and its event then would not).
func (t *trace) escapeNote(decoded bool, esc string, c byte) {
	if decoded {
		t.decoded = append(t.decoded, fmt.Sprintf("%s as %q", esc, string(c)))
	} else {
		t.upper = append(t.upper, fmt.Sprintf("%s as %s", esc, cc.Escaped(c)))
	}
}

func (t *trace) byteEncodedNote(c byte) {
	what := cc.Describe(c)
	if c == '%' {
		what = "'%' that starts no escape"
	}
	t.encoded = append(t.encoded, fmt.Sprintf("%s as %s", what, cc.Escaped(c)))
}

// componentDoneNote writes down what the component's escapes went
// through, citing RFC 3986 6.2.2.2 and 6.2.2.1 in the modes that compare
// at that level, RFC 1738 2.2 in the others.
func (t *trace) componentDoneNote(k part, std bool) {
	where := partNames[k]
	decodeSec, caseSec, encodeSec := "RFC 1738 2.2", "RFC 1738 2.2", "RFC 1738 2.2"
	if std {
		decodeSec, caseSec = "RFC 3986 6.2.2.2", "RFC 3986 6.2.2.1"
	}
	if len(t.decoded) > 0 {
		t.add(decodeSec, "in the %s, decoded %s: characters that need no escaping", where, strings.Join(t.decoded, ", "))
	}
	if len(t.upper) > 0 {
		t.add(caseSec, "in the %s, written %s: upper-case hex digits", where, strings.Join(t.upper, ", "))
	}
	if len(t.encoded) > 0 {
		t.add(encodeSec, "in the %s, encoded %s: characters that must always be encoded", where, strings.Join(t.encoded, ", "))
	}
	t.decoded, t.upper, t.encoded = t.decoded[:0], t.upper[:0], t.encoded[:0]
}

func (t *trace) reservedDotElementNote(seg, written string) {
	t.add("RFC 1630", "in the path, the element %q written %q: decoded, it would be the reserved element %q", seg, written, strings.Repeat(".", len(written)/3))
}

func (t *trace) hostLoweredNote(from, to string) {
	t.add("RFC 1738 3.1", "the host %q lower-cased: %q (host names are case-insensitive)", from, to)
}

func (t *trace) defaultPortDroppedNote(port, scheme string) {
	t.add("RFC 1738 3.1", "the port %s dropped: it is the default port of %s", port, scheme)
}

func (t *trace) portWrittenNote(from, to string) {
	t.add("RFC 1738 3.1", "the port %s written %s: a port is a decimal number", from, to)
}

func (t *trace) flagApplied(f Flags, from, to string) {
	if t != nil {
		t.flagAppliedNote(f, from, to)
	}
}

func (t *trace) flagAppliedNote(f Flags, from, to string) {
	t.add("flag "+f.String(), "%q is %q", from, to)
}

func (t *trace) ipv6Written(from, to string) {
	if t != nil {
		t.ipv6WrittenNote(from, to)
	}
}

func (t *trace) ipv6WrittenNote(from, to string) {
	t.add("RFC 5952 4", "the IPv6 address %s written %s (lower case, no leading zeros, the longest run of zeros as \"::\")", from, to)
}
