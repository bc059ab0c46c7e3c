package wais

import (
	"bytes"
	"errors"
	"fmt"
	"math"
)

// The Z39.50-1988 encoding (the standard's section 4.1.3, as the WAIS
// protocol specification 1.5 uses it): an APDU is a fixed part of binary
// fields followed by variable fields, each a tag, a length and the value.
// Tags and lengths are "compressed integers": base-128 digits, most
// significant first, the high bit set on every byte but the last
// (150 = 0x81 0x16). Integer values are big-endian binary of the
// length given.

// Data tags of Z39.50-1988 (its table 19) and of the WAIS extension
// (WAIS protocol specification 1.5, section 5.1; the group, lines and type
// tags are those of Thinking Machines' WAIS release as freeWAIS-sf sends
// them).
const (
	tagReferenceID           = 2
	tagProtocolVersion       = 3
	tagOptions               = 4
	tagPreferredMessageSize  = 5
	tagMaximumRecordSize     = 6
	tagIDAuthentication      = 7
	tagImplementationID      = 8
	tagImplementationName    = 9
	tagImplementationVersion = 10
	tagResultSetName         = 17
	tagDatabaseNames         = 18
	tagElementSetNames       = 19
	tagQueryType             = 20
	tagQuery                 = 21
	tagPresentStatus         = 27
	tagDiagnostic            = 28
	tagAttributeList         = 44 // type-1 query term: six two-letter attributes
	tagTerm                  = 45 // type-1 query term: the value
	tagOperator              = 46 // type-1 query operator

	tagUserInformation   = 99
	tagChunkCode         = 100
	tagChunkIDLength     = 101
	tagChunkMarker       = 102
	tagHighlightMarker   = 103
	tagDeHighlightMarker = 104
	tagNewlineCharacters = 105
	tagSeedWords         = 106
	tagDocumentIDChunk   = 107
	tagChunkStartID      = 108
	tagChunkEndID        = 109
	tagDateFactor        = 111
	tagMaxDocuments      = 114
	tagSeedWordsUsed     = 115
	tagDocumentID        = 116
	tagVersionNumber     = 117
	tagScore             = 118
	tagBestMatch         = 119
	tagDocumentLength    = 120
	tagSource            = 121
	tagDate              = 122
	tagHeadline          = 123
	tagOriginCity        = 124
	tagDocumentText      = 127
	tagStockCodes        = 128
	tagCompanyCodes      = 129
	tagIndustryCodes     = 130
	tagLines             = 131
	tagTypeBlock         = 132
	tagType              = 133

	tagHeaderGroup      = 150
	tagShortHeaderGroup = 151
	tagLongHeaderGroup  = 152
	tagTextGroup        = 153
	tagHeadlineGroup    = 154
	tagCodeGroup        = 155
)

// ErrMalformed matches (with errors.Is) every *DecodeError.
var ErrMalformed = errors.New("wais: malformed message")

// DecodeError reports a message that does not follow the encoding: the
// byte offset in the message (counted from the first byte of the WAIS
// header) and what was wrong there.
type DecodeError struct {
	Offset int
	Msg    string
}

// Error describes the problem and its offset.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("wais: malformed message at byte %d: %s", e.Offset, e.Msg)
}

// Is reports whether target is ErrMalformed.
func (e *DecodeError) Is(target error) bool { return target == ErrMalformed }

// maxCompressedBytes bounds a compressed integer: servers pad with
// leading 0x80 bytes, but no tag or length needs more than 32 bits.
const maxCompressedBytes = 8

// appendCompressed appends n as a compressed integer.
func appendCompressed(b []byte, n uint64) []byte {
	var tmp [10]byte
	i := len(tmp) - 1
	tmp[i] = byte(n & 0x7f)
	for n >>= 7; n > 0; n >>= 7 {
		i--
		tmp[i] = byte(n&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// appendField appends a variable field: tag, length, value.
func appendField(b []byte, tag uint64, val []byte) []byte {
	b = appendCompressed(b, tag)
	b = appendCompressed(b, uint64(len(val)))
	return append(b, val...)
}

// appendStringField is appendField for a string value.
func appendStringField(b []byte, tag uint64, val string) []byte {
	b = appendCompressed(b, tag)
	b = appendCompressed(b, uint64(len(val)))
	return append(b, val...)
}

// appendNumber appends an integer field in the fewest bytes (at least one).
func appendNumber(b []byte, tag uint64, n uint64) []byte {
	var tmp [8]byte
	i := len(tmp) - 1
	tmp[i] = byte(n)
	for n >>= 8; n > 0; n >>= 8 {
		i--
		tmp[i] = byte(n)
	}
	return appendField(b, tag, tmp[i:])
}

// appendFixed appends n as a size-byte big-endian binary integer (the
// fixed part of an APDU).
func appendFixed(b []byte, n uint64, size int) []byte {
	for i := size - 1; i >= 0; i-- {
		b = append(b, byte(n>>(8*i)))
	}
	return b
}

// decoder reads fields from a byte slice. base is the offset of b[0] in
// the message, for errors.
type decoder struct {
	b    []byte
	off  int
	base int
}

func (d *decoder) errorf(format string, args ...any) error {
	return &DecodeError{Offset: d.base + d.off, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) done() bool { return d.off >= len(d.b) }

// compressed reads a compressed integer, at most 32 bits of value.
func (d *decoder) compressed(what string) (uint64, error) {
	start := d.off
	var n uint64
	for i := 0; ; i++ {
		if d.off >= len(d.b) {
			d.off = start
			return 0, d.errorf("%s cut short", what)
		}
		if i == maxCompressedBytes {
			d.off = start
			return 0, d.errorf("%s longer than %d bytes", what, maxCompressedBytes)
		}
		c := d.b[d.off]
		d.off++
		n = n<<7 | uint64(c&0x7f)
		if n > math.MaxUint32 {
			d.off = start
			return 0, d.errorf("%s too large", what)
		}
		if c&0x80 == 0 {
			return n, nil
		}
	}
}

// fixed reads a size-byte big-endian integer.
func (d *decoder) fixed(size int, what string) (uint64, error) {
	if len(d.b)-d.off < size {
		return 0, d.errorf("%s cut short", what)
	}
	var n uint64
	for _, c := range d.b[d.off : d.off+size] {
		n = n<<8 | uint64(c)
	}
	d.off += size
	return n, nil
}

// field reads one variable field. The value aliases d.b. A diagnostic
// record (tag 28) has Z39.50-1988's own layout (appendix D): a two-byte
// binary length, the record, a surrogate byte and 0x1D; its value is the
// whole record after the tag.
func (d *decoder) field() (tag uint64, val []byte, err error) {
	start := d.off
	tag, err = d.compressed("tag")
	if err != nil {
		return 0, nil, err
	}
	if tag == tagDiagnostic {
		n, err := d.fixed(2, "diagnostic length")
		if err != nil {
			d.off = start
			return 0, nil, err
		}
		// length counts the code, the text and the surrogate byte; the
		// end-of-record byte follows.
		if n < 3 || uint64(len(d.b)-d.off) < n+1 {
			d.off = start
			return 0, nil, d.errorf("diagnostic record length %d exceeds the %d bytes left", n, len(d.b)-start)
		}
		val = d.b[d.off : d.off+int(n)+1]
		d.off += int(n) + 1
		return tag, val, nil
	}
	n, err := d.compressed("length")
	if err != nil {
		d.off = start
		return 0, nil, err
	}
	if n > uint64(len(d.b)-d.off) {
		at := d.off
		d.off = start
		return 0, nil, &DecodeError{Offset: d.base + at, Msg: fmt.Sprintf("field %d: length %d exceeds the %d bytes left", tag, n, len(d.b)-at)}
	}
	val = d.b[d.off : d.off+int(n)]
	d.off += int(n)
	return tag, val, nil
}

// field is one variable field as read: its tag, its value (aliasing the
// message) and the offsets in the message of the tag and of the value.
type field struct {
	tag       uint64
	val       []byte
	at, valAt int
}

// each calls f for every field from d's position to its end.
func (d *decoder) each(f func(field) error) error {
	for !d.done() {
		at := d.base + d.off
		tag, val, err := d.field()
		if err != nil {
			return err
		}
		if err := f(field{tag: tag, val: val, at: at, valAt: d.base + d.off - len(val)}); err != nil {
			return err
		}
	}
	return nil
}

// fieldSet says where the value of each field a record knows goes: an
// *int64 gets the integer (number), a *string the text, a *[]byte a copy
// of the bytes, and a func(field) error does what the field needs.
// Fields not in the set are skipped (Z39.50-1988 4.3).
type fieldSet map[uint64]any

// set stores f where fs says.
func (fs fieldSet) set(f field) error {
	switch p := fs[f.tag].(type) {
	case *int64:
		n, err := number(f.val, f.tag, f.at)
		if err != nil {
			return err
		}
		*p = n
	case *string:
		*p = string(f.val)
	case *[]byte:
		*p = bytes.Clone(f.val)
	case func(field) error:
		return p(f)
	}
	return nil
}

// decode reads the fields from d's position to its end into fs.
func (d *decoder) decode(fs fieldSet) error { return d.each(fs.set) }

// number decodes an integer field value: big-endian, 1 to 8 bytes.
func number(val []byte, tag uint64, off int) (int64, error) {
	if len(val) == 0 || len(val) > 8 {
		return 0, &DecodeError{Offset: off, Msg: fmt.Sprintf("field %d: integer of %d bytes", tag, len(val))}
	}
	var n uint64
	for _, c := range val {
		n = n<<8 | uint64(c)
	}
	if n > math.MaxInt64 { // all an int64 holds: Marshal writes any of them
		return 0, &DecodeError{Offset: off, Msg: fmt.Sprintf("field %d: integer out of range", tag)}
	}
	return int64(n), nil
}
