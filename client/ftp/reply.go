package ftp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnsafeArg reports an argument holding CR, LF or NUL, which was
	// not sent (command injection guard). The error is an *ArgError with
	// the offset.
	ErrUnsafeArg = wire.ErrUnsafeArg
	// ErrLineTooLong reports a reply or listing line longer than
	// Dialer.MaxLine.
	ErrLineTooLong = wire.ErrLineTooLong
	// ErrMalformedReply reports something that is not an RFC 959 reply,
	// or an unparsable PASV, EPSV, SIZE or PWD reply.
	ErrMalformedReply = errors.New("ftp: malformed reply")
	// ErrReplyTooLong reports a multi-line reply longer than
	// Dialer.MaxReplyLines.
	ErrReplyTooLong = errors.New("ftp: too many reply lines")
	// ErrShortTransfer reports a data connection that failed, or ended
	// before the announced number of bytes arrived.
	ErrShortTransfer = errors.New("ftp: short transfer")
	// ErrBusy reports a command issued while a Retr body or a listing is
	// open.
	ErrBusy = errors.New("ftp: data transfer in progress")
	// ErrClosed reports a connection closed by Close or Quit, or after an
	// earlier failure left the control connection in an unknown state.
	ErrClosed = errors.New("ftp: connection closed")
	// ErrDataPort reports the port of an EPSV or PASV reply that
	// Dialer.CheckDataPort refused; no connection was made to it.
	ErrDataPort = errors.New("ftp: refused data port")
	// ErrBadType reports a Type argument other than A or I.
	ErrBadType = errors.New("ftp: unsupported transfer type")
)

// opErr prefixes an error with "ftp: OP: ", without doubling the
// "ftp: " of an error from this package.
func opErr(op string, err error) error { return &wire.OpError{Prefix: "ftp", Op: op, Err: err} }

// ArgError is the type of the errors reporting an unsafe argument: the
// offset and value of the first CR, LF or NUL byte.
type ArgError = wire.ArgError

// ReplyError is a negative or unexpected server reply to a command. The
// connection stays usable (except after code 421), so the caller can
// decide what to do; for example RFC 1738 section 3.2.2 says an empty path
// segment means "CWD" with a null argument, which ProFTPD refuses with 501.
type ReplyError struct {
	// Cmd is the command verb that got the reply ("CWD", "RETR", ...).
	// Arguments are not kept, so a password can never appear here.
	Cmd string
	// Code is the three-digit reply code.
	Code int
	// Msg is the reply text; lines of a multi-line reply are joined with "\n".
	Msg string
}

// Error returns "ftp: CMD: CODE text".
func (e *ReplyError) Error() string {
	return fmt.Sprintf("ftp: %s: %d %s", e.Cmd, e.Code, e.Msg)
}

// Temporary reports whether the reply is a transient negative completion
// (4yz): the same command may succeed later.
func (e *ReplyError) Temporary() bool { return e.Code >= 400 && e.Code < 500 }

// reply is one complete server reply.
type reply struct {
	code int
	msg  string
}

func (r reply) class() int { return r.code / 100 }

// readReply reads one reply, single- or multi-line (RFC 959 section 4.2):
//
//	single:  "ddd text"  (or bare "ddd")
//	multi:   "ddd-text" ... lines ... "ddd text"
//
// Lines of a multi-line reply between the first and the last are kept as
// they are, except that a "ddd-" prefix with the reply's own code is
// removed (many servers repeat it). At most maxLines lines are read.
func readReply(lr *wire.LineReader, maxLines int) (reply, error) {
	line, err := lr.ReadLine()
	if err != nil {
		return reply{}, wire.UnexpectedEOF("control connection", err)
	}
	code, sep, text, ok := wire.ParseStatus(line)
	if !ok {
		return reply{}, fmt.Errorf("%w: %q", ErrMalformedReply, wire.Clip(line))
	}
	if sep != '-' {
		return reply{code, text}, nil
	}
	prefix := line[:3] + "-"
	lines := []string{text}
	for {
		if len(lines) >= maxLines {
			return reply{}, fmt.Errorf("%w (limit %d)", ErrReplyTooLong, maxLines)
		}
		line, err := lr.ReadLine()
		if err != nil {
			return reply{}, wire.UnexpectedEOF("control connection", err)
		}
		if c, s, t, ok := wire.ParseStatus(line); ok && c == code && s != '-' {
			lines = append(lines, t)
			return reply{code, strings.Join(lines, "\n")}, nil
		}
		lines = append(lines, strings.TrimPrefix(line, prefix))
	}
}

// formatReply renders r as the server would have sent it (without the
// final CRLF); readReply(formatReply(r)) == r. Used by tests and fuzzing.
func formatReply(r reply) string {
	code := strconv.Itoa(r.code)
	lines := strings.Split(r.msg, "\n")
	if len(lines) == 1 {
		return code + " " + r.msg
	}
	var b strings.Builder
	b.WriteString(code + "-" + lines[0] + "\r\n")
	for _, l := range lines[1 : len(lines)-1] {
		b.WriteString(code + "-" + l + "\r\n")
	}
	b.WriteString(code + " " + lines[len(lines)-1])
	return b.String()
}

// parseSize parses the byte count many servers put in the 150 reply to
// RETR, as in "150 Opening BINARY mode data connection for f (65536 bytes)".
// It returns -1 if there is none.
func parseSize(msg string) int64 {
	i := strings.LastIndex(msg, "(")
	if i < 0 {
		return -1
	}
	num, rest, ok := strings.Cut(msg[i+1:], " ")
	if !ok || !strings.HasPrefix(rest, "bytes)") {
		return -1
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// parsePWD extracts the directory from a 257 reply: the first quoted
// string, with "" standing for one quote (RFC 959 Appendix II).
func parsePWD(msg string) (string, error) {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", fmt.Errorf("%w: no quoted directory in %q", ErrMalformedReply, wire.Clip(msg))
	}
	var b strings.Builder
	for j := i + 1; j < len(msg); j++ {
		if msg[j] != '"' {
			b.WriteByte(msg[j])
			continue
		}
		if j+1 < len(msg) && msg[j+1] == '"' {
			b.WriteByte('"')
			j++
			continue
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("%w: unterminated quoted directory in %q", ErrMalformedReply, wire.Clip(msg))
}
