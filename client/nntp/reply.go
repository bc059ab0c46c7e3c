package nntp

import (
	"errors"
	"fmt"

	"github.com/urlkit/urlkit/internal/wire"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnsafeArg reports an argument holding CR, LF or NUL (or, where
	// the protocol separates fields with spaces, a space or TAB); nothing
	// was sent. The error is an *ArgError.
	ErrUnsafeArg = wire.ErrUnsafeArg
	// ErrLineTooLong reports a reply or data line longer than
	// Dialer.MaxLine.
	ErrLineTooLong = wire.ErrLineTooLong
	// ErrMalformedReply reports a status line that is not "ddd text", a
	// data line that does not parse (an overview or active line), or a
	// data block that ended without its "." line.
	ErrMalformedReply = errors.New("nntp: malformed reply")
	// ErrBusy reports a command issued while an article body or a
	// listing is still open.
	ErrBusy = errors.New("nntp: response in progress")
	// ErrClosed reports a connection closed by Close or Quit, or after a
	// transport failure left the session in an unknown state.
	ErrClosed = errors.New("nntp: connection closed")
	// ErrBadArticle reports an article refused by CheckArticle before
	// anything was sent; the error is an *ArticleError.
	ErrBadArticle = errors.New("nntp: bad article")

	// The following match a *ReplyError with one of the codes named.

	// ErrNoSuchGroup: 411.
	ErrNoSuchGroup = errors.New("nntp: no such newsgroup")
	// ErrNoGroupSelected: 412.
	ErrNoGroupSelected = errors.New("nntp: no newsgroup selected")
	// ErrNoSuchArticle: 420, 423, 430.
	ErrNoSuchArticle = errors.New("nntp: no such article")
	// ErrPostingNotAllowed: 440.
	ErrPostingNotAllowed = errors.New("nntp: posting not allowed")
	// ErrPostingFailed: 441.
	ErrPostingFailed = errors.New("nntp: posting failed")
	// ErrAuthRequired: 480.
	ErrAuthRequired = errors.New("nntp: authentication required")
	// ErrAuthFailed: 481, 482.
	ErrAuthFailed = errors.New("nntp: authentication failed")
	// ErrNotSupported: 500, 501 (unknown command or syntax), 503.
	ErrNotSupported = errors.New("nntp: command not supported")
)

// ArgError is the type of the errors reporting an unsafe argument: the
// offset and value of the first offending byte.
type ArgError = wire.ArgError

// ReplyError is a negative or unexpected reply to a command. The
// connection stays usable (except after 400 or 205) and the caller decides
// what it means.
type ReplyError struct {
	// Cmd is the command verb ("GROUP", "ARTICLE", "AUTHINFO PASS", or
	// "greeting"). Arguments are not kept: a password never appears here.
	Cmd string
	// Code is the three-digit reply code.
	Code int
	// Msg is the rest of the status line, made safe for a terminal.
	Msg string
}

// Error returns "nntp: CMD: CODE text".
func (e *ReplyError) Error() string {
	return fmt.Sprintf("nntp: %s: %d %s", e.Cmd, e.Code, e.Msg)
}

// Temporary reports a transient failure (4xx other than the "no such"
// codes, which will not change by waiting).
func (e *ReplyError) Temporary() bool {
	switch e.Code {
	case 400, 403, 436, 441:
		return true
	}
	return false
}

// Is matches the sentinel errors for the reply codes listed with them.
func (e *ReplyError) Is(target error) bool {
	switch target {
	case ErrNoSuchGroup:
		return e.Code == 411
	case ErrNoGroupSelected:
		return e.Code == 412
	case ErrNoSuchArticle:
		return e.Code == 420 || e.Code == 423 || e.Code == 430
	case ErrPostingNotAllowed:
		return e.Code == 440
	case ErrPostingFailed:
		return e.Code == 441
	case ErrAuthRequired:
		return e.Code == 480
	case ErrAuthFailed:
		return e.Code == 481 || e.Code == 482
	case ErrNotSupported:
		return e.Code == 500 || e.Code == 501 || e.Code == 503
	}
	return false
}

// opErr prefixes an error with "nntp: OP: ", without doubling the
// "nntp: " of an error from this package.
func opErr(op string, err error) error { return &wire.OpError{Prefix: "nntp", Op: op, Err: err} }

// reply is a status line (RFC 3977 section 3.2): three digits, then text.
type reply struct {
	code int
	msg  string
}

// parseStatus splits a status line "ddd text" (or bare "ddd"). The first
// digit is 1 to 5 (RFC 3977 section 3.2.1); NNTP has no multi-line status.
func parseStatus(line string) (reply, error) {
	code, sep, msg, ok := wire.ParseStatus(line)
	if !ok || sep != ' ' {
		return reply{}, fmt.Errorf("%w: %q", ErrMalformedReply, wire.Clip(line))
	}
	return reply{code, msg}, nil
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// safe makes reply text safe for a terminal: control bytes become '?'.
func safe(s string) string { return wire.Sanitize(s, false) }
