package nntp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Default limits used when the corresponding Dialer field is zero.
const (
	// DefaultMaxLine bounds status lines and data lines. Article lines
	// should stay within 998 octets (RFC 5536 via RFC 5322), but overview
	// lines carry whole References headers, so the bound is generous.
	DefaultMaxLine = 16 << 10
	// DefaultOverviewBatch is the number of articles asked for per OVER
	// (or XOVER, LISTGROUP) command while scanning a range.
	DefaultOverviewBatch = 1000
	// MaxOverviewBatch caps Dialer.OverviewBatch: the HEAD fallback
	// holds one batch of article numbers.
	MaxOverviewBatch = 100000
	// DefaultMaxHeaderBytes bounds the header block read by the HEAD
	// fallback of Overview.
	DefaultMaxHeaderBytes = 256 << 10
)

// Dialer holds the options for connecting to an NNTP server. Its zero
// value is ready to use.
type Dialer struct {
	// Timeout bounds the connection establishment. Zero means no limit
	// besides the context's (and the operating system's).
	Timeout time.Duration

	// Trace, if set, receives a transcript of the connection: "> " for
	// lines sent, "< " for lines received, byte for byte except that the
	// argument of AUTHINFO PASS is shown as wire.Mask ("xxxxx") and control bytes are
	// escaped.
	Trace io.Writer

	// MaxLine bounds the length of one status or data line in bytes
	// (default DefaultMaxLine).
	MaxLine int

	// OverviewBatch is the number of articles requested per command by
	// Overview (default DefaultOverviewBatch, at most MaxOverviewBatch).
	OverviewBatch int

	// NoModeReader skips the MODE READER command that Dial otherwise
	// sends when the server advertises MODE-READER (or cannot say,
	// having no CAPABILITIES): for feeding, not reading, sessions.
	NoModeReader bool

	// GreetingOnly makes Dial read the greeting and stop: the caller
	// sends CAPABILITIES and MODE READER with Cmd, as an access plan
	// writes them.
	GreetingOnly bool
}

// Conn is a connection to an NNTP server (RFC 3977, and the RFC 977 and
// RFC 2980 commands that older servers know).
//
// A Conn is not safe for concurrent use. While an article or a listing
// is open, other commands fail with ErrBusy: close it first. After a
// transport or protocol failure the connection is closed and every later
// command fails with an error matching ErrClosed.
type Conn struct {
	d       Dialer
	sess    wire.Session // over the connection, traced if d.Trace is set
	lr      *wire.LineReader
	caps    Capabilities // nil: the server has no CAPABILITIES command
	posting bool
	group   string // the selected group, for LISTGROUP
	over    overMode
}

// Dial connects to the NNTP server at addr ("host:port") with the zero
// Dialer.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d Dialer
	return d.Dial(ctx, addr)
}

// Dial connects to the NNTP server at addr ("host:port"), reads its
// greeting (200: posting allowed, 201: not), asks for its CAPABILITIES
// (RFC 3977 section 5.2; an RFC 977 server's 500 leaves Capabilities nil)
// and, unless d.NoModeReader, switches a mode-switching server to reader
// mode with MODE READER (section 5.3) and asks for the capabilities
// again. A server that cannot answer CAPABILITIES gets MODE READER too, as
// RFC 2980 servers need it; its refusal is ignored.
//
// A greeting of 400 or 502 (service unavailable) is returned as a
// *ReplyError. ctx bounds the whole exchange.
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	nc, err := wire.Dial(ctx, &net.Dialer{Timeout: d.Timeout}, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("nntp: dial %s: %w", addr, err)
	}
	c := &Conn{d: *d}
	if c.d.MaxLine <= 0 {
		c.d.MaxLine = DefaultMaxLine
	}
	if c.d.OverviewBatch <= 0 {
		c.d.OverviewBatch = DefaultOverviewBatch
	}
	c.d.OverviewBatch = min(c.d.OverviewBatch, MaxOverviewBatch)
	conn := (&wire.Tracer{W: d.Trace, Mask: maskSecrets}).Conn(nc)
	c.sess = wire.Session{Name: "nntp", ErrBusy: ErrBusy, ErrClosed: ErrClosed, Conn: conn, W: bufio.NewWriter(conn)}
	c.lr = wire.NewLineReader(conn, c.d.MaxLine)
	if err := c.start(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

func (c *Conn) start(ctx context.Context) error {
	release := wire.Bind(ctx, c.sess.Conn)
	defer release()
	r, err := c.read(ctx, "greeting")
	if err != nil {
		return err
	}
	switch r.code {
	case 200, 201:
		c.posting = r.code == 200
	default:
		return &ReplyError{Cmd: "greeting", Code: r.code, Msg: safe(r.msg)}
	}
	if c.d.GreetingOnly {
		return nil
	}
	if err := c.loadCaps(ctx); err != nil {
		return err
	}
	if c.d.NoModeReader || c.caps.Has("READER") {
		return nil
	}
	if c.caps != nil && !c.caps.Has("MODE-READER") {
		return nil
	}
	r, err = c.cmd(ctx, "MODE READER", "MODE READER")
	if err != nil {
		return err
	}
	switch {
	case r.code == 200 || r.code == 201:
		c.posting = r.code == 200
	case c.caps == nil:
		return nil // an old server that does not know MODE READER: fine
	default:
		return &ReplyError{Cmd: "MODE READER", Code: r.code, Msg: safe(r.msg)}
	}
	if c.caps != nil { // capabilities change with the mode (section 5.3.2)
		return c.loadCaps(ctx)
	}
	return nil
}

// maskSecrets hides the password of AUTHINFO PASS in traces.
func maskSecrets(line string) string {
	const verb = "AUTHINFO PASS "
	if len(line) >= len(verb) && strings.EqualFold(line[:len(verb)], verb) {
		return line[:len(verb)] + wire.Mask
	}
	return line
}

// read reads one status line; failures are fatal for the connection.
func (c *Conn) read(ctx context.Context, op string) (reply, error) {
	line, err := c.lr.ReadLine()
	if err != nil {
		return reply{}, c.sess.Fail(ctx, op, wire.UnexpectedEOF("connection", err))
	}
	r, err := parseStatus(line)
	if err != nil {
		return reply{}, c.sess.Fail(ctx, op, err)
	}
	if r.code == 400 || r.code == 205 { // the server closes the connection
		c.sess.Break(fmt.Errorf("%w by the server: %d %s", ErrClosed, r.code, safe(r.msg)))
	}
	return r, nil
}

// cmd sends line (already checked) and reads the status line. Only
// transport and protocol failures are errors; the caller judges the code.
// op names the command in errors.
func (c *Conn) cmd(ctx context.Context, op, line string) (reply, error) {
	if err := c.sess.Send(ctx, op, line); err != nil {
		return reply{}, err
	}
	return c.read(ctx, op)
}

// simple runs one command whose only expected reply is want.
func (c *Conn) simple(ctx context.Context, op, line string, want ...int) (reply, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return reply{}, err
	}
	defer release()
	r, err := c.cmd(ctx, op, line)
	if err != nil {
		return r, err
	}
	for _, w := range want {
		if r.code == w {
			return r, nil
		}
	}
	return r, &ReplyError{Cmd: op, Code: r.code, Msg: safe(r.msg)}
}

// PostingAllowed reports whether the server said posting is allowed (200
// rather than 201 in its greeting, or in its answer to MODE READER).
func (c *Conn) PostingAllowed() bool { return c.posting }

// Capabilities returns what the server listed in answer to CAPABILITIES
// after the greeting, MODE READER or authentication, or nil for a server
// without that command (RFC 977, RFC 2980).
func (c *Conn) Capabilities() Capabilities { return c.caps }

// Capabilities maps a capability label (upper case, "OVER", "READER",
// "LIST", ...) to its arguments (RFC 3977 section 5.2).
type Capabilities map[string][]string

// Has reports whether the capability label is listed (case-insensitive).
func (cs Capabilities) Has(label string) bool {
	_, ok := cs[strings.ToUpper(label)]
	return ok
}

// loadCaps sends CAPABILITIES and reads the list; a refusal means an
// older server (nil capabilities).
func (c *Conn) loadCaps(ctx context.Context) error {
	r, err := c.cmd(ctx, "CAPABILITIES", "CAPABILITIES")
	if err != nil {
		return err
	}
	return c.readCaps(ctx, r)
}

// readCaps reads the list after r, the reply to CAPABILITIES.
func (c *Conn) readCaps(ctx context.Context, r reply) error {
	if r.code != 101 {
		c.caps = nil
		return nil
	}
	caps := Capabilities{}
	d := &dotLines{lr: c.lr}
	for n := 0; ; n++ {
		line, err := d.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return c.sess.Fail(ctx, "CAPABILITIES", err)
		}
		if n >= maxCapLines {
			return c.sess.Fail(ctx, "CAPABILITIES", fmt.Errorf("%w: more than %d capability lines", ErrMalformedReply, maxCapLines))
		}
		if f := strings.Fields(line); len(f) > 0 {
			caps[strings.ToUpper(f[0])] = f[1:]
		}
	}
	c.caps = caps
	return nil
}

// maxCapLines bounds the capability list.
const maxCapLines = 1000

// Authenticate logs in with AUTHINFO USER and, when the server asks for
// it (381), AUTHINFO PASS (RFC 4643 section 2.3). The password is masked
// in traces and never part of an error. A 281 to USER alone completes the
// login. Failures are a *ReplyError: 481 (rejected, ErrAuthFailed), 482
// (out of sequence), 502 (already authenticated, or not possible now).
// On success the capabilities are read again, as they may change.
//
// user and pass may hold spaces (servers MAY accept them, RFC 4643
// erratum 1787) but no CR, LF or NUL.
func (c *Conn) Authenticate(ctx context.Context, user, pass string) error {
	for _, a := range [...]struct{ op, v string }{{"AUTHINFO USER", user}, {"AUTHINFO PASS", pass}} {
		if a.v == "" {
			return opErr(a.op, errors.New("empty argument"))
		}
		if err := wire.CheckArg(a.v, false); err != nil {
			return opErr(a.op, err)
		}
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return err
	}
	defer release()
	r, err := c.cmd(ctx, "AUTHINFO USER", "AUTHINFO USER "+user)
	if err != nil {
		return err
	}
	op := "AUTHINFO USER"
	if r.code == 381 {
		op = "AUTHINFO PASS"
		if r, err = c.cmd(ctx, op, "AUTHINFO PASS "+pass); err != nil {
			return err
		}
	}
	if r.code != 281 {
		return &ReplyError{Cmd: op, Code: r.code, Msg: safe(r.msg)}
	}
	if c.caps != nil {
		return c.loadCaps(ctx)
	}
	return nil
}

// ModeReader sends MODE READER (RFC 3977 section 5.3) and records whether
// posting is allowed. Dial already does this unless Dialer.NoModeReader.
func (c *Conn) ModeReader(ctx context.Context) error {
	r, err := c.simple(ctx, "MODE READER", "MODE READER", 200, 201)
	if err != nil {
		return err
	}
	c.posting = r.code == 200
	if c.caps != nil {
		release, err := c.sess.Begin(ctx)
		if err != nil {
			return err
		}
		defer release()
		return c.loadCaps(ctx)
	}
	return nil
}

// Group is what GROUP reports about a newsgroup (reply 211).
type Group struct {
	Name  string
	Count int64 // estimated number of articles
	Low   int64 // reported low water mark
	High  int64 // reported high water mark
}

// Group selects the newsgroup name (GROUP, RFC 3977 section 6.1.1) and
// returns its estimated count and water marks. A missing group is a
// *ReplyError matching ErrNoSuchGroup (411). name may not hold spaces or
// control characters.
func (c *Conn) Group(ctx context.Context, name string) (Group, error) {
	if err := checkWord("GROUP", name); err != nil {
		return Group{}, err
	}
	r, err := c.simple(ctx, "GROUP", "GROUP "+name, 211)
	if err != nil {
		return Group{}, err
	}
	g, err := Reply{r.code, r.msg}.Group()
	if err != nil {
		return Group{}, err
	}
	g.Name = name
	c.group = name
	return g, nil
}

// Reply is a server's status line, the reply to a line sent with Cmd.
type Reply struct {
	// Code is the three-digit status code.
	Code int
	// Msg is the text after it.
	Msg string
}

// Group reads a 211 reply to GROUP: "count low high group".
func (r Reply) Group() (Group, error) {
	f := strings.Fields(r.Msg)
	var g Group
	var ok1, ok2, ok3 bool
	if len(f) >= 3 {
		g.Count, ok1 = parseNum(f[0])
		g.Low, ok2 = parseNum(f[1])
		g.High, ok3 = parseNum(f[2])
	}
	if len(f) >= 4 {
		g.Name = f[3]
	}
	if !ok1 || !ok2 || !ok3 || r.Code != 211 {
		return Group{}, opErr("GROUP", fmt.Errorf("%w: %d %q", ErrMalformedReply, r.Code, wire.Clip(r.Msg)))
	}
	return g, nil
}

// Cmd writes line, one command line exactly as the caller wrote it (an
// access plan's step), and reads the status line, which the caller
// judges. line must end in CR LF and hold no other CR, LF or NUL. The
// list of a 101 reply to CAPABILITIES is read (Capabilities; another
// reply means none); a 200 or 201 to MODE READER says whether posting is
// allowed; a 211 to GROUP selects the group (Overview); after QUIT the
// connection is closed. Commands whose reply goes on with a block
// (ARTICLE, LIST) have their own methods (ArticleLine, ListLine).
func (c *Conn) Cmd(ctx context.Context, line string) (Reply, error) {
	body, err := wire.CheckLine(line)
	verb, arg, _ := strings.Cut(body, " ")
	verb = strings.ToUpper(verb)
	if err != nil {
		return Reply{}, opErr(verb, err)
	}
	var r reply
	if verb == "QUIT" {
		err = c.sess.Quit(ctx, func() error {
			r, err = c.cmd(ctx, verb, body)
			return err
		})
		return Reply{r.code, safe(r.msg)}, err
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer release()
	if r, err = c.cmd(ctx, verb, body); err != nil {
		return Reply{}, err
	}
	switch {
	case verb == "CAPABILITIES":
		if err := c.readCaps(ctx, r); err != nil {
			return Reply{}, err
		}
	case verb == "MODE" && (r.code == 200 || r.code == 201):
		c.posting = r.code == 200
	case verb == "GROUP" && r.code == 211:
		c.group = arg
	}
	return Reply{r.code, safe(r.msg)}, nil
}

// Quit sends QUIT and closes the connection, which is closed even when
// an error is returned. While an article or listing is open it returns
// ErrBusy: close that first (or use Close).
func (c *Conn) Quit(ctx context.Context) error {
	return c.sess.Quit(ctx, func() error {
		r, err := c.cmd(ctx, "QUIT", "QUIT")
		if err == nil && r.code != 205 {
			err = &ReplyError{Cmd: "QUIT", Code: r.code, Msg: safe(r.msg)}
		}
		return err
	})
}

// Close closes the connection without QUIT.
func (c *Conn) Close() error { return c.sess.Close() }

// checkWord rejects an empty argument or one that would not stay one
// word on the command line: CR, LF, NUL, TAB or space.
func checkWord(op, s string) error {
	if s == "" {
		return opErr(op, errors.New("empty argument"))
	}
	if err := wire.CheckArg(s, true); err != nil {
		return opErr(op, err)
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return opErr(op, &ArgError{Offset: i, Byte: ' '})
	}
	return nil
}

// parseNum parses a non-negative decimal article number or count.
func parseNum(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}
