package fetch

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/nntp"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// NNTPOpener opens news: and nntp: URLs for a Fetcher (its NNTP field;
// RFC 1738 3.6, 3.7; RFC 5538's news://HOST/... in the rfc3986 mode) by
// carrying out their access plan with client/nntp. Its zero value is
// ready to use.
//
// news: URLs name no server: Server is used, else the NNTPSERVER
// environment variable (HOST or HOST:PORT, as tin, slrn and Lynx read
// it); without either the fetch fails with ErrUnsupportedScheme.
//
// What the Body holds:
//   - news:GROUP and nntp://HOST/GROUP: the group's articles, one line
//     each: number, date, from, subject and message-id separated by TABs
//     (made safe for a terminal), or with JSON one object per line. The
//     overview is read with OVER in batches, so any group needs
//     constant memory.
//   - news:MESSAGE-ID and nntp://HOST/GROUP/N: the article, header and
//     body, as stored (unstuffed, LF line ends).
//   - news:*: the groups, "name high low status" per line (LIST ACTIVE).
type NNTPOpener struct {
	// Dialer holds the client's settings; its Trace is replaced by the
	// Fetcher's.
	Dialer nntp.Dialer
	// Server is the news server of news: URLs, HOST or HOST:PORT.
	Server string
	// User and Password log in (AUTHINFO) when the URL has no user.
	User, Password string
	// JSON lists articles and groups as JSON objects, one per line.
	JSON bool
	// Keep keeps the connection of a reading that ended well (or that
	// the server refused: no such group or article) for the next URL of
	// the same server and login, as FTPOpener.Keep does for FTP: a run
	// of news URLs is one session (scheme.PlanOptions.KeepNNTP and
	// NNTPKept: the plan says so). A kept connection the server has
	// closed meanwhile is replaced by a new one. Call Fetcher.CloseIdle
	// to QUIT the kept connections. Postings are never kept.
	Keep bool

	kept keptConns[*nntp.Conn] // by nntpSessionKey
}

// server returns the news server for news: URLs, "" when none is set.
// readMode: a news URL is read as RFC 5538 does (RFC 3986's syntax).
func (o *NNTPOpener) readMode() urlkit.Mode { return urlkit.RFC3986 }

func (o *NNTPOpener) server(req *Request) string {
	if o.Server != "" {
		return o.Server
	}
	if req.Getenv != nil {
		return req.Getenv("NNTPSERVER")
	}
	return ""
}

// plan returns the access plan of req's URL, reading or posting; kept
// plans it on a connection kept from an earlier URL.
func (o *NNTPOpener) plan(req *Request, post, kept bool) (*scheme.Plan, error) {
	u := req.URL
	server := o.server(req)
	if u.SchemeName() == "news" && !u.HasAuthority && server == "" {
		return nil, &Error{Op: "check", Offset: -1, Kind: ErrNeedInput,
			Rule: "news URLs name no server (RFC 1738 3.6): give yours with --nntp HOST[:PORT] or the NNTPSERVER environment variable"}
	}
	opts := scheme.PlanOptions{Mode: urlkit.RFC3986, NewsServer: server, Post: post, User: o.User, Password: o.Password}
	opts.KeepNNTP, opts.NNTPKept = o.Keep && !post, kept
	plan, err := req.plan(opts)
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	return plan, nil
}

// dial opens the session of the plan's Connect step and logs in when
// the plan says so.
func (o *NNTPOpener) dial(ctx context.Context, req *Request, plan *scheme.Plan) (*nntp.Conn, error) {
	d := o.Dialer
	d.Trace = req.Trace
	d.Timeout = req.connectTimeout(d.Timeout)
	var c *nntp.Conn
	out := newOutcomes(plan.Steps)
	for i, st := range plan.Steps {
		switch {
		case st.Kind == scheme.Connect:
			var err error
			d.GreetingOnly = true // the plan's CAPABILITIES and MODE READER follow
			if c, err = d.Dial(ctx, st.Text); err != nil {
				return nil, err
			}
			req.progress()
		case st.Kind != scheme.Send || !out.holds(i):
		case st.Op == "CAPABILITIES" || st.Op == "MODE":
			if err := o.start(ctx, c, st, i, out); err != nil {
				c.Close()
				return nil, err
			}
		case strings.HasPrefix(st.Op, "AUTHINFO"):
			// The login's lines are the plan's, the password with them.
			if st.Secret {
				req.secrets().Add(st.Arg)
			}
			r, err := c.Cmd(ctx, st.Text)
			if err == nil && r.Code != 281 {
				out.set(i, r.Code, r.Msg)
				if !out.rescued(i) {
					err = &nntp.ReplyError{Cmd: st.Op, Code: r.Code, Msg: r.Msg}
				}
			}
			if err != nil {
				c.Close()
				return nil, err
			}
		}
	}
	if c == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the news access plan connects nowhere"}
	}
	return c, nil
}

// start carries out a step of the session's start (RFC 3977 5.2, 5.3):
// CAPABILITIES, and MODE READER when the capabilities list MODE-READER
// and not READER, or there are none (the client's own judgement of the
// capabilities, which the plan's condition describes).
func (o *NNTPOpener) start(ctx context.Context, c *nntp.Conn, st scheme.Step, i int, out *outcomes) error {
	caps := c.Capabilities()
	if st.Op == "MODE" && (o.Dialer.NoModeReader || caps.Has("READER") || caps != nil && !caps.Has("MODE-READER")) ||
		st.Op == "CAPABILITIES" && caps == nil && out.sentBefore(i, "CAPABILITIES") {
		return nil // not asked for, or a server without CAPABILITIES
	}
	r, err := c.Cmd(ctx, st.Text)
	if err != nil {
		return err
	}
	out.set(i, r.Code, r.Msg)
	if st.Op == "MODE" && r.Code != 200 && r.Code != 201 && caps != nil {
		return &nntp.ReplyError{Cmd: "MODE READER", Code: r.Code, Msg: r.Msg}
	}
	return nil
}

// open carries out the URL's access plan (what "urlkit explain" prints):
// the client's commands are the plan's Send steps, which a test compares
// with the wire against INN.
func (o *NNTPOpener) open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := o.plan(req, false, false)
	if err != nil {
		return nil, err
	}
	key := ""
	if o.Keep {
		key = nntpSessionKey(plan.Steps)
	}
	for c, ok := o.kept.take(key); ok; c, ok = o.kept.take(key) {
		again, err := o.plan(req, false, true)
		if err != nil {
			c.Close()
			return nil, err
		}
		resp, err := o.read(ctx, req, again.Steps, c, key, true)
		if !errors.Is(err, errGone) {
			return resp, err
		}
	}
	c, err := o.dial(ctx, req, plan)
	if err != nil {
		return nil, err
	}
	return o.read(ctx, req, plan.Steps, c, key, false)
}

// errGone reports a kept connection that the server has closed: the
// reading starts again on a new one.
var errGone = errors.New("the kept NNTP connection is gone")

// nntpSessionKey names the server and login of a plan.
func nntpSessionKey(steps []scheme.Step) string {
	var addr, user, pass string
	for _, st := range steps {
		switch {
		case st.Kind == scheme.Connect:
			addr = st.Text
		case st.Op == "AUTHINFO USER":
			user = st.Arg
		case st.Op == "AUTHINFO PASS":
			pass = st.Arg
		}
	}
	if addr == "" {
		return ""
	}
	return addr + "\x00" + user + "\x00" + pass
}

// read carries out the reading steps of a plan on c, a new connection
// or (kept) one kept from an earlier URL; with a key the connection is
// kept again when the reading ends well or the server refuses it.
func (o *NNTPOpener) read(ctx context.Context, req *Request, steps []scheme.Step, c *nntp.Conn, key string, kept bool) (*Response, error) {
	resp := &Response{Size: -1, ContentType: "text/plain"}
	body := &newsBody{c: c, ctx: ctx, quit: quitLine(steps)}
	first := true
	// failed ends the session after err: a kept connection that turns
	// out closed is errGone; one the server refused on goes back for the
	// next URL, or ends with QUIT as the plan says.
	failed := func(err error) error {
		var re *nntp.ReplyError
		answered := errors.As(err, &re) && re.Code != 400 || errors.Is(err, nntp.ErrUnsafeArg)
		switch {
		case kept && first && !answered && ctx.Err() == nil:
			c.Close()
			return errGone
		case answered && key != "":
			o.kept.put(key, c)
		default:
			quitAfter(ctx, req, c, body.quit)
		}
		return err
	}
	if key != "" {
		body.keep = func() { o.kept.put(key, c) }
	}
	var g nntp.Group
	out := newOutcomes(steps)
	for i, st := range steps {
		if st.Kind != scheme.Send || !out.holds(i) {
			continue
		}
		switch st.Op {
		case "GROUP":
			r, err := c.Cmd(ctx, st.Text)
			if err == nil && r.Code != 211 {
				err = &nntp.ReplyError{Cmd: "GROUP", Code: r.Code, Msg: r.Msg}
			}
			if err == nil {
				g, err = r.Group()
			}
			if err != nil {
				return nil, failed(err)
			}
			first = false
			req.progress()
			resp.Reply = "211 " + strconv.FormatInt(g.Count, 10) + " " + strconv.FormatInt(g.Low, 10) + " " + strconv.FormatInt(g.High, 10) + " " + g.Name
		case "OVER", "XOVER":
			// The client reads the overview in batches, OVER or XOVER as
			// the capabilities say: the plan's two Range steps.
			resp.Listing = true
			var s *nntp.OverviewScanner
			if g.Count > 0 && g.High >= g.Low {
				s = c.Overview(ctx, g.Low, g.High)
				body.closeR = s.Close // a listing stopped early is read to its end
			}
			body.next = o.overviewLines(s, o.JSON || req.json)
			resp.Body = body
			return resp, nil
		case "ARTICLE":
			a, err := c.ArticleLine(ctx, st.Text)
			if err != nil {
				return nil, failed(err)
			}
			resp.ContentType = "message/rfc822"
			body.r, body.closeR = a, a.Close
			resp.Body = body
			return resp, nil
		case "LIST":
			s, err := c.ListLine(ctx, st.Text)
			var re *nntp.ReplyError
			if errors.As(err, &re) {
				if out.set(i, re.Code, re.Msg); out.rescued(i) {
					continue // LIST ACTIVE unknown: plain LIST
				}
			}
			if err != nil {
				return nil, failed(err)
			}
			resp.Listing = true
			body.next, body.closeR = o.groupLines(s, o.JSON || req.json), s.Close
			resp.Body = body
			return resp, nil
		}
	}
	c.Close()
	return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the news access plan reads nothing"}
}

// quitAfter ends the session after a refusal with QUIT, as the plan
// says, closing it in any case; a server that does not answer within a
// second is not waited for (and its silence does not replace the
// refusal's error with a timeout).
func quitAfter(ctx context.Context, req *Request, c *nntp.Conn, line string) {
	briefly(ctx, req, func(ctx context.Context) { nntpQuit(ctx, c, line) })
}

// nntpQuit ends the session with the plan's QUIT line, or the client's
// own when the plan has none (a kept connection's).
func nntpQuit(ctx context.Context, c *nntp.Conn, line string) error {
	if line == "" {
		return c.Quit(ctx)
	}
	r, err := c.Cmd(ctx, line)
	if err == nil && r.Code != 205 {
		err = &nntp.ReplyError{Cmd: "QUIT", Code: r.Code, Msg: r.Msg}
	}
	return err
}

// quitLine returns the text of the plan's QUIT step, or "".
func quitLine(steps []scheme.Step) string {
	for _, st := range steps {
		if st.Kind == scheme.Send && st.Op == "QUIT" {
			return st.Text
		}
	}
	return ""
}

// briefly runs quit, the end of a session after a refusal, for a second
// at most, whatever is left of ctx, outside the watchdog's count.
func briefly(ctx context.Context, req *Request, quit func(context.Context)) {
	if req.wd != nil {
		defer req.wd.pause()()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	quit(ctx)
}

// overviewLines formats one article per call, false at the end.
func (o *NNTPOpener) overviewLines(s *nntp.OverviewScanner, asJSON bool) func([]byte) ([]byte, bool, error) {
	return func(b []byte) ([]byte, bool, error) {
		if s == nil || !s.Next() {
			if s == nil {
				return b, false, nil
			}
			return b, false, s.Err()
		}
		ov := s.Item()
		if asJSON {
			b, err := safetext.AppendJSONLine(b, struct {
				Number    int64  `json:"number"`
				Date      string `json:"date"`
				From      string `json:"from"`
				Subject   string `json:"subject"`
				MessageID string `json:"message_id"`
			}{ov.Number, ov.Date, ov.From, ov.Subject, ov.MessageID})
			return b, true, err
		}
		b = strconv.AppendInt(b, ov.Number, 10)
		for _, f := range [...]string{ov.Date, ov.From, ov.Subject, ov.MessageID} {
			b = append(b, '\t')
			b = append(b, safetext.Visible(f)...)
		}
		return append(b, '\n'), true, nil
	}
}

// groupLines formats one group per call, false at the end.
func (o *NNTPOpener) groupLines(s *nntp.GroupScanner, asJSON bool) func([]byte) ([]byte, bool, error) {
	return func(b []byte) ([]byte, bool, error) {
		if !s.Next() {
			return b, false, s.Err()
		}
		g := s.Item()
		if asJSON {
			b, err := safetext.AppendJSONLine(b, struct {
				Group  string `json:"group"`
				High   int64  `json:"high"`
				Low    int64  `json:"low"`
				Status string `json:"status"`
			}{g.Name, g.High, g.Low, g.Status})
			return b, true, err
		}
		return append(append(b, safetext.Visible(g.String())...), '\n'), true, nil
	}
}

// newsBody streams an article (r) or a listing (next, one line per
// call), and on Close ends the session with QUIT or keeps it.
type newsBody struct {
	c      *nntp.Conn
	ctx    context.Context
	r      io.Reader
	next   func([]byte) ([]byte, bool, error)
	closeR func() error
	keep   func() // keeps c for the next URL instead of QUIT, or nil
	quit   string // the plan's QUIT line
	buf    []byte
	done   bool
	eof    bool // the response was read to its end
}

func (b *newsBody) Read(p []byte) (int, error) {
	if b.r != nil {
		n, err := b.r.Read(p)
		b.eof = b.eof || err == io.EOF
		return n, err
	}
	for len(b.buf) == 0 {
		if b.done {
			b.eof = true
			return 0, io.EOF
		}
		var more bool
		var err error
		b.buf, more, err = b.next(b.buf[:0])
		if err != nil {
			return 0, err
		}
		b.done = !more
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// newsDrainLimit bounds what Close reads of a response closed before its
// end, to end it and QUIT as a polite client does.
const newsDrainLimit = 1 << 20

// Close finishes the response and quits; an error of the response wins.
// A response closed before its end (a limit passed, the output failed)
// is read on for at most newsDrainLimit bytes; past that the connection
// is closed instead: a hostile server may never end it.
func (b *newsBody) Close() error {
	if !b.eof {
		io.Copy(io.Discard, io.LimitReader(b, newsDrainLimit))
		if !b.eof {
			b.c.Close()
			return nil
		}
	}
	var err error
	if b.closeR != nil {
		err = b.closeR()
	}
	if err != nil {
		b.c.Close()
		return err
	}
	if b.keep != nil {
		b.keep()
		return nil
	}
	if qerr := nntpQuit(b.ctx, b.c, b.quit); qerr != nil && !errors.Is(qerr, nntp.ErrClosed) {
		return qerr
	}
	return nil
}

// classify names the kind of the NNTP client's errors (see classifier).
func (o *NNTPOpener) classify(err error) error {
	var re *nntp.ReplyError
	switch {
	case errors.Is(err, nntp.ErrNoSuchGroup), errors.Is(err, nntp.ErrNoSuchArticle):
		return ErrNotFound
	case errors.Is(err, nntp.ErrAuthFailed), errors.Is(err, nntp.ErrAuthRequired), errors.Is(err, nntp.ErrPostingNotAllowed):
		return ErrAccessDenied
	case errors.Is(err, nntp.ErrUnsafeArg):
		return ErrUnsafe
	case errors.Is(err, nntp.ErrBadArticle):
		return ErrBadMessage
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A data block the server broke off before its ".": cut short,
		// as a reset there is (the dot reader wraps ErrMalformedReply too).
		return ErrShortTransfer
	case errors.Is(err, nntp.ErrMalformedReply), errors.Is(err, nntp.ErrLineTooLong):
		return ErrProtocol
	case errors.As(err, &re):
		return ErrStatus
	}
	return nil
}

// closeIdle ends the kept connections with QUIT.
func (o *NNTPOpener) closeIdle() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, c := range o.kept.drain() {
		c.Quit(ctx)
	}
}
