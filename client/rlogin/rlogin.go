package rlogin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// ErrUnsafeArg reports a user name or terminal type holding CR, LF or NUL
// (a NUL would end the handshake field early); nothing was sent.
var ErrUnsafeArg = wire.ErrUnsafeArg

// ArgError is the type of the errors reporting an unsafe argument.
type ArgError = wire.ArgError

// ErrRefused reports a server that refused the connection during the
// handshake; the error is a *HandshakeError.
var ErrRefused = errors.New("rlogin: refused")

// HandshakeError reports the server's refusal: the message it sent
// (after its non-zero first byte), or a close without a message.
type HandshakeError struct {
	Msg        string // the server's message, control bytes escaped; may be empty
	SourcePort int    // our source port
	Privileged bool   // whether SourcePort was in 512-1023
}

// Error gives the server's message and, for an unprivileged source port,
// the likely reason.
func (e *HandshakeError) Error() string {
	s := "rlogin: the server refused the login"
	if e.Msg != "" {
		s += ": " + e.Msg
	} else {
		s += " (closed the connection without a message)"
	}
	if !e.Privileged {
		s += "; " + UnprivilegedNote(e.SourcePort)
	}
	return s
}

// Is reports whether target is ErrRefused.
func (e *HandshakeError) Is(target error) bool { return target == ErrRefused }

// UnprivilegedNote explains what an unprivileged source port means, for
// a client to print when Conn.Privileged is false.
func UnprivilegedNote(port int) string {
	return fmt.Sprintf("source port %d is not privileged: rlogind trusts (and many refuse) only ports 512-1023, which need root", port)
}

// Control bytes of the server's urgent data (RFC 1282; BSD TIOCPKT_*).
const (
	ctlFlushWrite = 0x02 // discard output received up to the urgent mark
	ctlNoStop     = 0x10 // raw mode: pass ^S/^Q to the server
	ctlDoStop     = 0x20 // cooked mode: handle ^S/^Q locally
	ctlWindow     = 0x80 // send the window size, now and on changes
)

// maxRefusal bounds the message of a refusal.
const maxRefusal = 1024

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

	smu     sync.Mutex // guards secrets (the tracer's mask runs inside writes)
	secrets []string
}

// Handshake returns the bytes of the RFC 1282 handshake:
// NUL localUser NUL remoteUser NUL term/speed NUL.
func Handshake(localUser, remoteUser, term string, speed int) ([]byte, error) {
	for _, f := range []struct{ name, v string }{{"local user", localUser}, {"remote user", remoteUser}, {"terminal type", term}} {
		if err := wire.CheckArg(f.v, false); err != nil {
			return nil, fmt.Errorf("rlogin: %s: %w", f.name, err)
		}
	}
	b := []byte{0}
	b = append(b, localUser...)
	b = append(b, 0)
	b = append(b, remoteUser...)
	b = append(b, 0)
	b = append(b, term...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(speed), 10)
	return append(b, 0), nil
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
		c.conn = (&wire.Tracer{W: tw, Mask: c.mask, MaskReceived: true}).Conn(raw)
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

// dialFrom connects from a privileged port (1023 down to 512, the first
// free, as rresvport does) when privileged is set.
func dialFrom(ctx context.Context, addr string, privileged bool) (*net.TCPConn, bool, error) {
	if privileged {
		for port := 1023; port >= 512; port-- {
			nd := &net.Dialer{LocalAddr: &net.TCPAddr{Port: port}}
			c, err := wire.Dial(ctx, nd, "tcp", addr)
			if err == nil {
				return c.(*net.TCPConn), true, nil
			}
			if errors.Is(err, syscall.EADDRINUSE) || errors.Is(err, syscall.EADDRNOTAVAIL) {
				continue
			}
			return nil, false, err
		}
		// All taken: fall back, the server decides.
	}
	c, err := wire.Dial(ctx, nil, "tcp", addr)
	if err != nil {
		return nil, false, err
	}
	return c.(*net.TCPConn), false, nil
}

func (c *Conn) handshake(hs []byte) error {
	if _, err := c.conn.Write(hs); err != nil {
		return fmt.Errorf("rlogin: %w", err)
	}
	msg, err := readAck(c.r)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
		// rlogind closes at once, unread handshake and all (hence the
		// reset), when it refuses a source port.
		return &HandshakeError{SourcePort: c.port, Privileged: c.priv}
	case errors.Is(err, errRefusal):
		return &HandshakeError{Msg: msg, SourcePort: c.port, Privileged: c.priv}
	case err != nil:
		return fmt.Errorf("rlogin: reading the handshake acknowledgement: %w", err)
	}
	return nil
}

var errRefusal = errors.New("refusal")

// readAck reads the server's answer to the handshake: a NUL byte, or a
// refusal (rcmd convention: byte 1 and a message line; any other byte is
// taken as the start of the message), returned Go-quoted with
// errRefusal. The message is bounded by maxRefusal bytes.
func readAck(r *bufio.Reader) (string, error) {
	b, err := r.ReadByte()
	if err != nil {
		return "", err
	}
	if b == 0 {
		return "", nil
	}
	msg := make([]byte, 0, 128)
	if b != 1 {
		msg = append(msg, b)
	}
	for len(msg) < maxRefusal {
		ch, err := r.ReadByte()
		if err != nil || ch == '\n' {
			break
		}
		msg = append(msg, ch)
	}
	q := strconv.QuoteToASCII(strings.TrimSuffix(string(msg), "\r"))
	return q[1 : len(q)-1], errRefusal
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

// checkUrgent fetches and obeys a pending urgent control byte and
// reports whether there was one.
func (c *Conn) checkUrgent() bool {
	c.umu.Lock()
	defer c.umu.Unlock()
	b, ok, err := wire.ReadUrgent(c.raw)
	if err != nil || !ok {
		return false
	}
	if c.trace != nil {
		fmt.Fprintf(c.trace, "< [urgent 0x%02x]\n", b)
	}
	if b&ctlFlushWrite != 0 {
		c.flushing = true
	}
	if b&ctlNoStop != 0 {
		c.rawMode = true
	}
	if b&ctlDoStop != 0 {
		c.rawMode = false
	}
	if b&ctlWindow != 0 {
		c.wmu.Lock()
		c.windowAsked = true
		if c.width > 0 && c.height > 0 {
			c.conn.Write(AppendWindowSize(nil, c.width, c.height))
		}
		c.wmu.Unlock()
	}
	return true
}

// pollInterval bounds each wait of Read, so Close and deadlines are
// noticed.
const pollInterval = 100 * time.Millisecond

// Read reads the server's output, obeying the urgent control bytes on
// the way (a flush request discards the output up to the urgent mark).
//
// Go's reads never report urgent data, and on Linux a read that passes
// an urgent byte not yet fetched discards it. So Read waits with poll for
// data or urgent data, fetches a pending urgent byte first (recv with
// MSG_OOB), and reads only when none is pending: a read then stops at the
// mark. Where this is not available (not Linux, not a socket), Read is a
// plain read and control bytes are not seen.
func (c *Conn) Read(p []byte) (int, error) {
	for {
		if c.r.Buffered() > 0 {
			// Buffered data precedes any mark (a read stops there), but
			// a flush request may have come since it was read.
			if _, urgent, _ := wire.WaitReadable(c.raw, 0); urgent {
				c.checkUrgent()
			}
			if !c.isFlushing() {
				return c.r.Read(p)
			}
			c.r.Discard(c.r.Buffered())
			continue
		}
		select {
		case <-c.done:
			return 0, net.ErrClosed
		default:
		}
		if dl, ok := c.readDeadline.Load().(time.Time); ok && !dl.IsZero() && time.Now().After(dl) {
			return 0, os.ErrDeadlineExceeded
		}
		readable, urgent, err := wire.WaitReadable(c.raw, pollInterval)
		if errors.Is(err, wire.ErrUrgentUnsupported) {
			return c.r.Read(p)
		}
		if err != nil {
			return 0, err
		}
		if urgent {
			if !c.checkUrgent() {
				// Reported but not fetchable (yet): do not spin.
				time.Sleep(time.Millisecond)
			}
			continue
		}
		if !readable {
			continue
		}
		if c.isFlushing() {
			if at, _ := wire.AtMark(c.raw); at {
				c.umu.Lock()
				c.flushing = false
				c.umu.Unlock()
				continue
			}
			if _, err := c.r.Discard(max(c.r.Buffered(), 1)); err != nil {
				return 0, err
			}
			continue
		}
		return c.r.Read(p)
	}
}

func (c *Conn) isFlushing() bool {
	c.umu.Lock()
	defer c.umu.Unlock()
	return c.flushing
}

// SendSecret writes s and a carriage return (what the Return key sends;
// rlogind's own password prompt reads up to it) and masks s in the trace
// from now on. s may not hold CR, LF or NUL.
func (c *Conn) SendSecret(s string) error {
	if err := wire.CheckArg(s, false); err != nil {
		return fmt.Errorf("rlogin: password: %w", err)
	}
	c.smu.Lock()
	c.secrets = append(c.secrets, s)
	c.smu.Unlock()
	_, err := c.Write([]byte(s + "\r"))
	return err
}

func (c *Conn) mask(line string) string {
	c.smu.Lock()
	defer c.smu.Unlock()
	for _, s := range c.secrets {
		if s != "" {
			line = strings.ReplaceAll(line, s, "***")
		}
	}
	return line
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
