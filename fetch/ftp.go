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
	"github.com/urlkit/urlkit/scheme"
)

// NullCWD says what an FTPOpener does when the server refuses the
// null-argument CWD of an empty path segment.
type NullCWD uint8

const (
	// NullCWDFail (the default) fails the fetch with ErrNullCWD: the
	// access algorithm of the URL cannot be carried out on that server.
	NullCWDFail NullCWD = iota
	// NullCWDSkip goes on without the refused CWD (the working directory
	// stays what it was) and records a warning in Response.Warnings.
	NullCWDSkip
)

// String returns "fail" or "skip".
func (n NullCWD) String() string {
	if n == NullCWDSkip {
		return "skip"
	}
	return "fail"
}

// FTPOpener opens ftp: URLs with the algorithm of RFC 1738 section 3.2
// (and draft-ietf-uri-url-06 3.2). Its zero value is ready to use:
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
//     ProFTPD 501; a refusal is handled as NullCWD says.
//  3. With ";type=d", NLST of the name (or of the working directory when
//     the name is empty): the names, one per line.
//  4. An empty name (the URL ends in "/", or has no path), about which
//     RFC 1738 says nothing, lists the directory the same way (NLST),
//     as "urlkit explain" says.
//  5. Otherwise TYPE A or I, as the URL's type code says or, without
//     one, guessed from the name by scheme.GuessType: A for text names
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
	// NullCWD is the policy for a refused null-argument CWD.
	NullCWD NullCWD
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

// Open carries out the access plan of the URL (scheme.PlanURL), the one
// "urlkit explain" prints: each Send step becomes the FTP client call
// that sends that line (a test compares them with the wire against a
// real server). The client's passive logic sends the EPSV (or PASV) of
// the plan as part of RETR and NLST; QUIT goes on Close. The plan
// assumes the client's default data connection: with Dialer.Active
// (EPRT, PORT) or Dialer.DisableEPSV (PASV alone) those lines differ.
func (o *FTPOpener) Open(ctx context.Context, req *Request) (*Response, error) {
	opts := scheme.PlanOptions{Mode: urlkit.Lenient, Email: o.email(req), KeepFTP: o.Keep, FTPRestart: req.Resume.Offset, Head: req.Head, List: req.List}
	plan, err := scheme.PlanURL(req.URL, opts)
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
		again, err := scheme.PlanURL(req.URL, opts)
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
	var c *ftp.Conn
	home := ""
	if kc != nil {
		c, home = kc.c, kc.home
	}
	ok := false
	defer func() {
		if c == nil || ok {
			return
		}
		var re *ftp.ReplyError
		if key != "" && home != "" && errors.As(rerr, &re) && !errors.Is(rerr, errStale) {
			o.kept.put(key, &keptConn{c, home}) // the server answered: the session goes on
			return
		}
		c.Quit(ctx) // closes the connection, politely if it still works
	}()
	var err error
	first := kc != nil // the next Send is the CWD back to the login directory
	var restart int64  // the REST step's offset
	resp := &Response{Size: -1}
	var addr string
	for i := 0; i < len(steps); i++ {
		st := steps[i]
		switch st.Kind {
		case scheme.Connect:
			addr = st.Text
			d := o.Dialer
			d.Trace = req.Trace
			d.Timeout = req.connectTimeout(d.Timeout)
			if d.CheckDataPort == nil {
				d.CheckDataPort = req.checkDataPort
			}
			if c, err = d.Dial(ctx, addr); err != nil {
				return nil, err
			}
			req.progress()
			continue
		case scheme.Send:
		default:
			continue
		}
		if st.When != "" {
			continue // taken by the step it depends on (PASS, PASV, the CWD after a failed RETR)
		}
		switch st.Op {
		case "USER":
			if err := o.login(ctx, req, c, addr, st.Arg, steps[i+1:]); err != nil {
				return nil, err
			}
		case "CWD":
			if first {
				if err := c.Cwd(ctx, st.Arg); err != nil {
					c.Quit(ctx)
					c = nil
					return nil, errStale
				}
				break
			}
			if err := o.cwd(ctx, c, st, resp); err != nil {
				return nil, err
			}
		case "PWD":
			if dir, err := c.Pwd(ctx); err == nil {
				home = dir
			}
		case "TYPE":
			if err := c.Type(ctx, st.Arg); err != nil {
				return nil, err
			}
		case "SIZE":
			if n, err := c.Size(ctx, st.Arg); err == nil {
				resp.Size = n
				if req.Head {
					resp.Fields = append(resp.Fields, Field{"Content-Length", strconv.FormatInt(n, 10)})
				}
			}
		case "MDTM":
			if t, err := c.Mdtm(ctx, st.Arg); err == nil {
				resp.ModTime = t
				resp.Fields = append(resp.Fields, Field{"Last-Modified", t.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")})
			}
		case "FEAT":
			feats, _ := c.Feat(ctx)
			mlst := slices.ContainsFunc(feats, func(f string) bool { return f == "MLST" || strings.HasPrefix(f, "MLST ") })
			if req.List {
				if err := o.list(ctx, c, steps[i+1:], mlst, resp); err != nil {
					return nil, err
				}
				resp.Body.(*ftpBody).keep = o.keeper(key, c, home)
				break
			}
			if next := i + 1; mlst && next < len(steps) && steps[next].Op == "MLST" {
				req.progress()
				facts, err := c.Mlst(ctx, steps[next].Arg)
				if err != nil {
					return nil, err
				}
				resp.Fields = append(resp.Fields, Field{"MLST", facts})
			}
			resp.Body = o.noData(ctx, c, key, home)
		case "EPSV":
			// Sent by the client's passive logic with the next RETR or NLST.
		case "REST":
			// Sent by the client with the RETR, after the passive setup,
			// unless SIZE settles it: a copy as long as the file is
			// complete (no RETR), a longer one is not its start (RETR
			// from byte 0, as curl -C - and wget -c do).
			restart = req.Resume.Offset
			switch {
			case resp.Size < 0 || restart < resp.Size:
			case restart == resp.Size:
				resp.Offset, resp.Size = restart, 0
				resp.Body = o.noData(ctx, c, key, home)
				ok = true
				return resp, nil
			default:
				restart = 0
				resp.restartNoted = true
				resp.Warnings = append(resp.Warnings, fmt.Sprintf("the %d bytes held are more than the remote file's %d (SIZE): it is not their continuation; fetched again from the start", req.Resume.Offset, resp.Size))
			}
		case "NLST":
			l, err := c.Nlst(ctx, st.Arg)
			if err != nil {
				return nil, err
			}
			code, msg := c.LastReply()
			resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
			resp.Listing = true
			resp.ContentType = "text/plain"
			resp.Body = &ftpBody{r: &listingReader{l: l}, closeData: l.Close, c: c, ctx: ctx, want: -1, keep: o.keeper(key, c, home)}
		case "RETR":
			rc, err := c.RetrFrom(ctx, st.Arg, restart)
			if err != nil {
				var re *ftp.ReplyError
				if errors.As(err, &re) && re.Code == 550 && hasStep(steps[i+1:], "CWD", st.Arg) && c.Cwd(ctx, st.Arg) == nil {
					return nil, &Error{Op: "open", Offset: -1, Kind: ErrIsDirectory, Err: err,
						Rule: fmt.Sprintf("%q is a directory (RETR: %d %s); add a trailing \"/\" to list it", st.Arg, re.Code, re.Msg)}
				}
				return nil, err
			}
			code, msg := c.LastReply()
			resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
			resp.ContentType = mime.TypeByExtension(path.Ext(st.Arg))
			resp.Offset = restart
			if restart > 0 && resp.Size >= 0 {
				resp.Size -= restart
			}
			if req.Resume.Offset > 0 && restart == 0 && !resp.restartNoted {
				resp.restartNoted = true
				resp.Warnings = append(resp.Warnings, "a TYPE A transfer cannot be resumed (its offsets count the network's CRLF text, not the file's bytes): fetched again from the start")
			}
			resp.Body = &ftpBody{r: rc, closeData: rc.Close, c: c, ctx: ctx, want: resp.Size, keep: o.keeper(key, c, home)}
		case "QUIT":
			// On Close, after the data.
		default:
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: fmt.Sprintf("the FTP access plan has a step the access layer cannot carry out: %q", st.Text)}
		}
		first = false
		req.progress()
	}
	if resp.Body == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the FTP access plan retrieves nothing"}
	}
	ok = true
	return resp, nil
}

// noData is the empty Body of an answer without a data transfer (Head,
// a resumed copy already complete); its Close keeps or quits c.
func (o *FTPOpener) noData(ctx context.Context, c *ftp.Conn, key, home string) *ftpBody {
	return &ftpBody{r: strings.NewReader(""), closeData: func() error { return nil }, c: c, ctx: ctx, want: -1, keep: o.keeper(key, c, home)}
}

// list starts the listing of a --list plan after its FEAT: MLSD when
// the server has it, else LIST, else (LIST refused) NLST.
func (o *FTPOpener) list(ctx context.Context, c *ftp.Conn, rest []scheme.Step, mlsd bool, resp *Response) error {
	arg := ""
	for _, st := range rest {
		if st.Op == "MLSD" {
			arg = st.Arg
		}
	}
	var l *ftp.Listing
	var err error
	switch {
	case mlsd:
		resp.ListFormat = "MLSD"
		l, err = c.Mlsd(ctx, arg)
	default:
		resp.ListFormat = "LIST"
		l, err = c.List(ctx, arg)
		var re *ftp.ReplyError
		if errors.As(err, &re) && re.Code/100 == 5 && re.Code != 550 {
			resp.ListFormat = "NLST"
			l, err = c.Nlst(ctx, arg)
		}
	}
	if err != nil {
		return err
	}
	code, msg := c.LastReply()
	resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
	resp.Listing = true
	resp.ContentType = "text/plain"
	resp.Body = &ftpBody{r: &listingReader{l: l}, closeData: l.Close, c: c, ctx: ctx, want: -1}
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

// hasStep reports whether steps hold a conditional Send of op with arg.
func hasStep(steps []scheme.Step, op, arg string) bool {
	for _, st := range steps {
		if st.Kind == scheme.Send && st.Op == op && st.Arg == arg && st.When != "" {
			return true
		}
	}
	return false
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

// cwd runs a CWD step, with the NullCWD policy for a refused null one.
func (o *FTPOpener) cwd(ctx context.Context, c *ftp.Conn, st scheme.Step, resp *Response) error {
	err := c.Cwd(ctx, st.Arg)
	if err == nil {
		return nil
	}
	var re *ftp.ReplyError
	if st.Arg != "" || !errors.As(err, &re) || re.Code/100 != 5 {
		return err
	}
	if o.NullCWD != NullCWDSkip {
		return &Error{Op: "open", Offset: st.At.At, Kind: ErrNullCWD, Err: err,
			Rule: fmt.Sprintf("the server refused the CWD with a null argument that the empty path segment here stands for (RFC 1738 section 3.2.2): %d %s; "+
				"write %%2F for an absolute path", re.Code, re.Msg)}
	}
	resp.Warnings = append(resp.Warnings, fmt.Sprintf("offset %d: the server refused the null-argument CWD (%d %s); skipped it", st.At.At, re.Code, re.Msg))
	return nil
}

// login runs the USER step and the PASS step after it (sent if the
// server replies 331), or asks for the password when the plan says to.
func (o *FTPOpener) login(ctx context.Context, req *Request, c *ftp.Conn, addr, user string, rest []scheme.Step) error {
	for _, st := range rest {
		if st.Kind == scheme.Send && st.Op == "PASS" {
			return c.Login(ctx, user, st.Arg)
		}
		if st.Kind == scheme.Ask || st.Kind == scheme.Send {
			break
		}
	}
	return c.LoginFunc(ctx, user, func(ctx context.Context) (string, error) {
		if req.Prompt == nil {
			return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword,
				Rule: fmt.Sprintf("the server asks for the password of %q, the URL gives none, and there is no terminal to ask on; put it in the URL (user:password@host)", user)}
		}
		p, err := req.Prompt(ctx, Prompt{Text: fmt.Sprintf("Password for %q on %s", user, addr), Secret: true})
		if err != nil {
			return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword, Err: err}
		}
		return p, nil
	})
}

// Classify names the kind of the FTP client's errors (see Classifier).
func (o *FTPOpener) Classify(err error) error {
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
	b.c.Quit(b.ctx)
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
