package tn3270

import (
	"os"
	"strings"
	"testing"
)

// FuzzApply: no panic or hang on any record; the screen keeps its size
// and its cursor inside it; the text has Rows lines; Read Buffer's answer
// is well formed; and an Input built after typing re-applies cleanly.
func FuzzApply(f *testing.F) {
	f.Add([]byte{cmdEW, 0xC3, orderSBA, 0x40, 0x40, orderSF, 0x60, 0xC8, 0x85})
	f.Add([]byte{cmdW, 0x00, orderRA, 0x40, 0x40, orderGE, 0xAD})
	f.Add([]byte{cmdWSF, 0x00, 0x05, 0x01, 0xFF, 0x02})
	f.Add([]byte{cmdEW, 0x00, orderSFE, 0x02, xa3270, 0x0C, xaColor, 0xF2, orderEUA, 0x40, 0x40, orderPT, orderIC})
	f.Add([]byte{0x05, 0x00, orderMF})
	if rec, err := os.ReadFile("testdata/hercules-logo.rec"); err == nil {
		f.Add(rec) // a real screen
	}
	f.Fuzz(func(t *testing.T, rec []byte) {
		s := NewScreen()
		s.Apply(rec)
		s.Apply(rec) // a second time, over a written screen (W at the cursor)
		if len(s.Cells) != Rows*Cols || s.Cursor < 0 || s.Cursor >= len(s.Cells) {
			t.Fatalf("cells %d cursor %d", len(s.Cells), s.Cursor)
		}
		if n := strings.Count(s.Text(), "\n"); n != Rows {
			t.Fatalf("%d lines", n)
		}
		if rb := s.ReadBuffer(); len(rb) < 3+len(s.Cells) {
			t.Fatalf("read buffer %d bytes", len(rb))
		}
		s.Locked = false
		s.Tab()
		s.Type("A1")
		in := s.Input(AIDEnter)
		// The inbound stream uses the outbound orders' encodings: as a
		// Write's orders it must apply without error.
		back := NewScreen()
		if _, err := back.Apply(append([]byte{cmdW, 0x00}, in[3:]...)); err != nil {
			t.Fatalf("input % X does not re-apply: %v", in, err)
		}
	})
}
