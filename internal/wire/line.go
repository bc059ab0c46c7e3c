package wire

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the line limit a [LineReader] uses when Max is zero.
const DefaultMaxLine = 4096

// ErrLineTooLong is returned (wrapped with the limit) by
// [LineReader.ReadLine] when a line exceeds the reader's maximum length.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads lines of bounded length. A line ends with LF; one CR
// before the LF is removed too, so CRLF and bare-LF peers both work.
type LineReader struct {
	// R is the buffered reader lines are read from. Bytes after the last
	// line read stay in R, so a caller can switch from lines to a body.
	R *bufio.Reader
	// Max is the longest line accepted, in bytes, not counting the line
	// ending. Zero means DefaultMaxLine.
	Max int
}

// NewLineReader returns a LineReader reading from r with the given limit.
// If r is already a *bufio.Reader it is used as is.
func NewLineReader(r io.Reader, max int) *LineReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &LineReader{R: br, Max: max}
}

// ReadLine returns the next line without its line ending.
//
// At the end of the input it returns io.EOF. A final line without a line
// ending is returned together with io.ErrUnexpectedEOF; callers decide
// whether to accept it. A line longer than Max fails with an error
// matching ErrLineTooLong; at most Max+1 bytes of it are buffered, the rest
// is left unread and the reader should be abandoned.
func (l *LineReader) ReadLine() (string, error) {
	max := l.Max
	if max <= 0 {
		max = DefaultMaxLine
	}
	var buf []byte
	for {
		frag, err := l.R.ReadSlice('\n')
		if err == nil && buf == nil { // fast path: the whole line was in the buffer
			line := trimEOL(frag)
			if len(line) > max {
				return "", tooLong(max)
			}
			return string(line), nil
		}
		buf = append(buf, frag...)
		switch err {
		case nil:
			line := trimEOL(buf)
			if len(line) > max {
				return "", tooLong(max)
			}
			return string(line), nil
		case bufio.ErrBufferFull:
			// Room for Max bytes and the CR of a CRLF still to come.
			if len(buf) > max+1 {
				return "", tooLong(max)
			}
		case io.EOF:
			if len(buf) == 0 {
				return "", io.EOF
			}
			if len(buf) > max {
				return "", tooLong(max)
			}
			return string(buf), io.ErrUnexpectedEOF
		default:
			return "", err
		}
	}
}

func tooLong(max int) error { return fmt.Errorf("%w (limit %d bytes)", ErrLineTooLong, max) }

// trimEOL removes a trailing LF and one CR before it.
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}
