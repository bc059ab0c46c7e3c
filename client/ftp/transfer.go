package ftp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"

	"github.com/urlkit/urlkit/internal/wire"
)

// transfer is one data-connection exchange: the command that started it
// has been answered with a 1xx reply and the data connection is open.
// The control connection stays bound to the transfer's ctx until finish.
type transfer struct {
	c           *Conn
	ctx         context.Context
	verb        string
	dc          net.Conn
	releaseCtl  func()
	releaseData func()
	final       *reply // completion reply already received (2xx instead of 1xx)
	want        int64  // size announced in the 1xx reply, or -1
	n           int64  // bytes read from the data connection
	err         error  // first read error (sticky)
	eof         bool
	done        bool
	doneErr     error
}

// startTransfer sets up a data connection (passive or active), sends
// "verb arg" and waits for the preliminary reply.
func (c *Conn) startTransfer(ctx context.Context, verb, arg string) (*transfer, error) {
	return c.startTransferAt(ctx, verb, arg, 0)
}

// startTransferAt is startTransfer with a restart marker: REST offset
// (RFC 3659 5) right before the command when offset > 0.
func (c *Conn) startTransferAt(ctx context.Context, verb, arg string, offset int64) (*transfer, error) {
	if err := checkArg(verb, arg); err != nil {
		return nil, err
	}
	line := verb
	if arg != "" {
		line += " " + arg
	}
	return c.start(ctx, verb, escapeIAC(line), offset, true)
}

// start sets up the data connection (to the address of a passive reply
// to Cmd, else passive or active as the Dialer says), sends REST offset
// when sendRest and offset > 0, then line (checked, without its CR LF),
// and waits for the preliminary reply. offset is where the data starts
// in the file.
func (c *Conn) start(ctx context.Context, verb, line string, offset int64, sendRest bool) (*transfer, error) {
	releaseCtl, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			releaseCtl()
		}
	}()
	var dc net.Conn
	var ln net.Listener
	switch {
	case c.pasv.IsValid():
		addr := c.pasv
		c.pasv = netip.AddrPort{}
		if dc, err = wire.Dial(ctx, &net.Dialer{Timeout: c.d.Timeout}, "tcp", addr.String()); err != nil {
			err = fmt.Errorf("ftp: data connection to %v: %w", addr, err)
		}
	case c.d.Active:
		ln, err = c.activeListen(ctx)
	default:
		dc, err = c.passiveDial(ctx)
	}
	if err != nil {
		return nil, err
	}
	closeData := func() {
		if dc != nil {
			dc.Close()
		}
		if ln != nil {
			ln.Close()
		}
	}
	if sendRest && offset > 0 {
		r, err := c.cmd(ctx, "REST", strconv.FormatInt(offset, 10))
		if err != nil {
			closeData()
			return nil, err
		}
		if r.code != 350 {
			closeData()
			return nil, &ReplyError{Cmd: "REST", Code: r.code, Msg: r.msg}
		}
	}
	r, err := c.exchange(ctx, verb, line)
	if err != nil {
		closeData()
		return nil, err
	}
	t := &transfer{c: c, ctx: ctx, verb: verb, releaseCtl: releaseCtl, want: -1}
	switch r.class() {
	case 1:
		if offset == 0 { // after REST servers announce the whole file's size, or the rest's
			t.want = parseSize(r.msg)
		}
	case 2: // completed at once (seen with empty listings); data may still be there
		t.final = &r
	default:
		closeData()
		return nil, &ReplyError{Cmd: verb, Code: r.code, Msg: r.msg}
	}
	if ln != nil {
		if dc, err = c.acceptData(ctx, ln); err != nil {
			// The server may still be trying to connect and will answer
			// 425 at some point: the session's state is unknown.
			return nil, c.sess.Fail(ctx, verb, err)
		}
	}
	if verb == "RETR" { // a file read to its end: wake for big batches
		dc = wire.BatchReads(dc)
	}
	t.dc = dc
	t.releaseData = wire.Bind(ctx, dc)
	c.sess.Busy = true
	c.data = dc
	ok = true
	return t, nil
}

// read reads raw bytes from the data connection. Errors other than io.EOF
// are sticky and reported as short transfers.
func (t *transfer) read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	if t.done {
		return 0, opErr(t.verb, errors.New("read after Close"))
	}
	n, err := t.dc.Read(p)
	t.n += int64(n)
	switch {
	case err == io.EOF:
		t.eof = true
		if t.want >= 0 && t.n < t.want && t.sizeChecked() {
			t.err = opErr(t.verb, fmt.Errorf("%w: %d of %d bytes", ErrShortTransfer, t.n, t.want))
			return n, t.err
		}
	case err != nil:
		t.err = opErr(t.verb, fmt.Errorf("%w after %d bytes: %w", ErrShortTransfer, t.n, wire.ContextError(t.ctx, err)))
		return n, t.err
	}
	return n, err
}

// sizeChecked reports whether the size in the 1xx reply bounds the bytes
// received: for RETR in either type. In TYPE I the stream is the file; in
// TYPE A the announced size is the file's and the server converts its line
// ends to the NVT's CRLF, which never makes the stream shorter (an LF file
// grows by one byte per line, a CRLF file stays the same): fewer bytes
// than announced means the data connection was cut.
func (t *transfer) sizeChecked() bool { return t.verb == "RETR" }

// finish closes the data connection and reads the completion reply. If
// the caller stopped reading early, the replies a server sends for an
// aborted transfer (426, 451) are accepted.
func (t *transfer) finish() error {
	if t.done {
		return t.doneErr
	}
	t.done = true
	c := t.c
	early := !t.eof && t.err == nil
	t.dc.Close()
	t.releaseData()
	defer t.releaseCtl()
	c.sess.Busy = false
	c.data = nil
	if err := c.sess.Broken(); err != nil {
		t.doneErr = err
		return err
	}
	r := t.final
	if r == nil {
		got, err := c.read(t.ctx, t.verb)
		if err != nil {
			t.doneErr = err
			return err
		}
		r = &got
	}
	switch {
	case r.class() == 2:
	case early && (r.code == 426 || r.code == 451):
	default:
		t.doneErr = &ReplyError{Cmd: t.verb, Code: r.code, Msg: r.msg}
	}
	return t.doneErr
}

// Retr starts retrieving the file name (RETR) and returns its content as a
// stream. The stream must be closed: Close reads the server's completion
// reply and reports a failed transfer.
//
// In TYPE I (image) the bytes arrive unchanged; in TYPE A (ASCII, the
// default) CRLF line ends are converted to LF (RFC 959 section 3.1.1.1).
// If the server announced the size in its 150 reply ("(65536 bytes)", as
// ProFTPD does), an end of the data before that many bytes is reported by
// Read, instead of io.EOF, as an error matching ErrShortTransfer, whatever
// the completion reply says. In TYPE A the bytes counted are those of the
// network stream, before the conversion: the stream has the file's CRLF
// (or one for each LF), so it is never shorter than the file.
//
// ctx governs the whole transfer, including the reads and Close: its
// deadline applies to the data and control connections, and cancelling it
// aborts the transfer and closes the connection.
func (c *Conn) Retr(ctx context.Context, name string) (io.ReadCloser, error) {
	return c.RetrFrom(ctx, name, 0)
}

// RetrFrom is Retr from byte offset of the file: REST offset, then RETR
// (RFC 3659 5, stream mode). Only in TypeImage is the offset a byte of
// the file; in TYPE A it counts network bytes, which differ. A server
// that refuses REST fails it with a *ReplyError for REST. The size in
// the 150 reply is not checked after REST (servers disagree on whether
// it counts the whole file or the rest).
func (c *Conn) RetrFrom(ctx context.Context, name string, offset int64) (io.ReadCloser, error) {
	t, err := c.startTransferAt(ctx, "RETR", name, offset)
	if err != nil {
		return nil, err
	}
	return c.retrReader(t), nil
}

// retrReader returns the body of the RETR transfer t.
func (c *Conn) retrReader(t *transfer) io.ReadCloser {
	r := &retrReader{t: t}
	if c.typ != TypeImage {
		r.ascii = newASCIIReader(readerFunc(t.read))
	}
	return r
}

// retrReader is the body returned by Retr.
type retrReader struct {
	t     *transfer
	ascii *asciiReader // TYPE A: CRLF -> LF
}

func (r *retrReader) Read(p []byte) (int, error) {
	if r.ascii != nil {
		return r.ascii.Read(p)
	}
	return r.t.read(p)
}

func (r *retrReader) Close() error {
	err := r.t.finish()
	if r.t.err != nil {
		// The read error (reset, timeout, short transfer) says more than
		// the completion reply that followed it.
		return r.t.err
	}
	return err
}

// readerFunc adapts a function to io.Reader.
type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
