package main

import (
	"bufio"
	"errors"
)

// maxLine bounds one line of standard input, so that a stream of any
// length is processed in bounded memory.
const maxLine = 1 << 20

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
