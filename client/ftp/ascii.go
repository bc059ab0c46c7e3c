package ftp

import (
	"encoding/binary"
	"io"
	"math/bits"
)

// asciiReader converts the CRLF line ends of a TYPE A stream to LF (RFC
// 959 section 3.1.1.1: the NVT-ASCII of the data connection ends lines
// with CRLF). A CR not followed by LF is kept, and so is a CR at the end
// of the stream.
//
// It reads straight into the caller's buffer and converts in place, a
// line at a time (bytes.IndexByte finds the CRs): no second buffer and no
// byte-by-byte loop. A CR that ends one read is held back until the next
// read says whether an LF follows it.
type asciiReader struct {
	r       io.Reader
	err     error // the source's error, returned once the bytes before it are out
	heldCR  bool  // the last byte read was a CR whose fate is still open
	pending int   // 1 if next holds a converted byte not yet returned
	next    byte
}

func newASCIIReader(r io.Reader) *asciiReader { return &asciiReader{r: r} }

func (a *asciiReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if a.pending > 0 {
		p[0], a.pending = a.next, 0
		return 1, nil
	}
	for {
		if a.err != nil {
			if a.heldCR { // the stream ended (or failed) right after a CR: keep it
				a.heldCR = false
				p[0] = '\r'
				return 1, nil
			}
			return 0, a.err
		}
		if a.heldCR && len(p) == 1 {
			return a.readAfterCR(p)
		}
		start := 0
		if a.heldCR {
			p[0], start = '\r', 1 // dropped below if an LF follows
		}
		n, err := a.r.Read(p[start:])
		a.err = err
		n += start
		a.heldCR = false
		if n > 0 && p[n-1] == '\r' && err == nil {
			a.heldCR = true
			n--
		}
		if n = crlfToLF(p[:n]); n > 0 {
			return n, nil // an error comes on the next call
		}
	}
}

// readAfterCR serves a one-byte p while a CR is held: it reads one byte
// to decide, returns the CR or the LF that replaces it, and keeps a byte
// that cannot go out yet.
func (a *asciiReader) readAfterCR(p []byte) (int, error) {
	var b [1]byte
	n, err := a.r.Read(b[:])
	a.err = err
	if n == 0 {
		return 0, nil // the caller reads again; the error, if any, is then handled
	}
	switch b[0] {
	case '\n':
		a.heldCR = false
		p[0] = '\n'
	case '\r':
		p[0] = '\r' // the held CR was not a line end; the new one is held
	default:
		a.heldCR = false
		p[0] = '\r'
		a.next, a.pending = b[0], 1
	}
	return 1, nil
}

// crlfToLF rewrites b in place with every CRLF replaced by LF and returns
// the new length. A CR not followed by LF in b stays.
//
// It moves eight bytes at a time and looks at single bytes only in a word
// holding a CR (a text line is a few words): a search call and a copy per
// line cost more than the line itself at 30-byte lines.
func crlfToLF(b []byte) int {
	w, r := 0, 0 // b[:w] is the output so far, b[r:] still to be read; w <= r
	for r+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[r:])
		cr := hasByte(x, '\r')
		if cr == 0 {
			binary.LittleEndian.PutUint64(b[w:], x) // within b[:r+8], already read
			w, r = w+8, r+8
			continue
		}
		// The bytes before the word's first CR, then the CR itself.
		i := bits.TrailingZeros64(cr) / 8
		if r-w >= 8 { // the word's copy stays clear of the bytes still to read
			binary.LittleEndian.PutUint64(b[w:], x)
			w, r = w+i, r+i
		} else {
			for end := r + i; r < end; r++ {
				b[w] = b[r]
				w++
			}
		}
		if r+1 < len(b) && b[r+1] == '\n' {
			r++ // drop the CR: the LF is copied next
			continue
		}
		b[w] = '\r'
		w, r = w+1, r+1
	}
	for ; r < len(b); r++ {
		if b[r] == '\r' && r+1 < len(b) && b[r+1] == '\n' {
			continue
		}
		b[w] = b[r]
		w++
	}
	return w
}

// hasByte returns a word whose lowest set bit is the high bit of the
// first byte of x (in little-endian order) equal to c, or 0 if there is
// none. Bits above it may be set wrongly (a borrow): only the lowest
// counts.
func hasByte(x uint64, c byte) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	y := x ^ (ones * uint64(c))
	return (y - ones) &^ y & highs
}
