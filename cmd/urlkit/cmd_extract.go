package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"strconv"

	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/internal/bufpool"
	"github.com/urlkit/urlkit/internal/safetext"
)

var extractCmd = &command{
	name:    "extract",
	args:    "[--json] [--wrapped-only] [-q] [--max-length N] [-j N] [FILE...]",
	summary: "find URLs in plain text",
	exit: `Exit status: 0 when every FILE was read, whether URLs were found or not
(a rejected candidate does not count); 1 when a FILE cannot be read; 2
usage error; 23 writing the output failed; 130 interrupted.`,
	detail: `Extract finds the URLs in plain text (mail, news, documentation) and prints
one per line, in canonical form. It reads each FILE, or standard input when
there is none ("-" is standard input too), streaming in bounded memory.
On -j cores, each input is cut into parts after lines that no URL or
wrapper crosses, searched at once; the URLs are printed in input order,
as on one core.

What it finds (RFC 1738 appendix, draft-ietf-uri-url-03):
  <URL:...> and <...>  wrappers; every whitespace character inside is
                       dropped, so a URL may be broken across lines, and a
                       fragment inside the brackets is kept
  URL:scheme:...       the "URL:" prefix, without brackets
  bare URLs            the specifications' schemes (ftp, http, https,
                       gopher, nntp, telnet, wais, file, prospero, rlogin,
                       tn3270, afs with "//"; mailto, news, mid, cid, urn
                       and x- schemes without) and any name://host;
                       trailing sentence punctuation is dropped, balanced
                       parentheses and brackets kept, quotes and angle
                       brackets end the URL

A line break right after a hyphen inside a wrapper: the hyphen is kept
(the whitespace is dropped, as everywhere in a wrapper); --json gives the
URL without the hyphen as "alternative".

Every URL is confirmed by the lenient parser, whose repairs are applied
(spaces, non-ASCII and unsafe characters encoded, IDNA host names). With
--json each URL is one JSON object per line:

  url          the URL, canonical
  line, column where its first byte is (1-based; columns count bytes;
               CRLF and LF count the same lines)
  wrapped      it was inside <...>
  file         the FILE, "-" for standard input
  offset       the byte offset (0-based) of its first byte
  prefixed     it had the "URL:" prefix
  repairs      [{"offset": N, "message": "..."}], offsets in the input
  alternative  the other reading of the hyphen rule, or null

A wrapper that is not closed (a blank line, another "<", or no ">" within
--max-length bytes), a longer URL, or a candidate the parser rejects is
reported on standard error with its position and the rule broken, unless
-q; it does not change the exit status. The text after an unclosed
wrapper's "<" is searched again as running text.

Examples:
  urlkit extract message.txt
  urlkit extract --json --wrapped-only rfc1738.txt
  curl -s https://www.rfc-editor.org/rfc/rfc1738.txt | urlkit extract
  urlkit extract -q /usr/share/doc/*/copyright | sort -u`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per URL per line, with its position and repairs")
		wrappedOnly := fs.Bool("wrapped-only", false, "find only URLs inside <URL:...> and <...> wrappers")
		quiet := fs.Bool("q", false, "do not report unclosed wrappers and rejected URLs on standard error")
		maxLength := fs.Int("max-length", extract.DefaultMaxLength, "the longest wrapper or URL, in `N` bytes; bounds the memory used")
		jobs := jobsFlag(fs, "search on `N` cores at once (the URLs stay in input order; at most 4 per core)")
		return func(ctx context.Context, st *Streams, args []string) int {
			if *maxLength <= 0 {
				fmt.Fprintf(st.Err, "urlkit extract: --max-length must be positive\n")
				return exitUsage
			}
			// One write per read of the input at most (flushReader
			// flushes before each): the URLs of a 64 KiB read fit.
			out := bufio.NewWriterSize(st.Out, 64<<10)
			defer out.Flush()
			if len(args) == 0 {
				args = []string{"-"}
			}
			o := &extractOptions{asJSON: *asJSON, quiet: *quiet, cfg: extract.Config{WrappedOnly: *wrappedOnly, MaxLength: *maxLength}}
			if *jobs > 1 {
				return eachUnitJobs(ctx, st, out, o.units(st.In, args), *jobs)
			}
			status := exitOK
			for _, name := range args {
				if code, ok := o.extractFile(ctx, st.In, out, st.Err, name); !ok {
					return code
				} else if code > status {
					status = code
				}
			}
			return status
		}
	},
}

// extractOptions is what extract does with each URL and problem found.
type extractOptions struct {
	asJSON, quiet bool
	cfg           extract.Config
}

// extractFile prints the URLs of the file name ("-": stdin) to out and
// its problems to errw, flushing out first, and closes the file before
// returning, so that any number of files can be scanned. ok is false
// when ctx ended it (code then is the status to exit with at once).
func (o *extractOptions) extractFile(ctx context.Context, stdin io.Reader, out *bufio.Writer, errw io.Writer, name string) (code int, ok bool) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return o.openFailed(err)(ctx, out, errw)
		}
		r = f
		defer f.Close()
	}
	return o.scan(ctx, flushReader{r, out}, nil, out, errw, name, 0, 1)
}

// openFailed is the unit of a file that cannot be opened.
func (o *extractOptions) openFailed(err error) unitJob {
	return func(_ context.Context, out *bufio.Writer, errw io.Writer) (int, bool) {
		out.Flush()
		fmt.Fprintf(errw, "urlkit extract: %s\n", safetext.Visible(err.Error()))
		return exitFail, true
	}
}

// scan prints the URLs of r, or of text when r is nil, to out and its
// problems to errw, flushing out first: it is the input name from the
// offset at, the start of line line, to the end or to a cut
// (extract.Config.Cut).
func (o *extractOptions) scan(ctx context.Context, r io.Reader, text []byte, out *bufio.Writer, errw io.Writer, name string, at int64, line int) (code int, ok bool) {
	cfg := o.cfg
	cfg.Offset, cfg.Line = at, line
	if !o.quiet {
		cfg.Problem = func(p extract.Problem) {
			out.Flush()
			fmt.Fprintf(errw, "urlkit: %s:%d:%d: %s: offset %d: %s\n",
				safetext.Visible(name), p.Line, p.Column, quoteInput(p.Text, 0), p.Offset, safetext.Visible(p.Rule()))
		}
	}
	var s *extract.Scanner
	if r != nil {
		s = cfg.NewScanner(r)
	} else {
		s = cfg.NewBytesScanner(text)
	}
	for s.Next() {
		if ctx.Err() != nil {
			return exitInterrupted, false
		}
		if o.asJSON {
			out.Write(itemJSON(name, s.Item()))
			out.WriteByte('\n')
		} else {
			out.Write(s.AppendURL(out.AvailableBuffer()))
			out.WriteByte('\n')
		}
	}
	status := exitOK
	if err := s.Err(); err != nil {
		out.Flush()
		fmt.Fprintf(errw, "urlkit extract: reading %s: %s\n", safetext.Visible(name), safetext.Visible(err.Error()))
		status = exitFail
	}
	if ctx.Err() != nil {
		return exitInterrupted, false
	}
	return status, true
}

// The parts of the input that extract -j scans on the workers: up to
// extractPartBytes read, cut after the last line that extract.Config.Cut
// allows; a text with no such line in extractMaxPartBytes (markup dense
// with "<") is scanned from there to its end as one part, read as it
// goes. A part fits in a core's cache (1 MiB here) with its output: at
// 2 MiB, extract -j 2 over 20 files of web URLs took 10% more CPU than
// -j 1 and ran 1.75 times as fast; at 512 KiB, 3% more and 1.87 times.
// Markup dense with "<" that may start a wrapper has no line to cut
// after for longer: such a part grows. (Variables for the tests.)
var (
	extractPartBytes    = 512 << 10
	extractMaxPartBytes = 8 << 20
)

// extractShortRead is a read short enough to say that the input comes
// slowly (a pipeline, a line at a time): what has come is cut and
// scanned at once. A longer one (a pipe's 64 KiB) is read on, up to
// extractPartBytes, so that the parts are not small.
const extractShortRead = 32 << 10

// extractBuffers keeps the buffers of parts scanned, for the parts to
// come.
var extractBuffers bufpool.Pool

// units yields the units of extract -j over names: each file, in order,
// cut into parts that the workers scan apart, with their offsets and
// lines in the file, so that the output is that of one scan.
func (o *extractOptions) units(stdin io.Reader, names []string) iter.Seq[unitJob] {
	return func(yield func(unitJob) bool) {
		for _, name := range names {
			if !o.fileUnits(stdin, name, yield) {
				return
			}
		}
	}
}

// fileUnits yields the units of the file name ("-": stdin), and reports
// whether to go on. Each part is scanned in place, in the buffer it was
// read into, which the part's unit then gives back (extractBuffers).
func (o *extractOptions) fileUnits(stdin io.Reader, name string, yield func(unitJob) bool) bool {
	r, closeFile := stdin, func() {}
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return yield(o.openFailed(err))
		}
		r, closeFile = f, func() { f.Close() }
	}
	var at int64
	line := 1
	data := extractBuffers.Get(extractPartBytes)
	noCut := 0 // data[:noCut] has no line to cut after
	for empty := 0; ; {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		switch {
		case n > 0:
			empty = 0
		case err == nil:
			if empty++; empty < 100 {
				continue
			}
			err = io.ErrNoProgress // as the Scanner says
		}
		if err == io.EOF {
			closeFile()
			return yield(o.part(name, nil, data, at, line))
		}
		if err != nil {
			// The scan reports the error after the URLs before it.
			closeFile()
			return yield(o.part(name, io.MultiReader(bytes.NewReader(data), errReader{err}), data, at, line))
		}
		if n >= extractShortRead && len(data) < cap(data) {
			continue
		}
		cut := o.cfg.Cut(data, noCut)
		switch {
		case cut == 0 && len(data) < cap(data):
			noCut = len(data)
			continue
		case cut == 0 && cap(data) >= extractMaxPartBytes:
			// No line to cut after: the rest as one part, which reads it
			// and closes the file.
			rest := o.part(name, io.MultiReader(bytes.NewReader(data), r), data, at, line)
			if !yield(func(ctx context.Context, out *bufio.Writer, errw io.Writer) (int, bool) {
				defer closeFile()
				return rest(ctx, out, errw)
			}) {
				closeFile()
				return false
			}
			return true
		case cut == 0:
			noCut = len(data)
			grown := make([]byte, len(data), 2*cap(data))
			copy(grown, data)
			extractBuffers.Put(data, extractPartBytes)
			data = grown
			continue
		}
		next := append(extractBuffers.Get(extractPartBytes), data[cut:]...)
		lines := bytes.Count(data[:cut], []byte{'\n'})
		if !yield(o.part(name, nil, data[:cut], at, line)) {
			closeFile()
			return false
		}
		at += int64(cut)
		line += lines
		data, noCut = next, 0
	}
}

// part is the unit that scans r, or text when r is nil, the input name
// from the offset at, the start of line line; text's buffer then goes
// back to extractBuffers.
func (o *extractOptions) part(name string, r io.Reader, text []byte, at int64, line int) unitJob {
	return func(ctx context.Context, out *bufio.Writer, errw io.Writer) (int, bool) {
		defer extractBuffers.Put(text, extractPartBytes)
		return o.scan(ctx, r, text, out, errw, name, at, line)
	}
}

// errReader returns its error at once: the end of a part that is the
// end of its input, io.EOF or the error that ended it.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// itemJSON encodes one extracted URL: the contract's keys first (url,
// line, column, wrapped), then urlkit's.
func itemJSON(file string, it extract.Item) []byte {
	var o jsonObject
	o.begin()
	o.str("url", it.URL)
	o.optInt("line", it.Line, true)
	o.optInt("column", it.Column, true)
	o.boolean("wrapped", it.Wrapped)
	o.str("file", file)
	o.key("offset")
	o.b = strconv.AppendInt(o.b, it.Offset, 10)
	o.boolean("prefixed", it.Prefixed)
	repairs := []byte{'['}
	for i, r := range it.Repairs {
		if i > 0 {
			repairs = append(repairs, ',')
		}
		var ro jsonObject
		ro.begin()
		ro.key("offset")
		ro.b = strconv.AppendInt(ro.b, r.Offset, 10)
		ro.str("message", r.Message)
		ro.end()
		repairs = append(repairs, ro.b...)
	}
	o.raw("repairs", append(repairs, ']'))
	o.optStr("alternative", it.Alternative, it.Alternative != "")
	o.end()
	return o.b
}

// flushReader flushes the output before each read, so that a pipeline
// sees the URLs found so far before extract waits for more input.
type flushReader struct {
	r   io.Reader
	out *bufio.Writer
}

func (f flushReader) Read(p []byte) (int, error) {
	f.out.Flush()
	return f.r.Read(p)
}
