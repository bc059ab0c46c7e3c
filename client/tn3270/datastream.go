package tn3270

import (
	"errors"
	"fmt"
)

// ErrDataStream matches (with errors.Is) every *DataStreamError.
var ErrDataStream = errors.New("tn3270: bad data stream")

// DataStreamError reports a 3270 record the client cannot apply. Offset
// is the position of the offending byte in the record.
type DataStreamError struct {
	Offset int
	Rule   string
}

// Error names the record offset and what was wrong.
func (e *DataStreamError) Error() string {
	return fmt.Sprintf("tn3270: record byte %d: %s", e.Offset, e.Rule)
}

// Is reports whether target is ErrDataStream.
func (e *DataStreamError) Is(target error) bool { return target == ErrDataStream }

// Commands (3270 Data Stream Programmer's Reference; each has a "local"
// and an "SNA" code, both are accepted).
const (
	cmdW   = 0xF1 // Write
	cmdEW  = 0xF5 // Erase/Write
	cmdEWA = 0x7E // Erase/Write Alternate
	cmdRB  = 0xF2 // Read Buffer
	cmdRM  = 0xF6 // Read Modified
	cmdRMA = 0x6E // Read Modified All
	cmdEAU = 0x6F // Erase All Unprotected
	cmdWSF = 0xF3 // Write Structured Field
)

var snaCommands = map[byte]byte{0x01: cmdW, 0x05: cmdEW, 0x0D: cmdEWA, 0x02: cmdRB, 0x06: cmdRM, 0x0E: cmdRMA, 0x0F: cmdEAU, 0x11: cmdWSF}

// Orders.
const (
	orderPT  = 0x05 // Program Tab
	orderGE  = 0x08 // Graphic Escape
	orderSBA = 0x11 // Set Buffer Address
	orderEUA = 0x12 // Erase Unprotected to Address
	orderIC  = 0x13 // Insert Cursor
	orderSF  = 0x1D // Start Field
	orderSA  = 0x28 // Set Attribute
	orderSFE = 0x29 // Start Field Extended
	orderMF  = 0x2C // Modify Field
	orderRA  = 0x3C // Repeat to Address
)

// WCC bits.
const (
	wccAlarm    = 0x04
	wccRestore  = 0x02
	wccResetMDT = 0x01
)

// Extended attribute types (SA, SFE, MF).
const (
	xaAll       = 0x00
	xa3270      = 0xC0
	xaHighlight = 0x41
	xaColor     = 0x42
)

// Result says what a record did.
type Result struct {
	// Wrote is set when the record wrote or erased the screen.
	Wrote bool
	// Reply is what the terminal must send back (a Read Buffer, Read
	// Modified or query reply), without the telnet framing; nil if none.
	Reply []byte
}

// Apply applies one 3270 record (the data between two IAC EORs, IAC IAC
// already undone) to the screen. On error the screen may be partly
// written.
func (s *Screen) Apply(rec []byte) (Result, error) {
	if len(rec) == 0 {
		return Result{}, &DataStreamError{0, "empty record (a command byte is required)"}
	}
	cmd := rec[0]
	if c, ok := snaCommands[cmd]; ok {
		cmd = c
	}
	switch cmd {
	case cmdW, cmdEW, cmdEWA:
		return Result{Wrote: true}, s.write(cmd, rec)
	case cmdEAU:
		s.eraseUnprotected(0, 0)
		s.Cursor = s.nextUnprotected(s.size() - 1)
		s.Locked = false
		s.AID = AIDNone
		return Result{Wrote: true}, nil
	case cmdRB:
		return Result{Reply: s.ReadBuffer()}, nil
	case cmdRM:
		return Result{Reply: s.readModified(s.AID, false)}, nil
	case cmdRMA:
		return Result{Reply: s.readModified(s.AID, true)}, nil
	case cmdWSF:
		return s.structuredFields(rec)
	}
	return Result{}, &DataStreamError{0, fmt.Sprintf("unknown command 0x%02X", rec[0])}
}

// write applies W, EW or EWA with its WCC and orders.
func (s *Screen) write(cmd byte, rec []byte) error {
	if cmd == cmdEW || cmd == cmdEWA {
		s.clear()
	}
	if len(rec) < 2 {
		if cmd == cmdW {
			return &DataStreamError{1, "write without a WCC byte"}
		}
		return nil
	}
	wcc := rec[1]
	if wcc&wccResetMDT != 0 {
		for i := range s.Cells {
			if s.Cells[i].Field {
				s.Cells[i].Attr &^= AttrMDT
			}
		}
	}
	addr := s.Cursor
	if cmd != cmdW {
		addr = 0
	}
	var hl, color byte // current character attributes (SA)
	size := s.size()
	need := func(i, n int, what string) error {
		if i+n >= len(rec) {
			return &DataStreamError{i, fmt.Sprintf("%s needs %d more bytes, the record ends", what, n)}
		}
		return nil
	}
	address := func(i int, what string) (int, error) {
		a := decodeAddress(rec[i+1], rec[i+2])
		if a >= size {
			return 0, &DataStreamError{i + 1, fmt.Sprintf("%s address %d is outside the %d-position buffer", what, a, size)}
		}
		return a, nil
	}
	for i := 2; i < len(rec); i++ {
		b := rec[i]
		switch b {
		case orderSF:
			if err := need(i, 1, "SF"); err != nil {
				return err
			}
			s.Cells[addr] = Cell{Field: true, Attr: rec[i+1]}
			addr = s.next(addr)
			i++
		case orderSFE, orderMF:
			name := map[byte]string{orderSFE: "SFE", orderMF: "MF"}[b]
			if err := need(i, 1, name); err != nil {
				return err
			}
			n := int(rec[i+1])
			if err := need(i+1, 2*n, name); err != nil {
				return err
			}
			c := Cell{Field: true}
			if b == orderMF {
				if !s.Cells[addr].Field {
					return &DataStreamError{i, "MF at a position that is not a field attribute"}
				}
				c = s.Cells[addr]
			}
			for k := 0; k < n; k++ {
				t, v := rec[i+2+2*k], rec[i+3+2*k]
				switch t {
				case xa3270:
					c.Attr = v
				case xaHighlight:
					c.Highlight = v
				case xaColor:
					c.Color = v
				}
			}
			s.Cells[addr] = c
			addr = s.next(addr)
			i += 1 + 2*n
		case orderSBA:
			if err := need(i, 2, "SBA"); err != nil {
				return err
			}
			a, err := address(i, "SBA")
			if err != nil {
				return err
			}
			addr = a
			i += 2
		case orderSA:
			if err := need(i, 2, "SA"); err != nil {
				return err
			}
			switch rec[i+1] {
			case xaAll:
				hl, color = 0, 0
			case xaHighlight:
				hl = rec[i+2]
			case xaColor:
				color = rec[i+2]
			}
			i += 2
		case orderIC:
			s.Cursor = addr
		case orderPT:
			// To the next unprotected field (nulls are not written: the
			// simple form, enough for a screen reader).
			if a := s.nextUnprotected(addr); a != 0 || s.fieldAt(0) >= 0 {
				addr = a
			}
		case orderRA:
			if err := need(i, 3, "RA"); err != nil {
				return err
			}
			stop, err := address(i, "RA")
			if err != nil {
				return err
			}
			ch, ge := rec[i+3], false
			i += 3
			if ch == orderGE {
				if err := need(i, 1, "RA GE"); err != nil {
					return err
				}
				ch, ge = rec[i+1], true
				i++
			}
			for {
				s.Cells[addr] = Cell{Char: ch, GE: ge, Highlight: hl, Color: color}
				if addr = s.next(addr); addr == stop {
					break
				}
			}
		case orderEUA:
			if err := need(i, 2, "EUA"); err != nil {
				return err
			}
			stop, err := address(i, "EUA")
			if err != nil {
				return err
			}
			s.eraseUnprotected(addr, stop)
			addr = stop
			i += 2
		case orderGE:
			if err := need(i, 1, "GE"); err != nil {
				return err
			}
			s.Cells[addr] = Cell{Char: rec[i+1], GE: true, Highlight: hl, Color: color}
			addr = s.next(addr)
			i++
		default:
			s.Cells[addr] = Cell{Char: b, Highlight: hl, Color: color}
			addr = s.next(addr)
		}
	}
	if wcc&wccAlarm != 0 {
		s.Alarm = true
	}
	if wcc&wccRestore != 0 {
		s.Locked = false
		s.AID = AIDNone
	}
	return nil
}

// structuredFields handles Write Structured Field. Read Partition Query
// is answered with a query reply; other fields are skipped.
func (s *Screen) structuredFields(rec []byte) (Result, error) {
	var res Result
	for i := 1; i < len(rec); {
		if i+3 > len(rec) {
			return res, &DataStreamError{i, "structured field shorter than its 3-byte header"}
		}
		l := int(rec[i])<<8 | int(rec[i+1])
		if l == 0 {
			l = len(rec) - i // length 0: to the end of the record
		}
		if l < 3 || i+l > len(rec) {
			return res, &DataStreamError{i, fmt.Sprintf("structured field length %d does not fit the record", l)}
		}
		sf := rec[i : i+l]
		switch sf[2] {
		case 0x01: // Read Partition
			if len(sf) >= 5 && sf[3] == 0xFF && (sf[4] == 0x02 || sf[4] == 0x03) {
				res.Reply = QueryReply()
			}
		case 0x03: // Erase/Reset
			s.clear()
			res.Wrote = true
		}
		i += l
	}
	return res, nil
}

// QueryReply returns the answer to Read Partition Query: AID 0x88 and the
// Summary, Usable Area (24x80, 12/14-bit addressing) and Implicit
// Partition query replies of a model 2 terminal.
func QueryReply() []byte {
	return []byte{
		byte(AIDStructuredField),
		0x00, 0x07, 0x81, 0x80, 0x80, 0x81, 0xA6, // Summary: these three
		0x00, 0x17, 0x81, 0x81, 0x01, 0x00, 0x00, 0x50, 0x00, 0x18, 0x01, 0x00, 0x0A, 0x02, 0xE5,
		0x00, 0x02, 0x00, 0x6F, 0x09, 0x0C, 0x07, 0x80, // Usable Area: 80x24, buffer 1920
		0x00, 0x11, 0x81, 0xA6, 0x00, 0x00, 0x0B, 0x01, 0x00, 0x00, 0x50, 0x00, 0x18, 0x00, 0x50, 0x00, 0x18, // Implicit Partition
	}
}
