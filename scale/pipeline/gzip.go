package pipeline

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"

	"github.com/klauspost/compress/flate"
)

// gzipWriter writes one gzip member, compressing chunks of its input on
// as many goroutines as there are cores, as pigz does: each chunk is
// deflated alone (its window starts empty) and ends at a byte boundary
// (a sync flush), so that the chunks' streams, in order, are one deflate
// stream, which the last chunk's final block closes. A shard's writer
// runs alone at the start and at the end of the writers' stage (Prism
// hands the shards out in one bundle and splits it only when it sees no
// progress, and shards end unevenly), and gzip is most of a writer's
// time. The deflater is klauspost/compress's (already in the module
// graph, through Beam): at its level 1, on the 118 MB of sorted URLs the
// extract benchmark writes, 0.18 s for 12.2 MB where compress/flate's
// BestSpeed took 0.34 s for 12.6 MB.
type gzipWriter struct {
	w     io.Writer
	cur   *gzChunk   // the chunk being filled
	queue []*gzChunk // chunks being compressed, in order
	free  []*gzChunk
	crc   uint32
	size  uint32 // the input's size modulo 2^32, as gzip's trailer holds it
	err   error
}

// gzChunk is one chunk of input and its deflated stream.
type gzChunk struct {
	in   []byte
	out  bytes.Buffer
	fw   *flate.Writer
	done chan struct{}
}

const gzChunkSize = 1 << 20

func newGzipWriter(w io.Writer) *gzipWriter {
	z := &gzipWriter{w: w}
	// ID1 ID2, CM deflate, FLG none, MTIME none, XFL fastest, OS unknown.
	_, z.err = w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255})
	return z
}

func (z *gzipWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && z.err == nil {
		if z.cur == nil {
			z.cur = z.chunk()
		}
		c := z.cur
		m := copy(c.in[len(c.in):cap(c.in)], p)
		c.in, p = c.in[:len(c.in)+m], p[m:]
		if len(c.in) == cap(c.in) {
			z.start(false)
		}
	}
	return n, z.err
}

// WriteString is Write for a string.
func (z *gzipWriter) WriteString(s string) (int, error) {
	if c := z.cur; c != nil && len(s) <= cap(c.in)-len(c.in) {
		c.in = append(c.in, s...)
		return len(s), z.err
	}
	return z.Write([]byte(s))
}

// WriteByte writes one byte.
func (z *gzipWriter) WriteByte(b byte) error {
	if c := z.cur; c != nil && len(c.in) < cap(c.in) {
		c.in = append(c.in, b)
		return z.err
	}
	_, err := z.Write([]byte{b})
	return err
}

// chunk is an empty chunk: a free one, or a new one.
func (z *gzipWriter) chunk() *gzChunk {
	if n := len(z.free); n > 0 {
		c := z.free[n-1]
		z.free = z.free[:n-1]
		c.in = c.in[:0]
		return c
	}
	fw, _ := flate.NewWriter(nil, flate.BestSpeed)
	return &gzChunk{in: make([]byte, 0, gzChunkSize), fw: fw}
}

// start compresses the chunk being filled on a goroutine, once fewer
// than a chunk a core are under way (the oldest are written first).
func (z *gzipWriter) start(last bool) {
	c := z.cur
	if c == nil {
		c = z.chunk() // an empty last chunk: the final block alone
	}
	z.cur = nil
	z.crc = crc32.Update(z.crc, crc32.IEEETable, c.in)
	z.size += uint32(len(c.in))
	for len(z.queue) >= runtime.GOMAXPROCS(0) {
		z.writeOldest()
	}
	c.done = make(chan struct{})
	z.queue = append(z.queue, c)
	go func() {
		defer close(c.done)
		c.out.Reset()
		c.fw.Reset(&c.out)
		c.fw.Write(c.in) // a bytes.Buffer does not fail
		if last {
			c.fw.Close()
		} else {
			c.fw.Flush()
		}
	}()
}

// writeOldest waits for the oldest chunk under way and writes its stream.
func (z *gzipWriter) writeOldest() {
	c := z.queue[0]
	z.queue = z.queue[1:]
	<-c.done
	if z.err == nil {
		_, z.err = z.w.Write(c.out.Bytes())
	}
	z.free = append(z.free, c)
}

// Close writes the rest and gzip's trailer; it does not close the
// underlying writer.
func (z *gzipWriter) Close() error {
	z.start(true)
	for len(z.queue) > 0 {
		z.writeOldest()
	}
	if z.err == nil {
		_, z.err = z.w.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, z.crc), z.size))
	}
	return z.err
}
