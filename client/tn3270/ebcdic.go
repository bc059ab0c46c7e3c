package tn3270

import "golang.org/x/text/encoding/charmap"

// The 3270 data stream is EBCDIC; code page 037 (US/Canada) is what
// IBM-3278-2 terminals and Hercules use. The tables are built once from
// golang.org/x/text's CodePage037.
var (
	fromEBCDIC [256]rune
	toEBCDIC   = map[rune]byte{}
)

func init() {
	for i := range 256 {
		r := charmap.CodePage037.DecodeByte(byte(i))
		fromEBCDIC[i] = r
		if _, dup := toEBCDIC[r]; !dup {
			toEBCDIC[r] = byte(i)
		}
	}
}

// DecodeEBCDIC returns the character of EBCDIC (CP037) code b.
func DecodeEBCDIC(b byte) rune { return fromEBCDIC[b] }

// EncodeEBCDIC returns the EBCDIC (CP037) code of r, and false if CP037
// has no such character.
func EncodeEBCDIC(r rune) (byte, bool) {
	b, ok := toEBCDIC[r]
	return b, ok
}
