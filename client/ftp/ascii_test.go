package ftp

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestASCIIReader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one\r\ntwo\r\n", "one\ntwo\n"},
		{"no newline", "no newline"},
		{"bare\nLF\n", "bare\nLF\n"}, // servers that do not convert
		{"lone\rCR", "lone\rCR"},
		{"CR at end\r", "CR at end\r"},
		{"\r\r\n", "\r\n"},
		{"\r\n\r\n", "\n\n"},
		{"", ""},
	}
	for _, tt := range tests {
		for name, r := range map[string]io.Reader{
			"whole":    strings.NewReader(tt.in),
			"bytewise": iotest.OneByteReader(strings.NewReader(tt.in)),
			"halves":   iotest.HalfReader(strings.NewReader(tt.in)),
		} {
			got, err := io.ReadAll(newASCIIReader(r))
			if err != nil || string(got) != tt.want {
				t.Errorf("%s %q: got %q, %v; want %q", name, tt.in, got, err, tt.want)
			}
		}
	}
	if err := iotest.TestReader(newASCIIReader(strings.NewReader("a\r\nb\rc\r\n")), []byte("a\nb\rc\n")); err != nil {
		t.Error(err)
	}
}

func TestASCIIReaderError(t *testing.T) {
	r := newASCIIReader(io.MultiReader(strings.NewReader("ab\r\n"), iotest.ErrReader(io.ErrClosedPipe)))
	got, err := io.ReadAll(r)
	if string(got) != "ab\n" || err != io.ErrClosedPipe {
		t.Errorf("got %q, %v", got, err)
	}
}

// chunkReader returns the bytes of s in reads of the sizes in sizes (in
// turn, 0 meaning one byte), to put CRs at every kind of read boundary.
type chunkReader struct {
	s     []byte
	sizes []byte
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.s) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(c.sizes) > 0 {
		n = max(1, int(c.sizes[c.i%len(c.sizes)]))
		c.i++
	}
	n = min(n, len(p), len(c.s))
	copy(p, c.s[:n])
	c.s = c.s[n:]
	return n, nil
}

// readAllSized reads r to the end with buffers of the sizes in sizes (in
// turn, at least one byte).
func readAllSized(r io.Reader, sizes []byte) ([]byte, error) {
	var out []byte
	for i := 0; ; i++ {
		n := 1
		if len(sizes) > 0 {
			n = max(1, int(sizes[i%len(sizes)]))
		}
		buf := make([]byte, n)
		m, err := r.Read(buf)
		out = append(out, buf[:m]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if m == 0 && i > 10*len(out)+1000 {
			return out, io.ErrNoProgress
		}
	}
}

func TestASCIIReaderBoundaries(t *testing.T) {
	in := "a\r\nb\rc\r\r\n\r\n\n\r\rd\r"
	want := strings.ReplaceAll(in, "\r\n", "\n")
	for src := 1; src <= len(in); src++ {
		for dst := 1; dst <= len(in)+1; dst++ {
			got, err := readAllSized(newASCIIReader(&chunkReader{s: []byte(in), sizes: []byte{byte(src)}}), []byte{byte(dst)})
			if err != nil || string(got) != want {
				t.Fatalf("source reads of %d, reads of %d: got %q, %v; want %q", src, dst, got, err, want)
			}
		}
	}
}

// FuzzASCIIReader checks the converter against the definition (every
// CRLF becomes LF, nothing else changes), whatever the sizes of the
// source's reads and of the caller's buffers: a CR at the end of one read
// and its LF at the start of the next is the case to get right.
func FuzzASCIIReader(f *testing.F) {
	f.Add([]byte("one\r\ntwo\r\n"), []byte{3}, []byte{1})
	f.Add([]byte("\r\r\n\r"), []byte{1}, []byte{1, 2})
	f.Add([]byte("lone\rCR\r\n\r\n"), []byte{5, 1}, []byte{4})
	f.Add([]byte("CR at end\r"), []byte{10}, []byte{64})
	f.Add([]byte("\r\n"), []byte{1}, []byte{2})
	f.Fuzz(func(t *testing.T, in, srcSizes, dstSizes []byte) {
		want := bytes.ReplaceAll(in, []byte("\r\n"), []byte("\n"))
		got, err := readAllSized(newASCIIReader(&chunkReader{s: in, sizes: srcSizes}), dstSizes)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%q (source reads %v, buffers %v): got %q, %v; want %q", in, srcSizes, dstSizes, got, err, want)
		}
		// In place on one buffer, as Read uses it.
		b := bytes.Clone(in)
		if n := crlfToLF(b); !bytes.Equal(b[:n], want) {
			t.Fatalf("crlfToLF(%q) = %q, want %q", in, b[:n], want)
		}
	})
}

// asciiText is n bytes of text with CRLF line ends of varying lengths,
// as a server sends a text file in TYPE A.
func asciiText(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		b.WriteString("The quick brown fox jumps over the lazy dog"[:10+i%34])
		b.WriteString("\r\n")
	}
	return b.Bytes()[:n]
}

// BenchmarkASCIIReader measures the TYPE A conversion alone: a 4 MiB
// text with CRLF line ends (about 30 bytes a line) read through it in
// 256 KiB buffers, as get's copy loop does.
func BenchmarkASCIIReader(b *testing.B) {
	text := asciiText(4 << 20)
	buf := make([]byte, 256<<10)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r := newASCIIReader(bytes.NewReader(text))
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	}
}
