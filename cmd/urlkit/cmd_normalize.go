package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit/normalize"
)

const normalizeHelp = `The canonical form (RFC 1630: "bring them to the same encoding level";
RFC 1738 2.2):
  - escapes of characters that need no escaping (alphanumerics and
    $-_.+!*'(),) are decoded: marie%2Dclaude is marie-claude;
  - reserved characters ; / ? : @ = & are never decoded nor encoded:
    bertram%2Fmarie-claude keeps its %2F, which is not a "/";
  - unsafe characters (space < > " # % { } | \ ^ ~ [ ] and the
    backquote), controls and 8-bit octets are encoded; hex digits are
    upper-case;
  - scheme and host are lower-cased; a default port (http 80, ftp 21,
    gopher 70, ...) or an empty one is dropped;
  - in a query or a fragment, %2B stays encoded (RFC 1630: "+" in a query
    means a space, and a fragment has no "+"); in a path, escaped dots
    that would form a "." or ".." element stay %2E;
  - scheme rules: the "/" before an empty url-path is written (http://h
    is http://h/, RFC 1738 3.1), an empty gopher path is type 1
    (gopher://h/1, 3.4), ftp ";type=" codes are lower-cased (3.2.2),
    file://localhost/ is file:/// (3.10), a mailto domain is lower-cased
    (RFC 3986 6.2.3), not the local part.
An empty user or password stays apart from an absent one (RFC 1738 3.1:
ftp://@host.com/ is not ftp://host.com/). Dot segments are not removed,
except in the rfc3986 and lenient modes, which follow RFC 3986 6.2.2: only
the escapes of A-Z a-z 0-9 - . _ ~ are decoded, "~" stays, and the dot
segments of an absolute URI are removed.`

var normalizeCmd = &command{
	name:         "normalize",
	args:         "[URL...]",
	flagSynopsis: true,
	summary:      "print URLs in canonical form",
	detail: `Normalize prints each URL (or each line of standard input) in the canonical
form below, one per line. With --explain, each rule that changed something
is printed under the URL. With --surt, it prints each URL's SURT key instead,
the key web archives sort their indexes on (http://www.Example.com/a/?b&a is
com,example)/a?a&b), with the canonicalization of internetarchive/surt's
defaults (see normalize.SURT); --flags do not apply to it. Invalid URLs are reported (offset and rule) and
make the exit status 1.

` + normalizeHelp + `

` + normalizeFlagsHelp + `

` + modesHelp + `

Examples:
  urlkit normalize 'HTTP://Info.CERN.ch:80/albert/bertram/marie%2dclaude'
  urlkit normalize --explain 'gopher://gopher.example'
  urlkit normalize --surt 'http://www.archive.org/goo/?b&a'   # org,archive)/goo?a&b
  urlkit normalize --mode lenient 'http://example.com/a b/~x'
  urlkit normalize --mode rfc3986 --flags unsafe 'https://www.example.com/a/index.html?b=2&a=1&utm_source=x#top'
  urlkit normalize < urls.txt | sort -u      # one output line per input line: empty for a blank or invalid one`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		normalizer := normalizerFlags(fs)
		explain := fs.Bool("explain", false, "print the rules applied under each URL")
		surt := fs.Bool("surt", false, "print each URL's SURT key, as web archives index it (com,example)/path?query)")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			if *surt && *explain {
				fmt.Fprintf(st.Err, "urlkit normalize: --surt and --explain do not go together\nrun 'urlkit normalize -h' for help\n")
				return exitUsage
			}
			norm := normalizer()
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			// Without --explain each input line has its output line, an
			// empty one for a blank or invalid input (the error goes to
			// standard error), so that the output pairs up with the input.
			var blank overLongRecord
			if !*explain {
				blank = blankRecord
			}
			// A blank line of standard input is skipped; an empty argument
			// is an invalid URL.
			fromArgs := len(args) > 0
			return eachInputJobs(ctx, st, out, args, *jobs, !*explain, func() lineJob {
				return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
					if s == "" && !fromArgs {
						out.WriteByte('\n')
						return exitOK
					}
					u, warns, err := parseAbs(s, norm.Mode)
					if err != nil {
						out.Flush()
						printErr(errw, err)
						if !*explain {
							out.WriteByte('\n')
						}
						return exitFail
					}
					printWarnings(st, out, errw, s, warns)
					if *surt {
						out.WriteString(normalize.SURT(&u))
						out.WriteByte('\n')
						return exitOK
					}
					if !*explain {
						n := norm.Normalize(&u)
						out.WriteString(n.String())
						out.WriteByte('\n')
						return exitOK
					}
					n, steps := norm.Explain(&u)
					fmt.Fprintf(out, "%s\n", n.String())
					for _, step := range steps {
						fmt.Fprintf(out, "  %s\n", step)
					}
					return exitOK
				}
			}, blank)
		}
	},
}

var equalCmd = &command{
	name:         "equal",
	args:         "URL1 URL2",
	flagSynopsis: true,
	summary:      "tell whether two URLs are the same; exit 1 if not",
	detail: `Equal compares URL1 and URL2 once both are in canonical form (see
'urlkit normalize'), component by component, and prints "equal" or
"not equal". The exit status is 0 when they are equal, 1 when they are
not (or one is invalid), 2 for a usage error. With no arguments, each
line of standard input holds a pair separated by a tab, and each verdict
is printed on its own line, in input order however many cores -j lets
compare them (an empty line for a line that is not two valid URLs, so
that the verdicts stay beside their pairs); the exit status is 0 when
every pair is equal.

With --explain it also says why: for equal URLs, the canonical form and
the rules that made them equal; for unequal ones, each component that
differs after normalization, and the rule that keeps an empty component
apart from an absent one.

` + normalizeHelp + `

` + normalizeFlagsHelp + `

` + modesHelp + `

Examples:
  urlkit equal --mode rfc3986 --flags sort-query,remove-tracking 'http://h/?b=1&a=2' 'http://h/?a=2&b=1&fbclid=x'
  urlkit equal http://info.cern.ch/albert/bertram/marie-claude \
               http://info.cern.ch/albert/bertram/marie%2Dclaude     # equal
  urlkit equal --explain http://info.cern.ch/albert/bertram/marie-claude \
               http://info.cern.ch/albert/bertram%2Fmarie-claude     # not equal
  urlkit equal --explain ftp://@host.com/ ftp://host.com/
  urlkit equal 'HTTP://H:80' 'http://h/' && echo same`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		normalizer := normalizerFlags(fs)
		explain := fs.Bool("explain", false, "say which component differs, or which rules made the URLs equal")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			if len(args) != 0 && len(args) != 2 {
				fmt.Fprintf(st.Err, "urlkit equal: want two URLs, got %d\nrun 'urlkit equal -h' for help\n", len(args))
				return exitUsage
			}
			norm := normalizer()
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			// compare prints the verdict on s1 and s2; judged is false when
			// one is invalid (no verdict).
			compare := func(s1, s2 string, out *bufio.Writer, errw io.Writer) (code int, judged bool) {
				a, warnsA, errA := parseAbs(s1, norm.Mode)
				b, warnsB, errB := parseAbs(s2, norm.Mode)
				if errA != nil || errB != nil {
					out.Flush()
					for _, err := range []error{errA, errB} {
						if err != nil {
							printErr(errw, err) // each invalid URL, as check names them
						}
					}
					return exitFail, false
				}
				printWarnings(st, out, errw, s1, warnsA)
				printWarnings(st, out, errw, s2, warnsB)
				// The account only when it is shown: recording it
				// formats each step.
				var c normalize.Comparison
				if *explain {
					c = norm.ExplainEqual(&a, &b)
				} else {
					c.Equal = norm.Equal(&a, &b)
				}
				if c.Equal {
					out.WriteString("equal\n")
				} else {
					out.WriteString("not equal\n")
				}
				if *explain {
					writeComparison(out, &c)
				}
				if c.Equal {
					return exitOK, true
				}
				return exitFail, true
			}
			if len(args) == 2 {
				code, _ := compare(args[0], args[1], out, st.Err)
				return code
			}
			// Each pair on its own, so the pairs of standard input are
			// compared on -j cores, the verdicts written in input order.
			return eachInputJobs(ctx, st, out, nil, *jobs, true, func() lineJob {
				return func(_ int, line string, out *bufio.Writer, errw io.Writer) int {
					if line == "" {
						out.WriteByte('\n') // a blank line's place, as normalize keeps it
						return exitOK
					}
					s1, s2, ok := strings.Cut(line, "\t")
					if !ok {
						out.Flush()
						fmt.Fprintf(errw, "urlkit equal: %s: want two URLs separated by a tab\n", quoteInput(line, 0))
						out.WriteByte('\n') // its verdict's place
						return exitFail
					}
					code, judged := compare(s1, s2, out, errw)
					if !judged {
						out.WriteByte('\n')
					}
					return code
				}
			}, blankRecord) // an over-long line has its empty verdict too
		}
	},
}

// writeComparison prints the explanation of an equality test.
func writeComparison(out *bufio.Writer, c *normalize.Comparison) {
	if c.Equal {
		fmt.Fprintf(out, "  canonical form: %s\n", c.A.String())
		if len(c.StepsA)+len(c.StepsB) == 0 {
			out.WriteString("  the two are already in canonical form and identical\n")
		}
		for _, s := range c.StepsA {
			fmt.Fprintf(out, "  URL1: %s\n", s)
		}
		for _, s := range c.StepsB {
			fmt.Fprintf(out, "  URL2: %s\n", s)
		}
		return
	}
	for _, d := range c.Differences {
		fmt.Fprintf(out, "  %s\n", d)
	}
	fmt.Fprintf(out, "  URL1 canonical: %s\n", c.A.String())
	fmt.Fprintf(out, "  URL2 canonical: %s\n", c.B.String())
}
