package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
)

// A Plan is the access a URL stands for, written out as data before
// anything is done: the connection, each line the client sends with
// its reason, the replies it expects, the data connection and how the
// data ends. The explain command renders it (Lines); the access layer
// (package fetch) carries out the same Plan: the protocol clients send
// the Text of its Send steps as it is, so what explain shows is what
// goes on the wire (one writer per line; tests against real servers
// compare the two, and inject changed lines into steps).
//
// A Plan is a sequence, but protocols are not all straight lines, so a
// step may be conditional (When, a Cond the executor evaluates on the
// replies: USER's reply is 331), may name the reply that decides what
// follows (Expect steps, and Reply on a Send), may ask the user for
// something (Ask, whose answer fills a later step marked Answers), and
// may carry a binary request (Binary: rendered as escaped bytes). The
// step kinds and fields below are the shared vocabulary:
//
//   - FTP: USER, then PASS When USER's reply is 331 (the user's answer
//     when the URL has no password); one CWD per directory; TYPE; SIZE;
//     EPSV, then PASV When EPSV is refused; RETR or NLST; QUIT.
//   - Gopher and Gopher+: one request line; a Gopher+ ASK is an
//     attribute request, an Ask step per question, then the submission.
//   - Stateful protocols that join later (NNTP, SMTP, telnet option
//     negotiation, WAIS APDUs) use the same kinds: Expect for the reply
//     that decides, When for the branch, Binary for non-text requests.
//
// A refused URL (a decoded CR, LF or NUL that would enter a protocol
// line, RFC 1738 section 6) yields a Plan whose Refused lists why and
// whose Steps send nothing.
type Plan struct {
	// Scheme is the scheme in lower case.
	Scheme string
	// Refused lists the refusals of RFC 1738 section 6 (Concern.Refuse):
	// when it is not empty, Steps hold comments only and the access
	// layer sends nothing.
	Refused []Concern
	// Steps are the steps in order.
	Steps []Step
}

// StepKind is the kind of a Step.
type StepKind uint8

const (
	// Comment: a note for the reader: a choice the client makes, a
	// caution, what the server does.
	Comment StepKind = iota
	// Connect: open a TCP connection to Text ("host:port").
	Connect
	// Open: open the local file Text.
	Open
	// Send: send Text, the exact bytes of a protocol line with its line
	// end (or a binary request, see Binary), on the connection.
	Send
	// Expect: the reply the client waits for (Reply, a code or a class
	// such as "2xx"); Text says what it means.
	Expect
	// Data: how the data connection is made (Text), for protocols with
	// one (FTP).
	Data
	// End: how the data ends (Text): the server closes the connection, a
	// line holding ".", a length announced before.
	End
	// Ask: the client asks the user (Text is the question); the answer
	// goes into a later step.
	Ask
)

var stepKindNames = [...]string{"comment", "connect", "open", "send", "expect", "data", "end", "ask"}

// String returns the kind in lower case ("send").
func (k StepKind) String() string {
	if int(k) < len(stepKindNames) {
		return stepKindNames[k]
	}
	return "unknown"
}

// Step is one step of a Plan.
type Step struct {
	Kind StepKind
	// Text is the step's subject: the address of Connect, the path of
	// Open, the exact bytes of Send, the note of the other kinds.
	Text string
	// Op names the protocol operation of a Send step, the command word
	// ("USER", "CWD", "RETR", "GET"); the executor dispatches on it.
	Op string
	// Arg is the decoded argument of a Send step's operation ("pub").
	Arg string
	// At is where the argument is written in the URL's String form, for
	// errors about it; zero when it does not come from the URL.
	At Span
	// Request holds the structured request of a scheme whose request is
	// more than a command and an argument (internal/request), for its
	// executor; nil otherwise.
	Request any
	// Why says why the step is taken; RFC names the section that says
	// so ("RFC 1738 3.2.2"). Rendered as a comment before the step.
	Why, RFC string
	// When, if set, is the condition under which the step happens (the
	// server replies 331 to USER); the step is skipped otherwise.
	When Cond
	// Reply is the reply expected after a Send, or of an Expect step ("1xx
	// then 226", "331 or 230"); "" when the step expects none of its own.
	Reply string
	// Secret marks a Send whose argument (Arg, as it appears in Text) is
	// a secret: Lines shows it as xxxxx unless asked to show it.
	Secret bool
	// Binary marks a Send whose Text is a binary request (a WAIS APDU):
	// rendered as Go-escaped bytes, never as a line.
	Binary bool
	// Answers marks a Send of Text followed by the user's answers to the
	// Ask step before it, each ending with CR LF (dot-stuffed in a Gopher+
	// ASK form, where Text is empty; a Gopher search sends the selector
	// and a TAB, then the words): the answers are not known when the plan
	// is made.
	Answers bool
	// Range marks a Send of Text followed by a range of numbers
	// "LOW-HIGH" and CR LF, sent once per batch of a listing read in
	// parts (NNTP OVER): the ranges depend on a reply, not on the URL.
	Range bool
}

// A Cond is the condition of a step, as data its executor evaluates:
// the outcome of the latest earlier Send step whose Op is On. The
// condition holds when that step was carried out and its reply matches
// Reply (codes or classes separated by spaces, "331", "5xx"; a "!"
// before one excludes it: "5xx !550") and, when Lists is set, its
// reply lists that word as a feature or capability (FEAT lists MLST);
// Not turns the match around (not for a step left out: a condition on a
// step that was not carried out never holds). A Cond with On empty is
// for the reader only: its executor judges it another way (a prompt of
// the server, the terminal). Text says it in words; explain prints it.
type Cond struct {
	On, Reply, Lists string
	Not              bool
	Text             string
}

// String formats the step alone as the explain command prints it:
// "# TEXT", "connect HOST:PORT", "open PATH" (Go-quoted when it holds
// control characters), or "send " and the bytes in strconv.Quote form
// (passwords shown; see Plan.Lines).
func (s Step) String() string {
	switch s.Kind {
	case Connect:
		return "connect " + escapeControls(s.Text)
	case Open:
		return "open " + printable(s.Text)
	case Send:
		if s.Text == "" && s.Request != nil {
			return "# send the " + s.Op + " request (its bytes come from the protocol client's encoder, which package fetch installs)"
		}
		if s.Answers && s.Text == "" {
			return "# send the answers, one line each (a line starting with \".\" gets another)"
		}
		if s.Answers {
			return "# send " + strconv.Quote(s.Text) + " and the answer, then \"\\r\\n\""
		}
		if s.Binary {
			return "send " + strconv.QuoteToASCII(s.Text) + " (binary)"
		}
		if s.Range {
			return "# send " + strconv.Quote(s.Text) + " and a range \"LOW-HIGH\\r\\n\", once per batch"
		}
		return "send " + strconv.Quote(s.Text)
	case Expect:
		return "# expect " + escapeControls(s.Reply) + ": " + escapeControls(s.Text)
	case Ask:
		return "# ask the user: " + escapeControls(s.Text)
	}
	// A comment may quote decoded parts of the URL: its control bytes are
	// escaped so that it stays one line and cannot pass for a step.
	return "# " + escapeControls(s.Text)
}

// Lines renders the plan as the explain command prints it (CLI.md):
// "connect HOST:PORT" or "open PATH", one `send "..."` per line sent
// (strconv.Quote form), and "#" comments, each step's reason and
// condition as comments before it. Passwords are xxxxx unless
// showPassword.
func (p *Plan) Lines(showPassword bool) []string {
	var out []string
	for _, s := range p.Steps {
		if s.Why != "" {
			why := s.Why
			if s.RFC != "" {
				why += " (" + s.RFC + ")"
			}
			out = append(out, "# "+escapeControls(why))
		}
		if s.When.Text != "" {
			out = append(out, "# if "+escapeControls(s.When.Text)+":")
		}
		if s.Kind == Send && s.Secret && !showPassword && s.Arg != "" {
			s.Text = strings.Replace(s.Text, s.Arg, safetext.Mask, 1)
		}
		out = append(out, s.String())
	}
	return out
}

// Sends returns the bytes of the plan's Send steps, in order, with the
// condition of each ("" when unconditional): what a client puts on the
// wire, for comparing with a trace.
func (p *Plan) Sends() []Step {
	var s []Step
	for _, st := range p.Steps {
		if st.Kind == Send {
			s = append(s, st)
		}
	}
	return s
}

// An Encoder fills in Text, the exact bytes, of a Send step whose Request
// package scheme describes but does not encode: the WAIS APDUs and the
// Prospero request messages, whose encoders live with their protocol
// clients, which this network-free package does not import. Package fetch
// registers them (RegisterEncoder); a plan made without them renders such
// a step as a comment naming the request.
type Encoder func(st *Step) error

var encoders = map[string]Encoder{}

// RegisterEncoder installs the Encoder of a scheme's binary or
// structured requests. It is meant to be called from init functions.
func RegisterEncoder(scheme string, enc Encoder) { encoders[scheme] = enc }

// encode fills in the bytes of the plan's described requests, or turns
// the plan into a refusal when one cannot be encoded.
func (p *planner) encode(scheme string) {
	enc := encoders[scheme]
	if enc == nil {
		return
	}
	for i := range p.plan.Steps {
		st := &p.plan.Steps[i]
		if st.Kind != Send || st.Text != "" || st.Request == nil {
			continue
		}
		if err := enc(st); err != nil {
			p.unsupported(st.At.At, "the request cannot be encoded: "+err.Error())
			return
		}
	}
}

// escapeControls writes the control bytes of s as Go escapes (\r, \n,
// \t, \xNN), leaving everything else as it is.
func escapeControls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

// PlanOptions are the choices a Plan leaves to its caller. The zero
// value works: no proxy, placeholder addresses.
type PlanOptions struct {
	// Mode selects the view rules: Lenient also reads the drafts' afs
	// scheme and FTP type codes.
	Mode urlkit.Mode
	// View, when set, is the URL's view in Mode (Parse) and Concerns its
	// concerns (Concerns(u, View)), as a caller that checked the URL
	// before planning holds them: PlanURL then neither reads the view
	// nor scans the URL again (package fetch does this once per access).
	View     View
	Concerns []Concern
	// Proxy is the HOST:PORT of an HTTP proxy. Through a proxy the client
	// connects to it and sends the whole URL on the request line, whatever
	// its scheme (RFC 1630, HTTP); the fragment is never sent.
	Proxy string
	// Email is the user's mail address: the anonymous FTP password (RFC
	// 1738 3.2.1) and the SMTP sender of a mailto URL. Default
	// "user@example.com".
	Email string
	// NewsServer is the reader's own news server, which news URLs leave
	// to the reader (RFC 1738 3.6). Default "news".
	NewsServer string
	// UserAgent is the User-Agent header of HTTP requests; "" means
	// "urlkit", the access layer's default.
	UserAgent string
	// Compressed: HTTP requests ask for a gzip body (get --compressed);
	// otherwise they ask for none.
	Compressed bool
	// KeepFTP: the FTP control connection is kept for the next URL of
	// the same server and login (draft-ietf-uri-url-06 3.2.5): after the
	// login the client asks PWD for the login directory, which the CWDs
	// of every later URL are relative to (RFC 1738 3.2.2), and QUIT waits
	// for the end of the run.
	KeepFTP bool
	// FTPLoginDir, if set, plans the URL on an FTP connection kept from
	// an earlier URL (see KeepFTP) whose login directory it is: no
	// connection and no login, but a CWD back to that directory first.
	FTPLoginDir string
	// KeepNNTP: the NNTP connection is kept for the next URL of the same
	// server and login, and QUIT waits for the end of the run (as
	// KeepFTP, for a run of news and nntp URLs).
	KeepNNTP bool
	// NNTPKept plans the URL on an NNTP connection kept from an earlier
	// URL (see KeepNNTP): no connection, greeting, capabilities or login;
	// the URL's own commands only.
	NNTPKept bool
	// FTPRestart > 0 resumes an FTP transfer of TYPE I at that byte:
	// REST before RETR (RFC 3659 5; get -C -). TYPE A cannot be resumed
	// (the offset of the network's CRLF text is not the file's).
	FTPRestart int64
	// Head asks for what the server says about the resource, not its
	// data (get -I): HTTP HEAD; FTP SIZE, MDTM and, when FEAT lists it,
	// MLST instead of RETR.
	Head bool
	// ModTime asks, for an FTP file in TYPE I, for its modification
	// time too: MDTM after SIZE (RFC 3659 3), as a gateway answering
	// with Last-Modified wants it. A refusal is ignored.
	ModTime bool
	// List asks for a parsed FTP directory listing (get --list): FEAT,
	// then MLSD when it lists MLST, else LIST, else NLST.
	List bool

	// Sessions (telnet, rlogin, tn3270). Term is the terminal type the
	// client announces: "" means "DUMB" for telnet and "network" for
	// rlogin (tn3270 always announces IBM-3278-2). Width and Height are
	// the terminal's columns and rows, zero when the session is not on a
	// terminal (no window size is sent). LocalUser is the rlogin
	// handshake's local user name ("" means "user", a placeholder). Login:
	// the client answers the login and password prompts once with the
	// URL's user and password (get --login); otherwise they are advisory.
	Term          string
	Width, Height int
	LocalUser     string
	Login         bool
	// Post makes the plan of a news or nntp URL a posting (urlkit
	// send): POST and the article instead of reading. A mailto plan is
	// always a submission.
	Post bool
	// User and Password log in to an NNTP server (AUTHINFO, RFC 4643)
	// when the URL has no user of its own; Password is a secret.
	User, Password string
	// MessageSize is the size of the message a mailto plan submits, for
	// the SIZE parameter of MAIL FROM (RFC 1870); 0 when unknown.
	MessageSize int64
	// MailServer is the HOST:PORT a mailto plan submits to (urlkit send's
	// --smtp, SMTPSERVER); "" means the mail domain's own, port 25.
	MailServer string
	// LocalName is the name the client gives in EHLO/HELO; "" means the
	// domain of Email.
	LocalName string
}

// PlanURL writes out the access plan u stands for, without any network
// access (see Plan). It returns an error when u is not a valid view of
// its scheme, and one wrapping ErrNoAccess for a scheme without an
// access algorithm (urn, reserved, experimental and unknown schemes).
func PlanURL(u *urlkit.URL, opts PlanOptions) (*Plan, error) {
	v, concerns := opts.View, opts.Concerns
	if v == nil {
		var err error
		if v, err = Parse(u, opts.Mode); err != nil {
			return nil, err
		}
		if v != nil {
			concerns = concernsOf(u, v)
		}
	}
	un, _ := unitOf(u.SchemeName())
	if v == nil || un == nil || un.plan == nil {
		return nil, noAccess(u)
	}
	if opts.Email == "" {
		opts.Email = "user@example.com"
	}
	if opts.NewsServer == "" {
		opts.NewsServer = "news"
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "urlkit"
	}
	p := &planner{u: u, opts: opts, plan: &Plan{Scheme: u.SchemeName()}}
	for _, c := range concerns {
		if c.Refuse {
			p.plan.Refused = append(p.plan.Refused, c)
		} else {
			p.cautions = append(p.cautions, c)
		}
	}
	if len(p.plan.Refused) > 0 {
		p.flushCautions()
		for _, c := range p.plan.Refused {
			p.comment("refused: offset %d: %s", c.Offset, c.Message)
		}
		p.comment("nothing is sent: the access layer refuses this URL before connecting")
		return p.plan, nil
	}
	if opts.Proxy != "" && un.proxied {
		p.proxy(v)
		return p.plan, nil
	}
	un.plan(v, p)
	p.encode(u.SchemeName())
	if opts.Proxy != "" && !un.proxied {
		p.comment("the proxy is not used: %s URLs are not retrieved through an HTTP proxy", u.SchemeName())
	}
	p.flushCautions()
	return p.plan, nil
}

func noAccess(u *urlkit.URL) error {
	why := "urlkit knows no access algorithm for it"
	if in, ok := Known(u.SchemeName()); ok {
		switch in.Status {
		case Reserved:
			why = "it is reserved (" + in.Section + "), with no access algorithm defined"
		case Experimental:
			why = "x- schemes are experimental, used by mutual agreement (RFC 1738 section 4)"
		case Historical:
			why = "it is the drafts' only (" + in.Section + "); use the lenient mode"
		}
	}
	return newError(u, 0, ErrNoAccess, "no access algorithm for "+u.SchemeName()+" URLs: "+why)
}

// planner builds a Plan; the plan function of each scheme's unit writes
// its steps through it.
type planner struct {
	u        *urlkit.URL
	opts     PlanOptions
	plan     *Plan
	cautions []Concern
}

func (p *planner) add(s Step) { p.plan.Steps = append(p.plan.Steps, s) }

func (p *planner) comment(format string, args ...any) {
	p.add(Step{Kind: Comment, Text: fmt.Sprintf(format, args...)})
}

// send adds a Send step of the operation op with the decoded argument
// arg; the bytes are line.
func (p *planner) send(op, arg, line string) *Step {
	p.add(Step{Kind: Send, Op: op, Arg: arg, Text: line})
	return &p.plan.Steps[len(p.plan.Steps)-1]
}

// line adds a Send of a text line whose command word is its first word.
func (p *planner) line(line string) *Step {
	op, arg, _ := strings.Cut(strings.TrimSuffix(line, "\r\n"), " ")
	return p.send(op, arg, line)
}

func (p *planner) connect(addr string) {
	p.add(Step{Kind: Connect, Text: addr})
	p.flushCautions()
}

func (p *planner) open(path string) {
	p.add(Step{Kind: Open, Text: path})
	p.flushCautions()
}

// unsupported turns the plan into a refusal: the access cannot be
// carried out by urlkit's clients, for the reason msg about the part of
// the URL at offset off. What was planned so far is dropped: nothing is
// sent.
func (p *planner) unsupported(off int, msg string) {
	c := Concern{Offset: off, Refuse: true, Unsupported: true, Message: msg}
	p.plan.Refused = append(p.plan.Refused, c)
	p.plan.Steps = nil
	p.cautions = nil
	p.comment("refused: offset %d: %s", off, msg)
	p.comment("nothing is sent")
}

// cmdLine is a command line as RFC 959 and RFC 977 clients write it:
// the verb, and a space and the argument when there is one.
func cmdLine(verb, arg string) string {
	if arg == "" {
		return verb + "\r\n"
	}
	return verb + " " + arg + "\r\n"
}

// flushCautions writes the cautions (a non-default port) as comments,
// once, right after the connection.
func (p *planner) flushCautions() {
	for _, c := range p.cautions {
		p.comment("caution: offset %d: %s", c.Offset, c.Message)
	}
	p.cautions = nil
}

// addr returns host:port with the scheme's default port when none is
// written.
func addr(host, port, scheme string) string {
	if port == "" {
		port = strconv.Itoa(urlkit.DefaultPort(scheme))
	}
	return host + ":" + port
}

// fragmentNote says that the fragment is not sent.
func (p *planner) fragmentNote() {
	if p.u.HasFragment {
		p.comment("the fragment %q is not sent: the client applies it to what it receives (RFC 1630)", p.u.Fragment)
	}
}
