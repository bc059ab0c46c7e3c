package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/nntp"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// NNTPOpener opens news: and nntp: URLs (RFC 1738 3.6, 3.7; RFC 5538's
// news://HOST/... in the rfc3986 mode) by carrying out their access plan
// with client/nntp. Its zero value is ready to use.
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
}

// server returns the news server for news: URLs, "" when none is set.
func (o *NNTPOpener) server(req *Request) string {
	if o.Server != "" {
		return o.Server
	}
	if req.Getenv != nil {
		return req.Getenv("NNTPSERVER")
	}
	return ""
}

// plan returns the access plan of req's URL, reading or posting.
func (o *NNTPOpener) plan(req *Request, post bool) (*scheme.Plan, error) {
	u := req.URL
	server := o.server(req)
	if u.SchemeName() == "news" && !u.HasAuthority && server == "" {
		return nil, &Error{Op: "check", Offset: -1, Kind: ErrUnsupportedScheme,
			Rule: "news URLs name no server (RFC 1738 3.6): give yours with --nntp HOST[:PORT] or the NNTPSERVER environment variable"}
	}
	plan, err := scheme.PlanURL(u, scheme.PlanOptions{Mode: urlkit.RFC3986, NewsServer: server, Post: post, User: o.User, Password: o.Password})
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
	for _, st := range plan.Steps {
		switch {
		case st.Kind == scheme.Connect:
			var err error
			if c, err = d.Dial(ctx, st.Text); err != nil {
				return nil, err
			}
			req.progress()
		case st.Kind == scheme.Send && st.Op == "AUTHINFO USER":
			pass := ""
			for _, p := range plan.Steps {
				if p.Op == "AUTHINFO PASS" {
					pass = p.Arg
				}
			}
			if pass != "" {
				req.secrets().Add(pass)
			}
			if err := c.Authenticate(ctx, st.Arg, pass); err != nil {
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

// Open carries out the URL's access plan (what "urlkit explain" prints):
// the client's commands are the plan's Send steps, which a test compares
// with the wire against INN.
func (o *NNTPOpener) Open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := o.plan(req, false)
	if err != nil {
		return nil, err
	}
	c, err := o.dial(ctx, req, plan)
	if err != nil {
		return nil, err
	}
	resp := &Response{Size: -1, ContentType: "text/plain"}
	var g nntp.Group
	for _, st := range plan.Steps {
		if st.Kind != scheme.Send {
			continue
		}
		switch st.Op {
		case "GROUP":
			if g, err = c.Group(ctx, st.Arg); err != nil {
				quitAfter(ctx, req, c) // the session ends as the plan says
				return nil, err
			}
			req.progress()
			resp.Reply = "211 " + strconv.FormatInt(g.Count, 10) + " " + strconv.FormatInt(g.Low, 10) + " " + strconv.FormatInt(g.High, 10) + " " + g.Name
		case "OVER":
			resp.Listing = true
			body := &newsBody{c: c, ctx: ctx}
			var s *nntp.OverviewScanner
			if g.Count > 0 && g.High >= g.Low {
				s = c.Overview(ctx, g.Low, g.High)
				body.closeR = s.Close // a listing stopped early is read to its end
			}
			body.next = o.overviewLines(s)
			resp.Body = body
			return resp, nil
		case "ARTICLE":
			a, err := c.Article(ctx, st.Arg)
			if err != nil {
				quitAfter(ctx, req, c)
				return nil, err
			}
			resp.ContentType = "message/rfc822"
			resp.Body = &newsBody{c: c, ctx: ctx, r: a, closeR: a.Close}
			return resp, nil
		case "LIST":
			s, err := c.ListActive(ctx, "")
			if err != nil {
				quitAfter(ctx, req, c)
				return nil, err
			}
			resp.Listing = true
			resp.Body = &newsBody{c: c, ctx: ctx, next: o.groupLines(s), closeR: s.Close}
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
func quitAfter(ctx context.Context, req *Request, c *nntp.Conn) {
	if req.wd != nil {
		defer req.wd.pause()()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	c.Quit(ctx)
}

// overviewLines formats one article per call, false at the end.
func (o *NNTPOpener) overviewLines(s *nntp.OverviewScanner) func([]byte) ([]byte, bool, error) {
	return func(b []byte) ([]byte, bool, error) {
		if s == nil || !s.Next() {
			if s == nil {
				return b, false, nil
			}
			return b, false, s.Err()
		}
		ov := s.Item()
		if o.JSON {
			j, err := json.Marshal(struct {
				Number    int64  `json:"number"`
				Date      string `json:"date"`
				From      string `json:"from"`
				Subject   string `json:"subject"`
				MessageID string `json:"message_id"`
			}{ov.Number, ov.Date, ov.From, ov.Subject, ov.MessageID})
			return append(append(b, j...), '\n'), true, err
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
func (o *NNTPOpener) groupLines(s *nntp.GroupScanner) func([]byte) ([]byte, bool, error) {
	return func(b []byte) ([]byte, bool, error) {
		if !s.Next() {
			return b, false, s.Err()
		}
		g := s.Item()
		if o.JSON {
			j, err := json.Marshal(struct {
				Group  string `json:"group"`
				High   int64  `json:"high"`
				Low    int64  `json:"low"`
				Status string `json:"status"`
			}{g.Name, g.High, g.Low, g.Status})
			return append(append(b, j...), '\n'), true, err
		}
		return append(append(b, safetext.Visible(g.String())...), '\n'), true, nil
	}
}

// newsBody streams an article (r) or a listing (next, one line per
// call), and ends the session with QUIT on Close.
type newsBody struct {
	c      *nntp.Conn
	ctx    context.Context
	r      io.Reader
	next   func([]byte) ([]byte, bool, error)
	closeR func() error
	buf    []byte
	done   bool
}

func (b *newsBody) Read(p []byte) (int, error) {
	if b.r != nil {
		return b.r.Read(p)
	}
	for len(b.buf) == 0 {
		if b.done {
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

// Close finishes the response and quits; an error of the response wins.
func (b *newsBody) Close() error {
	var err error
	if b.closeR != nil {
		err = b.closeR()
	}
	if err != nil {
		b.c.Close()
		return err
	}
	if qerr := b.c.Quit(b.ctx); qerr != nil && !errors.Is(qerr, nntp.ErrClosed) {
		return qerr
	}
	return nil
}

// Classify names the kind of the NNTP client's errors (see Classifier).
func (o *NNTPOpener) Classify(err error) error {
	var re *nntp.ReplyError
	switch {
	case errors.Is(err, nntp.ErrNoSuchGroup), errors.Is(err, nntp.ErrNoSuchArticle):
		return ErrNotFound
	case errors.Is(err, nntp.ErrAuthFailed), errors.Is(err, nntp.ErrAuthRequired), errors.Is(err, nntp.ErrPostingNotAllowed):
		return ErrAccessDenied
	case errors.Is(err, nntp.ErrUnsafeArg):
		return ErrUnsafe
	case errors.Is(err, nntp.ErrBadArticle):
		return ErrInvalidURL
	case errors.Is(err, nntp.ErrMalformedReply), errors.Is(err, nntp.ErrLineTooLong):
		return ErrProtocol
	case errors.As(err, &re):
		return ErrStatus
	}
	return nil
}
