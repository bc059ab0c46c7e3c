package tn3270

import (
	"fmt"
	"strings"
)

// Model 2 geometry (IBM-3278-2): 24 rows of 80 columns.
const (
	Rows = 24
	Cols = 80
)

// Field attribute bits (3270 Data Stream Programmer's Reference, "field
// attribute").
const (
	AttrProtected byte = 0x20
	AttrNumeric   byte = 0x10
	AttrDisplay   byte = 0x0C // mask of the display bits
	AttrIntensify byte = 0x08 // display bits 10: intensified
	AttrHidden    byte = 0x0C // display bits 11: non-display
	AttrMDT       byte = 0x01 // modified data tag
)

// Cell is one position of the screen buffer.
type Cell struct {
	// Char is the EBCDIC code shown there (0: null, shown blank).
	Char byte
	// GE marks Char as a code of the graphic escape set (GE order).
	GE bool
	// Field marks a field attribute position: the cell shows blank and
	// Attr is the attribute of the field that starts after it.
	Field bool
	Attr  byte
	// Highlight and Color are the extended attributes (SA, SFE), 0 when
	// default.
	Highlight, Color byte
}

// Screen is the 3270 presentation space: Rows x Cols cells, the cursor,
// and the keyboard state. Its zero value is not usable; use NewScreen.
type Screen struct {
	Rows, Cols int
	Cells      []Cell
	// Cursor is the buffer address of the cursor.
	Cursor int
	// Locked reports the keyboard locked: after an AID key until the
	// host's write with the keyboard-restore bit.
	Locked bool
	// Alarm is set by a write with the sound-alarm bit.
	Alarm bool
	// AID is the last attention key sent (AIDNone at first).
	AID AID

	// scanned counts the cells the buffer scans visit (fieldAt,
	// nextUnprotected, eraseUnprotected), so that a test bounds their
	// work by counting instead of timing a loaded machine.
	scanned int
}

// NewScreen returns an empty model-2 screen.
func NewScreen() *Screen {
	return &Screen{Rows: Rows, Cols: Cols, Cells: make([]Cell, Rows*Cols), AID: AIDNone}
}

func (s *Screen) size() int { return len(s.Cells) }

func (s *Screen) next(addr int) int { return (addr + 1) % s.size() }

// fieldAt returns the address of the field attribute governing addr, or
// -1 when the screen has no fields (unformatted).
func (s *Screen) fieldAt(addr int) int {
	n := s.size()
	for i := 0; i < n; i++ {
		s.scanned++
		a := (addr - i + n) % n
		if s.Cells[a].Field {
			return a
		}
	}
	return -1
}

// Field is one field of a formatted screen.
type Field struct {
	// Start is the buffer address of the field attribute; the field's
	// characters follow it, up to the next attribute.
	Start int
	// Attr is the field attribute (AttrProtected, AttrHidden, AttrMDT...).
	Attr byte
	// Len is the number of character positions.
	Len int
}

// Protected reports whether the field is protected.
func (f Field) Protected() bool { return f.Attr&AttrProtected != 0 }

// Hidden reports whether the field is non-display (a password field).
func (f Field) Hidden() bool { return f.Attr&AttrDisplay == AttrHidden }

// Modified reports whether the field's modified data tag is set.
func (f Field) Modified() bool { return f.Attr&AttrMDT != 0 }

// Fields returns the fields in buffer order, starting at address 0.
func (s *Screen) Fields() []Field {
	var starts []int
	for a, c := range s.Cells {
		if c.Field {
			starts = append(starts, a)
		}
	}
	fields := make([]Field, len(starts))
	for i, a := range starts {
		end := starts[(i+1)%len(starts)]
		l := (end - a - 1 + s.size()) % s.size()
		if len(starts) == 1 {
			l = s.size() - 1
		}
		fields[i] = Field{Start: a, Attr: s.Cells[a].Attr, Len: l}
	}
	return fields
}

// FieldText returns the characters of f, nulls as spaces.
func (s *Screen) FieldText(f Field) string {
	var b strings.Builder
	for i, a := 0, s.next(f.Start); i < f.Len; i, a = i+1, s.next(a) {
		b.WriteRune(s.rune(a))
	}
	return b.String()
}

// rune is what position a shows: blanks for nulls, attributes and
// unprintable codes.
func (s *Screen) rune(a int) rune {
	c := s.Cells[a]
	if c.Field || c.Char == 0 || c.GE {
		return ' '
	}
	r := fromEBCDIC[c.Char]
	if r < 0x20 || (r >= 0x7f && r < 0xa0) {
		return ' '
	}
	return r
}

// Text renders the screen as Rows lines of text, trailing blanks
// removed: protected and unprotected fields are shown, non-display
// (hidden) fields and attribute positions are blank.
func (s *Screen) Text() string {
	hidden := make([]bool, s.size())
	if s.fieldAt(0) >= 0 {
		for _, f := range s.Fields() {
			if f.Hidden() {
				for i, a := 0, s.next(f.Start); i < f.Len; i, a = i+1, s.next(a) {
					hidden[a] = true
				}
			}
		}
	}
	var b strings.Builder
	line := make([]rune, 0, s.Cols)
	for r := 0; r < s.Rows; r++ {
		line = line[:0]
		for c := 0; c < s.Cols; c++ {
			a := r*s.Cols + c
			if hidden[a] {
				line = append(line, ' ')
			} else {
				line = append(line, s.rune(a))
			}
		}
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// RowCol returns the row and column (from 1) of buffer address a.
func (s *Screen) RowCol(a int) (row, col int) { return a/s.Cols + 1, a%s.Cols + 1 }

// ProtectedFieldError reports typing where the keyboard may not write:
// a protected field or an attribute position, at Row and Col (from 1).
type ProtectedFieldError struct{ Row, Col int }

// Error names the position.
func (e *ProtectedFieldError) Error() string {
	return fmt.Sprintf("tn3270: cursor at row %d column %d is in a protected field or on an attribute", e.Row, e.Col)
}

// Type types text at the cursor as an operator would: into an
// unprotected field, setting its modified data tag, the cursor moving
// on (and skipping to the next unprotected field at a field's end).
// Characters CP037 cannot encode, and typing into a protected field or
// with the keyboard locked, are errors.
func (s *Screen) Type(text string) error {
	if s.Locked {
		return fmt.Errorf("tn3270: keyboard locked (waiting for the host)")
	}
	for _, r := range text {
		e, ok := EncodeEBCDIC(r)
		if !ok || e < 0x40 {
			return fmt.Errorf("tn3270: %q has no EBCDIC (CP037) graphic", r)
		}
		fa := s.fieldAt(s.Cursor)
		if s.Cells[s.Cursor].Field || (fa >= 0 && s.Cells[fa].Attr&AttrProtected != 0) {
			row, col := s.RowCol(s.Cursor)
			return &ProtectedFieldError{row, col}
		}
		if fa >= 0 && s.Cells[fa].Attr&AttrNumeric != 0 && !strings.ContainsRune("0123456789.-", r) {
			row, col := s.RowCol(s.Cursor)
			return fmt.Errorf("tn3270: %q typed into the numeric field at row %d column %d", r, row, col)
		}
		s.Cells[s.Cursor] = Cell{Char: e}
		if fa >= 0 {
			s.Cells[fa].Attr |= AttrMDT
		}
		s.Cursor = s.next(s.Cursor)
		if s.Cells[s.Cursor].Field {
			s.Tab()
		}
	}
	return nil
}

// Tab moves the cursor to the first position of the next unprotected
// field (to 0 on an unformatted screen).
func (s *Screen) Tab() {
	s.Cursor = s.nextUnprotected(s.Cursor)
}

// nextUnprotected returns the first character address of the next
// unprotected field after addr, or 0 if there is none.
func (s *Screen) nextUnprotected(addr int) int {
	n := s.size()
	for i := 1; i <= n; i++ {
		s.scanned++
		a := (addr + i) % n
		if c := s.Cells[a]; c.Field && c.Attr&AttrProtected == 0 && !s.Cells[s.next(a)].Field {
			return s.next(a)
		}
	}
	return 0
}

// eraseUnprotected nulls the unprotected positions in [from, to) (to ==
// from: the whole buffer) and resets their fields' MDT. One pass: a
// record may hold thousands of EUA orders.
func (s *Screen) eraseUnprotected(from, to int) {
	fa := s.fieldAt(from)
	protected := fa >= 0 && s.Cells[fa].Attr&AttrProtected != 0
	for a := from; ; {
		s.scanned++
		c := &s.Cells[a]
		if c.Field {
			protected = c.Attr&AttrProtected != 0
			if !protected {
				c.Attr &^= AttrMDT
			}
		} else if !protected {
			*c = Cell{}
		}
		if a = s.next(a); a == to {
			break
		}
	}
}

func (s *Screen) clear() {
	clear(s.Cells)
	s.Cursor = 0
}
