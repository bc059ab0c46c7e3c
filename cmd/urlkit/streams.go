package main

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// Streams are the standard streams of one run, injectable for tests.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	OutTTY bool // Out is a terminal: human output, progress bars
	ErrTTY bool // Err is a terminal
}

// SystemStreams returns the process's standard streams.
func SystemStreams() *Streams {
	return &Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, OutTTY: isTerminal(os.Stdout), ErrTTY: isTerminal(os.Stderr)}
}

// TestStreams returns streams reading in and writing to buffers.
func TestStreams(in string) (st *Streams, out, errOut *bytes.Buffer) {
	out, errOut = new(bytes.Buffer), new(bytes.Buffer)
	return &Streams{In: strings.NewReader(in), Out: out, Err: errOut}, out, errOut
}

// isTerminal reports whether f is a character device (a terminal), without
// a dependency on x/term.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
