package tn3270

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/internal/wire"
)

// DefaultTermType is the terminal type sent: a 3278 model 2, 24x80.
const DefaultTermType = "IBM-3278-2"

// DefaultMaxRecord bounds one 3270 record when Dialer.MaxRecord is zero:
// a full model-2 screen with an order per position is under 8 KiB.
const DefaultMaxRecord = 64 << 10

// ErrNotTN3270 reports a server that did not negotiate TN3270 (BINARY
// and END-OF-RECORD both ways, RFC 1576) before sending data.
var ErrNotTN3270 = errors.New("tn3270: server did not negotiate TN3270 (BINARY, END-OF-RECORD, TERMINAL-TYPE)")

// Dialer opens TN3270 connections. Its zero value is usable.
type Dialer struct {
	// Timeout bounds connection establishment.
	Timeout time.Duration
	// Trace, if set, receives the transcript of the connection (telnet
	// negotiation and 3270 records, byte for byte, Go-escaped).
	Trace io.Writer
	// TermType is sent for TERMINAL-TYPE (default DefaultTermType).
	TermType string
	// MaxRecord bounds one record (default DefaultMaxRecord).
	MaxRecord int
	// Local and Remote are the telnet option policies (telnet.Dialer's:
	// the options accepted on our side and on the host's; every other one
	// is refused). nil means TN3270's: BINARY, TERMINAL-TYPE and
	// END-OF-RECORD on ours, BINARY and END-OF-RECORD on the host's
	// (RFC 1576), which a session needs.
	Local, Remote []byte
}

// Conn is a TN3270 session (RFC 1576): telnet with TERMINAL-TYPE,
// BINARY and END-OF-RECORD, carrying 3270 records, and the Screen they
// write.
type Conn struct {
	tc     *telnet.Conn
	max    int
	Screen *Screen
}

func (d *Dialer) telnetDialer() telnet.Dialer {
	tt := d.TermType
	if tt == "" {
		tt = DefaultTermType
	}
	local, remote := d.Local, d.Remote
	if local == nil {
		local = []byte{telnet.OptBinary, telnet.OptTermType, telnet.OptEOR}
	}
	if remote == nil {
		remote = []byte{telnet.OptBinary, telnet.OptEOR}
	}
	return telnet.Dialer{Timeout: d.Timeout, Trace: d.Trace, TermTypes: []string{tt}, Local: local, Remote: remote}
}

func (d *Dialer) conn(tc *telnet.Conn) *Conn {
	max := d.MaxRecord
	if max <= 0 {
		max = DefaultMaxRecord
	}
	return &Conn{tc: tc, max: max, Screen: NewScreen()}
}

// Dial connects to the TN3270 server at addr ("host:port"). The telnet
// negotiation happens during the first ReadScreen.
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	td := d.telnetDialer()
	tc, err := td.Dial(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("tn3270: %w", err)
	}
	return d.conn(tc), nil
}

// NewConn runs TN3270 over an existing connection.
func (d *Dialer) NewConn(c net.Conn) (*Conn, error) {
	td := d.telnetDialer()
	tc, err := td.NewConn(c)
	if err != nil {
		return nil, err
	}
	return d.conn(tc), nil
}

// negotiated reports whether both sides use BINARY and EOR.
func (c *Conn) negotiated() bool {
	return c.tc.LocalEnabled(telnet.OptBinary) && c.tc.RemoteEnabled(telnet.OptBinary) &&
		c.tc.LocalEnabled(telnet.OptEOR) && c.tc.RemoteEnabled(telnet.OptEOR)
}

// ReadScreen reads records until one writes the screen, answering the
// host's reads and queries on the way, and returns what it wrote.
func (c *Conn) ReadScreen(ctx context.Context) error {
	release := wire.Bind(ctx, c.tc)
	defer release()
	for {
		// Data before the negotiation is a server that talks NVT: said
		// at once, not after waiting for an EOR it will never send.
		rec, err := c.tc.ReadRecordUnless(c.max, func() bool { return !c.negotiated() })
		if err != nil && !errors.Is(err, telnet.ErrNoRecord) {
			return wire.ContextError(ctx, c.readError(err))
		}
		if !c.negotiated() {
			return fmt.Errorf("%w; it sent %s", ErrNotTN3270, quote(rec, 60))
		}
		res, err := c.Screen.Apply(rec)
		if err != nil {
			return err
		}
		if res.Reply != nil {
			if err := c.sendRecord(res.Reply); err != nil {
				return wire.ContextError(ctx, err)
			}
		}
		if res.Wrote {
			return nil
		}
	}
}

func (c *Conn) readError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if !c.negotiated() {
			return fmt.Errorf("%w; it closed the connection", ErrNotTN3270)
		}
		return fmt.Errorf("tn3270: connection closed by the host: %w", err)
	}
	return fmt.Errorf("tn3270: %w", err)
}

// quote shows at most n bytes of b, Go-escaped.
func quote(b []byte, n int) string {
	if len(b) > n {
		return strconv.Quote(string(b[:n])) + "..."
	}
	return strconv.Quote(string(b))
}

// SendAID sends the screen's input for attention key aid (Screen.Input)
// and locks the keyboard until the host answers; Clear also clears the
// screen. Call ReadScreen for the answer.
func (c *Conn) SendAID(ctx context.Context, aid AID) error {
	if !c.negotiated() {
		return ErrNotTN3270
	}
	release := wire.Bind(ctx, c.tc)
	defer release()
	rec := c.Screen.Input(aid)
	if aid == AIDClear {
		c.Screen.clear()
	}
	c.Screen.Locked = true
	c.Screen.AID = aid
	return wire.ContextError(ctx, c.sendRecord(rec))
}

// sendRecord writes rec framed as a telnet record (AppendRecord).
func (c *Conn) sendRecord(rec []byte) error {
	// In BINARY mode (checked by negotiated) the record goes out as
	// AppendRecord shows it.
	return c.tc.WriteRecord(rec)
}

// AppendRecord appends rec as it goes on the wire: IAC doubled, then
// IAC EOR.
func AppendRecord(dst, rec []byte) []byte {
	return telnet.AppendCommand(telnet.AppendData(dst, rec, true), telnet.EOR)
}

// Close closes the connection.
func (c *Conn) Close() error { return c.tc.Close() }

// Play runs a key script (ParseKeys) on the session: local keys change
// the screen, each attention key sends it and reads the host's answer,
// after which screen is called (with c.Screen) so a caller can print
// each resulting screen. It stops at the first error.
func (c *Conn) Play(ctx context.Context, keys []Key, screen func(*Screen) error) error {
	for i, k := range keys {
		if k.Kind != KeyAID {
			if err := c.Screen.Press(k); err != nil {
				return fmt.Errorf("key %d (%v): %w", i+1, k, err)
			}
			continue
		}
		if err := c.SendAID(ctx, k.AID); err != nil {
			return fmt.Errorf("key %d (%v): %w", i+1, k, err)
		}
		if err := c.ReadScreen(ctx); err != nil {
			return fmt.Errorf("key %d (%v): waiting for the host: %w", i+1, k, err)
		}
		if screen != nil {
			if err := screen(c.Screen); err != nil {
				return err
			}
		}
	}
	return nil
}
