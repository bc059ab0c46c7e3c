package main

import (
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Streams are the standard streams of one run, injectable for tests.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrWidth is the width in columns of the terminal Err is, 0 when
	// unknown: the progress line fits in it.
	ErrWidth int
	OutTTY   bool // Out is a terminal: human output, progress bars
	ErrTTY   bool // Err is a terminal
}

// SystemStreams returns the process's standard streams.
func SystemStreams() *Streams {
	st := &Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, OutTTY: isTerminal(os.Stdout), ErrTTY: isTerminal(os.Stderr)}
	if st.ErrTTY {
		if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil {
			st.ErrWidth = w
		}
	}
	return st
}

// TestStreams returns streams reading in and writing to buffers.
func TestStreams(in string) (st *Streams, out, errOut *bytes.Buffer) {
	out, errOut = new(bytes.Buffer), new(bytes.Buffer)
	return &Streams{In: strings.NewReader(in), Out: out, Err: errOut}, out, errOut
}

// isTerminal reports whether f is a terminal: a character device is not
// enough (/dev/null is one), the terminal's ioctl must answer.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
