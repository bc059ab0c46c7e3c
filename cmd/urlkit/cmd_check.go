package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/urlkit/urlkit"
)

var checkCmd = &command{
	name:    "check",
	args:    "[--mode M] [--all] [-v] [-j N] [URL...]",
	summary: "validate URLs; exit 1 if any is invalid",
	detail: `Check validates each URL and prints nothing for a valid one. For an invalid
one it prints one error line to standard error, naming the input, the byte
offset (0-based) and the rule broken:

  urlkit: "ftp://a b/": offset 7: space is unsafe and must be encoded as %20

With --all it prints every problem of each URL, one per line. The exit
status is 0 when every URL is valid and 1 otherwise, so it works as a
filter over millions of lines of standard input.

With --mode whatwg a URL is invalid only where the URL Standard's parser
fails; its other validation errors (invalid-credentials, invalid-URL-unit,
special-scheme-missing-following-solidus, ...) are printed as warnings,
each with its offset and the standard's name for it, and -v prints the
URL a browser makes of the input ("ok INPUT -> HREF").

` + modesHelp + `

Examples:
  urlkit check 'ftp://a b/'
  urlkit check --mode rfc3986 'http://[::1]/'
  urlkit check --all 'http://user:pw@host/a b{'
  urlkit check -v --mode lenient '<URL:http://example.com/a b>'
  urlkit check --mode whatwg 'HTTP://user@EXAMPLE.com\a b'
  urlkit check < urls.txt 2> problems.txt`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		mode := modeFlag(fs)
		all := fs.Bool("all", false, "print every problem of each URL, not only the first")
		verbose := fs.Bool("v", false, "also print \"ok URL\" for each valid URL")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			return eachInputJobs(ctx, st, out, args, *jobs, false, func() lineJob {
				return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
					var errs urlkit.ErrorList
					total := 0
					_, warns, err := urlkit.ParseMode(s, *mode)
					if *mode == urlkit.WHATWG && err == nil {
						warns = whatwgWarnings(s)
					}
					switch {
					case err == nil:
					case *all || *mode == urlkit.Lenient:
						errs, total = urlkit.CheckLimit(s, *mode, maxErrorsShown)
					default:
						// Only the first problem is shown: the parse finds it
						// without a list of every other (a million on a
						// hostile line). A type assertion, not errors.As, and
						// the list on the stack: this is the path of every
						// invalid line, and the two allocations and the
						// reflection were most of its cost beyond the parse.
						if ue, ok := err.(*urlkit.Error); ok {
							one := [1]*urlkit.Error{ue}
							errs = one[:]
						} else {
							errs, total = urlkit.CheckLimit(s, *mode, maxErrorsShown)
						}
					}
					if len(errs) == 0 {
						printWarnings(st, out, errw, s, warns)
						if *verbose && *mode == urlkit.WHATWG {
							u, _, _ := urlkit.ParseMode(s, *mode)
							fmt.Fprintf(out, "ok %s -> %s\n", st.redact(s), st.redact(u.String()))
						} else if *verbose {
							fmt.Fprintf(out, "ok %s\n", st.redact(s))
						}
						return exitOK
					}
					out.Flush()
					if !*all {
						printErrorsHint(errw, errs[:1], 1, modeHint(s, *mode, false))
					} else {
						printErrorsHint(errw, errs, max(total, len(errs)), modeHint(s, *mode, false))
					}
					return exitFail
				}
			})
		}
	},
}
