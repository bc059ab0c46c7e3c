package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
)

// StepKind is the kind of a Step.
type StepKind uint8

const (
	// Comment: a note, a prompt or a choice the client makes.
	Comment StepKind = iota
	// Connect: open a TCP connection to Text ("host:port").
	Connect
	// Open: open the local file Text.
	Open
	// Send: send Text, a protocol line with its line end, on the connection.
	Send
)

// Step is one step of an access algorithm.
type Step struct {
	Kind StepKind
	Text string
}

// String formats the step as the explain command prints it: "# TEXT",
// "connect HOST:PORT", "open PATH" (Go-quoted when it holds control
// characters), or "send " and the line in strconv.Quote form.
func (s Step) String() string {
	switch s.Kind {
	case Connect:
		return "connect " + escapeControls(s.Text)
	case Open:
		return "open " + printable(s.Text)
	case Send:
		return "send " + strconv.Quote(s.Text)
	}
	// A comment may quote decoded parts of the URL: its control bytes are
	// escaped so that it stays one line and cannot pass for a step.
	return "# " + escapeControls(s.Text)
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

// ExplainOptions are the choices Explain leaves to its caller. The zero
// value works: no proxy, placeholder addresses.
type ExplainOptions struct {
	// Mode selects the view rules: Lenient also reads the drafts' afs
	// scheme and FTP type codes.
	Mode urlkit.Mode
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
	// ShowPassword shows a password from the URL in the lines sent instead
	// of "xxxxx".
	ShowPassword bool
}

// Explain writes out the access algorithm u stands for, without any
// network access: the connection, each protocol line a client sends
// (Send steps hold the exact bytes), and comments for the prompts, the
// choices the client makes and the concerns of RFC 1738 section 6
// (Concerns), right after the connection. The first step is the Connect
// or Open one when the scheme has one.
//
// It returns an error when u is not a valid view of its scheme, and one
// wrapping ErrNoAccess for a scheme without an access algorithm (urn,
// reserved, experimental and unknown schemes).
func Explain(u *urlkit.URL, opts ExplainOptions) ([]Step, error) {
	v, err := Parse(u, opts.Mode)
	if err != nil {
		return nil, err
	}
	if v == nil || u.SchemeName() == "urn" {
		return nil, noAccess(u)
	}
	if opts.Email == "" {
		opts.Email = "user@example.com"
	}
	if opts.NewsServer == "" {
		opts.NewsServer = "news"
	}
	e := &explainer{u: u, opts: opts, concerns: Concerns(u)}
	if opts.Proxy != "" && proxied(v) {
		e.proxy(v)
		return e.steps, nil
	}
	switch v := v.(type) {
	case *FTP:
		e.ftp(v)
	case *HTTP:
		e.http(v)
	case *Gopher:
		e.gopher(v)
	case *Mailto:
		e.mailto(v)
	case *News:
		e.news(v)
	case *NNTP:
		e.nntp(v)
	case *Telnet:
		e.telnet(v)
	case *WAIS:
		e.wais(v)
	case *File:
		e.file(v)
	case *Prospero:
		e.prospero(v)
	case *MID:
		e.comment("mid: a mail message already received (RFC 1630): the client looks in the user's mail for the message whose Message-ID is <%s>", v.ID)
	case *CID:
		e.comment("cid: a body part of the MIME message this URL appears in (RFC 1630): the one whose Content-ID is <%s>", v.ID)
	case *AFS:
		e.open(v.GlobalPath())
		e.comment("afs (draft-ietf-uri-url-03, historical): the Andrew File System global name, read where AFS mounts its cells under /afs")
	}
	if opts.Proxy != "" && !proxied(v) {
		e.comment("the proxy is not used: %s URLs are not retrieved through an HTTP proxy", v.Scheme())
	}
	e.flushConcerns()
	return e.steps, nil
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

// proxied reports whether a view's scheme is retrieved through an HTTP
// proxy (the retrieval schemes; not interactive sessions, mail or files).
func proxied(v View) bool {
	switch v.(type) {
	case *HTTP, *FTP, *Gopher, *WAIS, *News, *NNTP:
		return true
	}
	return false
}

type explainer struct {
	u        *urlkit.URL
	opts     ExplainOptions
	steps    []Step
	concerns []Concern
}

func (e *explainer) comment(format string, args ...any) {
	e.steps = append(e.steps, Step{Kind: Comment, Text: sprintf(format, args...)})
}

func (e *explainer) send(line string) { e.steps = append(e.steps, Step{Kind: Send, Text: line}) }

func (e *explainer) connect(addr string) {
	e.steps = append(e.steps, Step{Kind: Connect, Text: addr})
	e.flushConcerns()
}

func (e *explainer) open(path string) {
	e.steps = append(e.steps, Step{Kind: Open, Text: path})
	e.flushConcerns()
}

// flushConcerns writes the concerns as comments, once.
func (e *explainer) flushConcerns() {
	for _, c := range e.concerns {
		if c.Refuse {
			e.comment("refused: offset %d: %s", c.Offset, c.Message)
		} else {
			e.comment("caution: offset %d: %s", c.Offset, c.Message)
		}
	}
	e.concerns = nil
}

// addr returns host:port with the scheme's default port when none is written.
func addr(host, port, scheme string) string {
	if port == "" {
		port = strconv.Itoa(urlkit.DefaultPort(scheme))
	}
	return host + ":" + port
}

func (e *explainer) password(p string) string {
	if e.opts.ShowPassword {
		return p
	}
	return "xxxxx"
}

func (e *explainer) proxy(v View) {
	e.connect(e.opts.Proxy)
	e.comment("through the HTTP proxy %s: the whole URL goes on the request line, whatever its scheme (RFC 1630, HTTP)", e.opts.Proxy)
	if h, ok := v.(*HTTP); ok && h.Secure {
		hp := addr(h.Host, h.Port, "https")
		e.send("CONNECT " + hp + " HTTP/1.0\r\n")
		e.send("\r\n")
		e.comment("the proxy opens a tunnel to %s; the client then makes a TLS connection through it and sends the request as to the server itself:", hp)
		e.httpRequest(h)
		return
	}
	target := *e.u
	target.HasFragment, target.Fragment = false, ""
	line := target.String()
	if target.HasPassword && !e.opts.ShowPassword {
		line = target.Redacted()
	}
	e.send("GET " + line + " HTTP/1.0\r\n")
	if h, ok := v.(*HTTP); ok {
		e.send("Host: " + hostHeader(h) + "\r\n")
	}
	e.send("\r\n")
	e.fragmentNote()
}

func (e *explainer) fragmentNote() {
	if e.u.HasFragment {
		e.comment("the fragment %q is not sent: the client applies it to what it receives (RFC 1630)", e.u.Fragment)
	}
}

func hostHeader(h *HTTP) string {
	if h.Port != "" && h.Port != strconv.Itoa(urlkit.DefaultPort(h.Scheme())) {
		return h.Host + ":" + h.Port
	}
	return h.Host
}

func (e *explainer) http(h *HTTP) {
	e.connect(addr(h.Host, h.Port, h.Scheme()))
	if h.Secure {
		e.comment("https: a TLS handshake with server name %q comes first; the request then goes over TLS (RFC 2818)", h.Hostname())
	}
	e.httpRequest(h)
}

func (e *explainer) httpRequest(h *HTTP) {
	e.comment("the path and search go to the server as written, still encoded (RFC 1738 3.3)")
	e.send("GET " + h.RequestURI() + " HTTP/1.0\r\n")
	e.send("Host: " + hostHeader(h) + "\r\n")
	e.send("\r\n")
	e.fragmentNote()
}

func (e *explainer) ftp(f *FTP) {
	e.connect(addr(f.Host, f.Port, "ftp"))
	switch l := f.Login(); {
	case l.Anonymous:
		if f.HasUser {
			e.comment("the URL gives an empty user name (RFC 1738 3.1), which USER cannot carry (RFC 959 wants at least one character): the client logs in as if there were none")
		}
		e.comment("no user name in the URL: the anonymous FTP convention (RFC 1738 3.2.1): user \"anonymous\", password the user's e-mail address")
		e.send("USER anonymous\r\n")
		e.comment("if the server asks for a password (reply 331):")
		e.send("PASS " + e.opts.Email + "\r\n")
	case !l.HasPassword:
		e.send("USER " + l.User + "\r\n")
		e.comment("no password in the URL: if the server asks for one (reply 331), the client asks the user and sends PASS with the answer (RFC 1738 3.2.1)")
	case l.Password == "":
		e.send("USER " + l.User + "\r\n")
		e.comment("the URL gives an empty password (RFC 1738 3.1): if the server asks for one, PASS has no argument")
		e.send("PASS \r\n")
	default:
		e.send("USER " + l.User + "\r\n")
		if !e.opts.ShowPassword {
			e.comment("the password of the URL, shown as xxxxx:")
		}
		e.send("PASS " + e.password(l.Password) + "\r\n")
	}
	for _, c := range f.CWD {
		if c == "" {
			e.comment("an empty segment: CWD with a null argument (RFC 1738 3.2.2)")
		}
		e.send("CWD " + c + "\r\n")
	}
	if f.IsDir() {
		switch {
		case f.Type == "d":
			e.comment(";type=d: a directory listing by NLST (RFC 1738 3.2.2)")
		default:
			e.comment("the name is empty (the url-path ends with \"/\"): RFC 1738 does not say what that means; urlkit lists the directory, with NLST")
		}
		e.passive("the listing")
		if f.Name == "" {
			e.send("NLST\r\n")
		} else {
			e.send("NLST " + f.Name + "\r\n")
		}
	} else {
		t := f.TypeCommand()
		if f.Type == "" {
			code, why := GuessType(f.Name)
			g := FTP{Type: code}
			t = g.TypeCommand()
			e.comment("no ;type= in the URL, so the client guesses (RFC 1738 3.2.3): TYPE %s, since %s", t, why)
		}
		e.send("TYPE " + t + "\r\n")
		e.passive("the file")
		e.send("RETR " + f.Name + "\r\n")
	}
	e.send("QUIT\r\n")
}

// passive explains passive mode as the access layer does it: EPSV (RFC
// 2428) first, PASV if the server refuses it.
func (e *explainer) passive(what string) {
	e.send("EPSV\r\n")
	e.comment("the client opens the data connection to the port of the 229 reply (if EPSV is refused: PASV, and the port of the 227 reply, on the control connection's address); %s comes over it", what)
}

func (e *explainer) gopher(g *Gopher) {
	e.connect(addr(g.Host, g.Port, "gopher"))
	what := GopherTypes[g.Type]
	if what == "" {
		what = "a type RFC 1436 does not define"
	}
	e.comment("gopher item type %q: %s; the type is not sent, it tells the client how to read the reply", string([]byte{g.Type}), what)
	switch g.Type {
	case '8', 'T':
		e.comment("the item is an interactive session: the connection above is a telnet session (tn3270 for type T), not a Gopher request; the selector, if any, is the user name to log in with (RFC 1436)")
		return
	case '7':
		if !g.HasSearch {
			e.comment("a search server and no search string in the URL: the client asks the user for one, then sends the selector, a TAB and the words")
			return
		}
	}
	req, err := g.PlusRequest()
	if err != nil {
		e.comment("the Gopher+ string is none of the forms of RFC 1738 3.4 (%v); it is sent as it is", err)
		e.send(g.Selector + "\t" + g.Search + "\t" + g.Plus + "\r\n")
		return
	}
	if req.Kind == PlusNone {
		line := g.Selector
		if g.HasSearch {
			line += "\t" + g.Search
			e.comment("the selector, a TAB and the search string (RFC 1738 3.4)")
		}
		e.send(line + "\r\n")
		e.gopherReply(g)
		return
	}
	head := req.String()
	switch req.Kind {
	case PlusView:
		switch {
		case req.View == "":
			e.comment("Gopher+: the item's default view (RFC 1738 3.4)")
		case req.Language == "":
			e.comment("Gopher+: the alternate view %q (RFC 1738 3.4)", req.View)
		default:
			e.comment("Gopher+: the alternate view %q in the language %q (RFC 1738 3.4)", req.View, req.Language)
		}
		if req.Form {
			e.comment("with a filled-out ASK form: %d value(s) in a +-1 data block ending with a line holding \".\" (RFC 1738 3.4)", len(req.Values))
			v := req
			v.Form, v.Values = false, nil
			head = v.String() + "\t1"
		}
	case PlusAsk:
		e.comment("Gopher+: the item has an ASK form: the client fetches the item's attributes and reads its +ASK block, asks the user to fill it out, and sends the answers in an ASK submission (draft-ietf-uri-url-06 3.4.5); it asks for all attributes (\"!\"), since servers such as pygopherd answer \"!+ASK\" with the document itself")
		head = "!"
	case PlusItemAttributes, PlusDirectoryAttributes:
		of := "the item"
		if req.Kind == PlusDirectoryAttributes {
			of = "every item of the directory"
		}
		if req.Attributes == nil {
			e.comment("Gopher+: all attributes of %s (draft-ietf-uri-url-06 3.4.6)", of)
		} else {
			e.comment("Gopher+: the attributes %s of %s, separated by spaces (draft-ietf-uri-url-06 3.4.7)", strings.Join(req.Attributes, " "), of)
		}
	}
	line := g.Selector + "\t"
	if g.Type == '7' || g.Search != "" {
		line += g.Search + "\t"
	} else {
		e.comment("not a search item: the selector, a TAB and the Gopher+ string, without the empty search (draft-ietf-uri-url-06 3.4.3)")
	}
	e.send(line + head + "\r\n")
	if req.Form {
		e.send("+-1\r\n")
		for _, v := range req.Values {
			e.send(v + "\r\n")
		}
		e.send(".\r\n")
	}
	e.comment("the server replies with a Gopher+ data block: a \"+\" length line, then the data")
}

func (e *explainer) gopherReply(g *Gopher) {
	switch g.Type {
	case '1', '7':
		e.comment("the server replies with a menu, one item per line, ending with a line holding \".\", and closes the connection")
	case '0':
		e.comment("the server replies with the text, ending with a line holding \".\", and closes the connection")
	default:
		e.comment("the server replies with the item and closes the connection")
	}
}

func (e *explainer) mailto(m *Mailto) {
	local, domain := m.Split()
	host := domain
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		host = domain[1 : len(domain)-1]
	}
	e.connect(host + ":25")
	e.comment("mailto designates an Internet mail address, not a data object (RFC 1738 3.5): the client writes a message to it and sends it by SMTP (RFC 821)")
	if host == domain {
		e.comment("to a mail exchanger of %q (its DNS MX records) or to the user's own mail server", domain)
	}
	_, from := splitAddr(e.opts.Email)
	if from == "" {
		from = "localhost"
	}
	e.send("HELO " + from + "\r\n")
	e.send("MAIL FROM:<" + e.opts.Email + ">\r\n")
	e.send("RCPT TO:<" + local + "@" + domain + ">\r\n")
	e.send("DATA\r\n")
	e.comment("the message: header lines, an empty line, the body, and a line holding only \".\"")
	e.send("QUIT\r\n")
}

func (e *explainer) news(n *News) {
	e.connect(addr(e.opts.NewsServer, "", "nntp"))
	e.comment("news URLs name no server: the reader's own news server is used, here %q (RFC 1738 3.6)", e.opts.NewsServer)
	switch {
	case n.All:
		e.comment("news:* refers to all available newsgroups: the client lists them")
		e.send("LIST\r\n")
	case n.MessageID != "":
		e.comment("an article by its message-id, in the \"<\" \">\" the URL leaves out (RFC 977 ARTICLE)")
		e.send("ARTICLE <" + n.MessageID + ">\r\n")
	default:
		e.send("GROUP " + n.Group + "\r\n")
		e.comment("the client then reads the group's articles by number (ARTICLE, HEAD)")
	}
	e.send("QUIT\r\n")
}

func (e *explainer) nntp(n *NNTP) {
	e.connect(addr(n.Host, n.Port, "nntp"))
	e.send("GROUP " + n.Group + "\r\n")
	if n.Article != "" {
		e.comment("the article number is the server's own numbering within the group (RFC 1738 3.7)")
		e.send("ARTICLE " + n.Article + "\r\n")
	} else {
		e.comment("the client then reads the group's articles by number (ARTICLE, HEAD)")
	}
	e.send("QUIT\r\n")
}

func (e *explainer) telnet(t *Telnet) {
	e.connect(addr(t.Host, t.Port, t.Scheme()))
	switch t.Scheme() {
	case "rlogin":
		remote := "the local user name again"
		if t.HasUser {
			remote = strconv.Quote(t.User) + " from the URL"
		}
		e.comment("rlogin: an interactive session (RFC 1630); the client opens it with the handshake of RFC 1282: NUL, the local user name, NUL, the remote user name (%s), NUL, the terminal type and speed, NUL", remote)
		if t.HasPassword {
			e.comment("the URL suggests the password %q: advisory only, rlogin sends none; the client tells the user if the server asks", e.password(t.Password))
		}
		return
	case "tn3270":
		e.comment("tn3270: an interactive session with IBM 3270 terminal emulation (RFC 1630), over telnet")
	default:
		e.comment("telnet: an interactive service, not a data object (RFC 1738 3.8): the client connects the user's terminal to it")
	}
	if t.HasUser {
		advice := "user name " + strconv.Quote(t.User)
		if t.HasPassword {
			advice += " and password " + strconv.Quote(e.password(t.Password))
		}
		e.comment("the URL suggests the %s: advisory only, the client tells the user (RFC 1738 3.8)", advice)
	}
}

func (e *explainer) wais(w *WAIS) {
	e.connect(addr(w.Host, w.Port, "wais"))
	e.comment("WAIS speaks Z39.50-1988 (RFC 1625): binary requests, not text lines; first an init request, then:")
	switch {
	case w.HasDocument:
		e.comment("a retrieval of the document of database %q, type %q, document-id %q (RFC 1738 3.9)", w.Database, w.WType, w.WPath)
		for _, f := range w.Fields {
			e.comment("document-id field %d: %q (RFC 1630 wpath encoding)", f.Number, f.Value)
		}
	case w.HasSearch:
		e.comment("a search of database %q for %q (RFC 1738 3.9)", w.Database, w.Search)
	default:
		e.comment("database %q is there to be searched: the client asks the user for the words, then sends a search request (RFC 1738 3.9)", w.Database)
	}
}

func (e *explainer) file(f *File) {
	if !f.IsLocal() {
		e.comment("host %q is not this machine: a file URL names no protocol to reach another machine's files (RFC 1738 3.10); there is nothing to open here", f.Host)
		e.flushConcerns()
		return
	}
	p, err := f.LocalPath()
	if err != nil {
		p = f.Path
	}
	e.open(p)
	if f.Host == "" {
		e.comment("an empty host means the machine interpreting the URL (RFC 1738 3.10)")
	} else {
		e.comment("host %q means the machine interpreting the URL (RFC 1738 3.10)", f.Host)
	}
}

func (e *explainer) prospero(p *Prospero) {
	e.connect(addr(p.Host, p.Port, "prospero"))
	e.comment("Prospero (ARDP over UDP): the client asks the directory server to resolve the hsoname %q, opaque to the client (RFC 1738 3.11)", p.HSOName)
	if p.HasVersion {
		e.comment("version %q (after %%00, RFC 1630)", p.Version)
	}
	for _, a := range p.Attributes {
		e.comment("attribute %q (after %%00, the October 1993 draft)", a)
	}
	for _, f := range p.Fields {
		e.comment("field %s=%q identifies the target", f.Name, f.Value)
	}
	e.comment("the reply names the access methods of the object, themselves URLs")
}

// sprintf is fmt.Sprintf for the explainer's comments.
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
