package telnet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// ErrUnsafeArg reports a terminal type, user name or password holding CR,
// LF or NUL; nothing was sent. The error is an *ArgError.
var ErrUnsafeArg = wire.ErrUnsafeArg

// ArgError is the type of the errors reporting an unsafe argument.
type ArgError = wire.ArgError

// maxRefusals bounds the refusals sent for one option. RFC 1143 answers
// every request for an unwanted option, so a peer that repeats the
// request forever would get answers forever; past this many we stop
// answering that option (the peer must treat silence as a refusal).
const maxRefusals = 8

// Default option policies: what a plain interactive session accepts.
var (
	// DefaultLocal lists the options we agree to enable on our side
	// when the server sends DO.
	DefaultLocal = []byte{OptBinary, OptSGA, OptTermType, OptNAWS}
	// DefaultRemote lists the options we agree to let the server enable
	// when it sends WILL.
	DefaultRemote = []byte{OptBinary, OptEcho, OptSGA}
)

// Dialer opens telnet connections. Its zero value is usable: no timeout
// besides the context's, terminal type "DUMB", window size not offered,
// the default option policies.
type Dialer struct {
	// Timeout bounds connection establishment.
	Timeout time.Duration
	// Trace, if set, receives a transcript of the connection, negotiation
	// included, byte for byte ("> " sent, "< " received, control bytes
	// Go-escaped). The secrets given to Conn.SendLine are masked.
	Trace io.Writer
	// TermTypes are the answers to TERMINAL-TYPE SEND (RFC 1091), in
	// order; the last one is repeated. Default {"DUMB"}.
	TermTypes []string
	// Width and Height are sent with NAWS (RFC 1073) when the server asks
	// for it. Zero means the size is unknown: NAWS is refused until
	// Conn.SetWindowSize gives one.
	Width, Height int
	// Local and Remote are the option policies (nil: DefaultLocal,
	// DefaultRemote). Every option not listed is refused.
	Local, Remote []byte
	// Request lists options to ask for right after connecting: positive
	// values are sent as WILL (if in Local) and DO (if in Remote).
	Request []byte
	// MaxSubneg bounds subnegotiation parameters (default
	// DefaultMaxSubneg); a longer one is a *ProtocolError.
	MaxSubneg int
	// OnOption, if set, is called when an option is turned on or off on
	// either side (remote: the server's side), from the goroutine that
	// reads the Conn: a terminal client switches its local echo and line
	// mode when the server starts or stops echoing (ECHO, SGA).
	OnOption func(opt byte, remote, enabled bool)
}

// Conn is a telnet connection: Read returns the server's data with the
// telnet commands taken out (and answered), Write sends data with the NVT
// rules applied. Read must not be called concurrently with itself, nor
// Write with itself; Read and Write may run concurrently, and so may the
// methods that send commands.
type Conn struct {
	raw  net.Conn // the TCP conn, for urgent data; may equal conn
	conn net.Conn // raw, possibly wrapped by the tracer

	wmu        sync.Mutex // serialises writes and the option state
	local      [256]side
	remote     [256]side
	refusals   [2][256]uint8 // [0] WONTs sent, [1] DONTs sent
	allowLocal [256]bool
	allowRem   [256]bool
	termTypes  []string
	ttIndex    int
	notify     func(opt byte, remote, enabled bool)
	width      int
	height     int
	secrets    wire.Secrets // what SendLine sent as secret, masked in the trace
	wbuf       []byte

	p       *parser
	in      []byte // read buffer
	start   int    // in[start:end] is unparsed
	end     int
	pending []byte // parsed data not yet returned by Read
	eor     bool   // an IAC EOR followed pending
	urgent  bool   // SO_OOBINLINE is set: poll for Synch
	rerr    error
}

// Dial connects to addr ("host:port") and returns the connection. Nothing
// is sent until the server negotiates, except d.Request. ctx bounds the
// connection establishment only; use [wire.Bind] or deadlines for the rest.
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	nd := &net.Dialer{Timeout: d.Timeout}
	c, err := wire.Dial(ctx, nd, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("telnet: %w", err)
	}
	tc := d.newConn(c)
	if err := tc.request(d.Request); err != nil {
		c.Close()
		return nil, err
	}
	return tc, nil
}

// NewConn runs the telnet protocol over an existing connection (a
// net.Pipe in tests, a conn dialled otherwise). d.Request is sent first.
func (d *Dialer) NewConn(c net.Conn) (*Conn, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	tc := d.newConn(c)
	return tc, tc.request(d.Request)
}

func (d *Dialer) check() error {
	for _, t := range d.TermTypes {
		if err := wire.CheckArg(t, false); err != nil {
			return fmt.Errorf("telnet: terminal type: %w", err)
		}
	}
	return nil
}

func (d *Dialer) newConn(c net.Conn) *Conn {
	tc := &Conn{raw: c, p: newParser(d.MaxSubneg), in: make([]byte, 4096),
		termTypes: d.TermTypes, width: d.Width, height: d.Height, notify: d.OnOption}
	if len(tc.termTypes) == 0 {
		tc.termTypes = []string{"DUMB"}
	}
	local, remote := d.Local, d.Remote
	if local == nil {
		local = DefaultLocal
	}
	if remote == nil {
		remote = DefaultRemote
	}
	for _, o := range local {
		tc.allowLocal[o] = true
	}
	for _, o := range remote {
		tc.allowRem[o] = true
	}
	// Keep a Synch's DM in the stream (it is parsed there); without this,
	// Linux removes the urgent byte and the IAC before it would swallow
	// the next data byte.
	tc.urgent = wire.SetOOBInline(c) == nil
	tc.conn = c
	if d.Trace != nil {
		tr := &wire.Tracer{W: d.Trace, Mask: tc.secrets.Mask, MaskReceived: true}
		tc.conn = tr.Conn(c)
	}
	return tc
}

func (c *Conn) request(opts []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = c.wbuf[:0]
	for _, o := range opts {
		if c.allowLocal[o] && (o != OptNAWS || c.width > 0 && c.height > 0) && c.local[o].ask(true) == sendYes {
			c.wbuf = AppendOption(c.wbuf, WILL, o)
		}
		if c.allowRem[o] && c.remote[o].ask(true) == sendYes {
			c.wbuf = AppendOption(c.wbuf, DO, o)
		}
	}
	return c.flushLocked()
}

func (c *Conn) flushLocked() error {
	if len(c.wbuf) == 0 {
		return nil
	}
	_, err := c.conn.Write(c.wbuf)
	c.wbuf = c.wbuf[:0]
	if err != nil {
		return fmt.Errorf("telnet: %w", err)
	}
	return nil
}

// Read reads data sent by the server, with telnet commands removed:
// negotiations are answered, IAC IAC becomes 255, and (unless the server
// sends BINARY) CR NUL becomes CR. A protocol violation ends the
// connection with a *ProtocolError.
func (c *Conn) Read(b []byte) (int, error) {
	for len(c.pending) == 0 {
		c.eor = false
		if err := c.step(); err != nil {
			if len(c.pending) > 0 {
				break // the data before the error first; the error stays
			}
			return 0, err
		}
	}
	n := copy(b, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// ReadRecord reads data up to the next IAC EOR (RFC 885), as TN3270 frames
// its records, and returns it without the EOR. A record longer than max
// bytes fails. The returned slice is the caller's.
func (c *Conn) ReadRecord(max int) ([]byte, error) { return c.ReadRecordUnless(max, nil) }

// ReadRecordUnless is ReadRecord that also returns, with what arrived and
// ErrNoRecord, as soon as data arrives while early reports true: data
// that no record can be, such as a login prompt from a server that never
// negotiated records, does not wait for an EOR that will not come.
func (c *Conn) ReadRecordUnless(max int, early func() bool) ([]byte, error) {
	var rec []byte
	for {
		for len(c.pending) == 0 && !c.eor {
			if err := c.step(); err != nil {
				if errors.Is(err, io.EOF) && len(rec) > 0 {
					err = io.ErrUnexpectedEOF
				}
				return nil, err
			}
		}
		if len(rec)+len(c.pending) > max {
			return nil, fmt.Errorf("%w: record longer than %d bytes", ErrProtocol, max)
		}
		rec = append(rec, c.pending...)
		c.pending = nil
		if c.eor {
			c.eor = false
			return rec, nil
		}
		if early != nil && len(rec) > 0 && early() {
			return rec, ErrNoRecord
		}
	}
}

// ErrNoRecord is ReadRecordUnless's error for data that came before its
// caller could take it as a record.
var ErrNoRecord = errors.New("telnet: data before records were negotiated")

// step parses the next piece of input, reading from the network when the
// buffer is empty. It sets c.pending and c.eor.
func (c *Conn) step() error {
	if c.rerr != nil {
		return c.rerr
	}
	if c.start == c.end {
		n, err := c.conn.Read(c.in)
		if n == 0 {
			if err == nil {
				return nil
			}
			c.rerr = err
			return err
		}
		c.start, c.end = 0, n
		if c.urgent {
			// RFC 854 Synch: while urgent data is announced and not yet
			// read, the data up to the DM is dropped (commands are still
			// obeyed). A read stops at the urgent mark and the DM is the
			// urgent byte, so the chunk that reads it has no urgent data
			// pending: dropping ends there even if a broken server sent
			// urgent data without a DM.
			pending, _ := wire.WaitUrgent(c.raw, 0)
			c.p.synch = pending
		}
	}
	data, ev, n, err := c.p.parse(c.in[c.start:c.end])
	c.start += n
	c.pending = data
	if err != nil {
		c.rerr = err
		return err
	}
	switch ev.kind {
	case evCommand:
		switch ev.cmd {
		case DM:
			c.p.synch = false
		case EOR:
			c.eor = true
		}
	case evOption:
		c.negotiate(ev.cmd, ev.opt)
	case evSubneg:
		c.subneg(ev.opt, ev.data)
	}
	// A failed answer (the server closed or reset its side) is not an
	// error of the read: the data already received stays readable and
	// the read side reports the end of the connection itself.
	return nil
}

// negotiate answers WILL/WONT/DO/DONT per RFC 1143.
func (c *Conn) negotiate(verb, opt byte) error {
	c.wmu.Lock()
	var reply negotiation
	var s *side
	var yes, no byte
	switch verb {
	case WILL, WONT:
		s, yes, no = &c.remote[opt], DO, DONT
	default:
		s, yes, no = &c.local[opt], WILL, WONT
	}
	was := s.enabled()
	switch verb {
	case WILL:
		reply, _ = s.recvYes(c.allowRem[opt])
	case DO:
		agree := c.allowLocal[opt] && (opt != OptNAWS || c.width > 0 && c.height > 0)
		reply, _ = s.recvYes(agree)
	default: // WONT, DONT
		reply, _ = s.recvNo()
	}
	switch reply {
	case sendYes:
		c.wbuf = AppendOption(c.wbuf, yes, opt)
	case sendNo:
		if (verb == WILL || verb == DO) && !s.enabled() {
			n := &c.refusals[0][opt] // a DO refused with WONT
			if verb == WILL {
				n = &c.refusals[1][opt] // a WILL refused with DONT
			}
			if *n >= maxRefusals {
				break
			}
			*n++
		}
		c.wbuf = AppendOption(c.wbuf, no, opt)
	}
	now := s.enabled()
	if now != was {
		c.optionChanged(verb, opt)
	}
	err := c.flushLocked()
	notify := c.notify
	c.wmu.Unlock()
	if now != was && notify != nil {
		// Outside the lock: the callback may use the Conn.
		notify(opt, verb == WILL || verb == WONT, now)
	}
	return err
}

// optionChanged applies the effect of an option turned on or off.
// wmu is held.
func (c *Conn) optionChanged(verb, opt byte) {
	switch {
	case opt == OptBinary && (verb == WILL || verb == WONT):
		c.p.binary = c.remote[OptBinary].enabled()
	case opt == OptNAWS && verb == DO && c.local[OptNAWS].enabled() && c.width > 0 && c.height > 0:
		c.wbuf = AppendNAWS(c.wbuf, c.width, c.height)
	}
}

// subneg handles IAC SB ... IAC SE.
func (c *Conn) subneg(opt byte, params []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if opt != OptTermType || !c.local[OptTermType].enabled() || len(params) == 0 || params[0] != ttSend {
		return nil // RFC 855: parameters of an option not enabled are ignored
	}
	t := c.termTypes[min(c.ttIndex, len(c.termTypes)-1)]
	c.ttIndex++
	c.wbuf = AppendTermType(c.wbuf, t)
	return c.flushLocked()
}

// Write sends b as data: IAC is doubled and, unless our side has BINARY
// enabled, LF becomes CR LF and a lone CR becomes CR NUL (AppendData).
func (c *Conn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = AppendData(c.wbuf[:0], b, c.local[OptBinary].enabled())
	if err := c.flushLocked(); err != nil {
		return 0, err
	}
	return len(b), nil
}

// WriteRecord sends rec as data followed by IAC EOR (RFC 885), in one
// write: the record framing TN3270 uses.
func (c *Conn) WriteRecord(rec []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = AppendCommand(AppendData(c.wbuf[:0], rec, c.local[OptBinary].enabled()), EOR)
	return c.flushLocked()
}

// SendLine writes line, a line typed at a prompt as an access plan
// writes it, with AppendLine's rules for the mode our side is in. It
// must end in CR LF and hold no other CR, LF or NUL. secret, when not
// empty, is the part of line that the trace masks from now on (a
// password).
func (c *Conn) SendLine(line, secret string) error {
	if _, err := wire.CheckLine(line); err != nil {
		return fmt.Errorf("telnet: line typed at a prompt: %w", err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if secret != "" {
		c.secrets.Add(secret)
	}
	c.wbuf = AppendLine(c.wbuf[:0], []byte(line), c.local[OptBinary].enabled())
	return c.flushLocked()
}

// SendCommand sends IAC cmd: BRK, IP, AO, AYT, EC, EL, NOP, GA (or EOR).
func (c *Conn) SendCommand(cmd byte) error {
	if cmd < EOR || cmd == SB || cmd == SE || cmd >= WILL {
		return fmt.Errorf("telnet: %s is not a command to send alone", CommandName(cmd))
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = AppendCommand(c.wbuf[:0], cmd)
	return c.flushLocked()
}

// SetWindowSize records the terminal size and sends it (RFC 1073) if NAWS
// is enabled; when the server asked for NAWS before a size was known,
// it is offered now with WILL NAWS.
func (c *Conn) SetWindowSize(width, height int) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.width, c.height = width, height
	switch {
	case c.local[OptNAWS].enabled():
		c.wbuf = AppendNAWS(c.wbuf, width, height)
	case c.allowLocal[OptNAWS] && width > 0 && height > 0 && c.refusals[0][OptNAWS] > 0:
		if c.local[OptNAWS].ask(true) == sendYes {
			c.wbuf = AppendOption(c.wbuf, WILL, OptNAWS)
		}
	}
	return c.flushLocked()
}

// LocalEnabled reports whether option opt is enabled on our side.
func (c *Conn) LocalEnabled(opt byte) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.local[opt].enabled()
}

// RemoteEnabled reports whether option opt is enabled on the server's
// side (RemoteEnabled(OptEcho): the server echoes what we type).
func (c *Conn) RemoteEnabled(opt byte) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.remote[opt].enabled()
}

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }

// CloseWrite shuts down the sending side, if the connection supports it.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.raw.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SetDeadline sets the read and write deadlines of the connection.
func (c *Conn) SetDeadline(t time.Time) error { return c.conn.SetDeadline(t) }

// NetConn returns the underlying connection (traced, if tracing).
func (c *Conn) NetConn() net.Conn { return c.conn }
