package wire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
)

// Session is the state a client of a command/reply protocol (NNTP, SMTP)
// keeps between the commands of one connection: whether a response is
// still open (Busy), and whether the connection is broken. A session
// breaks on a transport or protocol failure ([Session.Fail]), when the
// server says it closes ([Session.Break]) or on [Session.Close]; from
// then on every command fails with an error matching ErrClosed, since the
// state of the exchange is unknown.
//
// A client sets the exported fields when it dials; the zero value of the
// rest is a usable session.
type Session struct {
	// Name is the protocol, which starts the errors: "nntp".
	Name string
	// ErrBusy is returned by Begin while Busy is set.
	ErrBusy error
	// ErrClosed is what every command of a broken session fails with
	// (wrapped with the cause).
	ErrClosed error
	// Conn is the connection commands go over (traced, maybe TLS). It
	// is closed when the session breaks.
	Conn io.Closer
	// Bound is what Begin ties to the command's context; nil means Conn.
	// Under TLS it is the TCP connection: a cancellation then closes it
	// at once rather than through a TLS alert that may block.
	Bound io.Closer
	// W buffers the command lines written to Conn.
	W *bufio.Writer
	// Busy is set while a response (an article, a listing, a DATA
	// writer) is open: commands wait for it to be closed.
	Busy bool

	broken error
}

// Broken returns the error every command now fails with, or nil while
// the session is usable.
func (s *Session) Broken() error { return s.broken }

// Begin checks that a command may be issued (the session is not broken,
// no response is open, ctx is not done) and binds the connection to ctx
// with [Bind]; the caller must call release when the command is over.
func (s *Session) Begin(ctx context.Context) (release func(), err error) {
	if s.broken != nil {
		return nil, s.broken
	}
	if s.Busy {
		return nil, s.ErrBusy
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	bound := s.Bound
	if bound == nil {
		bound = s.Conn
	}
	return Bind(ctx, bound), nil
}

// Fail breaks the session after a transport or protocol failure of op
// and returns that failure as an [*OpError], with ctx's error as the
// cause when ctx ended the operation ([ContextError]).
func (s *Session) Fail(ctx context.Context, op string, err error) error {
	err = &OpError{Prefix: s.Name, Op: op, Err: ContextError(ctx, err)}
	s.Break(fmt.Errorf("%w (after: %v)", s.ErrClosed, err))
	return err
}

// Break marks the session broken with cause (unless it is broken
// already, whose first cause says more) and closes the connection: for
// a failure, or for a reply by which the server says it closes.
func (s *Session) Break(cause error) {
	if s.broken == nil {
		s.broken = cause
	}
	s.Conn.Close()
}

// Send writes line (already checked with [CheckArg]) and CRLF, and
// flushes them; a failure breaks the session.
func (s *Session) Send(ctx context.Context, op, line string) error {
	s.W.WriteString(line)
	s.W.WriteString("\r\n")
	if err := s.W.Flush(); err != nil {
		return s.Fail(ctx, op, err)
	}
	return nil
}

// Quit ends the session politely: quit (which sends QUIT and checks the
// reply) runs under [Session.Begin], and the connection is closed
// whatever it returns. A broken session is only closed, without error.
// While a response is open Quit returns ErrBusy and closes nothing.
func (s *Session) Quit(ctx context.Context, quit func() error) error {
	if s.broken != nil {
		s.Conn.Close()
		return nil
	}
	if s.Busy {
		return s.ErrBusy
	}
	release, err := s.Begin(ctx)
	if err != nil {
		s.Close()
		return err
	}
	defer release()
	err = quit()
	s.Close()
	return err
}

// Close breaks the session with ErrClosed and closes the connection;
// closing a connection already closed is not an error.
func (s *Session) Close() error {
	if s.broken == nil {
		s.broken = s.ErrClosed
	}
	if err := s.Conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// OpError is the failure of one operation of a client: "PREFIX: OP:
// cause". When the cause is the client's own error, already starting
// with "PREFIX: ", the prefix is not repeated.
type OpError struct {
	Prefix string // the protocol: "nntp"
	Op     string // the command or step: "GROUP", "greeting"
	Err    error
}

// Error returns "PREFIX: OP: cause".
func (e *OpError) Error() string {
	return e.Prefix + ": " + e.Op + ": " + strings.TrimPrefix(e.Err.Error(), e.Prefix+": ")
}

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// UnexpectedEOF turns the end of the stream in the middle of an exchange
// into an error that says so (matching io.ErrUnexpectedEOF); other errors
// are returned as they are.
func UnexpectedEOF(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("connection closed by server: %w", io.ErrUnexpectedEOF)
	}
	return err
}
