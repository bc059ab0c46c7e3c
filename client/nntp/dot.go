package nntp

import (
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// dotLines reads a multi-line data block (RFC 3977 section 3.1.1) line by
// line: it ends at a line holding only ".", and one leading "." is removed
// from every other line that starts with one (dot-unstuffing). Lines are
// bounded by the LineReader's limit. A block that ends without its "."
// line is an error matching ErrMalformedReply and io.ErrUnexpectedEOF.
type dotLines struct {
	lr   *wire.LineReader
	done bool  // the "." line was read
	err  error // sticky read error
}

// next returns the next line of the block without its line ending, or
// io.EOF after the terminating ".".
func (d *dotLines) next() (string, error) {
	if d.err != nil {
		return "", d.err
	}
	if d.done {
		return "", io.EOF
	}
	line, err := d.lr.ReadLine()
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = fmt.Errorf("%w: data block ended without \".\": %w", ErrMalformedReply, io.ErrUnexpectedEOF)
		}
		d.err = err
		return "", err
	}
	if line == "." {
		d.done = true
		return "", io.EOF
	}
	return strings.TrimPrefix(line, "."), nil
}

// dotReader is an io.Reader over a data block: the unstuffed lines, each
// ended with LF.
type dotReader struct {
	lines   *dotLines
	pending string // rest of the current line, LF included
}

func (r *dotReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if r.pending == "" {
			if n > 0 && r.lines.lr.R.Buffered() == 0 {
				return n, nil // return what we have rather than block
			}
			line, err := r.lines.next()
			if err != nil {
				if n > 0 {
					return n, nil // the error comes again on the next call
				}
				return 0, err
			}
			r.pending = line + "\n"
		}
		c := copy(p[n:], r.pending)
		r.pending = r.pending[c:]
		n += c
	}
	return n, nil
}

// drain reads the rest of the block, so the connection is ready for the
// next command.
func (d *dotLines) drain() error {
	for {
		if _, err := d.next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
