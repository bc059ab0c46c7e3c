package rlogin

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// ErrUnsafeArg reports a user name or terminal type holding CR, LF or NUL
// (a NUL would end the handshake field early); nothing was sent.
var ErrUnsafeArg = wire.ErrUnsafeArg

// ArgError is the type of the errors reporting an unsafe argument.
type ArgError = wire.ArgError

// Dialer opens rlogin connections. Its zero value is usable: terminal
// "network" at 38400 baud, no window size, a privileged source port when
// running as root.
type Dialer struct {
	// Timeout bounds connection establishment and the handshake.
	Timeout time.Duration
	// Trace, if set, receives a transcript (handshake and data, byte for
	// byte, Go-escaped; urgent control bytes as "< [urgent 0x80]").
	Trace io.Writer
	// Term is the terminal type (default "network") and Speed its baud
	// rate (default 38400): the handshake sends "Term/Speed".
	Term  string
	Speed int
	// Width and Height (columns, rows) are sent when the server asks
	// (urgent 0x80). Zero: no size is sent until Conn.SetWindowSize.
	Width, Height int
	// Unprivileged disables the privileged source port even as root.
	Unprivileged bool
}

// Conn is an rlogin session after the handshake: Read returns the
// server's output, Write sends input as is (rlogin has no escaping).
type Conn struct {
	raw  net.Conn // the TCP conn (urgent data)
	conn net.Conn // raw, possibly traced
	r    *bufio.Reader
	port int
	priv bool

	wmu           sync.Mutex
	width, height int
	windowAsked   bool

	umu      sync.Mutex // urgent state
	flushing bool       // discarding output up to the mark
	rawMode  bool       // 0x10 seen last (0x20 resets)
	trace    io.Writer
	done     chan struct{}
	closed   sync.Once

	readDeadline atomic.Value // time.Time

	secrets wire.Secrets // what SendLine sent as secret, masked in the trace
}

// AppendWindowSize appends the window-size message of RFC 1282: the magic
// bytes FF FF 's' 's', then rows, columns, x pixels, y pixels as 16-bit
// big-endian numbers (pixels 0).
func AppendWindowSize(dst []byte, width, height int) []byte {
	c, r := min(max(width, 0), 0xffff), min(max(height, 0), 0xffff)
	return append(dst, 0xFF, 0xFF, 's', 's', byte(r>>8), byte(r), byte(c>>8), byte(c), 0, 0, 0, 0)
}

// Dial connects to the rlogind at addr and logs in as remoteUser,
// claiming to be localUser (the client-side account the server's
// .rhosts trust is about). It returns once the server has acknowledged
// the handshake with its NUL byte; a refusal is a *HandshakeError.
func (d *Dialer) Dial(ctx context.Context, addr, localUser, remoteUser string) (*Conn, error) {
	term, speed := d.Term, d.Speed
	if term == "" {
		term = "network"
	}
	if speed <= 0 {
		speed = 38400
	}
	hs, err := Handshake(localUser, remoteUser, term, speed)
	if err != nil {
		return nil, err
	}
	return d.DialHandshake(ctx, addr, hs)
}

// DialHandshake is Dial with hs, the handshake's bytes exactly as the
// caller wrote them (an access plan's): NUL and three NUL-terminated
// fields (local user, remote user, term/speed), none holding CR or LF;
// Dialer.Term and Speed are not used.
func (d *Dialer) DialHandshake(ctx context.Context, addr string, hs []byte) (*Conn, error) {
	if err := checkHandshake(hs); err != nil {
		return nil, err
	}
	if d.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.Timeout)
		defer cancel()
	}
	raw, priv, err := dialFrom(ctx, addr, os.Geteuid() == 0 && !d.Unprivileged)
	if err != nil {
		return nil, fmt.Errorf("rlogin: %w", err)
	}
	c := &Conn{raw: raw, conn: raw, port: raw.LocalAddr().(*net.TCPAddr).Port, priv: priv,
		width: d.Width, height: d.Height, done: make(chan struct{})}
	if d.Trace != nil {
		// One lock for the tracer's lines and our urgent-byte notes.
		tw := &lockedWriter{w: d.Trace}
		c.trace = tw
		c.conn = (&wire.Tracer{W: tw, Mask: c.secrets.Mask, MaskReceived: true}).Conn(raw)
	}
	c.r = bufio.NewReader(c.conn)
	release := wire.Bind(ctx, raw)
	err = c.handshake(hs)
	release()
	if err != nil {
		c.Close()
		return nil, wire.ContextError(ctx, err)
	}
	return c, nil
}

// SourcePort returns our TCP source port.
func (c *Conn) SourcePort() int { return c.port }

// Privileged reports whether the source port is privileged (512-1023).
func (c *Conn) Privileged() bool { return c.priv }

// RawMode reports whether the server last asked for raw flow control
// (urgent 0x10: ^S and ^Q are data) rather than cooked (0x20: the
// client handles ^S/^Q itself).
func (c *Conn) RawMode() bool {
	c.umu.Lock()
	defer c.umu.Unlock()
	return c.rawMode
}

// SendLine writes line, a line typed at a prompt as an access plan
// writes it, unchanged: the stream is raw bytes (no NVT), so the line
// ends with a carriage return alone, what the Return key sends and
// rlogind's own password prompt reads up to. It may hold no other CR,
// LF or NUL. secret, when not empty, is the part of line that the trace
// masks from now on (a password).
func (c *Conn) SendLine(line, secret string) error {
	body, ok := strings.CutSuffix(line, "\r")
	if !ok {
		return fmt.Errorf("rlogin: line typed at a prompt: no carriage return at its end")
	}
	if err := wire.CheckArg(body, false); err != nil {
		return fmt.Errorf("rlogin: line typed at a prompt: %w", err)
	}
	if secret != "" {
		c.secrets.Add(secret)
	}
	_, err := c.Write([]byte(line))
	return err
}

// Write sends input to the server, unchanged.
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.conn.Write(p)
}

// SetWindowSize records the terminal size and sends it if the server has
// asked for window sizes.
func (c *Conn) SetWindowSize(width, height int) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.width, c.height = width, height
	if !c.windowAsked || width <= 0 || height <= 0 {
		return nil
	}
	_, err := c.conn.Write(AppendWindowSize(nil, width, height))
	return err
}

// Close closes the connection.
func (c *Conn) Close() error {
	c.closed.Do(func() { close(c.done) })
	return c.conn.Close()
}

// CloseWrite shuts down the sending side.
func (c *Conn) CloseWrite() error { return c.raw.(*net.TCPConn).CloseWrite() }

// SetDeadline sets the connection's deadlines (Read checks its own
// between waits).
func (c *Conn) SetDeadline(t time.Time) error {
	c.readDeadline.Store(t)
	return c.conn.SetDeadline(t)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
