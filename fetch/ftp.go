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
	"strings"

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
}

// ftpPlan is an ftp: URL decoded into the commands of the algorithm.
type ftpPlan struct {
	addr      string   // host:port to dial
	user      string   // decoded; "" with !hasUser
	pass      string   // decoded
	hasUser   bool     // a non-empty user name was given
	hasPass   bool     // a password was given (possibly empty)
	cwd       []string // decoded directory segments, "" for a null CWD
	cwdOffset []int    // offset of each segment in the URL
	name      string   // decoded file name, "" for a directory
	list      bool     // NLST (";type=d" or an empty name)
	typ       string   // the TYPE argument ("A", "I"), given or guessed
}

// planFTP decodes u with package scheme's view (segments split at the
// unencoded "/", then decoded, so %2F stays inside its segment).
func planFTP(u *urlkit.URL) (*ftpPlan, error) {
	v, err := scheme.ParseFTP(u)
	if err != nil {
		return nil, invalid(err)
	}
	login := v.Login() // the login explain prints
	p := &ftpPlan{
		addr:    hostPort(u, "21"),
		user:    login.User,
		pass:    login.Password,
		hasUser: !login.Anonymous,
		hasPass: login.HasPassword,
		cwd:     v.CWD,
		name:    v.Name,
		list:    v.IsDir(),
		typ:     v.TypeCommand(),
	}
	// The offset of each CWD segment, for errors: the raw url-path split
	// at "/" like the view does.
	_, _, off := offsets(u)
	off++ // the "/" before the url-path
	raw, _ := u.URLPath()
	for range p.cwd {
		p.cwdOffset = append(p.cwdOffset, off)
		i := strings.IndexByte(raw, '/')
		off += i + 1
		raw = raw[i+1:]
	}
	if !p.list && p.typ == "" {
		code, _ := scheme.GuessType(p.name)
		p.typ = strings.ToUpper(code)
	}
	return p, nil
}

// Open runs the algorithm.
func (o *FTPOpener) Open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := planFTP(req.URL)
	if err != nil {
		return nil, err
	}
	d := o.Dialer
	d.Trace = req.Trace
	d.Timeout = req.connectTimeout(d.Timeout)
	if d.CheckDataPort == nil {
		d.CheckDataPort = req.checkDataPort
	}
	c, err := d.Dial(ctx, plan.addr)
	if err != nil {
		return nil, err
	}
	req.progress()
	ok := false
	defer func() {
		if !ok {
			c.Quit(ctx) // closes the connection, politely if it still works
		}
	}()
	if err := o.login(ctx, req, c, plan); err != nil {
		return nil, err
	}
	req.progress()
	resp := &Response{Size: -1}
	for i, dir := range plan.cwd {
		err := c.Cwd(ctx, dir)
		req.progress()
		if err == nil {
			continue
		}
		var re *ftp.ReplyError
		if dir != "" || !errors.As(err, &re) || re.Code/100 != 5 {
			return nil, err
		}
		if o.NullCWD != NullCWDSkip {
			return nil, &Error{Op: "open", Offset: plan.cwdOffset[i], Kind: ErrNullCWD, Err: err,
				Rule: fmt.Sprintf("the server refused the CWD with a null argument that the empty path segment here stands for (RFC 1738 section 3.2.2): %d %s; "+
					"write %%2F for an absolute path", re.Code, re.Msg)}
		}
		resp.Warnings = append(resp.Warnings, fmt.Sprintf("offset %d: the server refused the null-argument CWD (%d %s); skipped it", plan.cwdOffset[i], re.Code, re.Msg))
	}
	switch {
	case plan.list:
		l, err := c.Nlst(ctx, plan.name)
		if err != nil {
			return nil, err
		}
		code, msg := c.LastReply()
		resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
		resp.Listing = true
		resp.ContentType = "text/plain"
		resp.Body = &ftpBody{r: &listingReader{l: l}, closeData: l.Close, c: c, ctx: ctx, want: -1}
	default:
		if plan.typ != ftp.TypeASCII && plan.typ != ftp.TypeImage {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme,
				Rule: fmt.Sprintf("TYPE %s: the FTP client transfers only types A and I", plan.typ)}
		}
		if err := c.Type(ctx, plan.typ); err != nil {
			return nil, err
		}
		req.progress()
		if plan.typ == ftp.TypeImage {
			if n, err := c.Size(ctx, plan.name); err == nil {
				resp.Size = n
			}
		}
		rc, err := c.Retr(ctx, plan.name)
		if err != nil {
			var re *ftp.ReplyError
			if errors.As(err, &re) && re.Code == 550 && plan.name != "" && c.Cwd(ctx, plan.name) == nil {
				return nil, &Error{Op: "open", Offset: -1, Kind: ErrIsDirectory, Err: err,
					Rule: fmt.Sprintf("%q is a directory (RETR: %d %s); add a trailing \"/\" to list it", plan.name, re.Code, re.Msg)}
			}
			return nil, err
		}
		code, msg := c.LastReply()
		resp.Reply = fmt.Sprintf("%d %s", code, firstLine(msg))
		resp.ContentType = mime.TypeByExtension(path.Ext(plan.name))
		resp.Body = &ftpBody{r: rc, closeData: rc.Close, c: c, ctx: ctx, want: resp.Size}
	}
	ok = true
	return resp, nil
}

// checkDataPort judges the port of an EPSV or PASV reply like the port
// of a URL, and stricter: a blocked port (see BlockedPort) or a
// well-known one (below 1024) is refused unless Fetcher.AllowPorts lists
// it. A server could otherwise aim the data connection at another
// service of its host, which a URL naming that port could not.
func (req *Request) checkDataPort(port int) error {
	if req.f != nil && slices.Contains(req.f.AllowPorts, port) {
		return nil
	}
	if service, blocked := BlockedPort(port); blocked {
		return fmt.Errorf("port %d (%s) is on the list of blocked ports: the server may be aiming the data connection at another service; --allow-port %d allows it", port, service, port)
	}
	if port < 1024 {
		return fmt.Errorf("port %d is a well-known port (below 1024), where no FTP server puts a data connection; --allow-port %d allows it", port, port)
	}
	return nil
}

// login logs in as RFC 1738 section 3.2.1 says.
func (o *FTPOpener) login(ctx context.Context, req *Request, c *ftp.Conn, plan *ftpPlan) error {
	switch {
	case !plan.hasUser:
		return c.Login(ctx, "anonymous", o.email(req))
	case plan.hasPass:
		return c.Login(ctx, plan.user, plan.pass)
	}
	return c.LoginFunc(ctx, plan.user, func(ctx context.Context) (string, error) {
		if req.Prompt == nil {
			return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword,
				Rule: fmt.Sprintf("the server asks for the password of %q, the URL gives none, and there is no terminal to ask on; put it in the URL (user:password@host)", plan.user)}
		}
		p, err := req.Prompt(ctx, Prompt{Text: fmt.Sprintf("Password for %q on %s", plan.user, plan.addr), Secret: true})
		if err != nil {
			return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedPassword, Err: err}
		}
		return p, nil
	})
}

// email returns the anonymous password.
func (o *FTPOpener) email(req *Request) string {
	if o.Email != "" {
		return o.Email
	}
	getenv := os.Getenv
	if req.f != nil {
		getenv = req.f.getenv
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
}

func (b *ftpBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
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
