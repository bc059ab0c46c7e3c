package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"time"
)

// Dial connects to addr on the named network with d.DialContext, so ctx
// bounds name resolution and connection establishment as well as d.Timeout.
// A nil d means the zero [net.Dialer]. The check of ctx (WithCheck), if
// any, is run on each address connected to.
func Dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	if d == nil {
		d = &net.Dialer{}
	}
	c, err := checked(ctx, d).DialContext(ctx, network, addr)
	if err != nil {
		return nil, ContextError(ctx, err)
	}
	return c, nil
}

// deadliner is implemented by net.Conn and by *net.TCPListener.
type deadliner interface {
	SetDeadline(t time.Time) error
}

// Bind ties c to ctx for the duration of one operation. If ctx has a deadline
// and c has a SetDeadline method (every [net.Conn], [*net.TCPListener]), the
// deadline is applied to c, which unblocks pending reads and writes when it
// passes. When ctx is cancelled c is closed, which unblocks everything else.
//
// The returned release function detaches c from ctx and clears the deadline
// it set; call it when the operation is over (typically deferred). It is
// safe to call more than once. After a cancellation c stays closed: the
// protocol state is unknown once an exchange was cut in the middle.
func Bind(ctx context.Context, c io.Closer) (release func()) {
	d, hasDeadline := ctx.Deadline()
	dl, canDeadline := c.(deadliner)
	if hasDeadline && canDeadline {
		dl.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	done := false
	return func() {
		if done {
			return
		}
		done = true
		if stop() && hasDeadline && canDeadline {
			// Not fired: c is still open, undo the deadline for the next operation.
			dl.SetDeadline(time.Time{})
		}
	}
}

// ContextError returns err unchanged unless the failure was caused by ctx:
// if ctx is done, or err is a deadline error from a deadline that [Bind]
// took from ctx (the conn's timer can fire a moment before ctx's own), it
// returns ctx's error (errors.Is works with [context.Canceled] and
// [context.DeadlineExceeded]) with err attached for the message.
// A nil err stays nil.
func ContextError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	cerr := ctx.Err()
	if cerr == nil && errors.Is(err, os.ErrDeadlineExceeded) {
		if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
			cerr = context.DeadlineExceeded
		}
	}
	if cerr == nil || errors.Is(err, cerr) {
		return err
	}
	return &ctxError{ctx: cerr, err: err}
}

// ctxError reports a context error as the cause of a network error.
type ctxError struct {
	ctx error // context.Canceled or context.DeadlineExceeded
	err error // what the blocked call returned
}

func (e *ctxError) Error() string   { return e.ctx.Error() + " (" + e.err.Error() + ")" }
func (e *ctxError) Unwrap() []error { return []error{e.ctx, e.err} }

// Timeout reports true for deadline errors, like net.Error.
func (e *ctxError) Timeout() bool { return e.ctx == context.DeadlineExceeded }
