package smtp

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Default limits used when the corresponding Dialer field is zero.
const (
	DefaultMaxLine       = 4096 // bytes per reply line (RFC 5321 asks servers for 512)
	DefaultMaxReplyLines = 100  // lines per multi-line reply
)

// Dialer holds the options for connecting to an SMTP server for message
// submission. Its zero value is ready to use: EHLO localhost, no TLS.
type Dialer struct {
	// Timeout bounds the connection establishment. Zero means no limit
	// besides the context's.
	Timeout time.Duration

	// Trace, if set, receives a transcript: "> " for lines sent, "< " for
	// lines received, byte for byte except that the AUTH PLAIN response
	// is shown as wire.Mask ("xxxxx"). After STARTTLS the transcript shows the
	// decrypted session.
	Trace io.Writer

	// LocalName is the name given in EHLO/HELO (default "localhost").
	LocalName string

	// GreetingOnly makes Dial read the greeting and stop: the caller
	// says EHLO (or HELO) with Cmd, as an access plan writes it. StartTLS
	// is then not done.
	GreetingOnly bool

	// StartTLS makes Dial upgrade the connection with STARTTLS (RFC 3207)
	// and fail with ErrNoStartTLS when the server does not offer it.
	// Without it the session stays in clear even when it is offered.
	StartTLS bool

	// TLSConfig configures STARTTLS. Nil means a default configuration
	// verifying the server's certificate for the host of the address.
	TLSConfig *tls.Config

	// MaxLine and MaxReplyLines bound replies (defaults DefaultMaxLine and
	// DefaultMaxReplyLines).
	MaxLine       int
	MaxReplyLines int
}

// Conn is an SMTP session (RFC 5321) with the greeting read and
// EHLO (or HELO) done. It is not safe for concurrent use.
type Conn struct {
	d    Dialer
	raw  net.Conn     // the TCP connection
	sess wire.Session // over raw or TLS, traced
	lr   *wire.LineReader
	ext  map[string]string // EHLO keywords (upper case) -> parameters; nil after HELO
	tls  bool
}

// Dial connects to the SMTP server at addr ("host:port") with the zero
// Dialer.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d Dialer
	return d.Dial(ctx, addr)
}

// Dial connects to addr, reads the 220 greeting, sends EHLO (HELO if the
// server refuses EHLO with 500, 501, 502 or 504: an RFC 821 server) and,
// with d.StartTLS, upgrades the session with STARTTLS and sends EHLO
// again (RFC 3207 section 4.2). ctx bounds the whole exchange.
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	name := d.LocalName
	if name == "" {
		name = "localhost"
	}
	if err := wire.CheckArg(name, true); err != nil || strings.ContainsRune(name, ' ') {
		return nil, opErr("EHLO", fmt.Errorf("%w: local name %q", ErrUnsafeArg, wire.Clip(name)))
	}
	nc, err := wire.Dial(ctx, &net.Dialer{Timeout: d.Timeout}, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("smtp: dial %s: %w", addr, err)
	}
	c := &Conn{d: *d, raw: nc}
	c.sess = wire.Session{Name: "smtp", ErrBusy: ErrBusy, ErrClosed: ErrClosed, Bound: nc}
	c.d.LocalName = name
	if c.d.MaxLine <= 0 {
		c.d.MaxLine = DefaultMaxLine
	}
	if c.d.MaxReplyLines <= 0 {
		c.d.MaxReplyLines = DefaultMaxReplyLines
	}
	c.setConn(nc)
	if err := c.start(ctx, addr); err != nil {
		c.sess.Conn.Close()
		return nil, err
	}
	return c, nil
}

func (c *Conn) setConn(nc net.Conn) {
	conn := (&wire.Tracer{W: c.d.Trace, Mask: maskSecrets}).Conn(nc)
	c.sess.Conn = conn
	c.sess.W = bufio.NewWriter(conn)
	c.lr = wire.NewLineReader(conn, c.d.MaxLine)
}

func (c *Conn) start(ctx context.Context, addr string) error {
	release := wire.Bind(ctx, c.raw)
	defer release()
	r, err := c.read(ctx, "greeting")
	if err != nil {
		return err
	}
	if r.code != 220 {
		return &ReplyError{Cmd: "greeting", Code: r.code, Msg: safe(r.msg)}
	}
	if c.d.GreetingOnly {
		return nil
	}
	if err := c.hello(ctx); err != nil {
		return err
	}
	if !c.d.StartTLS {
		return nil
	}
	if _, ok := c.ext["STARTTLS"]; !ok {
		return ErrNoStartTLS
	}
	if _, err := c.expect(ctx, "STARTTLS", "STARTTLS", 220); err != nil {
		return err
	}
	cfg := c.d.TLSConfig.Clone()
	if cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		host, _, _ := net.SplitHostPort(addr)
		cfg.ServerName = host
	}
	tc := tls.Client(c.raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return c.sess.Fail(ctx, "STARTTLS", err)
	}
	c.setConn(tc)
	c.tls = true
	return c.hello(ctx) // forget what was learnt in clear (RFC 3207 section 4.2)
}

// hello sends EHLO, or HELO if EHLO is not known.
func (c *Conn) hello(ctx context.Context) error {
	r, err := c.cmd(ctx, "EHLO", "EHLO "+c.d.LocalName)
	if err != nil {
		return err
	}
	switch r.code {
	case 250:
		c.ext = parseExtensions(r.msg)
		return nil
	case 500, 501, 502, 504:
		c.ext = nil
		_, err := c.expect(ctx, "HELO", "HELO "+c.d.LocalName, 250)
		return err
	}
	return &ReplyError{Cmd: "EHLO", Code: r.code, Msg: safe(r.msg)}
}

// parseExtensions reads the EHLO reply lines after the first (the
// greeting): "KEYWORD params".
func parseExtensions(msg string) map[string]string {
	ext := map[string]string{}
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(strings.TrimSpace(l), " ")
		if k != "" {
			ext[strings.ToUpper(k)] = v
		}
	}
	return ext
}

// Extension reports whether the server listed the EHLO keyword (for
// example "SIZE", "8BITMIME", "STARTTLS", "AUTH") and its parameters.
// After a HELO fallback nothing is listed.
func (c *Conn) Extension(keyword string) (bool, string) {
	v, ok := c.ext[strings.ToUpper(keyword)]
	return ok, v
}

// TLS reports whether the session runs over TLS (after STARTTLS).
func (c *Conn) TLS() bool { return c.tls }

// maskSecrets hides the credentials of AUTH PLAIN in traces.
func maskSecrets(line string) string {
	const verb = "AUTH PLAIN "
	if len(line) >= len(verb) && strings.EqualFold(line[:len(verb)], verb) {
		return line[:len(verb)] + wire.Mask
	}
	return line
}

func (c *Conn) read(ctx context.Context, op string) (reply, error) {
	r, err := readReply(c.lr, c.d.MaxReplyLines)
	if err != nil {
		return r, c.sess.Fail(ctx, op, err)
	}
	if r.code == 421 { // the server closes the connection
		c.sess.Break(fmt.Errorf("%w by the server: 421 %s", ErrClosed, safe(r.msg)))
	}
	return r, nil
}

// cmd sends one command line (checked by the caller) and reads the reply.
func (c *Conn) cmd(ctx context.Context, op, line string) (reply, error) {
	if err := c.sess.Send(ctx, op, line); err != nil {
		return reply{}, err
	}
	return c.read(ctx, op)
}

// expect runs cmd and turns a reply other than want into a *ReplyError.
func (c *Conn) expect(ctx context.Context, op, line string, want int) (reply, error) {
	r, err := c.cmd(ctx, op, line)
	if err != nil {
		return r, err
	}
	if r.code != want {
		return r, &ReplyError{Cmd: op, Code: r.code, Msg: safe(r.msg)}
	}
	return r, nil
}

// simple runs one command with its own binding to ctx.
func (c *Conn) simple(ctx context.Context, op, line string, want int) (reply, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return reply{}, err
	}
	defer release()
	return c.expect(ctx, op, line, want)
}

// Auth authenticates with AUTH PLAIN (RFC 4954, RFC 4616), which sends
// the password merely base64-encoded: it is refused (ErrAuthNeedsTLS)
// unless the session runs over TLS, and when the server does not offer
// PLAIN (ErrNoAuth). The response is masked in traces; 535 (bad
// credentials) comes back as a *ReplyError.
func (c *Conn) Auth(ctx context.Context, user, pass string) error {
	if !c.tls {
		return ErrAuthNeedsTLS
	}
	if ok, mechs := c.Extension("AUTH"); !ok || !hasWord(mechs, "PLAIN") {
		return ErrNoAuth
	}
	for _, s := range []string{user, pass} {
		if strings.IndexByte(s, 0) >= 0 {
			return opErr("AUTH", &ArgError{Offset: strings.IndexByte(s, 0), Byte: 0})
		}
	}
	resp := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + pass))
	_, err := c.simple(ctx, "AUTH", "AUTH PLAIN "+resp, 235)
	return err
}

func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if strings.EqualFold(f, w) {
			return true
		}
	}
	return false
}

// Mail starts a mail transaction with "MAIL FROM:<from>" (an empty from
// is the null reverse-path "<>", for notifications), adding
// " SIZE=size" when the server advertises SIZE and size > 0 (RFC 1870).
// from is checked with CheckAddress first.
func (c *Conn) Mail(ctx context.Context, from string, size int64) error {
	if from != "" {
		if err := CheckAddress(from); err != nil {
			return opErr("MAIL", err)
		}
	}
	line := "MAIL FROM:<" + from + ">"
	if ok, _ := c.Extension("SIZE"); ok && size > 0 {
		line += " SIZE=" + strconv.FormatInt(size, 10)
	}
	_, err := c.simple(ctx, "MAIL", line, 250)
	return err
}

// Rcpt adds a recipient with "RCPT TO:<to>"; to is checked with
// CheckAddress first. A refusal is a *RecipientError (250 and 251 are
// accepted).
func (c *Conn) Rcpt(ctx context.Context, to string) error {
	if err := CheckAddress(to); err != nil {
		return opErr("RCPT", err)
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return err
	}
	defer release()
	r, err := c.cmd(ctx, "RCPT", "RCPT TO:<"+to+">")
	if err != nil {
		return err
	}
	if r.code != 250 && r.code != 251 {
		return &RecipientError{Addr: to, ReplyError: ReplyError{Cmd: "RCPT", Code: r.code, Msg: safe(r.msg)}}
	}
	return nil
}

// Data sends DATA and, after the server's 354, returns a writer for the
// message: LF or CRLF line ends are sent as CRLF, a line starting with
// "." gets another (RFC 5321 section 4.5.2), and Close ends the data with
// "." and reads the server's verdict (250, or a *ReplyError).
//
// ctx governs the whole exchange, including the writes and Close.
func (c *Conn) Data(ctx context.Context) (io.WriteCloser, error) {
	return c.data(ctx, "DATA")
}

// DataLine is Data with line, the DATA command line as Cmd takes it.
func (c *Conn) DataLine(ctx context.Context, line string) (io.WriteCloser, error) {
	body, err := wire.CheckLine(line)
	if err != nil {
		return nil, opErr("DATA", err)
	}
	return c.data(ctx, body)
}

func (c *Conn) data(ctx context.Context, line string) (io.WriteCloser, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.expect(ctx, "DATA", line, 354); err != nil {
		release()
		return nil, err
	}
	c.sess.Busy = true
	return &dataWriter{c: c, ctx: ctx, release: release, bol: true}, nil
}

// dataWriter dot-stuffs and normalizes line ends on the way out.
type dataWriter struct {
	c       *Conn
	ctx     context.Context
	release func()
	bol     bool // at the beginning of a line
	cr      bool // the last byte written was a CR (its LF may follow)
	err     error
	closed  bool
}

func (w *dataWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, opErr("DATA", errors.New("write after Close"))
	}
	if w.err != nil {
		return 0, w.err
	}
	bw := w.c.sess.W
	for _, b := range p {
		switch {
		case b == '\n':
			if !w.cr {
				bw.WriteByte('\r')
			}
			bw.WriteByte('\n')
			w.bol, w.cr = true, false
			continue
		case w.cr: // a bare CR: end it as a line, RFC 5321 section 2.3.8
			bw.WriteByte('\n')
			w.bol = true
		}
		if w.bol && b == '.' {
			bw.WriteByte('.')
		}
		w.cr = b == '\r'
		w.bol = false
		bw.WriteByte(b)
	}
	if _, err := bw.Write(nil); err != nil { // bufio's sticky write error
		w.err = w.c.sess.Fail(w.ctx, "DATA", err)
		return 0, w.err
	}
	return len(p), nil
}

// Close ends the data and reads the reply.
func (w *dataWriter) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	c := w.c
	defer w.release()
	c.sess.Busy = false
	if c.sess.Broken() != nil {
		w.err = c.sess.Broken()
		return w.err
	}
	bw := c.sess.W
	switch {
	case w.cr:
		bw.WriteByte('\n')
	case !w.bol:
		bw.WriteString("\r\n")
	}
	bw.WriteString(".\r\n")
	if err := bw.Flush(); err != nil {
		w.err = c.sess.Fail(w.ctx, "DATA", err)
		return w.err
	}
	r, err := c.read(w.ctx, "DATA")
	if err == nil && r.code != 250 {
		err = &ReplyError{Cmd: "DATA", Code: r.code, Msg: safe(r.msg)}
	}
	w.err = err
	return err
}

// Reset aborts the current mail transaction with RSET.
func (c *Conn) Reset(ctx context.Context) error {
	_, err := c.simple(ctx, "RSET", "RSET", 250)
	return err
}

// Noop sends NOOP.
func (c *Conn) Noop(ctx context.Context) error {
	_, err := c.simple(ctx, "NOOP", "NOOP", 250)
	return err
}

// Send submits msg (a whole message: header, empty line, body; LF or
// CRLF line ends) from from to each address of to: MAIL FROM, one RCPT
// TO per recipient, DATA. Every address is checked before anything is
// sent. When the server advertises a SIZE limit the message is checked
// against it first (ErrTooLarge).
//
// Recipients refused at RCPT do not stop the others: the message is sent
// to those accepted and Send returns a *RecipientsError with Delivered
// set, listing each refused address with its reply. When every recipient
// is refused the transaction is reset (RSET) and the *RecipientsError
// has Delivered false.
func (c *Conn) Send(ctx context.Context, from string, to []string, msg []byte) error {
	if len(to) == 0 {
		return opErr("RCPT", errors.New("no recipients"))
	}
	if from != "" {
		if err := CheckAddress(from); err != nil {
			return opErr("MAIL", err)
		}
	}
	for _, a := range to {
		if err := CheckAddress(a); err != nil {
			return opErr("RCPT", err)
		}
	}
	size := wireSize(msg)
	if ok, v := c.Extension("SIZE"); ok {
		if limit, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && limit > 0 && size > limit {
			return fmt.Errorf("%w: %d > %d octets", ErrTooLarge, size, limit)
		}
	}
	if err := c.Mail(ctx, from, size); err != nil {
		return err
	}
	var failed []*RecipientError
	for _, a := range to {
		err := c.Rcpt(ctx, a)
		var re *RecipientError
		switch {
		case errors.As(err, &re):
			failed = append(failed, re)
		case err != nil:
			return err
		}
	}
	if len(failed) == len(to) {
		if err := c.Reset(ctx); err != nil {
			return errors.Join(&RecipientsError{Failed: failed}, err)
		}
		return &RecipientsError{Failed: failed}
	}
	w, err := c.Data(ctx)
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if failed != nil {
		return &RecipientsError{Failed: failed, Delivered: true}
	}
	return nil
}

// wireSize is the size of msg as the DATA writer sends it, before
// dot-stuffing (RFC 1870 section 3): every line ended with CRLF.
func wireSize(msg []byte) int64 {
	n := int64(len(msg))
	for i, b := range msg {
		switch {
		case b == '\n' && (i == 0 || msg[i-1] != '\r'):
			n++ // LF -> CRLF
		case b == '\r' && (i+1 == len(msg) || msg[i+1] != '\n'):
			n++ // bare CR -> CRLF
		}
	}
	if len(msg) > 0 && msg[len(msg)-1] != '\n' && msg[len(msg)-1] != '\r' {
		n += 2 // the last line gets its CRLF
	}
	return n
}

// Cmd writes line, one command line exactly as the caller wrote it (an
// access plan's step), and reads the reply, which the caller judges.
// line must end in CR LF and hold no other CR, LF or NUL. A 250 reply
// to EHLO gives the extensions (Extension), one to HELO none; after
// QUIT the connection is closed.
func (c *Conn) Cmd(ctx context.Context, line string) (code int, msg string, err error) {
	body, err := wire.CheckLine(line)
	verb, _, _ := strings.Cut(body, " ")
	verb = strings.ToUpper(verb)
	if err != nil {
		return 0, "", opErr(verb, err)
	}
	var r reply
	if verb == "QUIT" {
		err = c.sess.Quit(ctx, func() error {
			r, err = c.cmd(ctx, verb, body)
			return err
		})
		return r.code, r.msg, err
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return 0, "", err
	}
	defer release()
	if r, err = c.cmd(ctx, verb, body); err != nil {
		return 0, "", err
	}
	switch {
	case verb == "EHLO" && r.code == 250:
		c.ext = parseExtensions(r.msg)
	case verb == "HELO" && r.code == 250:
		c.ext = nil
	}
	return r.code, safe(r.msg), nil
}

// Quit sends QUIT and closes the connection (closed even on error).
func (c *Conn) Quit(ctx context.Context) error {
	return c.sess.Quit(ctx, func() error {
		_, err := c.expect(ctx, "QUIT", "QUIT", 221)
		return err
	})
}

// Close closes the connection without QUIT.
func (c *Conn) Close() error { return c.sess.Close() }
