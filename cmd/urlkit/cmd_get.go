package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
)

var getCmd = &command{
	name:         "get",
	args:         "[URL...]",
	flagSynopsis: true,
	summary:      "fetch what URLs name (file, http, https, ftp, gopher)",
	detail: `Get fetches the resource each URL names and writes it to standard output,
or to FILE with -o: written under a temporary name in the same directory and
renamed only after a complete, checked transfer, so a failure leaves no file
(and an existing FILE untouched). A progress bar (size, rate, ETA) appears on
a terminal for transfers longer than half a second, never in a pipe.

Each URL is carried out as its specification says:
  file:    a local file or directory listing (host "", localhost or this
           machine; with --file-ftp another host is tried over FTP)
  http(s): net/http; redirects only to http/https; the fragment never sent
  ftp:     RFC 1738 3.2: USER/PASS (anonymous with --email, $EMAIL or
           user@host when the URL has no user; a password the URL lacks is
           asked on a terminal), one CWD per path segment (an empty one is a
           CWD with no argument: --null-cwd says what to do when refused),
           ;type=d or a trailing / lists names with NLST, else TYPE A/I
           (given or guessed from the name) and RETR; passive mode unless
           --active
  gopher:  RFC 1738 3.4: selector, TAB search, TAB Gopher+ string; menus,
           text, binary items, type 7 searches, Gopher+ data, views,
           attributes (!, $) and ASK forms (?). Output is the bytes as the
           server sent them; --render formats menus, attributes and text for
           people

Safety (RFC 1738 section 6): a URL whose decoded parts would put CR, LF or
NUL into a protocol line (FTP command, Gopher request, user, password) is
refused before anything is sent, naming the byte offset of the escape; so
is a port other than the scheme's own that browsers block (25 smtp, 119
nntp, 6667 irc, ...) unless --allow-port names it. Passwords never appear
in errors, traces or progress output.

URLs are parsed in the --mode grammar; without --mode, a URL that RFC 1738
rejects is tried as RFC 3986 (IPv6 literals, a user in an http URL).

Gateways (RFC 1738 section 4, RFC 1630): --gateway SCHEME=URL sends that
scheme's URLs to an HTTP proxy with the whole URL on the request line; the
environment variables <scheme>_proxy, no_proxy and CERN's
WWW_<scheme>_GATEWAY (the URL's host and path appended to the gateway's
path) are honoured too.

Examples:
  urlkit get ftp://ftp.example.org/pub/README
  urlkit get -o motd 'ftp://myname@host.dom/%2Fetc/motd'
  urlkit get 'ftp://host/pub/;type=d'
  urlkit get --render gopher://gopher.example.org/
  urlkit get 'gopher://host/7/search%09gopher+url'
  urlkit get --render 'gopher://host/0/item%09%09!'
  urlkit get --gateway ftp=http://proxy:3128 ftp://host/file
  urlkit get --allow-port 25 gopher://host:25/`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		var o getOptions
		fs.StringVar(&o.out, "o", "", "write to `FILE` (atomically) instead of standard output")
		fs.Func("gateway", "fetch SCHEME's URLs through the HTTP proxy at URL: `SCHEME=URL` (repeatable)", func(s string) error {
			scheme, gw, err := fetch.ParseGateway(s)
			if err != nil {
				return err
			}
			if o.gateways == nil {
				o.gateways = map[string]fetch.Gateway{}
			}
			o.gateways[scheme] = gw
			return nil
		})
		fs.Func("allow-port", "fetch from `PORT` even though browsers block it (repeatable, or a comma list)", func(s string) error {
			for _, p := range strings.Split(s, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(p))
				if err != nil || n < 1 || n > 65535 {
					return fmt.Errorf("invalid port %q", p)
				}
				o.allow = append(o.allow, n)
			}
			return nil
		})
		fs.DurationVar(&o.timeout, "timeout", fetch.DefaultTimeout, "give up when nothing arrives for `D` (0: never)")
		fs.BoolVar(&o.render, "render", false, "format Gopher menus, attributes and text for people")
		fs.BoolVar(&o.active, "active", false, "FTP active mode (the server connects back) instead of passive")
		fs.StringVar(&o.email, "email", "", "the anonymous FTP password `ADDRESS` (default $EMAIL, else user@host)")
		fs.StringVar(&o.nullCWD, "null-cwd", "fail", "what to do when the FTP server refuses the CWD of an empty path segment: `POLICY` is fail or skip")
		fs.BoolVar(&o.fileFTP, "file-ftp", false, "fetch a file: URL naming another host over FTP, as early clients did")
		fs.BoolVar(&o.trace, "trace", false, "print the protocol exchange on standard error (passwords masked)")
		fs.BoolVar(&o.quiet, "q", false, "no progress bar")
		mode := modeFlag(fs)
		return func(ctx context.Context, st *Streams, args []string) int {
			o.mode = *mode
			fs.Visit(func(f *flag.Flag) { o.modeSet = o.modeSet || f.Name == "mode" })
			return o.run(ctx, st, args)
		}
	},
}

type getOptions struct {
	out      string
	gateways map[string]fetch.Gateway
	allow    []int
	timeout  time.Duration
	render   bool
	active   bool
	email    string
	nullCWD  string
	fileFTP  bool
	trace    bool
	quiet    bool
	mode     urlkit.Mode
	modeSet  bool
}

func (o *getOptions) run(ctx context.Context, st *Streams, args []string) int {
	f := &fetch.Fetcher{
		Gateways:    o.gateways,
		AllowPorts:  o.allow,
		Timeout:     o.timeout,
		FileOverFTP: o.fileFTP,
	}
	if o.timeout == 0 {
		f.Timeout = -1
	}
	f.FTP.Dialer.Active = o.active
	f.FTP.Email = o.email
	switch o.nullCWD {
	case "fail":
	case "skip":
		f.FTP.NullCWD = fetch.NullCWDSkip
	default:
		fmt.Fprintf(st.Err, "urlkit get: --null-cwd %q: want fail or skip\n", o.nullCWD)
		return exitUsage
	}
	if o.trace {
		f.Trace = st.Err
	}
	if len(args) > 0 {
		// With URLs from standard input nobody could answer a question.
		f.Prompt = terminalPrompter(st)
	}
	if o.out != "" && o.out != "-" && len(args) > 1 {
		fmt.Fprintf(st.Err, "urlkit get: -o takes one URL, got %d\n", len(args))
		return exitUsage
	}
	out := bufio.NewWriterSize(st.Out, 64<<10)
	defer out.Flush()
	n := 0
	return eachInput(ctx, st, out, args, func(s string) int {
		n++
		if n > 1 && o.out != "" && o.out != "-" {
			fmt.Fprintf(st.Err, "urlkit get: -o takes one URL; skipped %q\n", s)
			return exitUsage
		}
		return o.get(ctx, st, f, out, s)
	})
}

// get fetches one URL to out or to the -o file.
func (o *getOptions) get(ctx context.Context, st *Streams, f *fetch.Fetcher, out *bufio.Writer, s string) int {
	u, _, err := urlkit.ParseMode(s, o.mode)
	if err != nil && !o.modeSet {
		// Modern URLs (IPv6 literals, a user in an http URL) are fetched too.
		if v, _, err2 := urlkit.ParseMode(s, urlkit.RFC3986); err2 == nil {
			u, err = v, nil
		}
	}
	if err != nil {
		fmt.Fprintln(st.Err, hinted(err, s, o.mode, false))
		return exitFail
	}
	resp, err := f.Fetch(ctx, &u)
	if err != nil {
		fmt.Fprintln(st.Err, describe(err))
		return exitFail
	}
	warned := 0 // warnings printed; the transfer may add more (a missing "." line)
	warn := func() {
		for _, w := range resp.Warnings[warned:] {
			fmt.Fprintf(st.Err, "urlkit: %q: warning: %s\n", resp.URL, w)
		}
		warned = len(resp.Warnings)
	}
	warn()
	// The data goes to standard output unbuffered (after what is already
	// buffered): the copy's own buffer is big enough.
	if err := out.Flush(); err != nil {
		resp.Body.Close()
		fmt.Fprintf(st.Err, "urlkit: writing standard output: %v\n", err)
		return exitFail
	}
	var dst io.Writer = st.Out
	var file *atomicFile
	if o.out != "" && o.out != "-" {
		if file, err = createAtomic(o.out); err != nil {
			resp.Body.Close()
			fmt.Fprintf(st.Err, "urlkit: %v\n", err)
			return exitFail
		}
		defer file.abort()
		dst = file
	}
	var src io.Reader = resp.Body
	var bar *progress
	if !o.quiet && st.ErrTTY && (file != nil || !st.OutTTY) {
		bar = newProgress(st.Err, displayName(&u), resp.Size)
		bar.width = st.ErrWidth
		src = bar.reader(src)
	}
	var werr error // a write error, as opposed to a transfer error
	if o.render {
		r := *resp
		r.Body = io.NopCloser(src)
		err = fetch.Render(errWriter{dst, &werr}, &r)
	} else {
		// The buffer is used as given: hide the destination's ReadFrom.
		_, err = io.CopyBuffer(errWriter{dst, &werr}, src, make([]byte, 256<<10))
	}
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}

	if bar != nil {
		bar.done()
	}
	warn()
	if err != nil {
		if werr != nil {
			fmt.Fprintf(st.Err, "urlkit: writing %s: %v\n", outName(o.out), werr)
		} else {
			fmt.Fprintln(st.Err, describe(err))
		}
		return exitFail
	}
	if file != nil {
		if err := file.commit(); err != nil {
			fmt.Fprintf(st.Err, "urlkit: writing %s: %v\n", o.out, err)
			return exitFail
		}
	}
	return exitOK
}

// errWriter remembers a write error, to tell it from a read error.
type errWriter struct {
	w   io.Writer
	err *error
}

func (e errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && *e.err == nil {
		*e.err = err
	}
	return n, err
}

func outName(o string) string {
	if o == "" || o == "-" {
		return "standard output"
	}
	return o
}

// displayName is the name the progress bar shows: the last path segment,
// decoded, or the host. Never the userinfo.
func displayName(u *urlkit.URL) string {
	p := u.Path
	if u.SchemeName() == "ftp" {
		p, _, _ = strings.Cut(p, ";") // ;type=
	}
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexAny(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	if d, err := urlkit.Unescape(p, 0); err == nil {
		p = d
	}
	if p == "" {
		return u.Host
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, p)
}

// describe formats a fetch error as one line in the CLI's style:
// `urlkit: "URL": ...`, with a hint at the flag that changes the outcome.
func describe(err error) string {
	msg := err.Error()
	msg = "urlkit: " + strings.TrimPrefix(msg, "fetch: ")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		switch {
		case errors.Is(err, fetch.ErrBlockedPort) && fe.Offset >= 0: // the URL's port (a data port's error names its own flag)
			if u, _, perr := urlkit.ParseMode(fe.URL, urlkit.RFC3986); perr == nil {
				msg += "; --allow-port " + u.Port + " fetches it anyway"
			}
		case errors.Is(err, fetch.ErrNullCWD):
			msg += "; --null-cwd skip goes on without it"
		case errors.Is(err, fetch.ErrRemoteFile):
			msg += "; --file-ftp fetches it over FTP"
		case errors.Is(err, fetch.ErrTimeout):
			msg += "; --timeout sets the limit"
		}
	}
	return msg
}
