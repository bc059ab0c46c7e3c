package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
)

// maxErrorsShown is how many errors of one URL are printed before "and N
// more": the error output of one input is bounded, however many
// problems it has.
const maxErrorsShown = 10

// Bounds of an input quoted in a message: up to maxQuoted bytes it is
// quoted whole, past that as its first quoteHead bytes and the
// quoteContext bytes on each side of the offset, the rest elided.
const (
	maxQuoted    = 256
	quoteHead    = 48
	quoteContext = 64
)

// printErr prints err on w as the CLI's one-line messages: a
// urlkit.ErrorList as its first maxErrorsShown errors and a count of the
// rest, a *urlkit.Error with its input elided around the offset, anything
// else made visible-safe and clipped.
func printErr(w io.Writer, err error) {
	var list urlkit.ErrorList
	var one *urlkit.Error
	hint := ""
	var h *hintError
	if errors.As(err, &h) {
		hint = h.hint()
	}
	switch {
	case errors.As(err, &list):
		printErrorsHint(w, list, len(list), hint)
	case errors.As(err, &one):
		fmt.Fprintln(w, errorLine(one)+hint)
	default:
		fmt.Fprintln(w, safetext.Visible(clip(err.Error())))
	}
}

// printWarnings prints a line on errw for each warning of reading the
// input s, naming the input as an error does: the lenient mode reports
// each repair so (the contract), and every mode the "URL:" prefix of RFC
// 1738's appendix it removed. out is flushed first, as before an error,
// so that a terminal shows the warning before the URL's output.
func printWarnings(st *Streams, out *bufio.Writer, errw io.Writer, s string, warns []urlkit.Warning) {
	if len(warns) == 0 {
		return
	}
	out.Flush()
	shown := st.redact(s)
	for _, w := range warns {
		fmt.Fprintf(errw, "urlkit: %s: warning: %s\n", quoteInput(shown, w.Offset), safetext.Visible(w.String()))
	}
}

// printErrorsHint is printErrors with hint (modeHint) after the first
// error.
func printErrorsHint(w io.Writer, errs urlkit.ErrorList, total int, hint string) {
	// The lines are built in one buffer and written at once: fmt and a
	// string per line were a tenth of parse --json's time on web data.
	// A writer that has a buffer for it (a batch's) gives the memory.
	var b []byte
	if w, ok := w.(interface{ AvailableBuffer() []byte }); ok {
		b = w.AvailableBuffer()
	}
	for i, e := range errs {
		if i == maxErrorsShown {
			break
		}
		b = appendErrorLine(b, e)
		if i == 0 {
			b = append(b, hint...)
		}
		b = append(b, '\n')
	}
	if total > maxErrorsShown && len(errs) > 0 {
		b = append(b, "urlkit: "...)
		b = appendQuoteInput(b, errs[0].Input, errs[maxErrorsShown-1].Offset)
		b = append(b, ": and "...)
		b = strconv.AppendInt(b, int64(total-maxErrorsShown), 10)
		b = append(b, " more errors\n"...)
	}
	if len(b) > 0 {
		w.Write(b)
	}
}

// errorLine formats e as urlkit.Error does (`urlkit: "INPUT": offset N:
// RULE`), with a long input elided around the offset.
func errorLine(e *urlkit.Error) string { return string(appendErrorLine(nil, e)) }

// appendErrorLine appends errorLine(e) to b.
func appendErrorLine(b []byte, e *urlkit.Error) []byte {
	b = appendQuoteInput(append(b, "urlkit: "...), e.Input, e.Offset)
	b = append(b, ": offset "...)
	b = strconv.AppendInt(b, int64(e.Offset), 10)
	b = append(b, ": "...)
	return append(b, safetext.Visible(e.Rule)...)
}

// quoteInput quotes s (Go syntax, so control bytes are escaped) for a
// message about offset off: whole when short, else its head and the
// bytes around off, with the elided byte counts in between, so a message
// stays short for an input of any length.
func quoteInput(s string, off int) string { return string(appendQuoteInput(nil, s, off)) }

// appendQuoteInput appends quoteInput(s, off) to b.
func appendQuoteInput(b []byte, s string, off int) []byte {
	if len(s) <= maxQuoted {
		if plainPrefix(s) == len(s) {
			return append(append(append(b, '"'), s...), '"') // strconv.Quote's result, a tenth of its time
		}
		return strconv.AppendQuote(b, s)
	}
	off = max(0, min(off, len(s)))
	lo, hi := safetext.RuneStart(s, max(0, off-quoteContext)), safetext.RuneStart(s, min(len(s), off+quoteContext))
	if lo <= quoteHead {
		b = strconv.AppendQuote(b, s[:hi])
	} else {
		head := safetext.RuneStart(s, quoteHead)
		b = strconv.AppendQuote(b, s[:head])
		b = fmt.Appendf(b, "...(%d bytes)...", lo-head)
		b = strconv.AppendQuote(b, s[lo:hi])
	}
	if hi < len(s) {
		b = fmt.Appendf(b, "...(%d more bytes)", len(s)-hi)
	}
	return b
}

// clip shortens a message text to maxQuoted bytes around its middle.
func clip(s string) string { return safetext.Clip(s, maxQuoted) }
