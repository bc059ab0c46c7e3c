package charclass

import "fmt"

// Escaped returns c's escape, "%XX" with upper-case hex digits.
func Escaped(c byte) string { return escapedTab[c] }

// Describe names the byte c for a message: 'x', space, or byte 0xNN.
// The names are precomputed so that an error message is built with one
// allocation.
func Describe(c byte) string { return describeTab[c] }

var describeTab, escapedTab = func() (d, e [256]string) {
	for i := range 256 {
		c := byte(i)
		e[i] = string([]byte{'%', UpperHex[c>>4], UpperHex[c&15]})
		switch {
		case c == ' ':
			d[i] = "space"
		case c > 0x20 && c < 0x7f:
			d[i] = "'" + string(c) + "'"
		default:
			d[i] = fmt.Sprintf("byte 0x%02X", c)
		}
	}
	return d, e
}()

// LowerASCII lower-cases ASCII letters, returning s itself when it has
// none to change.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
