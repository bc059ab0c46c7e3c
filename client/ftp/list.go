package ftp

import (
	"context"
	"io"

	"github.com/urlkit/urlkit/internal/wire"
)

// Listing streams the lines of a directory listing from Nlst or List, in
// the style of bufio.Scanner:
//
//	l, err := c.Nlst(ctx, "/pub")
//	if err != nil { ... }
//	defer l.Close()
//	for l.Next() {
//		fmt.Println(l.Item())
//	}
//	if err := l.Err(); err != nil { ... }
//
// Lines are at most Dialer.MaxLine bytes; CRLF or LF endings are removed
// and empty lines skipped. When the data ends, Next reads the completion
// reply, so Err reports a failed transfer. Close must be called in any
// case; it is a no-op after the listing ended.
type Listing struct {
	t    *transfer
	lr   *wire.LineReader
	line string
	err  error
	end  bool
}

// Nlst starts a name list of dir (NLST): one name per line, as the server
// writes them (ProFTPD prefixes the directory given). An empty dir lists
// the working directory ("NLST" with no argument).
func (c *Conn) Nlst(ctx context.Context, dir string) (*Listing, error) {
	return c.listing(ctx, "NLST", dir)
}

// List starts a long listing of dir (LIST): one line per entry in the
// server's own format, usually that of "ls -l". An empty dir lists the
// working directory.
func (c *Conn) List(ctx context.Context, dir string) (*Listing, error) {
	return c.listing(ctx, "LIST", dir)
}

func (c *Conn) listing(ctx context.Context, verb, dir string) (*Listing, error) {
	t, err := c.startTransfer(ctx, verb, dir)
	if err != nil {
		return nil, err
	}
	return c.listingOf(t), nil
}

func (c *Conn) listingOf(t *transfer) *Listing {
	return &Listing{t: t, lr: wire.NewLineReader(readerFunc(t.read), c.d.MaxLine)}
}

// Next advances to the next line and reports whether there is one.
func (l *Listing) Next() bool {
	if l.end {
		return false
	}
	for {
		line, err := l.lr.ReadLine()
		switch {
		case err == nil || (err == io.ErrUnexpectedEOF && l.t.err == nil):
			// A last line without CRLF is a line too.
			if line == "" {
				continue
			}
			l.line = line
			return true
		case err == io.EOF:
			l.stop(nil)
		case l.t.err != nil:
			l.stop(l.t.err)
		default:
			l.stop(opErr(l.t.verb, err))
		}
		return false
	}
}

func (l *Listing) stop(err error) {
	l.end = true
	l.line = ""
	ferr := l.t.finish()
	if err == nil {
		err = ferr
	}
	l.err = err
}

// Item returns the current line, without its line ending.
func (l *Listing) Item() string { return l.line }

// Err returns the first error of the listing, including a negative
// completion reply; nil if it ended normally.
func (l *Listing) Err() error { return l.err }

// Close ends the listing, reading the completion reply if Next has not
// reached the end; it returns Err.
func (l *Listing) Close() error {
	if !l.end {
		l.stop(nil)
	}
	return l.err
}
