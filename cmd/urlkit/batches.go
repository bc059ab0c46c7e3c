package main

import (
	"bytes"
	"io"
	"strings"
)

// batchReader cuts standard input into runs of whole lines, reading
// straight into each batch's buffer. It does not look at the lines: the
// worker that handles a batch finds them (splitLines), so that
// the one goroutine reading does a read and a search for the last "\n"
// per batch, not work per line. (Cutting lines here, with their copy,
// count and secrets, was a quarter of the CPU of check -j 2 and kept
// the workers waiting.)
type batchReader struct {
	in    io.Reader
	limit int    // the longest line kept (maxLine)
	rest  []byte // read after the last line handed out
	err   error  // the error that ended the input (io.EOF at its end)
}

// next sets raw to the next whole lines of the input, reusing raw's
// memory, and returns it. The last line of the input may lack its
// "\n"; a line longer than limit+2 bytes (room for "\r\n") is cut to
// limit+3 bytes and the rest of it skipped, so that memory stays
// bounded: splitLines reports it. It returns the error that ended the input
// once nothing is left after raw. It returns as soon as a read brought
// a whole line, so that a pipeline fed line by line sees each result at
// once; a batch is at most batchBytes unless one line is longer.
func (r *batchReader) next(raw []byte) ([]byte, error) {
	if cap(raw) < batchBytes {
		raw = make([]byte, 0, batchBytes)
	}
	raw = append(raw[:0], r.rest...)
	r.rest = r.rest[:0]
	scanned := 0 // raw[:scanned] has no "\n"
	for {
		if i := bytes.LastIndexByte(raw[scanned:], '\n'); i >= 0 {
			end := scanned + i + 1
			r.rest = append(r.rest, raw[end:]...)
			return raw[:end], nil
		}
		scanned = len(raw)
		if r.err != nil {
			return raw, r.err
		}
		if len(raw) > r.limit+2 {
			return r.skipLine(raw[:r.limit+3]), nil
		}
		if len(raw) == cap(raw) {
			grown := make([]byte, len(raw), min(2*cap(raw), r.limit+3))
			copy(grown, raw)
			raw = grown
		}
		n, err := r.in.Read(raw[len(raw):cap(raw)])
		raw = raw[:len(raw)+n]
		if err != nil {
			r.err = err
		} else if n == 0 {
			r.err = io.ErrNoProgress
		}
	}
}

// skipLine reads to the end of the line too long of which raw is the
// start, keeping what follows it for the next batch.
func (r *batchReader) skipLine(raw []byte) []byte {
	buf := r.rest[:cap(r.rest)]
	if len(buf) < batchBytes {
		buf = make([]byte, batchBytes)
	}
	for r.err == nil {
		n, err := r.in.Read(buf)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			r.rest = append(buf[:0], buf[i+1:n]...) // copy within buf: to the left
			if err != nil {
				r.err = err
			}
			return raw
		}
		if err != nil {
			r.err = err
		} else if n == 0 {
			r.err = io.ErrNoProgress
		}
	}
	r.rest = buf[:0]
	return raw
}

// inputLine is one line of a batch: its text without "\n" or "\r\n",
// its number counted from the batch's start (1 is its first line),
// whether it was too long to be kept (s is then empty), and whether it
// has an "@", without which it holds no password.
type inputLine struct {
	s       string
	lineNo  int
	tooLong bool
	atSign  bool
}

// splitLines appends to dst the lines of text, a run of whole lines as
// batchReader.next returns it, and returns them with the number of
// lines text has. Blank lines are left out unless blankIsInput; a last
// line without "\n" that is blank once a "\r" is removed is always left
// out. A line longer than limit+2 bytes with its "\n" is a tooLong item.
func splitLines(dst []inputLine, text string, limit int, blankIsInput bool) ([]inputLine, int) {
	lineNo := 0
	// The "@"s are found in one search of the batch: a line's own search
	// was, for the most lines, which have none, most of the cost of
	// looking for passwords.
	at := strings.IndexByte(text, '@') // the next, in text; -1: none
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		atSign := at >= 0 && at < len(line)
		switch {
		case at >= len(line):
			at -= len(line)
		case atSign:
			at = strings.IndexByte(text, '@')
		}
		lineNo++
		switch s := trimEOL(line); {
		case len(line) > limit+2:
			dst = append(dst, inputLine{lineNo: lineNo, tooLong: true})
		case s != "" || blankIsInput && line[len(line)-1] == '\n':
			dst = append(dst, inputLine{s: s, lineNo: lineNo, atSign: atSign})
		}
	}
	return dst, lineNo
}
