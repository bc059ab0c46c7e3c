package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// maxLine bounds one line of standard input, so that a stream of any
// length is processed in bounded memory.
const maxLine = 1 << 20

// eachInput calls fn for every argument, or, when there are none, for every
// non-empty line of standard input (a trailing "\r" removed), streaming.
// Before each read that would block, out is flushed, so that a pipeline
// sees results as they come. A line longer than maxLine is reported and
// skipped, and makes the result exitFail.
func eachInput(ctx context.Context, st *Streams, out *bufio.Writer, args []string, fn func(s string) int) int {
	status := exitOK
	note := func(code int) {
		if code > status {
			status = code
		}
	}
	if len(args) > 0 {
		for _, a := range args {
			if ctx.Err() != nil {
				return exitInterrupted
			}
			note(fn(a))
		}
		return status
	}
	r := bufio.NewReaderSize(st.In, 64<<10)
	for lineNo := 1; ; lineNo++ {
		if ctx.Err() != nil {
			return exitInterrupted
		}
		if r.Buffered() == 0 {
			out.Flush()
		}
		line, err := readLine(r)
		if errors.Is(err, errLineTooLong) {
			out.Flush() // the message goes after the lines before
			fmt.Fprintf(st.Err, "urlkit: standard input line %d: longer than %d bytes; skipped\n", lineNo, maxLine)
			note(exitFail)
			continue
		}
		if line != "" {
			st.addSecrets(line)
			note(fn(line))
		}
		if err == io.EOF {
			return status
		}
		if err != nil {
			fmt.Fprintf(st.Err, "urlkit: reading standard input: %v\n", err)
			note(exitFail)
			return status
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its "\n" or "\r\n". A line longer than
// maxLine is consumed and reported as errLineTooLong.
func readLine(r *bufio.Reader) (string, error) {
	chunk, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		// The whole line is in r's buffer: one copy, into the string.
		return string(trimEOL(chunk)), err
	}
	line, err := appendRestOfLine(append([]byte(nil), chunk...), 0, r)
	return string(line), err
}

// appendRestOfLine reads the rest of a line whose start, buf[start:],
// filled r's buffer.
func appendRestOfLine(buf []byte, start int, r *bufio.Reader) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)-start+len(chunk) > maxLine+2 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			// Reported even when the line is the last one, without "\n":
			// the next call returns io.EOF.
			return buf[:start], errLineTooLong
		}
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf[:start+len(trimEOL(buf[start:]))], err
		}
	}
}

// trimEOL removes a line's "\n" or "\r\n", and a "\r" on a last line
// without "\n".
func trimEOL[T string | []byte](line T) T {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	if n > 0 && line[n-1] == '\r' {
		n--
	}
	return line[:n]
}
