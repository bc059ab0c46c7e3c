package wais

import (
	"fmt"
	"strconv"
)

// The WAIS header (Thinking Machines' WAIS release, as freeWAIS-sf sends
// it) precedes every APDU on the TCP connection: 25 ASCII bytes.
//
//	bytes  0-9   the length of what follows, 10 decimal digits
//	byte   10    message type: 'z' (a Z39.50 APDU)
//	byte   11    header version: '2'
//	bytes 12-21  server name, space-padded ("wais      ")
//	byte   22    compression: ' ' (none)
//	byte   23    encoding: ' ' (none)
//	byte   24    checksum: '0' (unused)
const (
	HeaderLen     = 25
	headerType    = 'z'
	headerVersion = '2'
)

// PDUType is the first byte of an APDU's fixed part (Z39.50-1988 table 7).
type PDUType byte

// The PDU types used by WAIS.
const (
	PDUInitRequest    PDUType = 20
	PDUInitResponse   PDUType = 21
	PDUSearchRequest  PDUType = 22
	PDUSearchResponse PDUType = 23
)

// String names the PDU type.
func (t PDUType) String() string {
	switch t {
	case PDUInitRequest:
		return "InitRequest"
	case PDUInitResponse:
		return "InitResponse"
	case PDUSearchRequest:
		return "SearchRequest"
	case PDUSearchResponse:
		return "SearchResponse"
	}
	return "PDU " + strconv.Itoa(int(t))
}

// frame puts the WAIS header before apdu.
func frame(apdu []byte) []byte {
	b := make([]byte, 0, HeaderLen+len(apdu))
	b = fmt.Appendf(b, "%010d", len(apdu))
	b = append(b, headerType, headerVersion)
	b = append(b, "wais      "...)
	b = append(b, ' ', ' ', '0')
	return append(b, apdu...)
}

// ParseHeader checks a 25-byte WAIS header and returns the length of the
// APDU that follows. A length above max (when max > 0) fails before
// anything is read or allocated.
func ParseHeader(h []byte, max int) (int, error) {
	if len(h) < HeaderLen {
		return 0, &DecodeError{Offset: len(h), Msg: fmt.Sprintf("WAIS header cut short (%d of %d bytes)", len(h), HeaderLen)}
	}
	n := 0
	for i, c := range h[:10] {
		if c < '0' || c > '9' {
			return 0, &DecodeError{Offset: i, Msg: fmt.Sprintf("WAIS header: length %q is not 10 digits", h[:10])}
		}
		n = n*10 + int(c-'0')
	}
	if h[10] != headerType {
		return 0, &DecodeError{Offset: 10, Msg: fmt.Sprintf("WAIS header: message type %q, want 'z'", h[10])}
	}
	if h[22] != ' ' || h[23] != ' ' {
		return 0, &DecodeError{Offset: 22, Msg: fmt.Sprintf("WAIS header: compression %q and encoding %q are not supported", h[22], h[23])}
	}
	if max > 0 && n > max {
		return 0, &DecodeError{Offset: 0, Msg: fmt.Sprintf("WAIS header: message of %d bytes exceeds the limit of %d", n, max)}
	}
	if n < 3 {
		return 0, &DecodeError{Offset: 0, Msg: fmt.Sprintf("WAIS header: message of %d bytes is too short for an APDU", n)}
	}
	return n, nil
}

// apdu builds an APDU: the two-byte length of the header part (the PDU
// type and the fields counted in it), the header part, and the rest
// (user information or a type-1 query), which the length does not count.
func apdu(header, rest []byte) ([]byte, error) {
	if len(header) > 0xffff {
		return nil, fmt.Errorf("wais: APDU header part of %d bytes exceeds 65535", len(header))
	}
	b := make([]byte, 0, 2+len(header)+len(rest))
	b = appendFixed(b, uint64(len(header)), 2)
	b = append(b, header...)
	return append(b, rest...), nil
}

// apduParts is a received message split for decoding: the PDU type, the
// header part (from the PDU type byte on), the rest (user information or
// a query) and the offsets of both in the message.
type apduParts struct {
	typ              PDUType
	head, rest       []byte
	headOff, restOff int
}

// splitMessage checks a message's WAIS header against the bytes that
// follow and splits its APDU.
func splitMessage(msg []byte) (apduParts, error) {
	n, err := ParseHeader(msg, 0)
	if err != nil {
		return apduParts{}, err
	}
	apdu := msg[HeaderLen:]
	if n != len(apdu) {
		return apduParts{}, &DecodeError{Offset: 0, Msg: fmt.Sprintf("WAIS header announces %d bytes, message has %d", n, len(apdu))}
	}
	if len(apdu) < 3 {
		return apduParts{}, &DecodeError{Offset: HeaderLen, Msg: "APDU shorter than 3 bytes"}
	}
	h := int(apdu[0])<<8 | int(apdu[1])
	if h < 1 || h > len(apdu)-2 {
		return apduParts{}, &DecodeError{Offset: HeaderLen, Msg: fmt.Sprintf("APDU header length %d does not fit the %d bytes of the message", h, len(apdu)-2)}
	}
	headOff := HeaderLen + 2
	return apduParts{typ: PDUType(apdu[2]), head: apdu[2 : 2+h], rest: apdu[2+h:], headOff: headOff, restOff: headOff + h}, nil
}

// unexpected is the error for a PDU of the wrong kind.
func (p apduParts) unexpected() error {
	return &DecodeError{Offset: p.headOff, Msg: fmt.Sprintf("unexpected %v", p.typ)}
}
