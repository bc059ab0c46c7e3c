package telnet

import (
	"errors"
	"fmt"
)

// ErrProtocol matches (with errors.Is) every *ProtocolError.
var ErrProtocol = errors.New("telnet: protocol error")

// ProtocolError reports a byte sequence from the server that breaks the
// telnet protocol. Offset counts the bytes received before it.
type ProtocolError struct {
	Offset int64  // stream offset of the offending byte
	Rule   string // what was wrong, with the RFC that says so
}

// Error names the offset and the rule.
func (e *ProtocolError) Error() string {
	return fmt.Sprintf("telnet: byte %d: %s", e.Offset, e.Rule)
}

// Is reports whether target is ErrProtocol.
func (e *ProtocolError) Is(target error) bool { return target == ErrProtocol }

// DefaultMaxSubneg bounds a subnegotiation's parameters when
// Dialer.MaxSubneg is zero. TERMINAL-TYPE and NAWS need a few dozen
// bytes; 1 KiB leaves room for environment options without letting a
// server make the client buffer without end.
const DefaultMaxSubneg = 1024

// eventKind says what stopped the parser.
type eventKind uint8

const (
	evNone    eventKind = iota
	evCommand           // a two-byte command: IAC cmd (NOP, DM, IP, GA, EOR...)
	evOption            // IAC verb opt
	evSubneg            // IAC SB opt params IAC SE
)

// event is one telnet command found in the stream.
type event struct {
	kind eventKind
	cmd  byte   // the command, or the verb of an option
	opt  byte   // the option of a negotiation or subnegotiation
	data []byte // subnegotiation parameters, IAC IAC undone (parser's buffer)
}

type parserState uint8

const (
	stData  parserState = iota
	stCR                // after CR in NVT mode: NUL is dropped
	stIAC               // after IAC
	stVerb              // after IAC WILL/WONT/DO/DONT
	stSBOpt             // after IAC SB
	stSB                // inside subnegotiation parameters
	stSBIAC             // after IAC inside subnegotiation parameters
)

// parser splits the server's byte stream into data and telnet commands
// (RFC 854, 855). It keeps its state between calls, so a command may be
// split across reads anywhere. It does not allocate after newParser.
type parser struct {
	state  parserState
	binary bool // the server sends BINARY (RFC 856): no CR NUL rule
	synch  bool // Synch in progress: data is dropped until DM (RFC 854)
	verb   byte
	sbOpt  byte
	sb     []byte // parameters of the subnegotiation being read; cap = limit
	off    int64  // stream offset of the next byte
}

func newParser(maxSubneg int) *parser {
	if maxSubneg <= 0 {
		maxSubneg = DefaultMaxSubneg
	}
	return &parser{sb: make([]byte, 0, maxSubneg)}
}

// parse consumes in up to and including the first command and returns
// the data bytes before it, the command (kind evNone if in ended first)
// and the number of bytes of in consumed. The data is written over in
// itself (it never grows: IAC IAC and CR NUL shrink to one byte), so
// data aliases in[:len(data)], and in[n:] is untouched. After an error
// the parser must not be used again.
func (p *parser) parse(in []byte) (data []byte, ev event, n int, err error) {
	w := 0
	keep := func(b byte) {
		if !p.synch {
			in[w] = b
			w++
		}
	}
	for i := 0; i < len(in); i++ {
		b := in[i]
		p.off++
		switch p.state {
		case stData:
			switch {
			case b == IAC:
				p.state = stIAC
			case b == '\r' && !p.binary:
				p.state = stCR
				keep(b)
			default:
				keep(b)
			}
		case stCR:
			// RFC 854: CR is followed by LF (end of line) or NUL (a bare
			// carriage return); the NUL is only padding for the rule.
			p.state = stData
			switch {
			case b == 0:
			case b == IAC:
				p.state = stIAC
			case b == '\r':
				p.state = stCR
				keep(b)
			default:
				keep(b)
			}
		case stIAC:
			p.state = stData
			switch {
			case b == IAC:
				keep(IAC)
			case b >= WILL: // WILL, WONT, DO, DONT
				p.verb = b
				p.state = stVerb
			case b == SB:
				p.state = stSBOpt
			case b == SE:
				// A stray SE ends nothing; RFC 855 gives it no meaning
				// outside a subnegotiation, so it is dropped.
			case b >= EOR:
				return in[:w], event{kind: evCommand, cmd: b}, i + 1, nil
			default:
				return in[:w], event{}, i + 1, &ProtocolError{p.off - 1, fmt.Sprintf("IAC followed by 0x%02x, which is not a command (RFC 854 commands are 239-255)", b)}
			}
		case stVerb:
			p.state = stData
			return in[:w], event{kind: evOption, cmd: p.verb, opt: b}, i + 1, nil
		case stSBOpt:
			p.sbOpt = b
			p.sb = p.sb[:0]
			p.state = stSB
		case stSB:
			if b == IAC {
				p.state = stSBIAC
				continue
			}
			if err := p.sbByte(b); err != nil {
				return in[:w], event{}, i + 1, err
			}
		case stSBIAC:
			switch b {
			case IAC:
				p.state = stSB
				if err := p.sbByte(IAC); err != nil {
					return in[:w], event{}, i + 1, err
				}
			case SE:
				p.state = stData
				return in[:w], event{kind: evSubneg, opt: p.sbOpt, data: p.sb}, i + 1, nil
			default:
				return in[:w], event{}, i + 1, &ProtocolError{p.off - 1, fmt.Sprintf("IAC %s inside the subnegotiation of %s (only IAC IAC and IAC SE may appear there, RFC 855)", CommandName(b), OptionName(p.sbOpt))}
			}
		}
	}
	return in[:w], event{}, len(in), nil
}

func (p *parser) sbByte(b byte) error {
	if len(p.sb) == cap(p.sb) {
		return &ProtocolError{p.off - 1, fmt.Sprintf("subnegotiation of %s longer than the limit of %d bytes", OptionName(p.sbOpt), cap(p.sb))}
	}
	p.sb = append(p.sb, b)
	return nil
}
