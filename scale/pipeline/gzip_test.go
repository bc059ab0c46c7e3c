package pipeline

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// TestGzipWriter: what gzipWriter writes, chunk by chunk on several
// goroutines, is one gzip member that compress/gzip reads back whole,
// its CRC and size checked, for inputs empty, shorter than a chunk, a
// chunk to the byte, and several chunks written in pieces of any size.
func TestGzipWriter(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	var text bytes.Buffer
	for text.Len() < 3*gzChunkSize+gzChunkSize/2 {
		fmt.Fprintf(&text, "http://h%d.example/%d\t%d\n", rnd.IntN(100), rnd.IntN(1e6), rnd.IntN(9))
		if rnd.IntN(50) == 0 {
			var noise [300]byte
			for i := range noise {
				noise[i] = byte(rnd.Uint32())
			}
			text.Write(noise[:]) // incompressible stretches
		}
	}
	for _, n := range []int{0, 1, 1000, gzChunkSize - 1, gzChunkSize, gzChunkSize + 1, text.Len()} {
		in := text.Bytes()[:n]
		var out bytes.Buffer
		z := newGzipWriter(&out)
		for p := in; len(p) > 0; {
			// Pieces of any size, through each of the three writes
			// (a row's key, its separators, its count).
			m := min(len(p), 1+rnd.IntN(300<<10))
			var err error
			switch rnd.IntN(3) {
			case 0:
				_, err = z.Write(p[:m])
			case 1:
				_, err = z.WriteString(string(p[:m]))
			default:
				m = 1
				err = z.WriteByte(p[0])
			}
			if err != nil {
				t.Fatal(err)
			}
			p = p[m:]
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := gzip.NewReader(&out)
		if err != nil {
			t.Fatal(err)
		}
		r.Multistream(false) // one member
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("%d bytes: read back %d bytes, %v", n, len(got), err)
		}
		if rest, _ := io.ReadAll(&out); len(rest) > 0 {
			t.Fatalf("%d bytes: %d bytes after the member", n, len(rest))
		}
	}
}

// TestGzipWriterError: a failed write is Close's error.
func TestGzipWriterError(t *testing.T) {
	z := newGzipWriter(failAfter{n: 100})
	z.Write(bytes.Repeat([]byte("x"), 3*gzChunkSize))
	if err := z.Close(); !errors.Is(err, errFail) {
		t.Fatalf("Close: %v", err)
	}
}

var errFail = errors.New("disk full")

// failAfter fails writes longer than n bytes.
type failAfter struct{ n int }

func (f failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errFail
	}
	return len(p), nil
}
