package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/rlogin"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/client/tn3270"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// Terminal is the user's side of a session (telnet, rlogin and tn3270
// URLs): its streams, and what is known of the terminal behind them. The
// zero value is a session over empty pipes.
type Terminal struct {
	// In goes to the server; the session's output goes to Out.
	In  io.Reader
	Out io.Writer
	// Notes receives the lines urlkit itself prints before the session
	// ("login as: USER", the unprivileged-port note of rlogin); nil
	// discards them.
	Notes io.Writer

	// Interactive: In and Out are a terminal in raw mode, which the
	// caller set up (and restores). The session's output is written as
	// it comes; otherwise control bytes are shown escaped (safetext),
	// unless Raw.
	Interactive bool
	// Raw writes the session's output unchanged even when not
	// Interactive (get --raw).
	Raw bool
	// Term is the terminal type ($TERM; "" for none) and Width, Height
	// its size (zero when not a terminal): sent with TERMINAL-TYPE and
	// NAWS (telnet), in the handshake and the window-size message
	// (rlogin).
	Term          string
	Width, Height int
	// Resize delivers new window sizes (columns, rows) during the
	// session (SIGWINCH).
	Resize <-chan [2]int
	// Escape and Prompt: the escape byte of In (telnet.DefaultEscape)
	// hands control to Prompt, the local prompt (quit, send break...),
	// as BSD telnet does. Zero Escape or nil Prompt: no escape.
	Escape byte
	Prompt func() (telnet.Command, error)
	// LocalUser is rlogin's local user name (the account the server's
	// .rhosts trust is about).
	LocalUser string
	// Login answers the server's login and password prompts once with
	// the URL's user and password (get --login). Otherwise the user name
	// is only printed ("login as: USER", RFC 1738 3.8 calls it advisory)
	// and the password never.
	Login bool
	// Linger is how long the server's output is still copied after In
	// ends, while more keeps coming (default 3 s, room for a server slow
	// to answer the last line typed, such as a login; negative: none).
	Linger time.Duration

	// Keys is a tn3270 key script (tn3270.ParseKeys): after the first
	// screen, its keys are played and each screen the host answers with
	// is printed.
	Keys string
}

// screenSeparator is the line between two tn3270 screens printed over
// pipes: each screen is 24 lines of text (trailing blanks removed).
const screenSeparator = "--------------------------------------------------------------------------------"

// Session runs the interactive session a telnet, rlogin or tn3270 URL
// designates (RFC 1738 3.8, RFC 1630): a session is an action, not a
// retrieval, so it is not an Opener. The URL is checked first (CheckURL:
// nothing is sent for a CR, LF or NUL in the user name or password, nor
// to a blocked port), then its access plan (scheme.PlanURL, what
// "urlkit explain" prints) is carried out: the address, the options
// the telnet client accepts and the terminal type it announces (the
// plan's negotiation answers), rlogin's handshake.
//
// telnet and rlogin connect In and Out to the server until either side
// closes, the Prompt's quit, or ctx ends. tn3270 prints the first full
// screen as text (24 lines of 80 columns, hidden fields blank), plays
// t.Keys, printing each screen the host answers with (after a line of
// 80 "-"), and quits; with an
// Interactive terminal, each line of In is then a key script (a line
// without an attention key gets <enter>), until In ends.
//
// Fetcher.MaxTime ends the session (a normal end: nil); Fetcher.Timeout
// does not apply to an interactive session, only to the connection. The
// error is an *Error.
func (f *Fetcher) Session(ctx context.Context, u *urlkit.URL, t *Terminal) error {
	req := f.newRequest(u)
	ctx = f.withCheck(ctx)
	if t == nil {
		t = &Terminal{}
	}
	name := u.SchemeName()
	if name != "telnet" && name != "rlogin" && name != "tn3270" {
		return req.errorf("check", ErrUnsupportedScheme, fmt.Errorf("%s URLs designate no session (telnet, rlogin, tn3270)", name))
	}
	if err := req.check(urlkit.Lenient, f.AllowPorts); err != nil {
		err.(*Error).secrets = req.secrets()
		return err
	}
	red := req.secrets()
	if f.Trace != nil {
		req.Trace = red.Writer(f.Trace)
	}
	req.kinds = sessionClassifier{}
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient, Term: t.Term, Width: t.Width, Height: t.Height, LocalUser: t.LocalUser, Login: t.Login})
	if err != nil {
		return req.wrap(ctx, "check", invalid(err))
	}
	if err := refused(plan); err != nil {
		return req.wrap(ctx, "check", err)
	}
	v, err := viewOf[*scheme.Telnet](u, urlkit.Lenient)
	if err != nil {
		return req.wrap(ctx, "check", err)
	}
	var addr string
	for _, st := range plan.Steps {
		if st.Kind == scheme.Connect {
			addr = st.Text
			break
		}
	}
	notes := t.Notes
	if notes == nil {
		notes = io.Discard
	}
	if v.HasUser {
		// Advisory (RFC 1738 3.8): shown, typed only with Login. The
		// password is never printed.
		fmt.Fprintf(notes, "login as: %s\n", safetext.Visible(v.User))
	}
	out := t.Out
	if out == nil {
		out = io.Discard
	}
	var visible *safetext.VisibleWriter
	if !t.Interactive && !t.Raw {
		visible = safetext.NewVisibleWriter(out)
		out = visible
	}
	// A server may echo the password that --login typed: hidden like
	// every secret of the fetch, in pieces as they arrive. On a terminal
	// nothing is held back (a prompt must show at once), so there each
	// read is redacted on its own.
	var redacted *safetext.RedactStream
	if t.Interactive {
		out = red.Writer(out)
	} else {
		redacted = red.StreamWriter(out)
		out = redacted
	}
	// MaxTime ends a session: a designed end, not a failure.
	maxCtx := ctx
	var maxEnd time.Time
	if f.MaxTime > 0 {
		maxEnd = time.Now().Add(f.MaxTime)
		var cancel context.CancelFunc
		maxCtx, cancel = context.WithTimeout(ctx, f.MaxTime)
		defer cancel()
	}
	connectTimeout := req.connectTimeout(f.timeout())
	switch name {
	case "tn3270":
		err = f.tn3270Session(maxCtx, req, plan, addr, t, out, connectTimeout)
	default:
		err = f.lineSession(maxCtx, req, plan, addr, v, t, out, notes, connectTimeout)
	}
	if redacted != nil {
		redacted.Flush()
	}
	if visible != nil {
		visible.Flush()
	}
	// MaxTime passed (the conn's deadline may fire a moment before the
	// context's timer): a designed end.
	if err != nil && !maxEnd.IsZero() && ctx.Err() == nil && !time.Now().Before(maxEnd) {
		return nil
	}
	if err != nil {
		return req.wrap(ctx, "session", err)
	}
	return nil
}

// lineSession runs a telnet or rlogin session.
func (f *Fetcher) lineSession(ctx context.Context, req *Request, plan *scheme.Plan, addr string, v *scheme.Telnet, t *Terminal, out, notes io.Writer, timeout time.Duration) error {
	login := loginOf(plan)
	if login != nil {
		if err := login.Check(); err != nil {
			return err
		}
	}
	var conn telnet.Remote
	var resize func(w, h int) error
	switch v.Session {
	case "rlogin":
		d := rlogin.Dialer{Timeout: timeout, Trace: req.Trace}
		d.Width, d.Height = windowOf(plan)                      // the plan's WINDOW step, sent when the server asks
		c, err := d.DialHandshake(ctx, addr, handshakeOf(plan)) // the plan's bytes
		if err != nil {
			return err
		}
		if !c.Privileged() {
			fmt.Fprintln(notes, rlogin.UnprivilegedNote(c.SourcePort()))
		}
		conn, resize = c, c.SetWindowSize
	default:
		d := telnet.Dialer{Timeout: timeout, Trace: req.Trace}
		telnetPolicy(plan, &d)
		c, err := d.Dial(ctx, addr)
		if err != nil {
			return err
		}
		conn, resize = c, c.SetWindowSize
	}
	if t.Resize != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case <-done:
					return
				case sz := <-t.Resize:
					resize(sz[0], sz[1])
				}
			}
		}()
	}
	linger := t.Linger
	switch {
	case linger == 0:
		linger = 3 * time.Second
	case linger < 0:
		linger = 0
	}
	in := t.In
	if in == nil {
		in = eofReader{}
	}
	s := telnet.Session{Conn: conn, In: in, Out: out, Login: login, Linger: linger}
	if t.Prompt != nil && t.Escape != 0 {
		s.Escape, s.Prompt = t.Escape, t.Prompt
	}
	return s.Run(ctx)
}

// telnetPolicy sets the telnet (or tn3270) client's option policy from
// the plan's negotiation answers: WILL x (x accepted on our side), DO x
// (on the server's), and the values of its subnegotiation answers, which the
// client writes with the encoders that wrote the plan's bytes: the
// terminal type of TERMINAL-TYPE IS and the window size of NAWS (none:
// not a terminal, NAWS refused). The WILL/DO answers themselves, and the
// refusals, are written as the server's requests come (RFC 1143), each
// one of the plan's or a refusal the plan's comment states.
func telnetPolicy(plan *scheme.Plan, d *telnet.Dialer) {
	d.Local, d.Remote = []byte{}, []byte{} // nil would mean the default policy
	for _, st := range plan.Sends() {
		if !st.Binary || len(st.Text) < 3 || st.Text[0] != telnet.IAC {
			continue
		}
		switch st.Text[1] {
		case telnet.WILL:
			d.Local = append(d.Local, st.Text[2])
		case telnet.DO:
			d.Remote = append(d.Remote, st.Text[2])
		case telnet.SB:
			switch p := subnegParams(st.Text); {
			case st.Text[2] == telnet.OptTermType && len(p) > 0:
				d.TermTypes = append(d.TermTypes, p[1:])
			case st.Text[2] == telnet.OptNAWS && len(p) == 4:
				d.Width, d.Height = int(p[0])<<8|int(p[1]), int(p[2])<<8|int(p[3])
			}
		}
	}
}

// loginOf returns the lines the plan types at the login prompts (its
// LOGIN and PASSWORD steps, get --login), sent as they are written;
// nil when it types none.
func loginOf(plan *scheme.Plan) *telnet.Login {
	var l telnet.Login
	for _, st := range plan.Sends() {
		switch st.Op {
		case "LOGIN":
			l.UserLine = st.Text
		case "PASSWORD":
			l.PasswordLine, l.Password = st.Text, st.Arg
		}
	}
	if l.UserLine == "" && l.PasswordLine == "" {
		return nil
	}
	return &l
}

// handshakeOf returns the bytes of rlogin's handshake step.
func handshakeOf(plan *scheme.Plan) []byte {
	for _, st := range plan.Sends() {
		if st.Op == "HANDSHAKE" {
			return []byte(st.Text)
		}
	}
	return nil
}

// windowOf reads the size of rlogin's window-size step (RFC 1282: FF FF
// 's' 's', rows, columns, pixels; 16 bits each, big-endian), which the
// client writes with the encoder that wrote the step's bytes; 0, 0 when
// the plan has none (not a terminal).
func windowOf(plan *scheme.Plan) (width, height int) {
	for _, st := range plan.Sends() {
		if b := st.Text; st.Op == "WINDOW" && len(b) == 12 && b[:4] == "\xff\xffss" {
			return int(b[6])<<8 | int(b[7]), int(b[4])<<8 | int(b[5])
		}
	}
	return 0, 0
}

// subnegParams returns the parameters of a subnegotiation IAC SB opt
// PARAMS IAC SE, from its bytes (an IAC of PARAMS doubled, RFC 855).
func subnegParams(sb string) string {
	if len(sb) < 5 {
		return ""
	}
	return strings.ReplaceAll(sb[3:len(sb)-2], "\xff\xff", "\xff")
}

// tn3270Session prints the first screen, plays the key script, and on a
// terminal reads key scripts line by line.
func (f *Fetcher) tn3270Session(ctx context.Context, req *Request, plan *scheme.Plan, addr string, t *Terminal, out io.Writer, timeout time.Duration) error {
	keys, err := tn3270.ParseKeys(t.Keys)
	if err != nil {
		return &Error{Op: "check", Offset: -1, Rule: "the key script: " + err.Error()}
	}
	// The plan's negotiation answers and terminal type, as for telnet.
	var td telnet.Dialer
	telnetPolicy(plan, &td)
	d := tn3270.Dialer{Timeout: timeout, Trace: req.Trace, Local: td.Local, Remote: td.Remote}
	if len(td.TermTypes) > 0 {
		d.TermType = td.TermTypes[0]
	}
	c, err := d.Dial(ctx, addr)
	if err != nil {
		return err
	}
	defer c.Close()
	first, cancel := ctx, context.CancelFunc(func() {})
	if idle := f.timeout(); idle > 0 {
		first, cancel = context.WithTimeout(ctx, idle) // a host that shows no screen
	}
	err = c.ReadScreen(first)
	cancel()
	if err != nil {
		return err
	}
	shown := 0
	show := func(s *tn3270.Screen) error {
		if t.Interactive {
			_, err := io.WriteString(out, "\x1b[H\x1b[2J"+crlf(safetext.VisibleText(s.Text())))
			return err
		}
		if shown++; shown > 1 {
			io.WriteString(out, screenSeparator+"\n")
		}
		_, err := io.WriteString(out, s.Text())
		return err
	}
	if err := show(c.Screen); err != nil {
		return err
	}
	// The host's answer to each key is bounded by the idle timeout (a
	// host that never answers would otherwise hold the script for ever).
	play := func(ks []tn3270.Key) error {
		for _, k := range ks {
			kctx, cancel := ctx, context.CancelFunc(func() {})
			if idle := f.timeout(); idle > 0 && k.Kind == tn3270.KeyAID {
				kctx, cancel = context.WithTimeout(ctx, idle)
			}
			err := c.Play(kctx, []tn3270.Key{k}, show)
			cancel()
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := play(keys); err != nil {
		return err
	}
	if !t.Interactive || t.In == nil {
		return nil
	}
	lines := newLineReader(t.In)
	for {
		line, err := lines.next()
		if err != nil {
			return nil // the user ended the input
		}
		ks, err := tn3270.ParseKeys(line)
		if err != nil {
			fmt.Fprintf(out, "\r\n%s\r\n", err)
			continue
		}
		if !hasAID(ks) {
			ks = append(ks, tn3270.Key{Kind: tn3270.KeyAID, AID: tn3270.AIDEnter})
		}
		if err := play(ks); err != nil {
			var pe *tn3270.ProtectedFieldError
			if errors.As(err, &pe) {
				fmt.Fprintf(out, "\r\n%s\r\n", err)
				continue
			}
			return err
		}
	}
}

func hasAID(ks []tn3270.Key) bool {
	for _, k := range ks {
		if k.Kind == tn3270.KeyAID {
			return true
		}
	}
	return false
}

// crlf turns LF into CR LF for a terminal in raw mode.
func crlf(s string) string {
	b := make([]byte, 0, len(s)+32)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			b = append(b, '\r')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// lineReader reads lines from a terminal in raw mode (CR or LF ends a
// line), echoing nothing: the caller's terminal does that in cooked mode.
type lineReader struct {
	r   io.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r} }

func (l *lineReader) next() (string, error) {
	var one [1]byte
	for {
		n, err := l.r.Read(one[:])
		if n == 1 {
			switch c := one[0]; c {
			case '\r', '\n':
				line := string(l.buf)
				l.buf = l.buf[:0]
				if line == "" && c == '\n' {
					continue // the LF of a CR LF
				}
				return line, nil
			case 4: // ^D
				return "", io.EOF
			default:
				if len(l.buf) < 4096 {
					l.buf = append(l.buf, c)
				}
			}
		}
		if err != nil {
			return "", err
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// sessionClassifier names the kinds of the session clients' errors.
type sessionClassifier struct{}

// classify: a protocol violation of the server (telnet, 3270 data
// stream) is ErrProtocol; an rlogin refusal is ErrAccessDenied.
func (sessionClassifier) classify(err error) error {
	switch {
	case errors.Is(err, telnet.ErrProtocol), errors.Is(err, tn3270.ErrDataStream), errors.Is(err, tn3270.ErrNotTN3270):
		return ErrProtocol
	case errors.Is(err, rlogin.ErrRefused):
		return ErrAccessDenied
	}
	return nil
}
