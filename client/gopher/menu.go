package gopher

import (
	"fmt"
	"io"
	"net/textproto"

	"github.com/urlkit/urlkit/internal/wire"
)

// DefaultMaxLine bounds menu, header and attribute lines when no other
// limit is given.
const DefaultMaxLine = 4096

// MenuReader iterates over the items of a menu, in the style of
// bufio.Scanner:
//
//	m := gopher.NewMenuReader(r, 0)
//	for m.Next() {
//		it := m.Item()
//		...
//	}
//	if err := m.Err(); err != nil { ... }
//
// The menu ends at a line holding only "." (RFC 1436) or at the end of the
// input: pygopherd never sends the ".", and neither do many CGI scripts.
// Lines may end in CRLF or LF; empty lines are skipped. A line longer
// than the limit stops the menu with an error matching ErrLineTooLong.
type MenuReader struct {
	lr   *wire.LineReader
	item Item
	err  error
	done bool
}

// NewMenuReader returns a MenuReader reading r, with lines of at most
// maxLine bytes (DefaultMaxLine if maxLine <= 0).
func NewMenuReader(r io.Reader, maxLine int) *MenuReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &MenuReader{lr: wire.NewLineReader(r, maxLine)}
}

// Next advances to the next item and reports whether there is one.
func (m *MenuReader) Next() bool {
	if m.done {
		return false
	}
	for {
		line, err := m.lr.ReadLine()
		switch {
		case err == nil || (err == io.ErrUnexpectedEOF && line != ""):
			// A last line without line ending is accepted too.
		case err == io.EOF:
			m.stop(nil)
			return false
		default:
			m.stop(fmt.Errorf("gopher: menu: %w", err))
			return false
		}
		if line == "." {
			m.stop(nil)
			return false
		}
		if line == "" {
			continue
		}
		it, perr := ParseItem(line)
		if perr != nil {
			m.stop(perr)
			return false
		}
		m.item = it
		return true
	}
}

func (m *MenuReader) stop(err error) {
	m.done = true
	m.err = err
	m.item = Item{}
}

// Item returns the current item.
func (m *MenuReader) Item() Item { return m.item }

// Err returns the error that ended the menu, or nil at a normal end.
func (m *MenuReader) Err() error { return m.err }

// NewTextReader returns a reader for the body of a text item (type 0 and
// the other text types): line ends become LF, lines starting with ".." are
// unstuffed to ".", and the text ends at a line holding only "." (RFC 1436
// section 3.8) or, since pygopherd and Gophernicus send files without
// the ".", at the end of the input. It is textproto's DotReader with EOF
// accepted in place of the terminator. Note that servers which do not
// dot-stuff their files lose the leading "." of such lines either way.
func NewTextReader(r io.Reader) io.Reader {
	return &textReader{dr: textproto.NewReader(bufioReader(r)).DotReader()}
}

type textReader struct{ dr io.Reader }

func (t *textReader) Read(p []byte) (int, error) {
	n, err := t.dr.Read(p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF // no "." line: the server closed, the text is complete
	}
	return n, err
}
