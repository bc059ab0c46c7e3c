package main

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
)

// Streams are the standard streams of one run, injectable for tests.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	OutTTY bool // Out is a terminal: human output, progress bars
	ErrTTY bool // Err is a terminal

	// secrets holds every password seen in this run's arguments and
	// input lines (and typed at secret prompts); Err is filtered by it.
	secrets *safetext.Redactor
}

// guarded returns a copy of st whose Err hides the passwords of the URLs
// in args, and of those added later with addSecrets: the one redaction
// path of every message the CLI prints (errors, warnings, traces, the
// progress bar, flag errors quoting a bad value).
func (st *Streams) guarded(args []string) *Streams {
	g := *st
	g.secrets = new(safetext.Redactor)
	for _, a := range args {
		g.secrets.AddURLPasswords(a)
		// SCHEME=URL (--gateway) where URL may lack its http://; not a
		// URL's query (mailto:a@b?cc=c:d@e has no password).
		if k, v, ok := strings.Cut(a, "="); ok && !strings.ContainsAny(k, ":/?@") && strings.Contains(v, "@") && !strings.Contains(v, "://") {
			g.secrets.AddURLPasswords("http://" + v)
		}
	}
	g.Err = g.secrets.Writer(st.Err)
	return &g
}

// addSecrets adds the passwords of the URLs in s to the redaction of Err.
func (st *Streams) addSecrets(s string) {
	if st.secrets != nil {
		st.secrets.AddURLPasswords(s)
	}
}

// redact hides the known secrets in s, for output on standard output
// that is a message rather than the data asked for.
func (st *Streams) redact(s string) string {
	return st.secrets.Redact(s)
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
