package prospero

import (
	"encoding/binary"
	"fmt"
)

// ARDP, the Asynchronous Reliable Delivery Protocol (Prospero protocol
// version 5, appendix "Asynchronous Reliable Delivery Protocol"), carries
// a request message and its reply as UDP datagrams, each starting with a
// header whose fields may be cut off after any of them (the rest take
// their defaults):
//
//	octet 0       version (high 2 bits, 0) and header length (low 6 bits)
//	octets 1-2    connection id
//	octets 3-4    packet number (default 1; 0 = unsequenced control packet)
//	octets 5-6    total packets in the message (0 = not known yet)
//	octets 7-8    received through (acknowledges packets 1..n)
//	octets 9-10   wait: seconds until the server expects to reply
//	octet 11      flags: 0x80 please acknowledge, 0x40 sequenced control
//	octet 12      option: 1 = connection refused (server to client), ...
//
// All multi-octet fields are unsigned and big-endian.

// Header is a decoded ARDP header. The Has fields tell which fields were
// present; absent ones hold their defaults.
type Header struct {
	Len         int    // header length in bytes
	ConnID      uint16 // connection id
	Seq         uint16 // packet number
	Total       uint16 // total packets, 0 = unknown
	RcvdThru    uint16 // received through
	Wait        uint16 // seconds to wait for the reply
	Flags       byte
	Option      byte
	HasSeq      bool
	HasTotal    bool
	HasRcvdThru bool
	HasWait     bool
}

// Header flags and options.
const (
	FlagAck        = 0x80 // the sender asks for an acknowledgement
	FlagSeqControl = 0x40 // a sequenced control packet: no data for the application
	OptionRefused  = 1    // server to client: connection refused
	requestHdrLen  = 9    // header of every request and acknowledgement we send
	maxHeaderLen   = 63   // 6 bits
	maxPacketData  = 1250 // data bytes per request packet (Prospero's ARDP_PTXT_LEN)
	maxDatagram    = 65535
)

// HeaderError reports a datagram whose ARDP header cannot be decoded.
type HeaderError struct {
	Msg string
}

// Error describes the problem.
func (e *HeaderError) Error() string { return "prospero: bad ARDP header: " + e.Msg }

// ParseHeader decodes the ARDP header at the start of a datagram and
// returns it with the data that follows. Version bits other than 0, a
// header length below 1 or beyond the datagram fail.
func ParseHeader(p []byte) (Header, []byte, error) {
	h, data, ok := decodeHeader(p)
	if ok {
		return h, data, nil
	}
	switch {
	case len(p) == 0:
		return h, nil, &HeaderError{"empty datagram"}
	case p[0]>>6 != 0:
		return h, nil, &HeaderError{fmt.Sprintf("ARDP version %d, want 0", p[0]>>6)}
	}
	return h, nil, &HeaderError{fmt.Sprintf("header length %d in a datagram of %d bytes", p[0]&0x3f, len(p))}
}

// decodeHeader is ParseHeader without an error value: the receive loop
// drops bad datagrams, and must not allocate for each one of a flood.
func decodeHeader(p []byte) (h Header, data []byte, ok bool) {
	if len(p) == 0 || p[0]>>6 != 0 {
		return h, nil, false
	}
	h.Len = int(p[0] & 0x3f)
	if h.Len < 1 || h.Len > len(p) {
		return h, nil, false
	}
	hp := p[:h.Len]
	field := func(at int) (uint16, bool) {
		if len(hp) >= at+2 {
			return binary.BigEndian.Uint16(hp[at:]), true
		}
		return 0, false
	}
	h.ConnID, _ = field(1)
	h.Seq, h.HasSeq = field(3)
	h.Total, h.HasTotal = field(5)
	h.RcvdThru, h.HasRcvdThru = field(7)
	h.Wait, h.HasWait = field(9)
	if !h.HasSeq {
		// no packet number: the only packet of its message
		h.Seq, h.Total = 1, 1
	}
	if len(hp) > 11 {
		h.Flags = hp[11]
	}
	if len(hp) > 12 {
		h.Option = hp[12]
	}
	return h, p[h.Len:], true
}

// AppendHeader appends the 9-byte header this client sends: connection
// id, packet number, total and received-through.
func AppendHeader(b []byte, connID, seq, total, rcvdThru uint16) []byte {
	b = append(b, requestHdrLen)
	b = binary.BigEndian.AppendUint16(b, connID)
	b = binary.BigEndian.AppendUint16(b, seq)
	b = binary.BigEndian.AppendUint16(b, total)
	return binary.BigEndian.AppendUint16(b, rcvdThru)
}

// Packets splits a request message into the datagrams that carry it, each
// a 9-byte header and at most 1250 bytes of the message.
func Packets(connID uint16, msg []byte, rcvdThru uint16) ([][]byte, error) {
	n := (len(msg) + maxPacketData - 1) / maxPacketData
	if n == 0 {
		n = 1
	}
	if n > 0xffff {
		return nil, fmt.Errorf("prospero: request of %d bytes needs more than 65535 packets", len(msg))
	}
	pkts := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		chunk := msg[i*maxPacketData : min(len(msg), (i+1)*maxPacketData)]
		p := AppendHeader(make([]byte, 0, requestHdrLen+len(chunk)), connID, uint16(i+1), uint16(n), rcvdThru)
		pkts = append(pkts, append(p, chunk...))
	}
	return pkts, nil
}
