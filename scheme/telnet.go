package scheme

import (
	"fmt"
	"strconv"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/request"
)

// Telnet is the view of a telnet URL (RFC 1738 3.8) and of RFC 1630's
// rlogin and tn3270 URLs:
//
//	telnet://<user>:<password>@<host>:<port>/
//
// The URL designates an interactive service, not a data object. The user
// name and password are advisory only: a client tells the user what they
// suggest. The final "/" may be omitted.
type Telnet struct {
	Session     string // the scheme: "telnet", "rlogin" or "tn3270"
	User        string // decoded; see HasUser
	Password    string // decoded; see HasPassword
	HasUser     bool
	HasPassword bool
	Host        string // as written
	Port        string // the digits as written, "" for the default (23; rlogin 513)

	// at holds where each part is written in the URL's String form.
	at authSpans
}

// parseTelnet returns the view of a telnet, rlogin or tn3270 URL.
func parseTelnet(u *urlkit.URL) (*Telnet, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	if u.HasQuery || (u.Path != "" && u.Path != "/") {
		return nil, syntaxError(u, layoutOf(u).path+1, "a "+u.SchemeName()+" URL ends after the host and port, with an optional '/' (RFC 1738 3.8)")
	}
	t := &Telnet{Session: u.SchemeName(), Host: u.Host, Port: port(u), HasUser: u.HasUser, HasPassword: u.HasPassword, at: serverSpans(u)}
	t.User, _ = u.DecodedUser()
	t.Password, _ = u.DecodedPassword()
	return t, nil
}

// name returns the session's scheme ("telnet" when Session is empty).
func (t *Telnet) name() string {
	if t.Session == "" {
		return "telnet"
	}
	return t.Session
}

// appendParts appends user and password.
func (t *Telnet) appendParts(dst []part) []part {
	return append(dst, kv("user", opt(t.User, t.HasUser)), kv("password", opt(t.Password, t.HasPassword)))
}

// URL builds the URL with its final "/".
func (t *Telnet) URL() *urlkit.URL {
	u := serverURL(t.name(), t.Host, t.Port)
	setLogin(u, t.User, t.Password, t.HasUser, t.HasPassword)
	u.Path = "/"
	return u
}

func init() {
	register(&unit{parse: view(parseTelnet), concerns: telnetConcerns, plan: telnetPlan}, "telnet", "rlogin", "tn3270")
}

// telnetConcerns: the user name and password of a session are printed
// ("login as: USER"), typed at the login prompts when asked (get
// --login), and rlogin sends the user name in its NUL-separated
// handshake: a CR, LF or NUL in them is refused for all three schemes,
// whether or not they would be sent, so that no value can type a second
// line.
func telnetConcerns(v View, c *concernList) {
	what := "login name"
	if c.u.SchemeName() == "rlogin" {
		what = "rlogin handshake (user name)"
	}
	c.scan(c.u.User, c.l.user, ctlCR|ctlLF|ctlNUL, what)
	c.scan(c.u.Password, c.l.pass, ctlCR|ctlLF|ctlNUL, "login password")
}

// Telnet bytes (RFC 854; EOR RFC 885) and options for the plans: the
// negotiation is binary, so its Send steps are Binary. The
// subnegotiations' bytes are the client's (subneg).
const (
	tnIAC                = 255
	tnWILL, tnWONT, tnDO = 251, 252, 253
	tnDONT               = 254
	optBinary, optEcho   = 0, 1
	optSGA, optTermType  = 3, 24
	optEOR, optNAWS      = 25, 31
)

// telnetOption names an option and the RFC that defines it.
var telnetOption = map[byte][2]string{
	optBinary:   {"BINARY", "RFC 856"},
	optEcho:     {"ECHO", "RFC 857"},
	optSGA:      {"SUPPRESS-GO-AHEAD", "RFC 858"},
	optTermType: {"TERMINAL-TYPE", "RFC 1091"},
	optEOR:      {"END-OF-RECORD", "RFC 885"},
	optNAWS:     {"NAWS", "RFC 1073"},
}

var verbName = map[byte]string{tnWILL: "WILL", tnWONT: "WONT", tnDO: "DO", tnDONT: "DONT"}

// telnetAsk returns the verb a server sends to ask for what a
// plan's negotiation answer verb answers (WILL answers DO, DO answers
// WILL; WONT and DONT are refusals of DO and WILL).
func telnetAsk(answer byte) byte {
	switch answer {
	case tnWILL, tnWONT:
		return tnDO
	}
	return tnWILL
}

// negotiate adds the answer IAC verb opt to the server's request for opt,
// conditional on that request: the server leads, and the client answers
// each request once (RFC 1143), in the order the server asks.
func (p *planner) negotiate(verb, opt byte, why string) {
	name, rfc := telnetOption[opt][0], telnetOption[opt][1]
	p.add(Step{Kind: Send, Op: verbName[verb], Arg: name, Binary: true,
		Text: string([]byte{tnIAC, verb, opt}), Why: why, RFC: rfc,
		When: Cond{Text: "the server sends " + verbName[telnetAsk(verb)] + " " + name}})
}

// subneg adds a subnegotiation IAC SB ... IAC SE (RFC 855) whose
// parameters req describes (a *request.TermType or, for NAWS, a
// *request.Window): its bytes are the telnet client's own, which package
// fetch's encoder writes (encode), so that the plan and the client have
// one writer (the client sends the values the plan's bytes hold).
func (p *planner) subneg(arg string, req any, why, rfc, when string) {
	p.add(Step{Kind: Send, Op: "SB", Arg: arg, Binary: true, Request: req, Why: why, RFC: rfc, When: Cond{Text: when}})
}

// telnetNegotiation writes the answers of a telnet client whose terminal
// type is term and whose window is w x h (0: not a terminal).
func (p *planner) telnetNegotiation(term string, w, h int) {
	p.comment("the server leads the option negotiation: each request gets one answer (RFC 1143's Q method, so it cannot loop), in the order the server asks; the answers are:")
	p.negotiate(tnWILL, optBinary, "8-bit data from us")
	p.negotiate(tnWILL, optSGA, "no go-aheads from us")
	p.negotiate(tnWILL, optTermType, "we tell our terminal type")
	p.subneg(term, &request.TermType{Name: term}, "the terminal type", "RFC 1091", "the server sends SB TERMINAL-TYPE SEND")
	if w > 0 && h > 0 {
		p.negotiate(tnWILL, optNAWS, "we tell the window size (and again when it changes)")
		p.subneg(fmt.Sprintf("%dx%d", w, h), &request.Window{Width: w, Height: h}, "the window size, columns and rows", "RFC 1073", "the server sends DO NAWS")
	} else {
		p.negotiate(tnWONT, optNAWS, "not on a terminal: no window size to tell")
	}
	p.negotiate(tnDO, optBinary, "8-bit data from the server")
	p.negotiate(tnDO, optEcho, "the server echoes what we type (our terminal stops echoing)")
	p.negotiate(tnDO, optSGA, "no go-aheads from the server")
	p.comment("any other option is refused: DO x gets WONT x, WILL x gets DONT x (RFC 854, RFC 1143)")
}

func telnetPlan(v View, p *planner) {
	t := v.(*Telnet)
	p.connect(addr(t.Host, t.Port, t.name()))
	switch t.name() {
	case "rlogin":
		p.rlogin(t)
		return
	case "tn3270":
		p.comment("tn3270: an interactive session with IBM 3270 terminal emulation (RFC 1630), over telnet: TN3270 as RFC 1576 and RFC 2355 (basic, not TN3270E) describe it")
		p.tn3270()
	default:
		p.comment("telnet: an interactive service, not a data object (RFC 1738 3.8): the client connects the user's terminal to it")
		term := p.opts.Term
		if term == "" {
			term = "DUMB"
		}
		p.telnetNegotiation(term, p.opts.Width, p.opts.Height)
	}
	p.sessionLogin(t)
}

// tn3270 writes the TN3270 negotiation: TERMINAL-TYPE IBM-3278-2, then
// BINARY and END-OF-RECORD both ways (RFC 1576).
func (p *planner) tn3270() {
	p.comment("the server leads the negotiation; each request gets one answer, in the order the server asks:")
	p.negotiate(tnWILL, optTermType, "we tell our terminal type")
	p.subneg("IBM-3278-2", &request.TermType{Name: "IBM-3278-2"}, "a 3278 model 2 terminal: 24 rows of 80 columns", "RFC 1576", "the server sends SB TERMINAL-TYPE SEND")
	p.negotiate(tnWILL, optEOR, "3270 records end with IAC EOR")
	p.negotiate(tnDO, optEOR, "3270 records end with IAC EOR")
	p.negotiate(tnWILL, optBinary, "3270 records are binary")
	p.negotiate(tnDO, optBinary, "3270 records are binary")
	p.comment("any other option is refused: DO x gets WONT x, WILL x gets DONT x (RFC 854, RFC 1143)")
	p.add(Step{Kind: End, Text: "then 3270 data-stream records, each ending with IAC EOR: the host writes the screen, the client sends the modified fields with an attention key (Enter, PF and PA keys, Clear)"})
}

// rlogin writes the RFC 1282 handshake and the window-size message.
func (p *planner) rlogin(t *Telnet) {
	p.comment("rlogin: an interactive session (RFC 1630) opened with the handshake of RFC 1282")
	local := p.opts.LocalUser
	if local == "" {
		local = "user"
	}
	remote := local
	why := "NUL, the local user name, NUL, the remote user name (the local one: the URL names none), NUL, terminal/speed, NUL"
	if t.HasUser {
		remote = t.User
		why = "NUL, the local user name, NUL, the remote user name from the URL, NUL, terminal/speed, NUL"
	}
	term := p.opts.Term
	if term == "" {
		term = "network"
	}
	hs := "\x00" + local + "\x00" + remote + "\x00" + term + "/38400\x00"
	p.add(Step{Kind: Send, Op: "HANDSHAKE", Arg: remote, At: t.at.User, Binary: true, Text: hs, Why: why, RFC: "RFC 1282", Reply: "a NUL byte (or 0x01 and the reason of a refusal)"})
	p.comment("the server trusts the local user name only from a privileged source port (512-1023): the client binds one when it runs as root")
	if w, h := p.opts.Width, p.opts.Height; w > 0 && h > 0 {
		p.add(Step{Kind: Send, Op: "WINDOW", Arg: fmt.Sprintf("%dx%d", w, h), Binary: true, Request: &request.Window{Width: w, Height: h},
			Why: "the window size: magic FF FF 's' 's', rows, columns, pixels (0)", RFC: "RFC 1282",
			When: Cond{Text: "the server asks for the window size (urgent byte 0x80); again when the size changes"}})
	} else {
		p.comment("not on a terminal: no window size is sent, even when the server asks (urgent byte 0x80)")
	}
	p.sessionLogin(t)
}

// sessionLogin writes what happens to the URL's user and password: shown
// and, only when asked (get --login), typed at the server's prompts. The
// LOGIN and PASSWORD steps are the lines the client types, which it
// sends as they are written here (one writer): telnet's end with the
// NVT's CR LF (RFC 854), which its writer sends as CR alone when BINARY
// is on for our side (RFC 856: 8-bit data, no end-of-line convention;
// the Return key's byte, as BSD telnet sends it); rlogin's raw stream
// gets the Return key's CR alone.
func (p *planner) sessionLogin(t *Telnet) {
	if !t.HasUser {
		return
	}
	advice := "user name " + strconv.Quote(t.User)
	if t.HasPassword {
		advice += " and a password"
	}
	if !p.opts.Login {
		p.comment("the URL suggests the %s: advisory only (RFC 1738 3.8): the client prints \"login as: %s\" and types nothing (get --login answers the prompts)", advice, t.User)
		return
	}
	if t.name() == "tn3270" {
		// A 3270 screen has fields, not prompt lines: nothing is typed.
		p.comment("the URL suggests the %s: advisory only (RFC 1738 3.8): a 3270 host asks in the fields of its screen, which get --login does not fill (get --keys types into them); the client prints \"login as: %s\"", advice, t.User)
		return
	}
	p.comment("the URL suggests the %s: typed at the server's prompts once, as asked (get --login); advisory otherwise (RFC 1738 3.8)", advice)
	raw := t.name() == "rlogin"
	binaryNote := " (with BINARY on our side the CR LF goes as CR alone, RFC 856)"
	if raw {
		binaryNote = ""
	}
	if !raw {
		p.add(Step{Kind: Send, Op: "LOGIN", Arg: t.User, At: t.at.User, Text: t.User + "\r\n",
			Why: "the user name, at the login prompt", RFC: "RFC 1738 3.8",
			When: Cond{Text: "the server prompts \"login:\"" + binaryNote}})
	}
	// rlogin's stream is raw bytes, no NVT: the Return key's CR alone.
	end := "\r\n"
	if raw {
		end = "\r"
	}
	why := "the password, at the password prompt"
	if !t.HasPassword {
		// Nothing typed there would make the user's typed-ahead input
		// the password.
		why = "the URL gives no password: an empty line at the password prompt, so that the input that follows is not taken for one"
	}
	p.add(Step{Kind: Send, Op: "PASSWORD", Arg: t.Password, At: t.at.Password, Secret: true, Binary: raw, Text: t.Password + end,
		Why: why, RFC: "RFC 1738 3.8", When: Cond{Text: "the server prompts \"Password:\"" + binaryNote}})
}
