package smtp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnsafeArg reports an argument holding CR, LF or NUL; nothing was
	// sent. The error is an *ArgError.
	ErrUnsafeArg = wire.ErrUnsafeArg
	// ErrLineTooLong reports a reply line longer than Dialer.MaxLine.
	ErrLineTooLong = wire.ErrLineTooLong
	// ErrBadAddress reports an address that is not an RFC 5321 path; the
	// error is an *AddressError.
	ErrBadAddress = errors.New("smtp: bad address")
	// ErrMalformedReply reports something that is not an RFC 5321 reply.
	ErrMalformedReply = errors.New("smtp: malformed reply")
	// ErrReplyTooLong reports a multi-line reply over Dialer.MaxReplyLines.
	ErrReplyTooLong = errors.New("smtp: too many reply lines")
	// ErrNoStartTLS reports a server that does not offer STARTTLS when
	// Dialer.StartTLS asked for it: the session is not continued in clear.
	ErrNoStartTLS = errors.New("smtp: server does not offer STARTTLS")
	// ErrAuthNeedsTLS reports AUTH asked for on a connection without TLS:
	// AUTH PLAIN would send the password in clear.
	ErrAuthNeedsTLS = errors.New("smtp: AUTH PLAIN only over TLS")
	// ErrNoAuth reports a server that does not offer AUTH PLAIN.
	ErrNoAuth = errors.New("smtp: server does not offer AUTH PLAIN")
	// ErrTooLarge reports a message over the server's SIZE limit; it was
	// not sent.
	ErrTooLarge = errors.New("smtp: message exceeds the server's SIZE limit")
	// ErrBusy reports a command issued while a DATA writer is open.
	ErrBusy = errors.New("smtp: DATA in progress")
	// ErrClosed reports a connection closed by Close or Quit, or after a
	// transport failure left the session in an unknown state.
	ErrClosed = errors.New("smtp: connection closed")
)

// ArgError is the type of the errors reporting an unsafe argument.
type ArgError = wire.ArgError

// ReplyError is a negative or unexpected reply to a command; the
// connection stays usable unless the code is 421.
type ReplyError struct {
	// Cmd is the command verb ("MAIL", "RCPT", "DATA", "AUTH", ...).
	// Arguments are not kept: a password never appears here.
	Cmd string
	// Code is the three-digit reply code.
	Code int
	// Msg is the reply text, lines joined with "\n", control bytes
	// replaced.
	Msg string
}

// Error returns "smtp: CMD: CODE text".
func (e *ReplyError) Error() string { return fmt.Sprintf("smtp: %s: %d %s", e.Cmd, e.Code, e.Msg) }

// Temporary reports a transient failure (4yz): the same command may
// succeed later.
func (e *ReplyError) Temporary() bool { return e.Code >= 400 && e.Code < 500 }

// RecipientError is one recipient refused at RCPT TO.
type RecipientError struct {
	Addr string
	ReplyError
}

// Error returns "smtp: RCPT <addr>: CODE text".
func (e *RecipientError) Error() string {
	return fmt.Sprintf("smtp: RCPT <%s>: %d %s", e.Addr, e.Code, e.Msg)
}

// Unwrap returns the reply.
func (e *RecipientError) Unwrap() error { return &e.ReplyError }

// RecipientsError reports the recipients Send could not give the message
// to. Delivered tells whether the message was still accepted for the
// others (a partial failure) or not at all.
type RecipientsError struct {
	Failed    []*RecipientError
	Delivered bool
}

// Error lists the refused addresses.
func (e *RecipientsError) Error() string {
	var b strings.Builder
	if e.Delivered {
		b.WriteString("smtp: sent, but refused for ")
	} else {
		b.WriteString("smtp: not sent, every recipient refused: ")
	}
	for i, f := range e.Failed {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "<%s>: %d %s", f.Addr, f.Code, f.Msg)
	}
	return b.String()
}

// Unwrap returns the per-recipient errors.
func (e *RecipientsError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		errs[i] = f
	}
	return errs
}

// opErr prefixes an error with "smtp: OP: ", without doubling the
// "smtp: " of an error from this package.
func opErr(op string, err error) error { return &wire.OpError{Prefix: "smtp", Op: op, Err: err} }

// reply is one complete server reply.
type reply struct {
	code int
	msg  string // lines joined with "\n"
}

// readReply reads one reply, single- or multi-line (RFC 5321 section
// 4.2): "ddd-text" lines then "ddd text", all with the same code. At
// most maxLines lines are read.
func readReply(lr *wire.LineReader, maxLines int) (reply, error) {
	var lines []string
	code := 0
	for {
		line, err := lr.ReadLine()
		if err != nil {
			return reply{}, wire.UnexpectedEOF(err)
		}
		// The first digit is 2 to 5 (RFC 5321 section 4.2.1; 1yz is not
		// used in SMTP).
		c, sep, text, ok := wire.ParseStatus(line)
		if !ok || c < 200 || (code != 0 && c != code) {
			return reply{}, fmt.Errorf("%w: %q", ErrMalformedReply, wire.Clip(line))
		}
		code = c
		lines = append(lines, text)
		if sep != '-' {
			return reply{code, strings.Join(lines, "\n")}, nil
		}
		if len(lines) >= maxLines {
			return reply{}, fmt.Errorf("%w (limit %d)", ErrReplyTooLong, maxLines)
		}
	}
}

// formatReply renders r as the server would send it, without the final
// CRLF: the inverse of readReply, for tests and fuzzing.
func formatReply(r reply) string {
	lines := strings.Split(r.msg, "\n")
	var b strings.Builder
	for i, l := range lines {
		sep := "-"
		if i == len(lines)-1 {
			sep = " "
		}
		fmt.Fprintf(&b, "%d%s%s", r.code, sep, l)
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	return b.String()
}

// safe makes reply text safe for a terminal: control bytes other than
// LF (which joins the lines of a reply) become '?'.
func safe(s string) string { return wire.Sanitize(s, true) }
