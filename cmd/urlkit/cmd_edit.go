package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/edit"
	"github.com/urlkit/urlkit/internal/safetext"
)

var editCmd = &command{
	name:    "edit",
	args:    "[OPTIONS] [URL...]",
	summary: "change and take apart URLs with trurl's options",
	detail: `Edit sets, gets, appends, trims and iterates over the components of URLs
with the options of trurl 0.16 (curl's URL tool), under the same names and
with the same meanings, so that a trurl command line runs unchanged:

  urlkit edit example.com                                 http://example.com/
  urlkit edit --url https://curl.se --set host=example.com
  urlkit edit https://curl.se/we/are.html --redirect ../here.html
  urlkit edit 'https://ex.com?a=1&utm_source=x' --qtrim 'utm_*'
  urlkit edit 'http://alpha?one=real' --append query=two=2 --sort-query
  urlkit edit https://curl.se/a/b -g '{scheme} {host} {default:port} {path}'
  urlkit edit example.com --iterate 'scheme=ftp https' --iterate 'port=22 80'
  urlkit edit 'https://fake.host/search?q=answers&user=me#frag' --json
  urlkit edit --set host=example.com --set scheme=ftp     ftp://example.com/
  cat urls.txt | urlkit edit -f - --get '{host}'

Unlike the other commands, which read URLs in urlkit's modes (--mode),
edit reads them as curl does, and writes them as trurl does:
  - a URL without "scheme://" gets a guessed scheme (http, or ftp, dict,
    ldap, imap, smtp, pop3 for a host name starting with that word and a
    dot), unless --no-guess-scheme; one to three slashes may follow the
    scheme;
  - the path is made absolute ("/" at least) and its "." and ".."
    segments are removed; the host is percent-decoded; IPv4 numbers in
    any inet_aton form (0x14.0xb3022, 646464646) are written as four
    decimals; IPv6 addresses take their RFC 5952 form, with a zone id;
  - the scheme is lower-cased (the host keeps its case, as curl keeps it);
    a default port of one of libcurl's schemes is dropped (--keep-port
    keeps it, --default-port adds it);
  - each component is decoded and encoded again: in the path, the
    fragment and the login, everything but ALPHA DIGIT - . _ ~ is %XX; in
    the query each pair is re-encoded with "+" for a space and lower-case
    hex, but only written back when some pair changed (or --sort-query,
    --qtrim, --replace, --append query=... change the query); empty
    query pairs are dropped, as trurl drops them ('e?e&&' is
    http://e/?e), which writes the query back.

--set COMPONENT=VALUE encodes VALUE (COMPONENT:=VALUE takes it encoded;
COMPONENT?=VALUE sets it only if it is not set; an empty VALUE removes the
component); components: url, scheme, user, password, options, host, port,
path, query, fragment, zoneid. --get TEMPLATE writes {component} (or
[component]) decoded, {:component} or {url:component} encoded, and the
modifiers default:, puny:, idn:, strict:, must:, {query:KEY} (the first
value) and {query-all:KEY} (all, space-separated); \n \t \r \\ \{ \[ are
escapes. --json writes trurl's array of {"url", "parts", "params"}.

--mode whatwg reads each URL with the WHATWG URL Standard's parser and
--set runs the standard's setters (the URL API's attributes: href,
protocol, username, password, host, hostname, port, pathname, search,
hash, or trurl's names scheme, user, path, query, fragment for them), each
as a browser's url.ATTRIBUTE = VALUE does (a value the standard refuses
leaves the URL as it was, with a note); --get's {component} is the API's
getter ({protocol} is "https:", {search} "?q", {origin} too); --redirect
resolves as a browser does; the URL written is the href. Only --set,
--get, --redirect, --url, --url-file, --verify and --quiet apply then:
  urlkit edit --mode whatwg 'HTTPS://EXAMPLE.com/a' --set pathname='b c' --set hash=x
  urlkit edit --mode whatwg 'https://example.com:8080/' -g '{origin} {port}'

Differences from trurl: an invalid URL is reported with its reason; the
exit status follows urlkit's contract (0 ok, even when a URL could not be
read and was skipped with a note, as trurl does; 1 with --verify, for a
URL that cannot be built, a --url-file that cannot be read, or a strict:
or must: --get failure; 2 for every usage mistake, where trurl has codes
2 to 12); --replace compares whole keys, where trurl compares the first
len(KEY) bytes of each pair; --sort-query puts a pair before the pairs
it is a prefix of ("a=1" before "a=10"), which trurl leaves to its sort.`,
	rewriteArgs: trurlArgs,
	setup:       setupEdit,
}

// editValueFlags are the options of edit that take a value.
var editValueFlags = map[string]bool{
	"a": true, "s": true, "g": true, "f": true, "url": true, "url-file": true, "append": true, "set": true,
	"get": true, "iterate": true, "redirect": true, "query-separator": true, "trim": true, "qtrim": true,
	"replace": true, "replace-append": true, "force-replace": true, "mode": true,
}

// trurlArgs rewrites trurl's command line for the flag package: an
// attached short value ("-shost=x", "-g{host}") is split from its flag,
// and every URL argument becomes "--url URL", so that the URLs keep their
// order among --url options, as in trurl.
func trurlArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for _, u := range args[i+1:] {
				out = append(out, "--url", u)
			}
			return out
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte("asgf", a[1]) >= 0:
			out = append(out, a[:2], a[2:])
		case len(a) > 1 && a[0] == '-':
			out = append(out, a)
			name := strings.TrimLeft(a, "-")
			if editValueFlags[name] && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		default:
			out = append(out, "--url", a)
		}
	}
	return out
}

// listFlag collects every value of a repeated flag, checked by valid.
type listFlag struct {
	list  *[]string
	valid func(string) error
}

func (l listFlag) String() string { return "" }
func (l listFlag) Set(s string) error {
	if l.valid != nil {
		if err := l.valid(s); err != nil {
			return err
		}
	}
	*l.list = append(*l.list, s)
	return nil
}

// onceFlag is a string flag that may be given once.
type onceFlag struct {
	v   *string
	set *bool
}

func (o onceFlag) String() string { return "" }
func (o onceFlag) Set(s string) error {
	if *o.set {
		return errors.New("may be given only once")
	}
	*o.v, *o.set = s, true
	return nil
}

type editConfig struct {
	urls, appends, sets, iterates, trims, replaces []string
	urlFile, format, redirect, qsep                string
	hasFile, hasFormat, hasRedirect, hasQsep       bool
	forceReplace                                   bool
	json, verify, sortQuery, urlencode, quiet      bool
	version                                        bool
	mode                                           string // "" (curl's reading) or "whatwg"
	parse                                          edit.Options
	out                                            edit.Out
}

func setupEdit(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
	c := &editConfig{}
	both := func(short, long string, v flag.Value, usage string) {
		arg, _ := flag.UnquoteUsage(&flag.Flag{Usage: usage, Value: v})
		fs.Var(v, short, "short for --"+long+" `"+arg+"`")
		fs.Var(v, long, usage)
	}
	fs.Var(listFlag{list: &c.urls}, "url", "a `URL` to work on (as an argument is)")
	both("f", "url-file", onceFlag{&c.urlFile, &c.hasFile}, "read URLs from `FILE`, one per line (- for standard input); arguments are then ignored")
	both("a", "append", listFlag{list: &c.appends, valid: validAppend}, "append a path segment (`path=SEGMENT`) or a query pair (query=KEY=VALUE), encoded")
	both("s", "set", listFlag{list: &c.sets}, "set a component: `COMPONENT=VALUE` (encoded), COMPONENT:=VALUE (as is), COMPONENT?=VALUE (if unset)")
	both("g", "get", onceFlag{&c.format, &c.hasFormat}, "write `TEMPLATE` with {component}s instead of the URL")
	fs.Var(listFlag{list: &c.iterates}, "iterate", "one output per value: `COMPONENT=V1 V2 ...` (combinations with several)")
	fs.Var(onceFlag{&c.redirect, &c.hasRedirect}, "redirect", "resolve `REF` against each URL (RFC 3986 5.2)")
	fs.Var(onceFlag{&c.qsep, &c.hasQsep}, "query-separator", "the one `CHAR` between query pairs (default &)")
	fs.Var(listFlag{list: &c.trims, valid: validTrim}, "trim", "as --qtrim PATTERN (trurl's older spelling of `query=PATTERN`)")
	fs.Var(listFlag{list: &c.trims}, "qtrim", "remove the query pairs whose key is `PATTERN` (KEY, or PREFIX*; \\* for a literal *), ignoring case")
	fs.Var(listFlag{list: &c.replaces}, "replace", "give the pairs with `KEY=VALUE`'s key its value (the first in place, others removed)")
	fs.Var(appendingReplace{c}, "replace-append", "as --replace `KEY=VALUE`, and append the pair where the key is missing (then for every --replace)")
	fs.Var(appendingReplace{c}, "force-replace", "the first name of --replace-append `KEY=VALUE`")
	fs.BoolVar(&c.json, "json", false, "write each URL as trurl's JSON object, in an array")
	fs.BoolVar(&c.verify, "verify", false, "stop at the first URL that cannot be read (exit status 1)")
	fs.BoolVar(&c.parse.AcceptSpace, "accept-space", false, "accept spaces in URLs, and encode them")
	fs.BoolVar(&c.parse.CurlOnly, "curl", false, "accept only the schemes libcurl supports")
	fs.BoolVar(&c.parse.NoGuess, "no-guess-scheme", false, "refuse URLs without a scheme instead of guessing one")
	fs.BoolVar(&c.out.DefaultPort, "default-port", false, "write the scheme's default port where no port is given")
	fs.BoolVar(&c.out.KeepPort, "keep-port", false, "keep a port that is the scheme's default")
	fs.BoolVar(&c.out.Puny, "punycode", false, "write international host names in punycode (IDNA A-labels)")
	fs.BoolVar(&c.out.IDN, "as-idn", false, "write punycode host names as international names")
	fs.BoolVar(&c.sortQuery, "sort-query", false, "sort the query pairs (ASCII case ignored)")
	fs.BoolVar(&c.urlencode, "urlencode", false, "write components encoded in --get and --json")
	fs.BoolVar(&c.quiet, "quiet", false, "leave out (some) notes")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.version, "v", false, "short for --version")
	fs.StringVar(&c.mode, "mode", "", "read and set URLs in `whatwg` mode (the URL Standard's parser and setters) instead of curl's way")
	return func(ctx context.Context, st *Streams, args []string) int {
		return runEdit(ctx, st, c, args)
	}
}

// appendingReplace is --replace-append: a --replace that also turns on
// appending for every --replace, as in trurl.
type appendingReplace struct{ c *editConfig }

func (a appendingReplace) String() string { return "" }
func (a appendingReplace) Set(s string) error {
	a.c.replaces = append(a.c.replaces, s)
	a.c.forceReplace = true
	return nil
}

func validAppend(s string) error {
	if strings.HasPrefix(s, "path=") || strings.HasPrefix(s, "query=") {
		return nil
	}
	return fmt.Errorf("unsupported component in %q: path=SEGMENT or query=KEY=VALUE", s)
}

func validTrim(s string) error {
	if strings.HasPrefix(s, "query=") {
		return nil
	}
	return fmt.Errorf("unsupported trim component in %q: only query=PATTERN", s)
}

// editIteration is one --iterate: a component and its values.
type editIteration struct {
	name   string
	raw    bool
	values []string
}

// editSet is one --set.
type editSet struct {
	name             string
	value            string
	raw, conditional bool
}

func parseSet(s string) (editSet, error) {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return editSet{}, fmt.Errorf("invalid --set %q: want COMPONENT=VALUE", s)
	}
	set := editSet{value: s[eq+1:]}
	name := s[:eq]
	// "NAME:=", "NAME?=", "NAME?:=" and "NAME:?=".
	for len(name) > 1 && strings.IndexByte(":?", name[len(name)-1]) >= 0 {
		set.raw = set.raw || name[len(name)-1] == ':'
		set.conditional = set.conditional || name[len(name)-1] == '?'
		name = name[:len(name)-1]
	}
	if name != "url" && !edit.IsComponent(name) {
		return editSet{}, fmt.Errorf("unknown component %q in --set", name)
	}
	set.name = name
	return set, nil
}

// editRun is the state of one edit command line.
type editRun struct {
	c         *editConfig
	st        *Streams
	out       *bufio.Writer
	sets      []editSet
	iters     []editIteration
	appendP   []string // encoded path segments
	appendQ   []string // encoded query pairs
	sep       byte
	tmpl      []tmplPart
	jsonCount int
	failed    bool // --verify stopped the run
}

func runEdit(ctx context.Context, st *Streams, c *editConfig, args []string) int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(st.Err, "urlkit edit: %s\nrun 'urlkit edit -h' for help\n", safetext.Visible(clip(fmt.Sprintf(format, a...))))
		return exitUsage
	}
	if c.version {
		fmt.Fprintf(st.Out, "urlkit edit %s (trurl 0.16 options)\n", buildVersion())
		return exitOK
	}
	if c.mode == "whatwg" {
		return runEditWHATWG(ctx, st, c, args)
	} else if c.mode != "" {
		return usage("--mode takes whatwg only (without it, edit reads URLs as curl does)")
	}
	if c.json && c.hasFormat {
		return usage("--get and --json exclude each other")
	}
	if c.out.Puny && c.out.IDN {
		return usage("--punycode and --as-idn exclude each other")
	}
	r := &editRun{c: c, st: st, sep: '&'}
	if c.hasQsep {
		if len(c.qsep) != 1 {
			return usage("--query-separator takes one character, not %q", c.qsep)
		}
		r.sep = c.qsep[0]
	}
	seen := map[string]bool{}
	for _, s := range c.sets {
		set, err := parseSet(s)
		if err != nil {
			return usage("%v", err)
		}
		if seen[set.name] {
			return usage("duplicate --set for component %s", set.name)
		}
		seen[set.name] = true
		r.sets = append(r.sets, set)
	}
	for _, it := range c.iterates {
		name, list, ok := strings.Cut(it, "=")
		raw := strings.HasSuffix(name, ":")
		name = strings.TrimSuffix(name, ":")
		if !ok || !edit.IsComponent(name) {
			return usage("bad --iterate %q: want COMPONENT=V1 V2 ...", it)
		}
		if seen[name] {
			return usage("duplicate --iterate or --set for component %s", name)
		}
		seen[name] = true
		r.iters = append(r.iters, editIteration{name: name, raw: raw, values: strings.Split(list, " ")})
	}
	for _, a := range c.appends {
		if seg, ok := strings.CutPrefix(a, "path="); ok {
			r.appendP = append(r.appendP, edit.Escape(seg))
		} else {
			r.appendQ = append(r.appendQ, edit.EncodeAssign(strings.TrimPrefix(a, "query=")))
		}
	}
	for i, t := range c.trims {
		c.trims[i] = strings.TrimPrefix(t, "query=")
	}
	if c.hasFormat {
		t, err := parseTemplate(c.format)
		if err != nil {
			return usage("%v", err)
		}
		r.tmpl = t
	}
	r.out = bufio.NewWriter(st.Out)
	defer r.out.Flush()
	if c.json {
		r.out.WriteByte('[')
	}
	status := r.inputs(ctx, args)
	if c.json && !r.failed {
		if r.jsonCount > 0 {
			r.out.WriteString("\n]\n")
		} else {
			r.out.WriteString("]\n")
		}
	}
	return status
}

// inputs runs every URL: those of --url-file when it is given, else the
// arguments and --url values, else one URL built from --set alone.
func (r *editRun) inputs(ctx context.Context, args []string) int {
	if r.c.hasFile {
		in := r.st.In
		if r.c.urlFile != "-" {
			f, err := os.Open(r.c.urlFile)
			if err != nil {
				fmt.Fprintf(r.st.Err, "urlkit edit: --url-file: %v\n", err)
				return exitFail
			}
			defer f.Close()
			in = f
		}
		return r.fileURLs(ctx, in)
	}
	urls := append(r.c.urls, args...) // args is empty: trurlArgs made them --url
	if len(urls) == 0 {
		if len(r.sets) == 0 && len(r.iters) == 0 {
			// Nothing to edit and nothing to build from: a usage
			// mistake, with nothing on standard output (not even --json's
			// "[", still in the buffer).
			r.out.Reset(r.st.Out)
			r.failed = true
			fmt.Fprintf(r.st.Err, "urlkit edit: not enough input for a URL: give URLs as arguments, --url, or -f FILE (-f - for standard input)\nrun 'urlkit edit -h' for help\n")
			return exitUsage
		}
		r.c.verify = true // trurl: building from --set alone must succeed
		return r.one("", false)
	}
	for _, u := range urls {
		if ctx.Err() != nil {
			return exitInterrupted
		}
		if code := r.one(u, true); code != exitOK {
			return code
		}
	}
	return exitOK
}

// maxEditLine is trurl's limit for a line of --url-file (its 4096-byte
// buffer less the newline and the NUL).
const maxEditLine = 4094

// fileURLs reads one URL per line: one "\r" before the "\n" and trailing
// spaces and tabs removed, empty lines skipped, and a line over
// maxEditLine bytes skipped with a note, as trurl does.
func (r *editRun) fileURLs(ctx context.Context, in io.Reader) int {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		if ctx.Err() != nil {
			return exitInterrupted
		}
		if br.Buffered() == 0 {
			r.out.Flush()
		}
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) || len(line) > maxEditLine {
			r.note("skipping a line longer than %d bytes", maxEditLine)
		} else if line = strings.TrimRight(line, " \t"); line != "" {
			r.st.addSecrets(line) // hidden in every message from now on
			if code := r.one(line, true); code != exitOK {
				return code
			}
		}
		if err == io.EOF {
			return exitOK
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			fmt.Fprintf(r.st.Err, "urlkit edit: reading URLs: %v\n", err)
			return exitFail
		}
	}
}

func (r *editRun) note(format string, a ...any) {
	if r.c.quiet {
		return
	}
	r.out.Flush()
	fmt.Fprintf(r.st.Err, "urlkit edit: note: %s\n", safetext.Visible(clip(fmt.Sprintf(format, a...))))
}

// bad reports a URL that cannot be read or built: a note, and the run
// goes on; with --verify, an error that ends it.
func (r *editRun) bad(format string, a ...any) int {
	r.out.Flush()
	if !r.c.verify {
		fmt.Fprintf(r.st.Err, "urlkit edit: note: %s\n", safetext.Visible(clip(fmt.Sprintf(format, a...))))
		return exitOK
	}
	if r.c.json {
		if r.jsonCount > 0 {
			r.out.WriteString("\n")
		}
		r.out.WriteString("]\n")
		r.out.Flush()
	}
	r.failed = true
	fmt.Fprintf(r.st.Err, "urlkit edit: %s\n", safetext.Visible(clip(fmt.Sprintf(format, a...))))
	return exitFail
}

// one edits one input URL (none when built from --set alone) and writes
// the results: one per combination of the --iterate values.
func (r *editRun) one(input string, has bool) int {
	var base edit.URL
	if has {
		u, err := edit.Parse(input, r.c.parse)
		if err != nil {
			return r.bad("%v [%s]", err, shown(redactLogin(input)))
		}
		if r.c.hasRedirect {
			if u, err = u.Redirect(r.c.redirect, r.c.parse); err != nil {
				return r.bad("invalid redirection: %v [%s]", err, shown(r.c.redirect))
			}
		}
		base = u
	}
	combo := make([]int, len(r.iters))
	for {
		if code := r.edit(base, has, combo); code != exitOK {
			return code
		}
		// the next combination: the last --iterate varies fastest
		i := len(combo) - 1
		for ; i >= 0; i-- {
			combo[i]++
			if combo[i] < len(r.iters[i].values) {
				break
			}
			combo[i] = 0
		}
		if i < 0 {
			return exitOK
		}
	}
}

func (r *editRun) edit(u edit.URL, has bool, combo []int) int {
	for _, s := range r.sets {
		if s.conditional && u.IsSet(s.name) {
			continue
		}
		if err := u.Set(s.name, s.value, s.raw, r.c.parse); err != nil {
			fmt.Fprintf(r.st.Err, "urlkit edit: note: error setting %s: %v\n", s.name, err)
		}
	}
	for i, it := range r.iters {
		if err := u.Set(it.name, it.values[combo[i]], it.raw, r.c.parse); err != nil {
			fmt.Fprintf(r.st.Err, "urlkit edit: note: error setting %s: %v\n", it.name, err)
		}
	}
	for _, seg := range r.appendP {
		u.AppendSegment(seg)
	}
	u.NormalizeParts()
	q := edit.NewQuery(u.Query, r.sep, r.c.json)
	for _, t := range r.c.trims {
		q.Trim(t)
	}
	for _, kv := range r.c.replaces {
		q.Replace(edit.EncodeAssign(kv), r.c.forceReplace)
	}
	for _, kv := range r.appendQ {
		q.Add(kv)
		q.Modified = true
	}
	if r.c.sortQuery {
		q.Sort()
	}
	if q.Modified {
		u.Query, u.EmptyQuery = q.Text(), false
	}
	if !has || r.c.hasRedirect || len(r.sets) > 0 || len(r.iters) > 0 || len(r.appendP) > 0 {
		if u.Scheme == "" || u.Host == "" && u.Scheme != "file" {
			if !has && len(r.sets) == 0 {
				return r.bad("not enough input for a URL: give URLs as arguments, --url, or -f FILE (-f - for standard input)")
			}
			return r.bad("not enough input for a URL")
		}
		text, _ := u.Format(edit.Out{KeepPort: true})
		v, err := edit.Parse(text, r.c.parse)
		if err != nil {
			return r.bad("%v [%s]", err, shown(redactLogin(text)))
		}
		v.Guessed, v.EmptyQuery, v.EmptyFragment = u.Guessed, u.EmptyQuery, u.EmptyFragment
		u = v
	}
	switch {
	case r.c.json:
		r.writeJSON(&u, q)
	case r.tmpl != nil:
		return r.writeGet(&u, q)
	default:
		s, err := u.Format(r.c.out)
		if err != nil {
			r.note("error converting the host name: %v", err)
		}
		r.out.WriteString(s)
		r.out.WriteByte('\n')
	}
	return exitOK
}

// redactLogin hides the password of a URL quoted in a note; a URL
// without a scheme, which edit completes, starts with its authority.
func redactLogin(s string) string {
	if !strings.Contains(s, "://") {
		return strings.TrimPrefix(safetext.RedactURL("//"+s), "//")
	}
	return safetext.RedactURL(s)
}

// shown is s for a note on a terminal: quoted when it holds a control
// character, which could drive the terminal.
func shown(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

// buildVersion is the module version and VCS revision from the build
// information.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
