package tn3270

import "fmt"

// AID is an attention identifier: the key that sends the screen to the
// host.
type AID byte

// AIDs (3270 Data Stream Programmer's Reference).
const (
	AIDNone            AID = 0x60
	AIDEnter           AID = 0x7D
	AIDClear           AID = 0x6D
	AIDPA1             AID = 0x6C
	AIDPA2             AID = 0x6E
	AIDPA3             AID = 0x6B
	AIDStructuredField AID = 0x88
)

var pfAIDs = [24]AID{0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0x7A, 0x7B, 0x7C,
	0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0x4A, 0x4B, 0x4C}

// PF returns the AID of program function key n (1-24).
func PF(n int) (AID, error) {
	if n < 1 || n > 24 {
		return 0, fmt.Errorf("tn3270: no key PF%d (PF1-PF24)", n)
	}
	return pfAIDs[n-1], nil
}

// short reports the AIDs that send no data ("short read").
func (a AID) short() bool { return a == AIDClear || a == AIDPA1 || a == AIDPA2 || a == AIDPA3 }

// Input builds the inbound record for pressing key aid on this screen:
// the AID, and for every key but Clear and PA1-3 the cursor address and
// the modified fields (SBA, address, characters without nulls), or all
// characters of an unformatted screen. It is what Conn.SendAID sends.
func (s *Screen) Input(aid AID) []byte {
	return s.readModified(aid, false)
}

func (s *Screen) readModified(aid AID, all bool) []byte {
	out := []byte{byte(aid)}
	if aid.short() && !all {
		return out
	}
	out = appendAddress(out, s.Cursor)
	if s.fieldAt(0) < 0 { // unformatted: the whole buffer, nulls out
		for _, c := range s.Cells {
			if inbound(c.Char) {
				out = append(out, c.Char)
			}
		}
		return out
	}
	for _, f := range s.Fields() {
		if !f.Modified() {
			continue
		}
		out = append(out, orderSBA)
		out = appendAddress(out, s.next(f.Start))
		for i, a := 0, s.next(f.Start); i < f.Len; i, a = i+1, s.next(a) {
			if c := s.Cells[a].Char; inbound(c) {
				if s.Cells[a].GE {
					out = append(out, orderGE)
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// ReadBuffer returns the answer to Read Buffer: AID, cursor, and every
// position (SF and the attribute for attribute positions).
func (s *Screen) ReadBuffer() []byte {
	out := appendAddress([]byte{byte(s.AID)}, s.Cursor)
	for _, c := range s.Cells {
		switch {
		case c.Field:
			out = append(out, orderSF, c.Attr)
		case c.GE:
			out = append(out, orderGE, c.Char)
		default:
			out = append(out, c.Char)
		}
	}
	return out
}

// inbound reports whether c goes into input: graphic characters and the
// DUP and FM controls an operator can type. Nulls are suppressed, and the
// other codes below 0x40 (a host may write them) would read as orders.
func inbound(c byte) bool { return c >= 0x40 || c == 0x1C || c == 0x1E }
