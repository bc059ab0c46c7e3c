package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/mailbox"
	"github.com/urlkit/urlkit/client/nntp"
	"github.com/urlkit/urlkit/client/smtp"
	"github.com/urlkit/urlkit/scheme"
)

// maxMessage bounds the message Send reads (its header is checked, and
// its size announced, before anything is sent).
const maxMessage = 32 << 20

// MailOpener finds mail for a Fetcher (its Mail field): mid: URLs in
// mailboxes and cid: URLs in a message (RFC 1630, RFC 2392), and holds the settings of Send for
// mailto: URLs. Its zero value reads $MAIL.
type MailOpener struct {
	// Mailboxes are the Maildir directories and mbox files searched for
	// a mid: URL's message, in order; empty means $MAIL.
	Mailboxes []string
	// Message is the file (a MIME message) a cid: URL's part is looked
	// for in; cid: URLs refer to the message they appear in.
	Message string

	// Server is the SMTP server mailto: messages are submitted to,
	// HOST[:PORT] (port 25 by default); "" means $SMTPSERVER.
	Server string
	// From is the sender; "" means $EMAIL.
	From string
	// Dialer holds the SMTP client's settings (StartTLS, TLSConfig);
	// its Trace and LocalName are set by Send.
	Dialer smtp.Dialer
	// Now is the clock of the Date fields added (nil: time.Now).
	Now func() time.Time
}

// midOpener opens mid: URLs: the mailboxes first, then, when a news
// server is set, the news article with that message-id.
type midOpener struct{ f *Fetcher }

func (o *midOpener) open(ctx context.Context, req *Request) (*Response, error) {
	id, cid := splitMID(req.URL)
	if strings.ContainsAny(id+cid, "\r\n\x00") {
		return nil, &Error{Op: "check", Offset: -1, Kind: ErrUnsafe, Rule: "the message-id holds CR, LF or NUL"}
	}
	boxes := o.f.Mail.mailboxes(req)
	var m *mailbox.Message
	var err error
	if len(boxes) > 0 {
		m, err = mailbox.Find(ctx, id, boxes...)
	} else {
		err = fmt.Errorf("%w: no mailbox to search (--mailbox PATH or $MAIL)", mailbox.ErrNotFound)
	}
	if errors.Is(err, mailbox.ErrNotFound) && cid == "" && o.f.NNTP.server(req) != "" && req.Reopen != nil {
		// RFC 1630: a message-id names a news article as well.
		nu := (&scheme.News{MessageID: id}).URL()
		return req.Reopen(ctx, nu)
	}
	if err != nil {
		return nil, err
	}
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	if cid == "" {
		return &Response{Body: rc, Size: m.Length, ContentType: "message/rfc822"}, nil
	}
	return partResponse(rc, cid)
}

// classify names the kind of the mailbox errors (see classifier).
func (o *midOpener) classify(err error) error { return o.f.Mail.classify(err) }

// splitMID splits RFC 2392's mid:MESSAGE-ID/CONTENT-ID, decoded.
func splitMID(u *urlkit.URL) (id, cid string) {
	ssp := u.SchemeSpecificPart()
	if u.HasFragment {
		ssp = strings.TrimSuffix(ssp, "#"+u.Fragment)
	}
	raw, rawCID, _ := strings.Cut(ssp, "/")
	id, _ = urlkit.PathUnescape(raw)
	cid, _ = urlkit.PathUnescape(rawCID)
	return id, cid
}

// open opens a cid: URL: the decoded body part of Message.
func (o *MailOpener) open(ctx context.Context, req *Request) (*Response, error) {
	v, err := viewOf[*scheme.CID](req.URL, urlkit.RFC3986)
	if err != nil {
		return nil, err
	}
	cid := v.ID
	if strings.ContainsAny(cid, "\r\n\x00") {
		return nil, &Error{Op: "check", Offset: -1, Kind: ErrUnsafe, Rule: "the content-id holds CR, LF or NUL"}
	}
	if o.Message == "" {
		return nil, &Error{Op: "check", Offset: -1, Kind: ErrUnsupportedScheme,
			Rule: "a cid: URL names a part of the message it appears in (RFC 2392): give the message with --message FILE, or use mid:MESSAGE-ID/CONTENT-ID"}
	}
	f, err := os.Open(o.Message)
	if err != nil {
		return nil, err
	}
	return partResponse(f, cid)
}

// partResponse finds the part cid in the message rc and returns it,
// decoded; rc is closed with the Body.
func partResponse(rc io.ReadCloser, cid string) (*Response, error) {
	p, err := mailbox.FindPart(bufio.NewReader(rc), cid)
	if err != nil {
		rc.Close()
		return nil, err
	}
	return &Response{Body: readCloser{p.Body, rc}, Size: -1, ContentType: p.ContentType}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

func (o *MailOpener) mailboxes(req *Request) []string {
	if len(o.Mailboxes) > 0 {
		return o.Mailboxes
	}
	if req.Getenv != nil && req.Getenv("MAIL") != "" {
		return []string{req.Getenv("MAIL")}
	}
	return nil
}

// classify names the kind of the mailbox and SMTP clients' errors.
func (o *MailOpener) classify(err error) error {
	var re *smtp.ReplyError
	var rs *smtp.RecipientsError
	switch {
	case errors.Is(err, mailbox.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, mailbox.ErrBadMessage), errors.Is(err, mailbox.ErrBadMailbox):
		return ErrProtocol
	case errors.Is(err, smtp.ErrUnsafeArg):
		return ErrUnsafe
	case errors.Is(err, smtp.ErrBadAddress), errors.Is(err, smtp.ErrBadHeader):
		return ErrInvalidURL
	case errors.Is(err, smtp.ErrTooLarge):
		return ErrTooLarge
	case errors.Is(err, smtp.ErrMalformedReply), errors.Is(err, smtp.ErrLineTooLong), errors.Is(err, smtp.ErrReplyTooLong):
		return ErrProtocol
	case errors.As(err, &rs), errors.As(err, &re):
		return ErrStatus
	}
	return nil
}

// Sent is the outcome of Send: the server's acceptance and the plan
// carried out.
type Sent struct {
	Reply string
	Plan  *scheme.Plan
	// Warnings are what the user should know of the message as sent
	// (its own To, Cc or Bcc fields, which choose no recipient).
	Warnings []string
}

// Send carries out the posting or submission plan of u (what "urlkit
// explain" prints for it, with scheme.PlanOptions.Post) with the message
// read from msg, and returns the server's acceptance:
//
//   - mailto: (RFC 6068 in the rfc3986 and lenient modes): msg is a body,
//     or a whole message when it starts with header fields. To comes from
//     the URL (its addresses and to= hfields), the other hfields become
//     header fields, From is MailOpener.From or $EMAIL, Date and
//     Message-ID are added; the header is checked (no CR or LF in a value,
//     addresses parsed) and every address checked as an RFC 5321 path
//     before connecting. The server is MailOpener.Server or $SMTPSERVER.
//   - news:GROUP, nntp://HOST/GROUP: msg is the article; Newsgroups from
//     the URL, Message-ID and Date added when absent, the header checked
//     per RFC 5536 before connecting; POST.
//
// A message larger than 32 MiB fails with ErrTooLarge before anything
// is sent. The Sent result holds the plan carried out, for explain-like
// output and the plan-equals-wire test.
func (f *Fetcher) Send(ctx context.Context, u *urlkit.URL, msg io.Reader) (*Sent, error) {
	req := f.newRequest(u)
	ctx = f.withCheck(ctx)
	red := req.secrets()
	if f.Trace != nil {
		req.Trace = red.Writer(f.Trace)
	}
	if !u.IsAbs() {
		return nil, req.notAbsolute()
	}
	if err := req.check(urlkit.RFC3986, f.AllowPorts); err != nil { // as the mailto and news plans read it
		err.(*Error).secrets = red
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(msg, maxMessage+1))
	if err != nil {
		return nil, req.errorf("read", nil, err)
	}
	if len(data) > maxMessage {
		return nil, req.errorf("check", ErrTooLarge, fmt.Errorf("the message is larger than %d bytes", maxMessage))
	}
	ctx, wd := newWatchdog(ctx, f.timeout())
	defer wd.stop()
	req.wd = wd
	var sent Sent
	switch u.SchemeName() {
	case "mailto":
		req.kinds = &f.Mail
		err = f.Mail.submit(ctx, req, data, &sent)
	case "news", "nntp":
		req.kinds = &f.NNTP
		err = f.NNTP.post(ctx, req, data, &sent)
	default:
		//lint:ignore ST1005 the colon is the scheme's ("not http:")
		return nil, req.errorf("check", ErrUnsupportedScheme, fmt.Errorf("send takes mailto:, news: and nntp: URLs, not %s:", u.SchemeName()))
	}
	if err != nil {
		return nil, req.wrap(ctx, "send", err)
	}
	sent.Reply = red.Redact(sent.Reply)
	return &sent, nil
}

// post runs a posting plan.
func (o *NNTPOpener) post(ctx context.Context, req *Request, article []byte, sent *Sent) error {
	plan, err := o.plan(req, true, false)
	if err != nil {
		return err
	}
	sent.Plan = plan
	group := ""
	if v, err := scheme.Parse(req.URL, urlkit.RFC3986); err == nil {
		switch n := v.(type) {
		case *scheme.News:
			group = n.Group
		case *scheme.NNTP:
			group = n.Group
		}
	}
	checked, err := nntp.CheckArticle(article, nntp.ArticleOptions{Newsgroups: group})
	if err != nil {
		return err
	}
	if err := lineLengths(checked); err != nil {
		return req.errorf("check", ErrBadMessage, err)
	}
	c, err := o.dial(ctx, req, plan)
	if err != nil {
		return err
	}
	defer c.Close()
	reply := ""
	for _, st := range plan.Steps {
		if st.Kind == scheme.Send && st.Op == "POST" {
			if reply, err = c.Post(ctx, bytes.NewReader(checked)); err != nil {
				return err
			}
			req.progress()
		}
	}
	if err := nntpQuit(ctx, c, quitLine(plan.Steps)); err != nil && !errors.Is(err, nntp.ErrClosed) {
		return err
	}
	sent.Reply = "240 " + reply
	return nil
}

// lineLengths refuses a message with a line over 998 octets (RFC 5322
// 2.1.1, which RFC 5536 keeps for articles): a server may cut it or
// refuse it (RFC 5321 4.5.3.1.6), and urlkit's own reader cannot read
// such an article back. urlkit does not re-encode the body to shorten
// its lines.
func lineLengths(msg []byte) error {
	for len(msg) > 0 {
		line := msg
		if i := bytes.IndexByte(msg, '\n'); i >= 0 {
			line, msg = msg[:i], msg[i+1:]
		} else {
			msg = nil
		}
		if l := len(bytes.TrimSuffix(line, []byte("\r"))); l > 998 {
			return fmt.Errorf("a line of %d octets, over the 998 of RFC 5322 section 2.1.1 (urlkit does not re-encode the message to shorten it)", l)
		}
	}
	return nil
}

// submit runs a mailto submission plan.
func (o *MailOpener) submit(ctx context.Context, req *Request, data []byte, sent *Sent) error {
	v, err := scheme.Parse(req.URL, urlkit.RFC3986)
	if err != nil {
		return invalid(err)
	}
	m := v.(*scheme.Mailto)
	from := o.From
	if from == "" && req.Getenv != nil {
		from = req.Getenv("EMAIL")
	}
	server := o.Server
	if server == "" && req.Getenv != nil {
		server = req.Getenv("SMTPSERVER")
	}
	if server == "" {
		return &Error{Op: "check", Offset: -1, Kind: ErrNeedInput,
			Rule: "no mail server to submit to: give one with --smtp HOST[:PORT] or the SMTPSERVER environment variable"}
	}
	if !strings.Contains(server, ":") || strings.HasSuffix(server, "]") {
		server += ":25"
	}
	if from == "" {
		return &Error{Op: "check", Offset: -1, Kind: ErrNeedInput, Rule: "no sender: give one with --from ADDRESS or the EMAIL environment variable"}
	}
	// The plan refuses a CR, LF or NUL in an address or header value
	// before anything else.
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.RFC3986, Email: from, MailServer: server})
	if err != nil {
		return invalid(err)
	}
	if err := refused(plan); err != nil {
		return err
	}
	fields, body := splitMessage(data)
	has := func(name string) bool {
		for _, f := range fields {
			if strings.EqualFold(f.Name, name) {
				return true
			}
		}
		return false
	}
	// The URL names the recipients (RFC 6068: its addresses, to=, cc=,
	// bcc=); the message's own fields choose none, and a reader of the
	// message should know where it did not go.
	var own []string
	for _, name := range [...]string{"To", "Cc", "Bcc"} {
		if has(name) {
			own = append(own, name)
		}
	}
	if len(own) > 0 {
		sent.Warnings = append(sent.Warnings, fmt.Sprintf("the message's own %s field(s) choose no recipient: it goes to the URL's, %s (to=, cc= and bcc= in the URL add more)",
			strings.Join(own, ", "), strings.Join(m.Recipients(), ", ")))
	}
	var add []smtp.Field
	if !has("From") {
		add = append(add, smtp.Field{Name: "From", Value: from})
	}
	if !has("To") {
		to := m.To
		if len(to) == 0 {
			to = []string{m.Address}
		}
		add = append(add, smtp.Field{Name: "To", Value: strings.Join(to, ", ")})
	}
	for _, f := range m.Fields {
		if !has(f.Name) {
			add = append(add, smtp.Field{Name: f.Name, Value: f.Value})
		}
	}
	if m.HasBody && len(bytes.TrimSpace(body)) == 0 {
		body = []byte(m.Body)
	}
	if len(body) > 0 && body[len(body)-1] != '\n' {
		body = append(body, '\n')
	}
	// CRLF line ends, as the message goes on the wire: its length is
	// the SIZE announced (RFC 1870).
	body = bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	opts := smtp.MessageOptions{}
	if o.Now != nil {
		opts.Now = o.Now()
	}
	msg, err := smtp.BuildMessage(append(add, fields...), body, opts)
	if err != nil {
		return err
	}
	if err := lineLengths(msg); err != nil {
		return req.errorf("check", ErrBadMessage, err)
	}
	// Every address is checked as an RFC 5321 path before connecting.
	if err := smtp.CheckAddress(from); err != nil {
		return err
	}
	for _, a := range m.Recipients() {
		if err := smtp.CheckAddress(a); err != nil {
			return err
		}
	}
	// The plan again, now that the message's size is known.
	plan, err = req.plan(scheme.PlanOptions{Mode: urlkit.RFC3986, Email: from, MailServer: server, MessageSize: int64(len(msg))})
	if err != nil {
		return invalid(err)
	}
	sent.Plan = plan
	d := o.Dialer
	d.Trace = req.Trace
	d.Timeout = req.connectTimeout(d.Timeout)
	// The session is the plan's lines; with STARTTLS, which the plan does
	// not show, the client says EHLO itself, before and after it.
	d.GreetingOnly = !d.StartTLS
	for _, st := range plan.Steps {
		if st.Op == "EHLO" {
			d.LocalName = st.Arg // the name the plan says
		}
	}
	var c *smtp.Conn
	quit := ""
	for _, st := range plan.Sends() {
		if st.Op == "QUIT" {
			quit = st.Text
		}
	}
	defer func() {
		if c == nil {
			return
		}
		if quit == "" {
			c.Close()
			return
		}
		// A refusal ends the session as the plan does; the connection is
		// closed in any case.
		briefly(ctx, req, func(ctx context.Context) { c.Cmd(ctx, quit) })
	}()
	out := newOutcomes(plan.Steps)
	var to []string
	var failed []*smtp.RecipientError
	for i, st := range plan.Steps {
		switch {
		case st.Kind == scheme.Connect:
			if c, err = d.Dial(ctx, st.Text); err != nil {
				return err
			}
			req.progress()
			continue
		case st.Kind != scheme.Send || !out.holds(i):
			continue
		case d.StartTLS && (st.Op == "EHLO" || st.Op == "HELO"):
			if ok, v := c.Extension("SIZE"); ok && st.Op == "EHLO" {
				out.set(i, 250, "\nSIZE "+v)
			}
			continue
		case st.Op == "DATA":
			if len(to) == 0 {
				return &smtp.RecipientsError{Failed: failed}
			}
			if err := mailData(ctx, c, st.Text, msg); err != nil {
				return err
			}
			req.progress()
			continue
		case st.Op == "MAIL":
			if ok, v := c.Extension("SIZE"); ok {
				if limit, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && limit > 0 && int64(len(msg)) > limit {
					return fmt.Errorf("%w: %d > %d octets", smtp.ErrTooLarge, len(msg), limit)
				}
			}
		}
		code, text, err := c.Cmd(ctx, st.Text)
		if st.Op == "QUIT" {
			c = nil // closed
			if err != nil && !errors.Is(err, smtp.ErrClosed) {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		out.set(i, code, text)
		refused := &smtp.ReplyError{Cmd: st.Op, Code: code, Msg: text}
		switch {
		case st.Op == "RCPT" && (code == 250 || code == 251):
			to = append(to, st.Arg)
		case st.Op == "RCPT":
			failed = append(failed, &smtp.RecipientError{Addr: st.Arg, ReplyError: *refused})
		case code == 250, out.rescued(i):
		default:
			return refused
		}
	}
	if failed != nil {
		return &smtp.RecipientsError{Failed: failed, Delivered: true}
	}
	sent.Reply = "250 accepted for " + strings.Join(to, ", ")
	return nil
}

// mailData sends the plan's DATA line and the message.
func mailData(ctx context.Context, c *smtp.Conn, line string, msg []byte) error {
	w, err := c.DataLine(ctx, line)
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// splitMessage reads a message given on standard input: header fields
// (in order, unfolded) and the body when it starts with a header, else
// no fields and the whole input as the body.
func splitMessage(data []byte) ([]smtp.Field, []byte) {
	norm := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	head, body, ok := bytes.Cut(norm, []byte("\n\n"))
	if !ok {
		return nil, data
	}
	var fields []smtp.Field
	for _, line := range strings.Split(string(head), "\n") {
		if (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) && len(fields) > 0 {
			fields[len(fields)-1].Value += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, data // not a header: the whole input is the body
		}
		fields = append(fields, smtp.Field{Name: name, Value: strings.TrimSpace(value)})
	}
	return fields, body
}
