package ftp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Default limits used when the corresponding Dialer field is zero.
const (
	DefaultMaxLine       = 4096 // bytes per reply or listing line
	DefaultMaxReplyLines = 1000 // lines per multi-line reply
)

// Dialer holds the options for connecting to an FTP server. Its zero value
// is ready to use: passive mode (EPSV, then PASV), no timeout besides the
// context's, no trace, default limits.
type Dialer struct {
	// Timeout bounds each connection establishment: the control
	// connection, every passive data connection, and the wait for an
	// active-mode data connection. Zero means no limit besides the
	// context's (and the operating system's connect timeout).
	Timeout time.Duration

	// Trace, if set, receives a transcript of the control connection:
	// "> " lines sent, "< " lines received. The argument of PASS (and
	// ACCT) is replaced by wire.Mask ("xxxxx"). Data connections are not traced.
	Trace io.Writer

	// Active selects active mode: the client listens and the server
	// connects to it (EPRT, or PORT if EPRT is refused). The default is
	// passive mode, which works through client-side NAT and firewalls.
	Active bool

	// DisableEPSV skips the RFC 2428 extended commands (EPSV, EPRT) and
	// uses PASV or PORT directly, for servers that mishandle them. They
	// are skipped automatically after a 5xx reply.
	DisableEPSV bool

	// TrustPASVAddr makes passive mode connect to the address in a PASV
	// reply when it differs from the control connection's peer, unless
	// that address is unspecified, or internal (private, loopback,
	// link-local) while the peer is not, in which case the peer is used
	// (lftp's ftp:fix-pasv-address). By default the peer's address is
	// always used and only the port is taken from the reply, which
	// defeats PASV-based bounce attacks (RFC 2577) and broken NAT setups.
	TrustPASVAddr bool

	// MaxLine bounds the length of one reply or listing line in bytes
	// (default DefaultMaxLine).
	MaxLine int

	// MaxReplyLines bounds the number of lines of one multi-line reply
	// (default DefaultMaxReplyLines).
	MaxReplyLines int

	// CheckDataPort, if set, judges the port of every EPSV or PASV reply
	// before the data connection is made: a non-nil error refuses it, and
	// the transfer fails with an error matching ErrDataPort (and the
	// returned error). A hostile or compromised server could otherwise
	// make the client connect to any port of its host (an SMTP or X11
	// server, say) and send it the data stream's reaction. Nil means
	// RefuseWellKnownPort: only ports below 1024 are refused.
	CheckDataPort func(port int) error
}

// RefuseWellKnownPort is the default Dialer.CheckDataPort: it refuses the
// well-known ports (1 to 1023), where another protocol's server listens
// and no FTP server puts a passive data connection (RFC 2577 section 3
// asks servers to refuse PORT commands naming them, for the same reason).
func RefuseWellKnownPort(port int) error {
	if port < 1024 {
		return fmt.Errorf("port %d is a well-known port (below 1024), reserved for another service", port)
	}
	return nil
}

// Conn is a logged-in or not-yet-logged-in FTP control connection.
//
// A Conn is not safe for concurrent use. While the body of a Retr or a
// listing from Nlst or List is open, other commands fail with ErrBusy:
// close the body first. After a transport or protocol failure (timeout,
// reset, malformed reply) the connection is closed and every later
// command fails with an error matching ErrClosed.
type Conn struct {
	d Dialer
	// sess runs the commands over the control connection (traced if
	// d.Trace is set); it is Busy while a data transfer is open.
	sess   wire.Session
	lr     *wire.LineReader
	peer   netip.Addr     // control connection's remote address
	local  netip.Addr     // control connection's local address
	typ    string         // transfer type last set with Type: "A" (the RFC 959 default) or "I"
	noEPSV bool           // EPSV refused: use PASV
	noEPRT bool           // EPRT refused: use PORT
	pasv   netip.AddrPort // the data address of a passive reply to Cmd, for the next transfer
	rest   int64          // the offset of a REST accepted by Cmd, for the next transfer
	data   net.Conn       // the open transfer's data connection
	last   reply          // the last reply read
}

// Dial connects to the FTP server at addr ("host:port") with the zero
// Dialer.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d Dialer
	return d.Dial(ctx, addr)
}

// Dial connects to the FTP server at addr ("host:port") and reads its
// greeting. ctx bounds the whole exchange; once Dial returns, ctx is no
// longer used.
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	nc, err := wire.Dial(ctx, &net.Dialer{Timeout: d.Timeout}, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ftp: dial %s: %w", addr, err)
	}
	c := &Conn{d: *d, typ: "A"}
	if c.d.MaxLine <= 0 {
		c.d.MaxLine = DefaultMaxLine
	}
	if c.d.MaxReplyLines <= 0 {
		c.d.MaxReplyLines = DefaultMaxReplyLines
	}
	c.peer = addrOf(nc.RemoteAddr())
	c.local = addrOf(nc.LocalAddr())
	conn := (&wire.Tracer{W: d.Trace, Mask: maskSecrets}).Conn(nc)
	c.sess = wire.Session{Name: "ftp", ErrBusy: ErrBusy, ErrClosed: ErrClosed, Conn: conn, W: bufio.NewWriter(conn)}
	c.lr = wire.NewLineReader(conn, c.d.MaxLine)

	release := wire.Bind(ctx, conn)
	defer release()
	// "120 Service ready in nnn minutes" may precede the 220 (RFC 959
	// section 5.4); a few are tolerated.
	for range 5 {
		r, err := c.read(ctx, "greeting")
		if err != nil {
			return nil, err
		}
		switch {
		case r.code == 120:
			continue
		case r.code == 220:
			return c, nil
		default:
			conn.Close()
			return nil, &ReplyError{Cmd: "greeting", Code: r.code, Msg: r.msg}
		}
	}
	conn.Close()
	return nil, opErr("greeting", fmt.Errorf("%w: too many 120 replies", ErrMalformedReply))
}

func addrOf(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.AddrPort().Addr().Unmap()
	}
	return netip.Addr{}
}

// maskSecrets hides the arguments of PASS and ACCT in traces.
func maskSecrets(line string) string {
	if len(line) >= 4 {
		switch strings.ToUpper(line[:4]) {
		case "PASS", "ACCT":
			return line[:4] + " " + wire.Mask
		}
	}
	return line
}

// read reads one reply; failures are fatal for the connection.
func (c *Conn) read(ctx context.Context, op string) (reply, error) {
	r, err := readReply(c.lr, c.d.MaxReplyLines)
	if err != nil {
		return r, c.sess.Fail(ctx, op, err)
	}
	c.last = r
	if r.code == 421 { // service closing the control connection
		c.sess.Break(fmt.Errorf("%w by the server: 421 %s", ErrClosed, r.msg))
	}
	return r, nil
}

// cmd sends "verb" (arg empty) or "verb arg" and reads the reply. Only
// transport and protocol failures are errors; the caller judges the code.
// arg must have been checked with wire.CheckArg by the caller.
func (c *Conn) cmd(ctx context.Context, verb, arg string) (reply, error) {
	line := verb
	if arg != "" {
		line += " " + arg
	}
	return c.exchange(ctx, verb, escapeIAC(line))
}

// exchange writes line (checked, IAC escaped, without its CR LF) and
// reads the reply: the one writer of the control connection.
func (c *Conn) exchange(ctx context.Context, verb, line string) (reply, error) {
	if err := c.sess.Send(ctx, verb, line); err != nil {
		return reply{}, err
	}
	return c.read(ctx, verb)
}

// escapeIAC doubles every 0xFF byte. The control connection is a Telnet
// NVT (RFC 959 section 4.1, RFC 854): 0xFF is IAC, the start of a Telnet
// command, so a 0xFF of a path must go as IAC IAC, or "\xff\xf4" would
// arrive as IAC IP (interrupt process) and "\xff\xf2" as IAC DM.
func escapeIAC(line string) string {
	if strings.IndexByte(line, 0xff) < 0 {
		return line
	}
	return strings.ReplaceAll(line, "\xff", "\xff\xff")
}

// checkArg rejects an unsafe argument before anything is sent.
func checkArg(verb, arg string) error {
	if err := wire.CheckArg(arg, false); err != nil {
		return opErr(verb, err)
	}
	return nil
}

// simple runs one command that must get a reply in one of the classes.
func (c *Conn) simple(ctx context.Context, verb, arg string, classes ...int) (reply, error) {
	if err := checkArg(verb, arg); err != nil {
		return reply{}, err
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return reply{}, err
	}
	defer release()
	r, err := c.cmd(ctx, verb, arg)
	if err != nil {
		return r, err
	}
	for _, cl := range classes {
		if r.class() == cl {
			return r, nil
		}
	}
	return r, &ReplyError{Cmd: verb, Code: r.code, Msg: r.msg}
}

// Login logs in with USER and, if the server asks for it (331), PASS.
// An empty user means anonymous FTP: user "anonymous" and, if pass is
// empty too, the password "anonymous@" (RFC 1635). A 230 or 202 reply to
// USER completes the login without sending the password. A server that
// asks for an account (332) gets the error *ReplyError with Code 332; use
// LoginAccount. The password never appears in errors or traces.
func (c *Conn) Login(ctx context.Context, user, pass string) error {
	return c.LoginAccount(ctx, user, pass, "")
}

// LoginAccount is Login with an account for servers that request one
// with reply 332 after USER or PASS (RFC 959 ACCT). The account, like the
// password, is masked in traces.
func (c *Conn) LoginAccount(ctx context.Context, user, pass, account string) error {
	if user == "" {
		user = "anonymous"
		if pass == "" {
			pass = "anonymous@"
		}
	}
	if err := checkArg("PASS", pass); err != nil {
		return err
	}
	return c.login(ctx, user, func(context.Context) (string, error) { return pass, nil }, account)
}

// LoginFunc logs in as user, calling password for the password only if
// the server asks for one (reply 331 to USER), as RFC 1738 section 3.2.1
// prescribes for a URL that gives a user name but no password ("the
// program interpreting the FTP URL should request one from the user").
// An error from password is returned as is, after which the connection is
// still usable (the server waits for PASS). user must not be empty.
func (c *Conn) LoginFunc(ctx context.Context, user string, password func(ctx context.Context) (string, error)) error {
	if user == "" {
		return opErr("USER", errors.New("empty user name"))
	}
	return c.login(ctx, user, password, "")
}

func (c *Conn) login(ctx context.Context, user string, password func(context.Context) (string, error), account string) error {
	for _, a := range [...]struct{ verb, arg string }{{"USER", user}, {"ACCT", account}} {
		if err := checkArg(a.verb, a.arg); err != nil {
			return err
		}
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return err
	}
	defer release()
	r, err := c.cmd(ctx, "USER", user)
	if err != nil {
		return err
	}
	verb := "USER"
	if r.code == 331 {
		pass, err := password(ctx)
		if err != nil {
			return err
		}
		if err := checkArg("PASS", pass); err != nil {
			return err
		}
		verb = "PASS"
		if r, err = c.cmd(ctx, "PASS", pass); err != nil {
			return err
		}
	}
	if r.code == 332 && account != "" {
		verb = "ACCT"
		if r, err = c.cmd(ctx, "ACCT", account); err != nil {
			return err
		}
	}
	if r.code == 230 || r.code == 202 {
		return nil
	}
	return &ReplyError{Cmd: verb, Code: r.code, Msg: r.msg}
}

// LastReply returns the code and text of the last reply the server sent
// on the control connection: after Retr, the preliminary reply ("150
// Opening BINARY mode data connection for f (65536 bytes)"); after the
// body is closed, the completion reply ("226 Transfer complete"). It
// returns 0 and "" before the greeting has been read.
func (c *Conn) LastReply() (code int, msg string) { return c.last.code, c.last.msg }

// Cwd changes the working directory with exactly "CWD <dir>", or "CWD"
// alone when dir is empty: the null argument RFC 1738 section 3.2.2
// prescribes for an empty path segment. Servers differ on the null
// argument (ProFTPD 501, vsftpd 550, pure-ftpd 250 to the home
// directory); a refusal comes back as a *ReplyError for the caller to
// judge. dir is sent as given: it is never split or resolved.
func (c *Conn) Cwd(ctx context.Context, dir string) error {
	_, err := c.simple(ctx, "CWD", dir, 2)
	return err
}

// Pwd returns the working directory reported by PWD (reply 257).
func (c *Conn) Pwd(ctx context.Context) (string, error) {
	r, err := c.simple(ctx, "PWD", "", 2)
	if err != nil {
		return "", err
	}
	return Reply{r.code, r.msg}.Dir()
}

// Transfer types for Type.
const (
	TypeASCII = "A" // ASCII text; Retr converts CRLF line ends to LF
	TypeImage = "I" // image (binary): bytes unchanged
)

// Type sets the transfer type: TypeASCII ("A") or TypeImage ("I"),
// case-insensitive (RFC 1738's ";type=a" and ";type=i"). Other types fail
// with ErrBadType without being sent. The RFC 959 default is ASCII.
func (c *Conn) Type(ctx context.Context, t string) error {
	t = strings.ToUpper(t)
	if t != TypeASCII && t != TypeImage {
		return fmt.Errorf("%w %q (want A or I)", ErrBadType, t)
	}
	if _, err := c.simple(ctx, "TYPE", t, 2); err != nil {
		return err
	}
	c.typ = t
	return nil
}

// Size returns the size of the file name with SIZE (RFC 3659, reply 213).
// The size depends on the transfer type; ProFTPD refuses SIZE in ASCII
// mode (550), so set TypeImage first.
func (c *Conn) Size(ctx context.Context, name string) (int64, error) {
	r, err := c.simple(ctx, "SIZE", name, 2)
	if err != nil {
		return 0, err
	}
	return Reply{r.code, r.msg}.Size()
}

// Noop sends NOOP, which keeps the session alive and checks it works.
func (c *Conn) Noop(ctx context.Context) error {
	_, err := c.simple(ctx, "NOOP", "", 2)
	return err
}

// Quit sends QUIT, reads the reply and closes the connection, which is
// closed even when an error is returned. A connection that already failed
// is just closed. While a Retr body or listing is open Quit does nothing
// and returns ErrBusy: close the body first (or use Close).
func (c *Conn) Quit(ctx context.Context) error {
	return c.sess.Quit(ctx, func() error {
		r, err := c.cmd(ctx, "QUIT", "")
		if err == nil && r.class() != 2 {
			err = &ReplyError{Cmd: "QUIT", Code: r.code, Msg: r.msg}
		}
		return err
	})
}

// Close closes the control connection without QUIT. An open Retr body or
// listing fails from then on.
func (c *Conn) Close() error {
	if c.data != nil {
		c.data.Close()
	}
	return c.sess.Close()
}
