package urlkit

import (
	"fmt"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
)

// Set names a set of characters that may stay unencoded in one component.
// Escape encodes every byte outside the set.
type Set uint8

const (
	// SetPath keeps RFC 1738's unreserved characters and the reserved
	// characters of an hpath: / ; : @ & = (RFC 1738 section 5, hsegment).
	SetPath Set = iota
	// SetSegment is SetPath without "/" and ";": one path segment whose
	// slashes and semicolons are data (RFC 1738 3.2.2: "/" and ";" within a
	// name or CWD component must be encoded).
	SetSegment
	// SetQuery keeps unreserved characters and ; : @ & =, the search of
	// RFC 1738 section 5 (httpurl, gopherurl: search = *[ uchar | ";" |
	// ":" | "@" | "&" | "=" ]), so "/" and "?" are encoded, and it encodes
	// "+", which RFC 1630 reserves in query strings as a space.
	SetQuery
	// SetUserinfo keeps unreserved characters and ; & =, encoding the ":",
	// "@" and "/" that RFC 1738 3.1 says must be encoded in a user or
	// password.
	SetUserinfo
	// SetFragment keeps RFC 1738 xchar (unreserved and reserved): only
	// unsafe and non-graphic octets are encoded.
	SetFragment
	// SetUnsafe encodes only what RFC 1738 2.2 says must always be encoded:
	// the unsafe characters and the octets with no graphic US-ASCII
	// character. Reserved characters stay as they are.
	SetUnsafe
	// SetAll encodes every byte except RFC 1738's unreserved characters
	// (alphanumerics and $-_.+!*'(),).
	SetAll
	numSets
)

var setNames = [numSets]string{"path", "segment", "query", "userinfo", "fragment", "unsafe", "all"}

// String returns the set's name ("path", "query", ...).
func (s Set) String() string {
	if s < numSets {
		return setNames[s]
	}
	return fmt.Sprintf("Set(%d)", s)
}

// SetNames lists the names SetByName accepts.
func SetNames() []string { return append([]string(nil), setNames[:]...) }

// SetByName returns the set called name ("path", "segment", "query",
// "userinfo", "fragment", "unsafe" or "all").
func SetByName(name string) (Set, error) {
	for i, n := range setNames {
		if n == name {
			return Set(i), nil
		}
	}
	return 0, fmt.Errorf("urlkit: unknown character set %q (want one of %s)", name, strings.Join(setNames[:], ", "))
}

// namedSets holds the bytes each Set keeps.
var namedSets = func() (t [numSets]*cc.ByteSet) {
	in := func(set string) func(byte) bool {
		return func(b byte) bool { return strings.IndexByte(set, b) >= 0 }
	}
	un := func(b byte) bool { return cc.Is(b, cc.Unreserved) }
	or := func(f, g func(byte) bool) func(byte) bool { return func(b byte) bool { return f(b) || g(b) } }
	t[SetPath] = cc.NewByteSet(or(un, in("/;:@&=")))
	t[SetSegment] = cc.NewByteSet(or(un, in(":@&=")))
	t[SetQuery] = cc.NewByteSet(func(b byte) bool { return un(b) && b != '+' || in(";:@&=")(b) })
	t[SetUserinfo] = cc.NewByteSet(or(un, in(";&=")))
	t[SetFragment] = cc.NewByteSet(func(b byte) bool { return cc.Is(b, cc.Xchar) })
	t[SetUnsafe] = cc.NewByteSet(func(b byte) bool { return !cc.Is(b, cc.Unsafe|cc.Control) })
	t[SetAll] = cc.NewByteSet(un)
	return t
}()

// EscapeFlags modify Escape and Unescape.
type EscapeFlags uint8

const (
	// PlusAsSpace applies RFC 1630's query-string rule: a space is written
	// "+" (and a real "+" as %2B); when unescaping, "+" becomes a space.
	PlusAsSpace EscapeFlags = 1 << iota
	// AllowBadEscapes makes Unescape keep a "%" that is not followed by two
	// hex digits as it is, instead of failing (the lenient reading).
	AllowBadEscapes
)

// Escape percent-encodes every byte of s outside set, with upper-case hex
// digits; flags may hold PlusAsSpace. It returns s itself when nothing
// needs encoding.
func Escape(s string, set Set, flags EscapeFlags) string {
	if set >= numSets {
		set = SetAll
	}
	return namedSets[set].EscapeForm(s, flags&PlusAsSpace != 0)
}

// Unescape decodes every %XX escape of s. A "%" not followed by two hex
// digits is an error naming its offset, RFC 1630 reserving such sequences
// for future extension, unless flags hold AllowBadEscapes; with
// PlusAsSpace, "+" decodes to a space.
func Unescape(s string, flags EscapeFlags) (string, error) {
	plus := flags&PlusAsSpace != 0
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
				n++
				i += 2
			} else if flags&AllowBadEscapes == 0 {
				return "", &Error{Op: "unescape", Input: s, Offset: i, Err: ErrBadEscape,
					Rule: "'%' must be followed by two hex digits (RFC 1630 reserves other uses)"}
			}
		case '+':
			if plus {
				n++
			}
		}
	}
	if n == 0 {
		return s, nil
	}
	return decode(s, plus), nil
}

// unescapeLoose decodes the valid escapes of s and keeps the rest.
func unescapeLoose(s string, plus bool) string {
	if strings.IndexByte(s, '%') < 0 && (!plus || strings.IndexByte(s, '+') < 0) {
		return s
	}
	return decode(s, plus)
}

func decode(s string, plus bool) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]):
			b = append(b, cc.Unhex(s[i+1])<<4|cc.Unhex(s[i+2]))
			i += 2
		case c == '+' && plus:
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
