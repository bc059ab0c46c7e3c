package telnet

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
)

// FuzzParser: no panic; the data never outgrows the input; the result
// does not depend on how the stream is split into reads; and data encoded
// with AppendData (binary) and subnegotiations encoded with AppendSubneg
// parse back to themselves.
func FuzzParser(f *testing.F) {
	for _, s := range []string{
		"hello\r\n", "a\xff\xffb", "\xff\xfd\x18\xff\xfb\x01", "\xff\xfa\x18\x01\xff\xf0",
		"\r\x00\r\n", "\xff\x05", "\xff\xfa\x1f\x00\xff", "\xff\xf2data\xff\xef",
	} {
		f.Add([]byte(s), uint8(1), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8, binary bool) {
		whole := newParser(64)
		whole.binary = binary
		d1, e1, err1 := parseAll(whole, in, 0)
		pieces := newParser(64)
		pieces.binary = binary
		d2, e2, err2 := parseAll(pieces, in, int(chunk%7)+1)
		if len(d1) > len(in) {
			t.Fatalf("data %d bytes from %d", len(d1), len(in))
		}
		if !bytes.Equal(d1, d2) || len(e1) != len(e2) || (err1 == nil) != (err2 == nil) {
			t.Fatalf("split reads differ: %q %q %v / %q %q %v", d1, e1, err1, d2, e2, err2)
		}
		for i := range e1 {
			if e1[i] != e2[i] {
				t.Fatalf("event %d: %q vs %q", i, e1[i], e2[i])
			}
		}
		enc := AppendData(nil, in, true)
		p := newParser(0)
		p.binary = true
		back, ev, err := parseAll(p, enc, int(chunk%5)+1)
		if err != nil || len(ev) != 0 || !bytes.Equal(back, in) {
			t.Fatalf("round trip %q -> %q -> %q %q %v", in, enc, back, ev, err)
		}
		if len(in) <= 64 {
			sb := AppendSubneg(nil, OptNAWS, in)
			q := newParser(64)
			_, ev, err := parseAll(q, sb, 0)
			want := "SB NAWS " + quote(in)
			if err != nil || len(ev) != 1 || ev[0] != want {
				t.Fatalf("subneg %q: %q %v", in, ev, err)
			}
		}
	})
}

// FuzzAppendLine: a line typed at a prompt parses back, on the server's
// side of the mode it was written for, to the line itself (the NVT: a
// lone CR or LF of the text as RFC 854 writes it, CR NUL and CR LF),
// with no telnet command in it; in binary mode its final CR LF arrives
// as CR alone and nothing else changes.
func FuzzAppendLine(f *testing.F) {
	for _, s := range []string{"tester\r\n", "p\xffss\r\n", "\r\n", "no end", "a\rb\nc\r\n"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, line []byte, binary bool) {
		enc := AppendLine(nil, line, binary)
		p := newParser(0)
		p.binary = binary
		back, ev, err := parseAll(p, enc, 0)
		if err != nil || len(ev) != 0 {
			t.Fatalf("%q -> %q: events %q, %v", line, enc, ev, err)
		}
		want := line
		switch {
		case binary && bytes.HasSuffix(line, []byte("\r\n")):
			want = append(bytes.Clone(line[:len(line)-2]), '\r')
		case !binary:
			// The NVT's reading of AppendData: a lone LF was sent as
			// CR LF; a lone CR as CR NUL, read back as CR.
			want = AppendData(nil, line, false)
			want = bytes.ReplaceAll(want, []byte("\r\x00"), []byte("\r"))
			want = bytes.ReplaceAll(want, []byte("\xff\xff"), []byte("\xff"))
		}
		if !bytes.Equal(back, want) {
			t.Fatalf("%q (binary %v) -> %q -> %q, want %q", line, binary, enc, back, want)
		}
	})
}

// scriptConn is a net.Conn whose peer sends in (in chunks of chunk
// bytes) and swallows what the client writes.
type scriptConn struct {
	net.Conn // nil: only the methods below are used
	in       []byte
	chunk    int
	written  bytes.Buffer
}

func (s *scriptConn) Read(p []byte) (int, error) {
	if len(s.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.chunk)], s.in)
	s.in = s.in[n:]
	return n, nil
}

func (s *scriptConn) Write(p []byte) (int, error) { return s.written.Write(p) }
func (s *scriptConn) Close() error                { return nil }

// FuzzConn: whatever a server sends, Read ends (data, EOF or a
// *ProtocolError), never returns more data than was sent, and answers
// negotiation with a bounded number of bytes: at most 3 per request
// received, plus one TERMINAL-TYPE answer per SEND.
func FuzzConn(f *testing.F) {
	f.Add([]byte("\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0\xff\xfb\x01\xff\xfd\x1fhello\r\x00\r\n"), uint8(3))
	f.Add([]byte(strings.Repeat("\xff\xfb\x63\xff\xfd\x63", 50)), uint8(1))
	f.Add([]byte("\xff\xfd\x00\xff\xfb\x00a\xff\xffb\r\x00"), uint8(7))
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		sc := &scriptConn{in: in, chunk: int(chunk%16) + 1}
		d := Dialer{Width: 80, Height: 24, MaxSubneg: 32}
		c, err := d.NewConn(sc)
		if err != nil {
			t.Fatal(err)
		}
		var data []byte
		buf := make([]byte, 64)
		for {
			n, err := c.Read(buf)
			data = append(data, buf[:n]...)
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, ErrProtocol) {
					t.Fatalf("err = %v", err)
				}
				break
			}
		}
		if len(data) > len(in) {
			t.Fatalf("%d data bytes from %d", len(data), len(in))
		}
		requests := bytes.Count(in, []byte{IAC}) // an upper bound on the commands
		if max := 3*requests + requests*(len(AppendTermType(nil, "DUMB"))+len(AppendNAWS(nil, 0xffff, 0xffff))); sc.written.Len() > max {
			t.Fatalf("%d bytes written for %d IACs", sc.written.Len(), requests)
		}
	})
}
