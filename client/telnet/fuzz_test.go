package telnet

import (
	"bytes"
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
