package charclass

import "strings"

// A ByteSet lists the bytes that may stay unencoded in some component;
// Escape percent-encodes every other byte. The root's named escape sets
// and package scheme's productions are ByteSets: one percent-encoder for
// the module.
type ByteSet [256]bool

// NewByteSet returns the set of the bytes for which keep returns true.
func NewByteSet(keep func(c byte) bool) *ByteSet {
	var t ByteSet
	for c := 0; c < 256; c++ {
		t[c] = keep(byte(c))
	}
	return &t
}

// Escape percent-encodes every byte of s outside the set, with upper-case
// hex digits. It returns s itself when nothing needs encoding.
func (t *ByteSet) Escape(s string) string { return t.EscapeForm(s, false) }

// EscapeForm is Escape with RFC 1630's query-string rule when plus is
// set: a space is written "+" and a real "+" %2B.
func (t *ByteSet) EscapeForm(s string, plus bool) string { return t.escape(s, plus, UpperHex) }

// EscapeLower is EscapeForm with lower-case hex digits, which curl's
// URL API writes (the command line's edit follows it).
func (t *ByteSet) EscapeLower(s string, plus bool) string {
	return t.escape(s, plus, "0123456789abcdef")
}

func (t *ByteSet) escape(s string, plus bool, digits string) string {
	n := 0 // bytes that change
	for i := 0; i < len(s); i++ {
		if c := s[i]; !t[c] || plus && (c == ' ' || c == '+') {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case plus && c == ' ':
			b.WriteByte('+')
		case !t[c] || plus && c == '+':
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
