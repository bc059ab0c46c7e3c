// Package percent is urlkit's percent-encoding by character set: the root
// package's setters and its PathEscape and QueryEscape, package scheme,
// package fetch and the command line's escape and unescape commands
// share it. The root package exports the forms Go programmers know from
// net/url; the sets themselves are no part of its API.
package percent

import (
	"fmt"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
)

// Set names a set of characters that may stay unencoded in one component.
// Escape encodes every byte outside the set.
type Set uint8

const (
	// Path keeps RFC 1738's unreserved characters and the reserved
	// characters of an hpath: / ; : @ & = (RFC 1738 section 5, hsegment).
	Path Set = iota
	// Segment is Path without "/" and ";": one path segment whose
	// slashes and semicolons are data (RFC 1738 3.2.2: "/" and ";" within a
	// name or CWD component must be encoded).
	Segment
	// Query keeps unreserved characters and ; : @ & =, the search of
	// RFC 1738 section 5 (httpurl, gopherurl: search = *[ uchar | ";" |
	// ":" | "@" | "&" | "=" ]), so "/" and "?" are encoded, and it encodes
	// "+", which RFC 1630 reserves in query strings as a space.
	Query
	// Userinfo keeps unreserved characters and ; & =, encoding the ":",
	// "@" and "/" that RFC 1738 3.1 says must be encoded in a user or
	// password.
	Userinfo
	// Fragment keeps RFC 1738 xchar (unreserved and reserved): only
	// unsafe and non-graphic octets are encoded.
	Fragment
	// Unsafe encodes only what RFC 1738 2.2 says must always be encoded:
	// the unsafe characters and the octets with no graphic US-ASCII
	// character. Reserved characters stay as they are.
	Unsafe
	// All encodes every byte except RFC 1738's unreserved characters
	// (alphanumerics and $-_.+!*'(),).
	All
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

// Names lists the names ByName accepts.
func Names() []string { return append([]string(nil), setNames[:]...) }

// ByName returns the set called name ("path", "segment", "query",
// "userinfo", "fragment", "unsafe" or "all").
func ByName(name string) (Set, error) {
	for i, n := range setNames {
		if n == name {
			return Set(i), nil
		}
	}
	return 0, fmt.Errorf("urlkit: unknown character set %q (want one of %s)", name, strings.Join(setNames[:], ", "))
}

// sets holds the bytes each Set keeps.
var sets = func() (t [numSets]*cc.ByteSet) {
	in := func(set string) func(byte) bool {
		return func(b byte) bool { return strings.IndexByte(set, b) >= 0 }
	}
	un := func(b byte) bool { return cc.Is(b, cc.Unreserved) }
	or := func(f, g func(byte) bool) func(byte) bool { return func(b byte) bool { return f(b) || g(b) } }
	t[Path] = cc.NewByteSet(or(un, in("/;:@&=")))
	t[Segment] = cc.NewByteSet(or(un, in(":@&=")))
	t[Query] = cc.NewByteSet(func(b byte) bool { return un(b) && b != '+' || in(";:@&=")(b) })
	t[Userinfo] = cc.NewByteSet(or(un, in(";&=")))
	t[Fragment] = cc.NewByteSet(func(b byte) bool { return cc.Is(b, cc.Xchar) })
	t[Unsafe] = cc.NewByteSet(func(b byte) bool { return !cc.Is(b, cc.Unsafe|cc.Control) })
	t[All] = cc.NewByteSet(un)
	return t
}()

// Keeps reports whether set leaves c unencoded.
func (s Set) Keeps(c byte) bool { return sets[min(s, All)][c] }

// Escape percent-encodes every byte of s outside set, with upper-case hex
// digits; with plus, a space is written "+" (and a "+" as %2B, RFC 1630's
// query-string rule). It returns s itself when nothing needs encoding.
func Escape(s string, set Set, plus bool) string {
	return sets[min(set, All)].EscapeForm(s, plus)
}

// Unescape decodes every %XX escape of s, and with plus every "+" as a
// space. bad is the offset of the first "%" not followed by two hex
// digits (RFC 1630 reserves such sequences for future extension), and
// then s is not decoded; else bad is -1. It returns s itself when there
// is nothing to decode.
func Unescape(s string, plus bool) (decoded string, bad int) {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
				n++
				i += 2
			} else {
				return "", i
			}
		case '+':
			if plus {
				n++
			}
		}
	}
	if n == 0 {
		return s, -1
	}
	return decode(s, plus), -1
}

// Loose decodes the valid escapes of s (and with plus every "+" as a
// space) and keeps the rest as it is: the lenient reading, which never
// fails.
func Loose(s string, plus bool) string {
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
