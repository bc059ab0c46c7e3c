package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"os/user"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/ftp"
	"github.com/urlkit/urlkit/internal/wire"
	"github.com/urlkit/urlkit/scheme"
)

// FTPOpener opens ftp: URLs for a Fetcher (its FTP field) with the
// algorithm of RFC 1738 section 3.2 (and draft-ietf-uri-url-06 3.2). Its
// zero value is ready to use:
// passive mode, the anonymous password from $EMAIL or user@hostname, a
// refused null CWD fails.
//
// The algorithm:
//
//  1. Connect to host:port and log in. Without a user name in the URL
//     (or with an empty one, which USER cannot carry: RFC 959's
//     <username> is at least one character) the anonymous convention
//     applies: user "anonymous", password Email. A user name without a
//     password sends USER alone; if the server asks for a password (331),
//     Fetcher.Prompt is asked for it, and without one the fetch fails
//     with ErrNeedPassword.
//  2. One CWD per directory segment, decoded, in order. An empty segment
//     is "CWD" with a null argument (RFC 1738 section 3.2.2: "//etc/motd
//     would CWD with a null argument, then CWD etc"). Servers disagree on
//     it: pure-ftpd goes to the home directory, vsftpd answers 550,
//     ProFTPD 501; a refusal is handled as SkipNullCWD says.
//  3. With ";type=d", NLST of the name (or of the working directory when
//     the name is empty): the names, one per line.
//  4. An empty name (the URL ends in "/", or has no path), about which
//     RFC 1738 says nothing, lists the directory the same way (NLST),
//     as "urlkit explain" says.
//  5. Otherwise TYPE A or I, as the URL's type code says or, without
//     one, guessed from the name as the plan does: A for text names
//     (.txt, .html, README, ...), I for everything else, so that unknown
//     data arrives byte for byte. In TYPE I a SIZE command gives the
//     size in advance (servers refuse it in TYPE A). Then RETR of the
//     name. If RETR fails with 550 and a CWD to the name works, the
//     error is ErrIsDirectory.
//
// The end of the data connection and the completion reply are checked
// on Close; a transfer shorter than SIZE or than the size in the 150
// reply (in TYPE A too: the network stream is never shorter than the
// file) is ErrShortTransfer. QUIT ends the session.
//
// The port of every EPSV or PASV reply is checked like a URL's port: one
// on the blocked list (BlockedPort) or below 1024 fails the fetch with
// ErrBlockedPort before any connection is made, unless
// Fetcher.AllowPorts lists it.
type FTPOpener struct {
	// Dialer holds the FTP client's settings: Active for active mode,
	// DisableEPSV, TrustPASVAddr, line limits. Its Trace is replaced by
	// the Fetcher's, and a nil CheckDataPort by the check described
	// above (blocked list, below 1024, Fetcher.AllowPorts).
	Dialer ftp.Dialer
	// Email is the password of anonymous logins (RFC 1738 section 3.2.1:
	// "the Internet e-mail address of the end user"). Empty means $EMAIL,
	// or else USER@HOSTNAME from the local user and host names.
	Email string
	// SkipNullCWD: when the server refuses the null-argument CWD of an
	// empty path segment, the opener goes on without it (the working
	// directory stays what it was) and records a warning in
	// Response.Warnings. By default the fetch fails with ErrNullCWD: the
	// access algorithm of the URL cannot be carried out on that server.
	SkipNullCWD bool
	// Keep keeps the control connection of a fetch that ended well for
	// the next URL of the same server, user and password
	// (draft-ietf-uri-url-06 3.2.5: "a client may keep the control
	// connection open"): after the login the opener asks PWD, and a
	// later URL goes back to that directory with CWD before its own
	// CWDs, which RFC 1738 3.2.2 makes relative to the login directory
	// (scheme.PlanOptions.KeepFTP and FTPLoginDir: the plan says so).
	// When the server cannot do that (the CWD fails, the connection was
	// closed) a new connection is made. A password asked at a prompt is
	// not kept: such a session ends with its URL. Call
	// Fetcher.CloseIdle to QUIT the kept connections.
	Keep bool

	kept keptConns[*keptConn] // by ftpSessionKey
}

// keptConn is a control connection kept for the next URL.
type keptConn struct {
	c    *ftp.Conn
	home string // the login directory (PWD)
}

// ftpSessionKey names the server and login of a plan; "" when its
// session cannot be kept (the password is asked).
func ftpSessionKey(steps []scheme.Step) string {
	var addr, user, pass string
	for _, st := range steps {
		switch {
		case st.Kind == scheme.Connect:
			addr = st.Text
		case st.Kind == scheme.Ask:
			return ""
		case st.Kind == scheme.Send && st.Op == "USER":
			user = st.Arg
		case st.Kind == scheme.Send && st.Op == "PASS":
			pass = st.Arg
		}
	}
	if addr == "" || user == "" {
		return ""
	}
	return addr + "\x00" + user + "\x00" + pass
}

// closeIdle ends the kept connections with QUIT.
func (o *FTPOpener) closeIdle() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, kc := range o.kept.drain() {
		kc.c.Quit(ctx)
	}
}

// errStale reports a kept connection that cannot go back to its login
// directory: the fetch starts again on a new one.
var errStale = errors.New("the kept connection cannot go back to the login directory")

// open carries out the access plan of the URL (scheme.PlanURL), the one
// "urlkit explain" prints: the FTP client sends the text of each Send
// step, as it is, and the conditions of the steps (scheme.Cond) are
// evaluated on the replies, so the wire is the plan. The plan assumes
// the client's default data connection: with Dialer.Active (EPRT, PORT)
// or Dialer.DisableEPSV (PASV alone) the client makes its own instead of
// the plan's EPSV and PASV.
func (o *FTPOpener) open(ctx context.Context, req *Request) (*Response, error) {
	opts := scheme.PlanOptions{Mode: urlkit.Lenient, Email: o.email(req), KeepFTP: o.Keep, FTPRestart: req.Resume.Offset, Head: req.Head, List: req.List, ModTime: req.modTime}
	plan, err := req.plan(opts)
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	key := ""
	if o.Keep {
		key = ftpSessionKey(plan.Steps)
	}
	for kc, ok := o.kept.take(key); ok; kc, ok = o.kept.take(key) {
		opts.FTPLoginDir = kc.home
		again, err := req.plan(opts)
		if err != nil {
			kc.c.Quit(ctx)
			break
		}
		resp, err := o.run(ctx, req, again.Steps, key, kc)
		if !errors.Is(err, errStale) {
			return resp, err
		}
	}
	return o.run(ctx, req, plan.Steps, key, nil)
}

// run carries out the steps of a plan: on a new connection, or on the
// kept connection kc (steps then start with the CWD to its login
// directory). With a key, a connection that ends well is kept.
func (o *FTPOpener) run(ctx context.Context, req *Request, steps []scheme.Step, key string, kc *keptConn) (_ *Response, rerr error) {
	x := &ftpRun{o: o, req: req, ctx: ctx, steps: steps, out: newOutcomes(steps), resp: &Response{Size: -1}, key: key}
	if kc != nil {
		x.c, x.home = kc.c, kc.home
	}
	for _, st := range steps {
		if st.Kind == scheme.Send && st.Op == "QUIT" {
			x.quit = st.Text
		}
	}
	ok := false
	defer func() {
		if x.c == nil || ok {
			return
		}
		var re *ftp.ReplyError
		if key != "" && x.home != "" && errors.As(rerr, &re) && !errors.Is(rerr, errStale) {
			o.kept.put(key, &keptConn{x.c, x.home}) // the server answered: the session goes on
			return
		}
		x.end(ctx) // closes the connection, politely if it still works
	}()
	first := kc != nil // the next Send is the CWD back to the login directory
	for i, st := range steps {
		switch st.Kind {
		case scheme.Connect:
			x.addr = st.Text
			d := o.Dialer
			d.Trace = req.Trace
			d.Timeout = req.connectTimeout(d.Timeout)
			if d.CheckDataPort == nil {
				d.CheckDataPort = req.checkDataPort
			}
			c, err := d.Dial(ctx, x.addr)
			if err != nil {
				return nil, err
			}
			x.c = c
			req.progress()
			continue
		case scheme.Ask:
			if x.out.holds(i) {
				if err := x.ask(ctx); err != nil {
					return nil, err
				}
			}
			continue
		case scheme.Send:
		default:
			continue
		}
		if !x.out.holds(i) || st.Op == "QUIT" { // QUIT goes after the data, on Close
			continue
		}
		if first {
			first = false
			r, err := x.c.Cmd(ctx, st.Text)
			if err != nil || r.Code/100 != 2 {
				x.c.Quit(ctx)
				x.c = nil
				return nil, errStale
			}
			continue
		}
		if err := x.step(ctx, i); err == errCopyComplete {
			x.resp.Offset, x.resp.Size = req.Resume.Offset, 0
			x.resp.Body = x.body(strings.NewReader(""), func() error { return nil }, -1)
			break
		} else if err != nil {
			return nil, err
		}
		req.progress()
	}
	if x.resp.Body == nil && req.Head {
		x.resp.Body = x.body(strings.NewReader(""), func() error { return nil }, -1)
	}
	if x.resp.Body == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the FTP access plan retrieves nothing"}
	}
	ok = true
	return x.resp, nil
}

// errCopyComplete stops a resumed run at its REST step: the copy held is
// as long as the file (SIZE), so there is nothing to transfer.
var errCopyComplete = errors.New("the copy held is complete")

// ftpRun is the state of one run of an FTP plan.
type ftpRun struct {
	o     *FTPOpener
	req   *Request
	ctx   context.Context // the fetch's, which the Body goes on using
	steps []scheme.Step
	out   *outcomes
	resp  *Response
	c     *ftp.Conn
	key   string
	addr  string
	home  string // the login directory of a kept connection (PWD)
	user  string // the USER step's argument
	pass  string // the password the user gave (Ask)
	quit  string // the plan's QUIT line, sent when the session ends
	fail  error  // a negative reply a later conditional step answers
}

// step carries out Send step i.
func (x *ftpRun) step(ctx context.Context, i int) error {
	st, c, resp := x.steps[i], x.c, x.resp
	line := st.Text
	if st.Answers {
		line += x.pass + "\r\n" // the password asked of the user goes into the plan's PASS line
	}
	switch st.Op {
	case "RETR", "NLST", "LIST", "MLSD":
		return x.transfer(ctx, i, line)
	case "EPSV", "PASV":
		if x.o.Dialer.Active || x.o.Dialer.DisableEPSV {
			return nil // the client makes the data connection its own way
		}
	case "REST":
		// A copy longer than the file (SIZE) is not its start: RETR from
		// byte 0, as curl -C - and wget -c do. (One as long as the file
		// ended the run at SIZE.)
		if held := x.req.Resume.Offset; resp.Size >= 0 && held > resp.Size {
			resp.restartNoted = true
			resp.Warnings = append(resp.Warnings, fmt.Sprintf("the %d bytes held are more than the remote file's %d (SIZE): it is not their continuation; fetched again from the start", held, resp.Size))
			return nil // no REST: the RETR starts at byte 0
		}
	case "USER":
		x.user = st.Arg
	}
	r, err := c.Cmd(ctx, line)
	for attempt := 1; err == nil && r.Code/100 == 4 && attempt < 3 && (st.Op == "EPSV" || st.Op == "PASV"); attempt++ {
		// A passive port still in use: "425 ... Address already in use";
		// the server picks another on the next try (RFC 959 4.2).
		r, err = c.Cmd(ctx, line)
	}
	if err != nil {
		return err
	}
	x.out.set(i, r.Code, r.Msg)
	refused := &ftp.ReplyError{Cmd: st.Op, Code: r.Code, Msg: r.Msg}
	ok2 := r.Code/100 == 2
	switch st.Op {
	case "USER":
		if r.Code == 331 && x.out.rescued(i) || r.Code == 230 || r.Code == 202 {
			return nil
		}
		return refused
	case "PASS":
		if r.Code == 230 || r.Code == 202 {
			return nil
		}
		return refused
	case "CWD":
		if st.When.On == "RETR" { // RETR failed with 550: a directory, if the CWD works
			var re *ftp.ReplyError
			if ok2 && errors.As(x.fail, &re) {
				return &Error{Op: "open", Offset: -1, Kind: ErrIsDirectory, Err: x.fail,
					Rule: fmt.Sprintf("%q is a directory (RETR: %d %s); add a trailing \"/\" to list it", st.Arg, re.Code, re.Msg)}
			}
			return x.fail
		}
		if ok2 {
			return nil
		}
		return x.o.nullCWD(st, refused, resp)
	case "PWD":
		if dir, err := r.Dir(); ok2 && err == nil {
			x.home = dir
		}
		return nil
	case "SIZE":
		if n, err := r.Size(); err == nil {
			resp.Size = n
			if x.req.Head {
				resp.Fields = append(resp.Fields, Field{"Content-Length", strconv.FormatInt(n, 10)})
			}
			if n > 0 && n == x.req.Resume.Offset && x.restarts() {
				return errCopyComplete // before the data connection: nothing to transfer
			}
		}
		return nil // a refusal is ignored
	case "MDTM":
		if t, err := r.Time(); err == nil {
			resp.ModTime = t
			resp.Fields = append(resp.Fields, Field{"Last-Modified", t.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")})
		}
		return nil
	case "FEAT":
		return nil // a refusal is ignored; the steps after it say what its reply decides
	case "MLST":
		facts, err := r.Facts()
		if !ok2 {
			return refused
		}
		if err != nil {
			return err
		}
		resp.Fields = append(resp.Fields, Field{"MLST", facts})
		return nil
	case "EPSV", "PASV":
		if r.Code == 229 || r.Code == 227 || x.out.rescued(i) {
			return nil
		}
		return refused
	case "REST":
		if r.Code == 350 {
			return nil
		}
		return refused
	}
	if ok2 {
		return nil
	}
	return refused
}

// transfer carries out a RETR or listing step: its data becomes the
// Body. A negative reply that a later step answers (the CWD after a
// RETR 550, the NLST after a refused LIST) is kept for it.
func (x *ftpRun) transfer(ctx context.Context, i int, line string) error {
	st, c, resp := x.steps[i], x.c, x.resp
	var rc io.ReadCloser
	var l *ftp.Listing
	var err error
	if st.Op == "RETR" {
		rc, err = c.RetrLine(ctx, line)
	} else {
		l, err = c.ListLine(ctx, line)
	}
	if err != nil {
		var re *ftp.ReplyError
		if errors.As(err, &re) {
			x.out.set(i, re.Code, re.Msg)
			if x.out.rescued(i) {
				x.fail = err
				return nil
			}
		}
		return err
	}
	code, msg := c.LastReply()
	x.out.set(i, code, msg)
	resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
	if l != nil {
		if x.req.List {
			resp.ListFormat = st.Op
		}
		resp.Listing = true
		resp.ContentType = "text/plain"
		resp.Body = x.body(&listingReader{l: l}, l.Close, -1)
		return nil
	}
	restart := x.req.Resume.Offset
	if !x.out.sentBefore(i, "REST") {
		restart = 0
	}
	resp.ContentType = mime.TypeByExtension(path.Ext(st.Arg))
	resp.Offset = restart
	if restart > 0 && resp.Size >= 0 {
		resp.Size -= restart
	}
	if x.req.Resume.Offset > 0 && restart == 0 && !resp.restartNoted {
		resp.restartNoted = true
		resp.Warnings = append(resp.Warnings, "a TYPE A transfer cannot be resumed (its offsets count the network's CRLF text, not the file's bytes): fetched again from the start")
	}
	resp.Body = x.body(rc, rc.Close, resp.Size)
	return nil
}

// restarts reports whether the plan resumes its transfer (a REST step).
func (x *ftpRun) restarts() bool {
	return slices.ContainsFunc(x.steps, func(st scheme.Step) bool { return st.Kind == scheme.Send && st.Op == "REST" })
}

// body returns the Body of the data r: on Close, the completion reply
// and the plan's QUIT (or the connection kept).
func (x *ftpRun) body(r io.Reader, closeData func() error, want int64) *ftpBody {
	return &ftpBody{r: r, closeData: closeData, c: x.c, quit: x.quit, ctx: x.ctx, want: want, keep: x.o.keeper(x.key, x.c, x.home)}
}

// end ends the session with the plan's QUIT, or the client's own when
// the plan has none (a kept connection's).
func (x *ftpRun) end(ctx context.Context) { quit(ctx, x.c, x.quit) }

func quit(ctx context.Context, c *ftp.Conn, line string) {
	if line == "" {
		c.Quit(ctx)
		return
	}
	if _, err := c.Cmd(ctx, line); err != nil {
		c.Close()
	}
}

// ask asks the user for the password the server wants (its 331 to USER):
// the plan's PASS step carries the answer.
func (x *ftpRun) ask(ctx context.Context) error {
	req := x.req
	if req.Prompt == nil {
		return &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword,
			Rule: fmt.Sprintf("the server asks for the password of %q, the URL gives none, and there is no terminal to ask on; put it in the URL (user:password@host)", x.user)}
	}
	p, err := req.Prompt(ctx, Prompt{Text: fmt.Sprintf("Password for %q on %s", x.user, x.addr), Secret: true})
	if err != nil {
		return &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword, Err: err}
	}
	if err := wire.CheckArg(p, false); err != nil {
		return &Error{Op: "open", Offset: -1, Kind: ErrUnsafe, Rule: "the password holds a CR, LF or NUL"}
	}
	req.secrets().Add(p)
	x.pass = p
	return nil
}

// checkDataPort judges the port of an EPSV or PASV reply like the port
// of a URL, and stricter: a blocked port (see scheme.BlockedPort) or a
// well-known one (below 1024) is refused unless Fetcher.AllowPorts lists
// it. A server could otherwise aim the data connection at another
// service of its host, which a URL naming that port could not.
func (req *Request) checkDataPort(port int) error {
	if slices.Contains(req.AllowPorts, port) {
		return nil
	}
	if service, blocked := scheme.BlockedPort(port); blocked {
		return fmt.Errorf("port %d (%s) is on the list of blocked ports: the server may be aiming the data connection at another service; --allow-port %d allows it", port, service, port)
	}
	if port < 1024 {
		return fmt.Errorf("port %d is a well-known port (below 1024), where no FTP server puts a data connection; --allow-port %d allows it", port, port)
	}
	return nil
}

// refused turns the refusal of a plan into an *Error: ErrUnsafe for the
// concerns of RFC 1738 section 6, ErrUnsupportedScheme for what the
// clients cannot do.
func refused(plan *scheme.Plan) error {
	if len(plan.Refused) == 0 {
		return nil
	}
	c := plan.Refused[0] // the first, as explain prints it
	kind := ErrUnsafe
	if c.Unsupported {
		kind = ErrUnsupportedScheme
	}
	return &Error{Op: "check", Offset: c.Offset, Kind: kind, Rule: c.Message}
}

// nullCWD applies the SkipNullCWD policy to a refused CWD step: a refused
// null CWD fails or is skipped; another refusal fails.
func (o *FTPOpener) nullCWD(st scheme.Step, re *ftp.ReplyError, resp *Response) error {
	if st.Arg != "" || re.Code/100 != 5 {
		return re
	}
	if !o.SkipNullCWD {
		return &Error{Op: "open", Offset: st.At.At, Kind: ErrNullCWD, Err: re,
			Rule: fmt.Sprintf("the server refused the CWD with a null argument that the empty path segment here stands for (RFC 1738 section 3.2.2): %d %s; "+
				"write %%2F for an absolute path", re.Code, re.Msg)}
	}
	resp.Warnings = append(resp.Warnings, fmt.Sprintf("offset %d: the server refused the null-argument CWD (%d %s); skipped it", st.At.At, re.Code, re.Msg))
	return nil
}

// classify names the kind of the FTP client's errors (see classifier).
func (o *FTPOpener) classify(err error) error {
	var re *ftp.ReplyError
	switch {
	case errors.Is(err, ftp.ErrDataPort):
		return ErrBlockedPort
	case errors.As(err, &re):
		switch {
		case re.Code == 530 || re.Code == 332 || re.Code == 532:
			return ErrAccessDenied
		case re.Code == 550 || re.Code == 450 && (re.Cmd == "NLST" || re.Cmd == "LIST") || re.Code == 553:
			return ErrNotFound
		}
		return ErrStatus
	case errors.Is(err, ftp.ErrShortTransfer), errors.Is(err, ftp.ErrClosed):
		return ErrShortTransfer
	case errors.Is(err, ftp.ErrMalformedReply), errors.Is(err, ftp.ErrReplyTooLong):
		return ErrProtocol
	}
	return nil
}

func init() {
	// RFC 959 4.2: a 4yz reply is a transient negative completion (the
	// same command may succeed later), 5yz a permanent one.
	transientRules = append(transientRules, func(err error) (bool, bool) {
		var re *ftp.ReplyError
		if errors.As(err, &re) {
			return re.Code/100 == 4, true
		}
		return false, false
	})
}

// email returns the anonymous password.
func (o *FTPOpener) email(req *Request) string {
	if o.Email != "" {
		return o.Email
	}
	getenv := os.Getenv
	if req.Getenv != nil {
		getenv = req.Getenv
	}
	if e := getenv("EMAIL"); e != "" {
		return e
	}
	name := "anonymous"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	} else if v := getenv("USER"); v != "" {
		name = v
	}
	host, err := osHostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return name + "@" + host
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// ftpBody is the Body of an FTP fetch: the data, then on Close the
// completion reply and QUIT.
type ftpBody struct {
	r         io.Reader
	closeData func() error
	c         *ftp.Conn
	quit      string // the plan's QUIT line
	ctx       context.Context
	want      int64 // SIZE, or -1
	n         int64
	eof       bool
	keep      func() // keeps the connection after a good transfer; nil: QUIT
}

// keeper returns the function that keeps c for the next URL of key, or
// nil when it is not kept.
func (o *FTPOpener) keeper(key string, c *ftp.Conn, home string) func() {
	if key == "" || home == "" {
		return nil
	}
	return func() { o.kept.put(key, &keptConn{c, home}) }
}

func (b *ftpBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.want >= 0 && b.n > b.want {
		// Past SIZE: not read on, and the bytes past it not passed on.
		n -= int(b.n - b.want)
		b.n = b.want
		return n, fmt.Errorf("%w: the data went on past the %d bytes that SIZE announced (the file changed, or the server ignored REST)", ErrLongTransfer, b.want)
	}
	if err == io.EOF {
		b.eof = true
		if b.want >= 0 && b.n != b.want {
			return n, fmt.Errorf("%w: %d of %d bytes (SIZE)", ftp.ErrShortTransfer, b.n, b.want)
		}
	}
	return n, err
}

func (b *ftpBody) Close() error {
	err := b.closeData()
	if err == nil && b.eof && b.want >= 0 && b.n != b.want {
		err = fmt.Errorf("%w: %d of %d bytes (SIZE)", ftp.ErrShortTransfer, b.n, b.want)
	}
	if err == nil && b.eof && b.keep != nil {
		b.keep()
		return nil
	}
	// The data arrived complete or not: a failed QUIT changes nothing.
	quit(b.ctx, b.c, b.quit)
	return err
}

// listingReader turns a Listing into lines ending in LF.
type listingReader struct {
	l   *ftp.Listing
	buf []byte
	end bool
}

func (r *listingReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.end {
			return 0, io.EOF
		}
		if !r.l.Next() {
			r.end = true
			if err := r.l.Err(); err != nil {
				return 0, err
			}
			continue
		}
		r.buf = append(append(r.buf[:0], r.l.Item()...), '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
