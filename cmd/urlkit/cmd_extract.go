package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/internal/safetext"
)

var extractCmd = &command{
	name:    "extract",
	args:    "[--json] [--wrapped-only] [-q] [--max-length N] [-j N] [FILE...]",
	summary: "find URLs in plain text",
	exit: `Exit status: 0 when every FILE was read, whether URLs were found or not
(a rejected candidate does not count); 1 when a FILE cannot be read; 2
usage error; 130 interrupted.`,
	detail: `Extract finds the URLs in plain text (mail, news, documentation) and prints
one per line, in canonical form. It reads each FILE, or standard input when
there is none ("-" is standard input too), streaming in bounded memory.
Several FILEs are searched on -j cores at once, the URLs printed file by
file in the order given.

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
		jobs := jobsFlag(fs, "search `N` files at once (the URLs stay in file order)")
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
			one := func(ctx context.Context, name string, out *bufio.Writer, errw io.Writer) (int, bool) {
				return extractOne(ctx, st.In, out, errw, name, *asJSON, *wrappedOnly, *quiet, *maxLength)
			}
			if *jobs > 1 && len(args) > 1 {
				return eachFileJobs(ctx, st, out, args, *jobs, one)
			}
			status := exitOK
			for _, name := range args {
				if code, ok := one(ctx, name, out, st.Err); !ok {
					return code
				} else if code > status {
					status = code
				}
			}
			return status
		}
	},
}

// extractOne prints the URLs of the file name ("-": stdin) to out and
// its problems to errw, flushing out first, and closes the file before
// returning, so that any number of files can be scanned. ok is false
// when ctx ended it (code then is the status to exit with at once).
func extractOne(ctx context.Context, stdin io.Reader, out *bufio.Writer, errw io.Writer, name string, asJSON, wrappedOnly, quiet bool, maxLength int) (code int, ok bool) {
	status := exitOK
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(errw, "urlkit extract: %s\n", safetext.Visible(err.Error()))
			return exitFail, true
		}
		r = f
		defer f.Close()
	}
	cfg := &extract.Config{WrappedOnly: wrappedOnly, MaxLength: maxLength}
	if !quiet {
		cfg.Problem = func(p extract.Problem) {
			out.Flush()
			fmt.Fprintf(errw, "urlkit: %s:%d:%d: %s: offset %d: %s\n",
				safetext.Visible(name), p.Line, p.Column, quoteInput(p.Text, 0), p.Offset, safetext.Visible(p.Rule()))
		}
	}
	s := cfg.NewScanner(flushReader{r, out})
	for s.Next() {
		if ctx.Err() != nil {
			return exitInterrupted, false
		}
		if asJSON {
			out.Write(itemJSON(name, s.Item()))
			out.WriteByte('\n')
		} else {
			out.Write(s.AppendURL(out.AvailableBuffer()))
			out.WriteByte('\n')
		}
	}
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
