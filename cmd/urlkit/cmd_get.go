package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

var getCmd = &command{
	ownOutput:    true,
	name:         "get",
	args:         "[URL...]",
	flagSynopsis: true,
	summary:      "fetch what URLs name (file, http, https, ftp, gopher, news, nntp, mid, cid, wais, prospero), or open their sessions (telnet, rlogin, tn3270)",
	detail: `Get fetches the resource each URL names and writes it to standard output,
or to FILE with -o: written under a temporary name in the same directory and
renamed only after a complete, checked transfer, so a failure leaves no file
(and an existing FILE untouched; a replaced FILE keeps its permissions, and
its owner when run as root; a FILE you may not write is refused, as > and
curl -o refuse it). A symbolic link FILE is followed: the file it
points to is replaced, the link stays. A device, FIFO or socket FILE
(/dev/null, a named pipe) is written in place. A progress bar (size, rate,
ETA) appears on a terminal for transfers longer than half a second, never
in a pipe.

Limits (curl's spelling; D is a duration such as 30s or 2m, or seconds as
curl writes them, 5 or 0.5; N a byte count with an optional k, M or G
suffix, powers of 1024):
  --timeout D          nothing arrives for D (each step, and the data)
  --connect-timeout D  a connection is not established within D
  --max-time D         the whole transfer takes longer than D
  --speed-limit N      fewer than N bytes per second arrive, on average,
  --speed-time D       for D (default 30s when --speed-limit is given)
  --max-filesize N     the resource is larger than N bytes: refused before
                       the transfer when the size is announced, else
                       stopped when the data passes N; no file is kept
Data is saved as the server sent it: an HTTP body that the server
compressed stays compressed unless --compressed asks for gzip and
decompresses it (as curl does). On a terminal (no -o), the bytes are shown
with their control bytes escaped, so that none acts on the terminal, and
binary data is refused, as curl refuses it (--raw writes them unchanged).
A file: URL naming a FIFO, device or socket is refused (it could block for
ever or never end) unless --allow-special-files is given. SIGINT, SIGTERM
and SIGHUP stop urlkit within a second, whatever it is waiting for, and
remove the temporary file.

Each URL is carried out as its specification says:
  file:    a local file or directory listing (host "", localhost or this
           machine; with --file-ftp another host is tried over FTP)
  http(s): net/http; redirects only to http/https; the fragment never sent
  ftp:     RFC 1738 3.2: USER/PASS (the URL's user, else --user's, else
           the netrc's; else anonymous with --email, $EMAIL or user@host; a
           password none gives is asked on a terminal), one CWD per path
           segment (an empty one is a CWD with no argument: --null-cwd
           says what to do when refused),
           ;type=d or a trailing / lists names with NLST, else TYPE A/I
           (given or guessed from the name) and RETR; passive mode unless
           --active
  gopher:  RFC 1738 3.4: selector, TAB search, TAB Gopher+ string; menus,
           text, binary items, type 7 searches, Gopher+ data, views,
           attributes (!, $) and ASK forms (?). Output is the bytes as the
           server sent them; --render formats menus, attributes and text for
           people
  wais:    RFC 1738 3.9 over the WAIS protocol (Z39.50-1988): database?words
           prints the hits (headline, score, lines, and each document's
           wais URL); database/wtype/wpath retrieves the document (RFC
           1738's percent-encoded DocID, or Lynx's type=value; fields after
           an optional length); database alone asks for words on a
           terminal, else prints the database's source record. --json for
           hit lists
  prospero: RFC 1738 3.11 over ARDP/UDP: a directory's links (type, name,
           size, date, host, hsoname, URL), or a file's CONTENTS, or its
           AFTP access method's target fetched over FTP; ;version=0 only.
           --json for listings
  telnet, rlogin, tn3270: sessions (RFC 1738 3.8, RFC 1630), not
           retrievals. On a terminal: raw mode (restored on every exit,
           signals included), the window size sent and updated, ^] for the
           local prompt (quit, send brk, send ip, ...) as in BSD telnet;
           tn3270 starts c3270 when installed, else shows the screen and
           reads a key script per line. Over pipes: standard input goes to
           the server, the output to standard output with control bytes
           escaped (--raw: unchanged), until either side closes or
           --max-time passes (a normal end); when standard input ends
           first, until 3 s pass without output. The URL's user is advisory:
           "login as: USER" is printed, nothing is typed unless --login
           (answers the login and password prompts once; the password is
           never printed). rlogin binds a privileged source port as root
           and says so when it cannot. tn3270 over pipes prints the first
           screen (hidden fields blank), then plays --keys, printing each
           screen the host answers with
  news:    RFC 1738 3.6 on the server of --nntp HOST[:PORT], else
           $NNTPSERVER: news:GROUP lists the group's articles, one per line
           (number, date, from, subject, message-id; --json: objects), read
           with OVER in batches; news:MESSAGE-ID prints the article as
           stored; news:* lists the groups
  nntp:    RFC 1738 3.7: nntp://HOST:PORT/GROUP/N prints the article,
           nntp://HOST/GROUP lists the group; --user USER[:PASSWORD] logs in
  mid:     RFC 1630, RFC 2392: the message in the --mailbox PATHs (Maildir
           or mbox; default $MAIL), else, with a news server, the article;
           mid:MESSAGE-ID/CONTENT-ID prints the body part, decoded
  cid:     the decoded body part of the --message FILE
  mailto:  is sent, not fetched: see urlkit send

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
path) are honoured too. A gateway, when one is set for the URL's scheme
(and the host is not in no_proxy), is always used; wais and prospero URLs
are fetched directly over their own protocols only when none is.

Examples:
  urlkit get ftp://ftp.example.org/pub/README
  urlkit get -o motd 'ftp://myname@host.dom/%2Fetc/motd'
  urlkit get 'ftp://host/pub/;type=d'
  urlkit get --render gopher://gopher.example.org/
  urlkit get 'gopher://host/7/search%09gopher+url'
  urlkit get --render 'gopher://host/0/item%09%09!'
  urlkit get --gateway ftp=http://proxy:3128 ftp://host/file
  urlkit get --allow-port 25 gopher://host:25/
  urlkit get --nntp news.example.org news:comp.infosystems.www
  urlkit get nntp://news.example.org/comp.infosystems.www/1234
  urlkit get --mailbox ~/Maildir mid:1234@example.org
  printf 'ls\nexit\n' | urlkit get --login telnet://me:secret@host/
  urlkit get --keys 'logon applid(tso)<enter>' tn3270://mainframe/

` + manyHelp + "\n\n" + headHelp + "\n\n" + listHelp + "\n\n" + resumeHelp + "\n\n" + netrcHelp + "\n\n" + retryHelp + "\n\n" + getExitHelp,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		var o getOptions
		o.many.flags(fs)
		o.retry.flags(fs)
		resumeFlags(fs, &o.resume)
		o.netrc.flags(fs)
		headFlags(fs, &o.headOnly)
		fs.BoolVar(&o.list, "list", false, "list an FTP directory with each entry's type, size and time (MLSD, LIST or NLST)")
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
		durationVar(fs, &o.timeout, "timeout", fetch.DefaultTimeout, "give up when nothing arrives for `D` (0: never)")
		durationVar(fs, &o.connectTimeout, "connect-timeout", 0, "give up when a connection is not established within `D`")
		durationVar(fs, &o.maxTime, "max-time", 0, "give up when the whole transfer takes longer than `D`")
		fs.Func("speed-limit", "give up when fewer than `N` bytes per second arrive for the --speed-time", func(v string) error {
			n, err := parseBytes(v)
			o.speedLimit = n
			return err
		})
		durationVar(fs, &o.speedTime, "speed-time", 0, "the time `D` the transfer may stay below --speed-limit (default 30s)")
		fs.Func("max-filesize", "refuse a resource larger than `N` bytes (suffix k, M, G)", func(v string) error {
			n, err := parseBytes(v)
			o.maxSize = n
			return err
		})
		fs.BoolVar(&o.compressed, "compressed", false, "ask an HTTP server for a gzip body and decompress it (else bytes are saved as sent)")
		fs.BoolVar(&o.allowSpecial, "allow-special-files", false, "let a file: URL read a FIFO, device or socket")
		fs.BoolVar(&o.render, "render", false, "format Gopher menus, attributes and text for people, and show any body as text safe for a terminal")
		fs.BoolVar(&o.active, "active", false, "FTP active mode (the server connects back) instead of passive")
		fs.StringVar(&o.email, "email", "", "the anonymous FTP password `ADDRESS` (default $EMAIL, else user@host)")
		fs.StringVar(&o.nullCWD, "null-cwd", "fail", "what to do when the FTP server refuses the CWD of an empty path segment: `POLICY` is fail or skip")
		fs.BoolVar(&o.fileFTP, "file-ftp", false, "fetch a file: URL naming another host over FTP, as early clients did")
		fs.BoolVar(&o.trace, "trace", false, "print the protocol exchange on standard error (passwords masked)")
		fs.BoolVar(&o.quiet, "q", false, "no progress bar")
		fs.BoolVar(&o.login, "login", false, "telnet, rlogin: answer the login and password prompts once with the URL's user and password")
		fs.BoolVar(&o.raw, "raw", false, "write bytes from the network unchanged (control bytes not escaped): a body to a terminal, and a telnet, rlogin or tn3270 session's output over pipes")
		fs.StringVar(&o.keys, "keys", "", "tn3270: the key `SCRIPT` to play after the first screen (text, <enter>, <pf3>, <tab>...), printing each screen")
		newsFlags(fs, &o.news, "log in as `USER[:PASSWORD]`: to ftp and http(s) servers for URLs without a user (before --netrc), and to the news server (AUTHINFO)")
		fs.StringVar(&o.news.user, "u", "", "`USER[:PASSWORD]`: the same as --user (curl's short form)")
		fs.BoolVar(&o.news.json, "json", false, "JSON objects, one per line: news articles and groups, WAIS hits, Prospero links, -I's answers, --list's entries")
		fs.Func("mailbox", "look for mid: messages in the Maildir or mbox `PATH` (repeatable; default $MAIL)", func(s string) error {
			o.mailboxes = append(o.mailboxes, s)
			return nil
		})
		fs.StringVar(&o.message, "message", "", "the MIME message `FILE` a cid: URL's part is looked for in")
		mode := modeFlag(fs)
		return func(ctx context.Context, st *Streams, args []string) int {
			o.mode = *mode
			fs.Visit(func(f *flag.Flag) { o.modeSet = o.modeSet || f.Name == "mode" })
			return o.run(ctx, st, args)
		}
	},
}

type getOptions struct {
	many     manyOptions
	retry    retryOptions
	resume   bool // -C -
	netrc    netrcOptions
	headOnly bool         // -I
	list     bool         // --list
	logins   []netrcEntry // from the netrc file
	gateways map[string]fetch.Gateway
	allow    []int
	timeout  time.Duration
	render   bool

	connectTimeout time.Duration
	maxTime        time.Duration
	speedLimit     int64
	speedTime      time.Duration
	maxSize        int64
	compressed     bool
	allowSpecial   bool

	active  bool
	email   string
	nullCWD string
	fileFTP bool
	trace   bool
	quiet   bool
	mode    urlkit.Mode
	modeSet bool
	first   *getJob // the URL argument run parsed, when it is the only one

	// Sessions (cmd_session.go).
	login, raw   bool
	keys         string
	urlsFromArgs bool // standard input is free for a session
	news         newsOptions
	mailboxes    []string
	message      string
}

// newFetcher returns the Fetcher the options describe, or a usage error.
func (o *getOptions) newFetcher(st *Streams, args []string) (*fetch.Fetcher, error) {
	f := &fetch.Fetcher{
		Gateways:    o.gateways,
		AllowPorts:  o.allow,
		Timeout:     o.timeout,
		FileOverFTP: o.fileFTP,

		ConnectTimeout: o.connectTimeout,
		MaxTime:        o.maxTime,
		SpeedLimit:     o.speedLimit,
		SpeedTime:      o.speedTime,
		MaxSize:        o.maxSize,
	}
	f.HTTP.Compressed = o.compressed
	f.WAIS.JSON, f.Prospero.JSON = o.news.json, o.news.json
	f.File.AllowSpecial = o.allowSpecial
	if o.timeout == 0 {
		f.Timeout = -1
	}
	o.news.apply(f, st)
	f.Mail.Mailboxes, f.Mail.Message = o.mailboxes, o.message
	f.FTP.Dialer.Active = o.active
	f.FTP.Email = o.email
	switch o.nullCWD {
	case "fail":
	case "skip":
		f.FTP.SkipNullCWD = true
	default:
		return nil, fmt.Errorf("--null-cwd %q: want fail or skip", o.nullCWD)
	}
	if o.trace {
		f.Trace = st.Err
	}
	if len(args) > 0 && o.many.urlFile != "-" {
		// With URLs from standard input nobody could answer a question.
		f.Prompt = terminalPrompter(st)
		if f.Prompt != nil {
			// What is typed at a secret prompt joins the secrets that no
			// message may show (a server may echo it back).
			ask := f.Prompt
			f.Prompt = func(ctx context.Context, p fetch.Prompt) (string, error) {
				answer, err := ask(ctx, p)
				if p.Secret && st.secrets != nil {
					st.secrets.Add(answer)
				}
				return answer, err
			}
		}
	}
	return f, nil
}

func (o *getOptions) run(ctx context.Context, st *Streams, args []string) int {
	if o.many.parallel {
		st = st.lockedErr() // transfers, traces and warnings write at once
	}
	f, err := o.newFetcher(st, args)
	if err != nil {
		fmt.Fprintf(st.Err, "urlkit get: %v\n", err)
		return exitUsage
	}
	if o.resume && len(o.many.outs) == 0 && !o.many.remoteName {
		fmt.Fprintln(st.Err, "urlkit get: -C - continues a file: give -o FILE or -O")
		return exitUsage
	}
	if o.resume && o.compressed {
		// The copy would hold decompressed bytes, and a range counts the
		// compressed ones: no offset into it is one the server knows.
		fmt.Fprintln(st.Err, "urlkit get: -C - cannot continue a --compressed transfer (the copy holds decompressed bytes, a range counts compressed ones): drop one of them")
		return exitUsage
	}
	if o.logins, err = o.netrc.load(os.Getenv); err != nil {
		fmt.Fprintf(st.Err, "urlkit get: %s\n", safetext.Visible(err.Error()))
		return exitUsage
	}
	// More than one URL: an FTP or NNTP session serves every URL of its
	// server and login (draft-ietf-uri-url-06 3.2.5); QUIT at the end.
	// A session URL alone on the command line: standard input is the
	// session's (cmd_session.go).
	if len(args) == 1 && o.many.urlFile == "" {
		u, err := parseGetURL(args[0], o.mode, o.modeSet)
		o.first = &getJob{url: args[0], u: u, perr: err} // runMany's first job
		if err == nil && isSession(&u) {
			if len(o.many.outs) > 0 || o.many.remoteName || o.resume {
				// A session is a conversation, not a resource: it is not
				// saved, and these would be ignored without a word.
				fmt.Fprintf(st.Err, "urlkit get: %s URLs are sessions: -o, -O and -C - do not apply (redirect the output instead)\n", u.SchemeName())
				return exitUsage
			}
			o.urlsFromArgs = true
			return o.session(ctx, st, f, &u)
		}
	}
	f.FTP.Keep = len(args) != 1 || o.many.urlFile != ""
	f.NNTP.Keep = f.FTP.Keep
	defer f.CloseIdle()
	return o.runMany(ctx, st, args, func(ctx context.Context, st *Streams, job getJob, stdout *sync.Mutex) int {
		return o.getWithRetries(ctx, st, f, job, stdout)
	})
}

// attempt is the outcome of one try at a URL.
type attempt struct {
	code    int    // exit status
	msg     string // the error line, "" on success
	cause   error  // the fetch error, for the retry decision; nil for others
	n       int64  // bytes written
	touched bool   // bytes went to standard output: no retry can take them back
}

// get fetches one URL to standard output or to its output file, once.
// Data for standard output is written under the stdout lock, so that
// parallel transfers do not mix.
func (o *getOptions) get(ctx context.Context, st *Streams, f *fetch.Fetcher, job getJob, stdout *sync.Mutex) attempt {
	started := time.Now() // --max-time counts from here, the FIFO's wait for a reader too
	u, err := job.u, job.perr
	if err != nil {
		var b strings.Builder
		printErr(&b, hinted(err, job.url, o.mode, false))
		return attempt{code: exitURLRefused, msg: strings.TrimSuffix(b.String(), "\n")}
	}
	if isSession(&u) {
		return attempt{code: exitUsage, msg: "urlkit get: " + u.SchemeName() + " URLs are sessions: give the URL as an argument, alone (standard input is the session's input)"}
	}
	user, pass, _ := strings.Cut(o.news.user, ":")
	if err := applyLogin(st, user, pass, &u); err != nil {
		return attempt{code: exitURLRefused, msg: "urlkit: --user: " + safetext.Visible(err.Error())}
	}
	if err := applyNetrc(st, o.logins, &u); err != nil {
		return attempt{code: exitURLRefused, msg: "urlkit: --netrc: " + safetext.Visible(err.Error())}
	}
	var file *outputFile
	var from fetch.Resume
	if o.resume && job.out != "" {
		if file, from, err = openResume(job.out); err != nil {
			return attempt{code: exitWrite, msg: "urlkit: " + safetext.Visible(err.Error())}
		}
		if file != nil {
			defer file.abort()
		}
	}
	var resp *fetch.Response
	raw := false // -I's answer is the data (Gopher+ attributes)
	switch {
	case o.list:
		resp, err = f.List(ctx, &u)
	case o.headOnly:
		resp, raw, err = o.head(ctx, f, &u)
	default:
		resp, err = f.FetchFrom(ctx, &u, from)
	}
	if err != nil {
		return attempt{code: exitOf(err), msg: describe(err) + partialNote(file), cause: err}
	}
	defer resp.Body.Close()
	warned := 0 // warnings printed; the transfer may add more (a missing "." line)
	warn := func() {
		for _, w := range resp.Warnings[warned:] {
			fmt.Fprintf(st.Err, "urlkit: %s: warning: %s\n", quoteInput(resp.URL, 0), safetext.Visible(w))
		}
		warned = len(resp.Warnings)
	}
	warn()
	var dst io.Writer
	if file != nil {
		if err := file.startAt(resp.Offset, resp.Validator); err != nil {
			return attempt{code: exitWrite, msg: "urlkit: " + safetext.Visible(err.Error())}
		}
		dst = file
	} else if job.out != "" {
		octx := ctx
		if o.maxTime > 0 {
			var cancel context.CancelFunc
			octx, cancel = context.WithDeadline(ctx, started.Add(o.maxTime))
			defer cancel()
		}
		if file, err = createOutput(octx, job.out); errors.Is(err, context.DeadlineExceeded) {
			return attempt{code: exitTimeout, msg: "urlkit: " + safetext.Visible(job.out) + ": the maximum time for the whole transfer passed while waiting for a reader of the FIFO; --max-time sets the limit"}
		}
		if err != nil {
			return attempt{code: exitWrite, msg: "urlkit: " + safetext.Visible(err.Error())}
		}
		defer file.abort()
		dst = file
	} else {
		stdout.Lock()
		defer stdout.Unlock()
		dst = st.Out
	}
	var src io.Reader = resp.Body
	var bar *progress
	if !o.quiet && !o.many.parallel && st.ErrTTY && (file != nil || !st.OutTTY) {
		bar = newProgress(st.Err, displayName(&u), resp.Size)
		bar.width = st.ErrWidth
		src = bar.reader(src)
	}
	var werr error // a write error, as opposed to a transfer error
	var screen *terminalBody
	// A terminal named with -o (/dev/tty, /dev/stdout) is one too.
	toTerminal := file == nil && st.OutTTY || file != nil && !file.atomic && isTerminal(file.File)
	if toTerminal && !o.raw && !o.list && !(o.headOnly && !raw) && !o.render {
		screen = &terminalBody{safetext.NewVisibleWriter(dst)}
		dst = screen
	}
	cw := &byteCounter{w: dst, err: &werr}
	if o.list {
		err = writeList(cw, resp, o.news.json)
	} else if o.headOnly && !raw {
		if err = writeHead(cw, resp, o.news.json); err != nil && werr == nil {
			werr = err
		}
	} else if o.render {
		r := *resp
		r.Body = io.NopCloser(src)
		err = fetch.Render(cw, &r)
	} else {
		// The buffer is used as given: hide the destination's ReadFrom.
		_, err = io.CopyBuffer(cw, src, make([]byte, 256<<10))
	}
	if screen != nil {
		if ferr := screen.Flush(); ferr != nil && werr == nil {
			werr = ferr
		}
	}
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if bar != nil {
		bar.done()
	}
	warn()
	a := attempt{n: cw.n, touched: file == nil && cw.n > 0}
	switch {
	case err != nil && werr != nil:
		a.code, a.msg = exitWrite, fmt.Sprintf("urlkit: writing %s: %s", safetext.Visible(outName(job.out)), safetext.Visible(unwrapPath(werr).Error()))
	case err != nil && file != nil && errors.Is(err, fetch.ErrLongTransfer):
		a.code, a.msg, a.cause = exitOf(err), describe(err)+file.discard(), err
	case err != nil:
		a.code, a.msg, a.cause = exitOf(err), describe(err)+partialNote(file), err
	case file != nil:
		if err := file.commit(); err != nil {
			a.code, a.msg = exitWrite, fmt.Sprintf("urlkit: writing %s: %s", safetext.Visible(job.out), safetext.Visible(unwrapPath(err).Error()))
		} else if file.inPlace && cw.n == 0 {
			// The server had nothing past FILE's end (HTTP 416 naming
			// that length, FTP SIZE): wget -c says so too.
			fmt.Fprintf(st.Err, "urlkit: %s: %s is already complete (%d bytes): nothing to fetch\n", quoteInput(resp.URL, 0), safetext.Visible(job.out), file.held)
		}
	}
	return a
}

// terminalBody is a body on its way to a terminal: bytes from the
// network shown with their control bytes escaped, so that none acts on
// the terminal, and binary data (a NUL byte) refused, as curl refuses
// it, rather than shown as a screenful of escapes.
type terminalBody struct{ *safetext.VisibleWriter }

var errBinaryTerminal = errors.New("binary data not shown on the terminal: use -o FILE, or --raw to write the bytes unchanged")

func (t *terminalBody) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, 0) >= 0 {
		return 0, errBinaryTerminal
	}
	return t.VisibleWriter.Write(p)
}

// byteCounter counts the bytes written and remembers a write error, to
// tell it from a read error.
type byteCounter struct {
	w   io.Writer
	err *error
	n   int64
}

func (c *byteCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && *c.err == nil {
		*c.err = err
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
	p, _ := lastSegment(u, true)
	if p == "" {
		return u.Host
	}
	return safetext.Visible(p)
}

// lastSegment returns the last segment of u's path, decoded (with dir,
// the last directory when the path ends in "/"): for ftp the view's
// name, without its ";type=" (scheme.FTP), else the generic path's. A
// segment that does not decode is returned as written, with the error.
func lastSegment(u *urlkit.URL, dir bool) (string, error) {
	if v, err := scheme.Parse(u, urlkit.Lenient); err == nil {
		if f, ok := v.(*scheme.FTP); ok {
			if f.Name == "" && dir && len(f.CWD) > 0 {
				return f.CWD[len(f.CWD)-1], nil
			}
			return f.Name, nil
		}
	}
	p := u.Path
	if dir {
		p = strings.TrimSuffix(p, "/")
	}
	p = p[strings.LastIndexByte(p, '/')+1:]
	d, err := urlkit.PathUnescape(p)
	if err != nil {
		return p, err
	}
	return d, nil
}

// describe is describeFor with get's flags, which every hint names.
func describe(err error) string { return describeFor(err, nil) }

// describeFor formats a fetch error as one line in the CLI's style,
// `urlkit: "URL": ...`, with a hint of the flag that sets what failed
// when the command has that flag (has nil: every flag, as get has them
// all).
func describeFor(err error, has func(flag string) bool) string {
	msg := safetext.Visible(clip(err.Error()))
	msg = "urlkit: " + strings.TrimPrefix(msg, "fetch: ")
	hint := func(flag, text string) {
		if has == nil || has(flag) {
			msg += "; " + text
		}
	}
	var fe *fetch.Error
	if errors.As(err, &fe) {
		switch {
		case errors.Is(err, fetch.ErrBlockedPort) && fe.Port > 0: // the URL's port (a data port's error names its own flag)
			hint("allow-port", "--allow-port "+strconv.Itoa(fe.Port)+" fetches it anyway")
		case errors.Is(err, fetch.ErrNullCWD):
			hint("null-cwd", "--null-cwd skip goes on without it")
		case errors.Is(err, fetch.ErrRemoteFile):
			hint("file-ftp", "--file-ftp fetches it over FTP")
		case errors.Is(err, fetch.ErrConnectTimeout):
			hint("connect-timeout", "--connect-timeout sets the limit")
		case errors.Is(err, fetch.ErrMaxTime):
			hint("max-time", "--max-time sets the limit")
		case errors.Is(err, fetch.ErrTooSlow):
			hint("speed-limit", "--speed-limit and --speed-time set the limit")
		case errors.Is(err, fetch.ErrTimeout):
			hint("timeout", "--timeout sets the limit")
		case errors.Is(err, fetch.ErrTooLarge):
			hint("max-filesize", "--max-filesize sets the limit")
		case errors.Is(err, fetch.ErrSpecialFile):
			hint("allow-special-files", "--allow-special-files reads it")
		}
	}
	return msg
}

// unwrapPath returns the cause of a *fs.PathError, whose message names a
// file the caller names itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// redactURL hides the password of a URL string, valid or not.
func redactURL(s string) string {
	var r safetext.Redactor
	r.AddURLPasswords(s)
	return r.Redact(s)
}

// parseBytes parses a byte count: digits with an optional k, M or G
// suffix (powers of 1024, curl's --max-filesize spelling).
func parseBytes(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult = 1 << 10
	case strings.HasSuffix(s, "m"), strings.HasSuffix(s, "M"):
		mult = 1 << 20
	case strings.HasSuffix(s, "g"), strings.HasSuffix(s, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid byte count %q: want digits with an optional k, M or G", s)
	}
	return n * mult, nil
}
