package records

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzWARC reads arbitrary bytes as a WARC file: no panic, no hang, the
// offset only moves forward, each block read is as long as its
// Content-Length, and every error is an *Error.
func FuzzWARC(f *testing.F) {
	f.Add(AppendRecord(nil, "response", "http://example.com/", "application/http", []byte("HTTP/1.1 200 OK\r\n\r\nhi")))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 5\r\n\r\nabc"))
	f.Add([]byte("WARC/1.0\nWARC-Type: x\nContent-Length: 0\n\n\r\n\r\nWARC/1.0\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := NewInput("f", bytes.NewReader(data))
		if err != nil {
			return
		}
		w := in.WARC()
		w.MaxBody = 1 << 16
		last := int64(-1)
		for i := 0; ; i++ {
			r, err := w.Next()
			if err == io.EOF {
				return
			}
			var e *Error
			if err != nil {
				if !errors.As(err, &e) {
					t.Fatalf("error %v is not an *Error", err)
				}
				return
			}
			if r.Offset <= last {
				t.Fatalf("record %d at offset %d after %d", i, r.Offset, last)
			}
			last = r.Offset
			if i%2 == 0 {
				b, err := w.Body()
				if err == nil && int64(len(b)) != r.Length {
					t.Fatalf("block of %d bytes, Content-Length %d", len(b), r.Length)
				}
			}
		}
	})
}

// FuzzLines reads arbitrary bytes as lines: no panic, the lines and the
// skipped bytes account for the whole input.
func FuzzLines(f *testing.F) {
	f.Add([]byte("http://a/\r\nhttp://b/\n"), 8)
	f.Add([]byte("x\x00y\n"), 100)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		in, err := NewInput("f", bytes.NewReader(data))
		if err != nil || in.closer != nil {
			return
		}
		in.MaxLine = int(uint(max)%64) + 1
		for {
			before := in.Offset()
			l, err := in.Line()
			if err == io.EOF {
				break
			}
			if errors.Is(err, ErrLineTooLong) {
				if in.SkipLine() != nil {
					t.Fatal("skip failed on a plain input")
				}
			} else if err == nil && len(l) > in.MaxLine {
				t.Fatalf("line of %d bytes over the limit %d", len(l), in.MaxLine)
			}
			if in.Offset() <= before {
				t.Fatalf("no progress at offset %d", before)
			}
		}
		if in.Offset() != int64(len(data)) {
			t.Fatalf("read %d of %d bytes", in.Offset(), len(data))
		}
	})
}

// FuzzCDX reads arbitrary lines as CDX: no panic; a URL found lies in
// the line (classic form) or in its JSON.
func FuzzCDX(f *testing.F) {
	f.Add([]byte(`com,example)/ 20240101000000 {"url": "https://www.example.com/"}`))
	f.Add([]byte(` CDX N b a m s k r M S V g`))
	f.Add([]byte(`com,example)/ 20240101 http://example.com/ text/html 200`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var c CDXReader
		u, ok, err := c.URL(line)
		if err == nil && ok && len(u) == 0 {
			t.Fatalf("empty URL from %q", line)
		}
	})
}

// FuzzWAT reads arbitrary bytes as a WAT JSON block: no panic, no empty
// link.
func FuzzWAT(f *testing.F) {
	f.Add([]byte(`{"Envelope":{"Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Links":[{"url":"http://a/"}]}}}}}`))
	f.Fuzz(func(t *testing.T, block []byte) {
		w, err := ParseWAT(block)
		if err != nil {
			return
		}
		for _, l := range w.Links {
			if l == "" {
				t.Fatal("empty link")
			}
		}
	})
}
