package main

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
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
	// ErrApart: Out and Err reach different files (or /dev/null), so
	// that nothing shows the order of their writes; the streaming
	// commands then write their messages without flushing Out first.
	ErrApart bool

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
	st := &Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, OutTTY: isTerminal(os.Stdout), ErrTTY: isTerminal(os.Stderr), ErrApart: apart(os.Stdout, os.Stderr)}
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

// apart reports whether nothing can show the order of writes to out and
// err: they are different files, or both /dev/null. (The same terminal,
// pipe or file, as with 2>&1, shows it.)
func apart(out, err *os.File) bool {
	fo, err1 := out.Stat()
	fe, err2 := err.Stat()
	if err1 != nil || err2 != nil {
		return false
	}
	if !os.SameFile(fo, fe) {
		return true
	}
	null, errNull := os.Stat(os.DevNull)
	return errNull == nil && os.SameFile(fo, null)
}

// isTerminal reports whether f is a terminal: a character device is not
// enough (/dev/null is one), the terminal's ioctl must answer.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
