package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/resolve"
)

// rulesAllLine is the line of rulesHelp that only resolve takes.
const rulesAllLine = "  all      every rule, side by side\n"

const rulesHelp = `Rules (--rule):
  rfc3986  RFC 3986 section 5.2, strict: "http:g" stays absolute (default)
  rfc2396  RFC 2396 section 5.2: "/./g", "//g/../x" taken as they are,
           ".." left at the root kept ("../../../g" gives http://a/../g)
  rfc1808  RFC 1808 section 4, the companion of RFC 1738: ";params" are
           parsed apart (after the first ";") and never merged; the empty
           reference is the whole base, fragment included
  rfc1630  RFC 1630's partial form, as string surgery on the base:
           N leading slashes keep the base up to its first run of exactly
           N slashes (base magic://a/b/c//d/e/f: "/g" gives magic://a/g,
           "//g" gives magic://g); any other reference replaces the
           base's last path element; then, either way, "/." and "xxx/../"
           are removed in the path, where ".." never consumes the element
           after a run of two or more slashes (so "." gives the directory
           without its final "/", and "/x/../g" gives magic://a/g).
           Where RFC 1630 is silent, urlkit chose: "" is the base itself
           and "#frag" the base with that fragment; a final ".." works as
           "../" (magic://a/b/c//d/e/f with ".." gives magic://a/b/c//d/);
           N slashes with no run of exactly N keep only "scheme:".
  whatwg   the WHATWG URL Standard's basic URL parser with BASE as its
           base URL, as a browser resolves an href: the reference is read
           as text, repaired and encoded as a browser does (--mode applies
           to neither; resolve only)
` + rulesAllLine + `--compat treats a reference whose scheme is the base's as relative
("http:g" gives http://a/b/c/g): RFC 3986 5.2.2's note for rfc3986, RFC
2396 5.2 step 3 (schemes that always use "//") for rfc2396. RFC 1808 and
RFC 1630 define no such variant: --compat with them is a usage error.
Every rule writes "/." before a path that starts with "//" when there is
no authority (base a:/b with "..//c" gives a:/.//c), so that the path
cannot read as an authority.`

// resolveModeFlag declares --mode with RFC 3986 as the default: its
// URI-reference grammar holds every example of the resolution RFCs
// ("http:g", which RFC 1738 rejects, is one).
func resolveModeFlag(fs *flag.FlagSet) *urlkit.Mode {
	m := new(urlkit.Mode)
	fs.TextVar(m, "mode", urlkit.RFC3986, "the grammar `M` BASE and the references are checked against: rfc1738, rfc1630, rfc3986, lenient or whatwg")
	return m
}

// parseAbs parses an absolute URL, and parseRef a URL or a relative
// reference, in mode m, returning what the read repaired or removed
// (printWarnings shows it). Their errors say when RFC 3986 takes the URL
// (modehint.go).
func parseAbs(s string, m urlkit.Mode) (urlkit.URL, []urlkit.Warning, error) {
	u, warns, err := urlkit.ParseMode(s, m)
	if err != nil {
		err = hinted(err, s, m, false)
	}
	return u, warns, err
}

func parseRef(s string, m urlkit.Mode) (urlkit.URL, []urlkit.Warning, error) {
	u, warns, err := urlkit.ParseReference(s, m)
	if err != nil {
		err = hinted(err, s, m, true)
	}
	return u, warns, err
}

// ruleFlags declares --rule and --compat and returns a function that
// yields the rules to apply, or a usage error.
func ruleFlags(fs *flag.FlagSet, allowAll bool) func() ([]resolve.Rule, error) {
	name := fs.String("rule", "rfc3986", "the resolution rule `R`: rfc3986, rfc2396, rfc1808, rfc1630"+map[bool]string{true: " or all", false: ""}[allowAll])
	compat := fs.Bool("compat", false, "treat a reference whose scheme is the base's as relative (rfc3986 and rfc2396)")
	return func() ([]resolve.Rule, error) {
		var rules []resolve.Rule
		if *name == "all" && allowAll {
			for _, r := range resolve.Rules() {
				if *compat && (r == resolve.Rule3986 || r == resolve.Rule2396) {
					r |= resolve.Compat
				}
				rules = append(rules, r)
			}
			return rules, nil
		}
		r, err := resolve.RuleByName(*name)
		if err == nil && *compat {
			r, err = resolve.RuleByName(*name + "+compat")
		}
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "urlkit: ")
			if allowAll && strings.HasPrefix(msg, "unknown resolution rule") {
				msg = strings.Replace(msg, " or rfc1630)", ", rfc1630 or all)", 1)
			}
			return nil, errors.New(msg)
		}
		return []resolve.Rule{r}, nil
	}
}

// resolveArgs and relativeArgs are the commands' synopses, in -h and in
// the usage line of an error found after the flags.
const (
	resolveArgs  = "[--rule R] [--compat] [--mode M] [--explain] [-j N] BASE [REF...]"
	relativeArgs = "[--rule R] [--compat] [--mode M] [-j N] BASE [TARGET...]"
)

var resolveCmd = &command{
	name:    "resolve",
	args:    resolveArgs,
	summary: "resolve relative references against a base URL",
	detail: `Resolve prints the absolute URL each REF (or each line of standard input)
stands for in the context of BASE, one per line (a blank line is the empty
reference, which stands for BASE without its fragment). With --rule all it prints
every rule's result, one line per rule under the reference, so that you
can see where the rules disagree; --explain adds, under each result, the
steps taken: which step of the rule fired, what was kept from the base,
which dot segments were removed.

BASE and the references are parsed with --mode (default rfc3986, whose
grammar holds every example of RFCs 1808, 2396 and 3986). An invalid BASE
stops everything; an invalid REF is reported and the others go on (exit
status 1).

` + rulesHelp + `

Examples:
  urlkit resolve 'http://a/b/c/d;p?q' g ../g '?y' '#s'
  urlkit resolve --rule all 'http://a/b/c/d;p?q' '../../../g'
  urlkit resolve --rule rfc1630 'magic://a/b/c//d/e/f' g /g //g ../g
  urlkit resolve --compat 'http://a/b/c/d;p?q' 'http:g'
  urlkit resolve --rule whatwg 'https://example.com/a/b' '../c d' '\\host\x'
  urlkit resolve --explain 'http://a/b/c/d;p?q' 'g;x=1/../y'
  cut -f2 links.tsv | urlkit resolve 'http://example.com/dir/page.html'`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		rulesOf := ruleFlags(fs, true)
		mode := resolveModeFlag(fs)
		explain := fs.Bool("explain", false, "print the steps of each resolution under its result")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			// --rule whatwg, or --mode whatwg without a --rule: references
			// are resolved as a browser does (RFC 3986's rules would need
			// them parsed first, and the standard reads no reference
			// without its base).
			ruleSet := false
			fs.Visit(func(f *flag.Flag) { ruleSet = ruleSet || f.Name == "rule" })
			if r := fs.Lookup("rule").Value.String(); (r == "whatwg" || !ruleSet && *mode == urlkit.WHATWG) && len(args) > 0 && !*explain {
				return resolveWHATWG(ctx, st, args, *jobs)
			}
			rules, err := rulesOf()
			if err == nil && len(args) == 0 {
				err = errors.New("missing BASE")
			}
			if err != nil {
				fmt.Fprintf(st.Err, "urlkit resolve: %v\nusage: urlkit resolve %s\nrun 'urlkit resolve -h' for help\n", err, resolveArgs)
				return exitUsage
			}
			base, warns, err := parseAbs(args[0], *mode)
			if err != nil {
				printErr(st.Err, err)
				return exitFail
			}
			if _, err := resolve.Resolve(&base, &urlkit.URL{}, rules[0]); err != nil {
				printErr(st.Err, err) // a relative base
				return exitFail
			}
			all := len(rules) > 1
			width := 0
			for _, r := range rules {
				width = max(width, len(r.String()))
			}
			// With one rule and no --explain each input line has its
			// output line, an empty one for an invalid reference (the
			// error goes to standard error).
			oneLine := !all && !*explain
			var blank overLongRecord
			if oneLine {
				blank = blankRecord
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			printWarnings(st, out, st.Err, args[0], warns)
			return eachInputJobs(ctx, st, out, args[1:], *jobs, true, func() lineJob {
				return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
					ref, warns, err := parseRef(s, *mode)
					if err != nil {
						out.Flush()
						printErr(errw, err)
						if oneLine {
							out.WriteByte('\n')
						}
						return exitFail
					}
					printWarnings(st, out, errw, s, warns)
					indent := ""
					if all {
						fmt.Fprintf(out, "%s\n", s)
						indent = "  "
					}
					for _, rule := range rules {
						// The steps only when they are shown: recording
						// them formats each one.
						var u urlkit.URL
						var steps []resolve.RuleStep
						if *explain {
							u, steps, err = resolve.Explain(&base, &ref, rule)
						} else {
							u, err = resolve.Resolve(&base, &ref, rule)
						}
						if err != nil {
							out.Flush()
							printErr(errw, err)
							if oneLine {
								out.WriteByte('\n')
							}
							return exitFail
						}
						if all {
							fmt.Fprintf(out, "%s%-*s  %s\n", indent, width, rule, u.String())
						} else {
							out.WriteString(u.String())
							out.WriteByte('\n')
						}
						if *explain {
							for _, step := range steps[:len(steps)-1] { // the last is the result
								fmt.Fprintf(out, "%s  %s\n", indent, step)
							}
						}
					}
					return exitOK
				}
			}, blank)
		}
	},
}

var relativeCmd = &command{
	name:    "relative",
	args:    relativeArgs,
	summary: "the shortest reference from a base URL to each target",
	detail: `Relative prints, for each absolute TARGET (or each line of standard input),
the shortest reference that 'urlkit resolve' with the same BASE and rule
turns back into exactly TARGET: the inverse of resolve. The empty
reference (TARGET is the base itself) prints as an empty line. A TARGET no
reference reaches under the rule (with dot segments, under rfc3986, which
removes them from every result) is reported, exit status 1.

The candidates are "", "#fragment", "?query", relative paths with "./"
and "../", ";params" (rfc1808), an absolute path, "//authority/path",
for rfc1630 each tail that starts with a run of slashes, and TARGET
itself; the shortest one that resolves back wins.

` + strings.Replace(rulesHelp, rulesAllLine, "", 1) + `

Examples:
  urlkit relative 'http://a/b/c/d;p?q' http://a/b/c/g http://a/b/g?y http://a/g
  urlkit relative --rule rfc1630 'magic://a/b/c//d/e/f' magic://a/g magic://g
  urlkit relative 'http://a/b/c/d;p?q' 'ftp://a/b'     # ftp://a/b`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		rulesOf := ruleFlags(fs, false)
		mode := resolveModeFlag(fs)
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			rules, err := rulesOf()
			if err == nil && len(args) == 0 {
				err = errors.New("missing BASE")
			}
			if err != nil {
				fmt.Fprintf(st.Err, "urlkit relative: %v\nusage: urlkit relative %s\nrun 'urlkit relative -h' for help\n", err, relativeArgs)
				return exitUsage
			}
			base, warns, err := parseAbs(args[0], *mode)
			if err == nil {
				_, err = resolve.Resolve(&base, &urlkit.URL{}, rules[0]) // a relative base
			}
			if err != nil {
				printErr(st.Err, err)
				return exitFail
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			printWarnings(st, out, st.Err, args[0], warns)
			return eachInputJobs(ctx, st, out, args[1:], *jobs, false, func() lineJob {
				return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
					target, warns, err := parseAbs(s, *mode)
					if err == nil {
						printWarnings(st, out, errw, s, warns)
						var ref urlkit.URL
						if ref, err = resolve.Relative(&base, &target, rules[0]); err == nil {
							out.WriteString(ref.String())
							out.WriteByte('\n')
							return exitOK
						}
					}
					out.Flush()
					printErr(errw, err)
					out.WriteByte('\n') // each target has its output line
					return exitFail
				}
			}, blankRecord)
		}
	},
}
