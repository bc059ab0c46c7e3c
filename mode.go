package urlkit

import "fmt"

// Mode selects the grammar a URL is parsed and checked against.
type Mode uint8

const (
	// RFC1738 is RFC 1738 section 5's BNF: the common Internet scheme
	// syntax of section 3.1 for the schemes that use it, the generic
	// scheme ":" schemepart for others, and an optional "#" fragment (RFC
	// 1630's fragmentaddress). It is the default.
	RFC1738 Mode = iota
	// RFC1630 is RFC 1630's generic URI grammar ("BNF of Generic URI
	// Syntax"): xalpha, xpalpha and the reserved characters used for their
	// purposes.
	RFC1630
	// RFC3986 is RFC 3986's URI-reference: IPv6 and IPvFuture literals,
	// reg-name hosts, relative references.
	RFC3986
	// Lenient accepts what real text contains (spaces, raw non-ASCII,
	// national characters, a "URL:" prefix, "<...>" wrappers), repairs it
	// into the canonical encoded form before parsing, reports each repair
	// as a Warning (ParseMode returns them), and then requires the
	// repaired form to be a valid RFC 3986 URI (lenient.go lists the
	// repairs).
	Lenient
	// WHATWG is the WHATWG URL Standard (url.spec.whatwg.org), as
	// browsers read URLs: its basic URL parser, without a base URL
	// (package resolve's WHATWG rule takes one), which also repairs the
	// input (it trims spaces, drops tabs and newlines, encodes what must
	// be encoded, lower-cases the scheme and host, converts hosts with
	// IDNA, rewrites IPv4 and IPv6 addresses, removes dot segments and
	// default ports), so that the result is the standard's href and its
	// components are the href's. Only what the standard calls a failure
	// is an error. The setters of a URL parsed in this mode are the
	// standard's (see SetScheme).
	WHATWG
)

var modeNames = [...]string{RFC1738: "rfc1738", RFC1630: "rfc1630", RFC3986: "rfc3986", Lenient: "lenient", WHATWG: "whatwg"}

// String returns the mode's name as the command line spells it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// modeByName returns the mode called name ("rfc1738", "rfc1630",
// "rfc3986", "lenient" or "whatwg").
func modeByName(name string) (Mode, error) {
	for i, n := range modeNames {
		if n == name {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("urlkit: unknown mode %q (want rfc1738, rfc1630, rfc3986, lenient or whatwg)", name)
}

// grammar returns the strict grammar the parser checks in mode m: the
// Lenient mode's repaired text must be a valid RFC 3986 URI-reference.
func (m Mode) grammar() Mode {
	if m == Lenient {
		return RFC3986
	}
	return m
}

// MarshalText returns the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText parses a mode name: "rfc1738", "rfc1630", "rfc3986",
// "lenient" or "whatwg", as String writes them.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := modeByName(string(b))
	if err == nil {
		*m = v
	}
	return err
}
