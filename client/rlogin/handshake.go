package rlogin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit/internal/wire"
)

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

// maxRefusal bounds the message of a refusal.
const maxRefusal = 1024

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

// checkHandshake checks the shape of a handshake: NUL, then three
// fields each ending in NUL, none holding CR or LF.
func checkHandshake(hs []byte) error {
	if len(hs) < 4 || hs[0] != 0 || hs[len(hs)-1] != 0 || bytes.Count(hs, []byte{0}) != 4 {
		return fmt.Errorf("rlogin: the handshake %q is not NUL local NUL remote NUL term/speed NUL", hs)
	}
	if i := bytes.IndexAny(hs, "\r\n"); i >= 0 {
		return fmt.Errorf("rlogin: handshake: %w", &wire.ArgError{Offset: i, Byte: hs[i]})
	}
	return nil
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
