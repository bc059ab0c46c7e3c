package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/percent"
)

var escapeCmd = &command{
	name:    "escape",
	args:    "[--set NAME] [--plus] [-j N] [STRING...]",
	summary: "percent-encode strings for a URL component",
	detail: `Escape percent-encodes each STRING (or each line of standard input) for the
component named by --set, with upper-case hex digits, and prints it.

Sets (RFC 1738 2.2 and section 5):
  path      keeps unreserved characters and / ; : @ & = (an HTTP path)
  segment   one path segment: also encodes / and ; (an FTP CWD or name)
  query     keeps ; : @ & =, encodes / ? + (RFC 1738 search; RFC 1630: + means space)
  userinfo  encodes : @ / (RFC 1738 3.1), keeps ; & =
  fragment  keeps every xchar; encodes only unsafe and non-graphic octets
  unsafe    encodes only what must always be encoded (RFC 1738 2.2)
  all       encodes everything but alphanumerics and $-_.+!*'(),

Examples:
  urlkit escape --set segment 'my dir/a;b'        # my%20dir%2Fa%3Bb
  urlkit escape --set query --plus 'a+b c'        # a%2Bb+c
  urlkit escape --set unsafe '~user/{x}'          # %7Euser/%7Bx%7D`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		setName := fs.String("set", "path", "the character set: `NAME` is one of "+strings.Join(percent.Names(), ", "))
		plus := fs.Bool("plus", false, "write spaces as + (RFC 1630 query strings); a real + becomes %2B")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			set, err := percent.ByName(*setName)
			if err != nil {
				fmt.Fprintf(st.Err, "urlkit escape: %v\nrun 'urlkit escape -h' for help\n", strings.TrimPrefix(err.Error(), "urlkit: "))
				return exitUsage
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			return eachInputJobs(ctx, st, out, args, *jobs, true, func() lineJob { // an empty line is an empty string
				return func(_ int, s string, out *bufio.Writer, _ io.Writer) int {
					out.WriteString(percent.Escape(s, set, *plus))
					out.WriteByte('\n')
					return exitOK
				}
			}, blankRecord) // an over-long line keeps its line of output too
		}
	},
}

var unescapeCmd = &command{
	name:    "unescape",
	args:    "[--lenient] [--plus] [-j N] [STRING...]",
	summary: "decode percent-escapes",
	detail: `Unescape decodes every %XX escape of each STRING (or each line of standard
input) and prints the result, one line for each. A "%" not followed by
two hex digits is an error naming its offset (RFC 1630 reserves such
sequences; a line of standard input then has an empty line of output),
unless --lenient, which keeps the "%" as it is.

Examples:
  urlkit unescape 'marie%2Dclaude'                # marie-claude
  urlkit unescape --plus 'a+b%2Bc'                # a b+c
  urlkit unescape '100%'                          # error: offset 3
  urlkit unescape --lenient '100%'                # 100%`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		lenient := fs.Bool("lenient", false, "keep a % that is not followed by two hex digits instead of failing")
		plus := fs.Bool("plus", false, "decode + as a space (RFC 1630 query strings)")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			// The strict forms are the root's, whose error names the
			// offset; --lenient keeps a bad "%" and cannot fail.
			unescape := urlkit.PathUnescape
			if *plus {
				unescape = urlkit.QueryUnescape
			}
			if *lenient {
				unescape = func(s string) (string, error) { return percent.Loose(s, *plus), nil }
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			fromStdin := len(args) == 0
			return eachInputJobs(ctx, st, out, args, *jobs, true, func() lineJob { // an empty line is an empty string
				return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
					v, err := unescape(s)
					if err != nil {
						out.Flush()
						printErr(errw, err)
						if fromStdin {
							out.WriteByte('\n') // its place, so the lines stay in step
						}
						return exitFail
					}
					out.WriteString(v)
					out.WriteByte('\n')
					return exitOK
				}
			}, blankRecord) // an over-long line keeps its line of output too
		}
	},
}
