package whatwg

import (
	"bytes"
	"strings"
)

// builder writes the href while the parser reads the input. As long as
// what it has written is the input's own prefix it keeps only its
// length (n), and the href is a substring of the input; the first byte
// that differs moves it to a buffer. An input already in serialized form
// therefore costs no allocation.
type builder struct {
	in  string
	n   int    // while buf is nil, the output is in[:n]
	buf []byte // the output, once it differs from the input
}

func (b *builder) spill() {
	b.buf = make([]byte, b.n, len(b.in)+16)
	copy(b.buf, b.in[:b.n])
}

func (b *builder) writeByte(c byte) {
	if b.buf == nil {
		if b.n < len(b.in) && b.in[b.n] == c {
			b.n++
			return
		}
		b.spill()
	}
	b.buf = append(b.buf, c)
}

func (b *builder) writeString(s string) {
	if b.buf == nil {
		if strings.HasPrefix(b.in[b.n:], s) {
			b.n += len(s)
			return
		}
		b.spill()
	}
	b.buf = append(b.buf, s...)
}

// writeEscape writes "%" and c's two upper-case hex digits.
func (b *builder) writeEscape(c byte) {
	if b.buf == nil {
		b.spill()
	}
	b.buf = append(b.buf, '%', upperHex[c>>4], upperHex[c&15])
}

// writeLower writes s in ASCII lower case.
func (b *builder) writeLower(s string) {
	if !hasClass(s, kUpper) {
		b.writeString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.writeByte(c)
	}
}

func (b *builder) len() int {
	if b.buf == nil {
		return b.n
	}
	return len(b.buf)
}

// slice returns the output from i to j, without copying it.
func (b *builder) slice(i, j int) string {
	if b.buf == nil {
		return b.in[i:j]
	}
	return string(b.buf[i:j])
}

// at returns the output's byte at i.
func (b *builder) at(i int) byte {
	if b.buf == nil {
		return b.in[i]
	}
	return b.buf[i]
}

// lastIndexByte is strings.LastIndexByte over the output from lo.
func (b *builder) lastIndexByte(lo int, c byte) int {
	var i int
	if b.buf == nil {
		i = strings.LastIndexByte(b.in[lo:b.n], c)
	} else {
		i = bytes.LastIndexByte(b.buf[lo:], c)
	}
	if i < 0 {
		return -1
	}
	return lo + i
}

func (b *builder) truncate(n int) {
	if b.buf == nil {
		b.n = n
	} else {
		b.buf = b.buf[:n]
	}
}

// insert puts s at offset i of the output.
func (b *builder) insert(i int, s string) {
	if b.buf == nil {
		b.spill()
	}
	b.buf = append(b.buf[:i], append([]byte(s), b.buf[i:]...)...)
}

// String returns the output: a substring of the input while it is one.
func (b *builder) String() string {
	if b.buf == nil {
		return b.in[:b.n]
	}
	return string(b.buf)
}

// writeBytes is writeString for a byte slice (a number or an address
// formatted on the stack).
func (b *builder) writeBytes(s []byte) {
	if b.buf == nil {
		if len(s) <= len(b.in)-b.n && b.in[b.n:b.n+len(s)] == string(s) {
			b.n += len(s)
			return
		}
		b.spill()
	}
	b.buf = append(b.buf, s...)
}
