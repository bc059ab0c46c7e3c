// Package charclass holds the byte classes of RFC 1738, RFC 1630 and
// RFC 3986 as one generated [256] table, so that every scanner in urlkit
// tests a byte against a production with one load and one AND.
package charclass

//go:generate go run gen.go

// Class is a set of byte classes, one bit per class.
type Class uint32

// Derived productions, built from the generated bits.
const (
	// Unreserved is RFC 1738 unreserved: alpha digit safe extra.
	Unreserved = Alpha | Digit | Safe | Extra
	// Uchar is RFC 1738 uchar without the escape (checked separately).
	Uchar = Unreserved
	// Xchar is RFC 1738 xchar without the escape: unreserved and reserved.
	Xchar = Unreserved | Reserved
	// Xalpha1630 is RFC 1630 xalpha without the escape: alpha digit safe extra.
	Xalpha1630 = Alpha | Digit | Safe1630 | Extra1630
)

// Is reports whether b belongs to any class in c.
func Is(b byte, c Class) bool { return table[b]&c != 0 }

// Of returns every class b belongs to.
func Of(b byte) Class { return table[b] }

// IsHex reports whether b is a hexadecimal digit.
func IsHex(b byte) bool { return table[b]&Hex != 0 }

// Unhex returns the value of the hexadecimal digit b; b must satisfy IsHex.
func Unhex(b byte) byte {
	switch {
	case b <= '9':
		return b - '0'
	case b >= 'a':
		return b - 'a' + 10
	default:
		return b - 'A' + 10
	}
}

// UpperHex is the digit set used when encoding: RFC 1738 lists 0-9A-F.
const UpperHex = "0123456789ABCDEF"
