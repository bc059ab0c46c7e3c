package whatwg

import "unicode/utf8"

// The percent-encode sets of the URL Standard (section 1.3), one bit each
// in a [256] table: a byte is encoded in a set when its bit is there.
// Every byte from 0x80 up is in every set (it is part of a code point
// above U+007E, encoded as its UTF-8 bytes).
const (
	setC0 uint8 = 1 << iota
	setFragment
	setQuery
	setSpecialQuery
	setPath
	setUserinfo
	setComponent
	setForm
)

var encodeSets = func() (t [256]uint8) {
	for c := range 256 {
		var s uint8
		if c < 0x20 || c > 0x7e {
			s |= setC0
		}
		in := func(chars string) bool {
			for i := 0; i < len(chars); i++ {
				if int(chars[i]) == c {
					return true
				}
			}
			return false
		}
		if s&setC0 != 0 || in(" \"<>`") {
			s |= setFragment
		}
		if s&setC0 != 0 || in(" \"#<>") {
			s |= setQuery
		}
		if s&setQuery != 0 || c == '\'' {
			s |= setSpecialQuery
		}
		if s&setQuery != 0 || in("?^`{}") {
			s |= setPath
		}
		if s&setPath != 0 || in("/:;=@[\\]^|") {
			s |= setUserinfo
		}
		if s&setUserinfo != 0 || in("$%&+,") {
			s |= setComponent
		}
		if s&setComponent != 0 || in("!'()~") {
			s |= setForm
		}
		t[c] = s
	}
	return t
}()

const upperHex = "0123456789ABCDEF"

// encodeTo writes s to b, percent-encoding the bytes in set. A byte that
// starts no valid UTF-8 sequence stands for U+FFFD, as the Standard's
// strings (of scalar values) cannot hold it.
func encodeTo(b *builder, s string, set uint8) {
	if !anyEncoded(s, set) {
		b.writeString(s)
		return
	}
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && encodeSets[s[j]]&set == 0 {
			j++
		}
		if j > i {
			b.writeString(s[i:j])
		}
		if j == len(s) {
			return
		}
		i = encodeOne(b, s, j)
	}
}

// encodeOne writes the percent-encoded code point at s[i] and returns
// the index after it.
func encodeOne(b *builder, s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		b.writeEscape(c)
		return i + 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		b.writeString("%EF%BF%BD")
		return i + 1
	}
	for k := i; k < i+n; k++ {
		b.writeEscape(s[k])
	}
	return i + n
}

// isHex reports whether c is an ASCII hex digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// percentDecode is the Standard's percent-decode: "%" and two hex digits
// become their byte, anything else stays.
func percentDecode(s string) string {
	i := 0
	for i < len(s) && s[i] != '%' {
		i++
	}
	if i == len(s) {
		return s
	}
	out := make([]byte, 0, len(s))
	out = append(out, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		out = append(out, c)
	}
	return string(out)
}
