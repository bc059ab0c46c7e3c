package scheme

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/registry"
)

// FTP is the view of an ftp URL (RFC 1738 3.2):
//
//	ftp://<user>:<password>@<host>:<port>/<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
//
// The url-path is a series of FTP commands: a CWD for each <cwd>, then a
// TYPE and a RETR of <name>, or with ;type=d an NLST of <name>. The
// segments are split at the unencoded "/" and then decoded, so a "%2F"
// stays inside its segment: ftp://myname@host.dom/%2Fetc/motd is CWD
// "/etc" then RETR "motd", and ftp://myname@host.dom//etc/motd is a CWD
// with an empty argument, then CWD "etc".
type FTP struct {
	User        string // decoded; see HasUser
	Password    string // decoded; see HasPassword
	HasUser     bool   // a user name is given (it may be empty: ftp://@host/)
	HasPassword bool   // a password is given (it may be empty: ftp://foo:@host/)
	Host        string // as written
	Port        string // the digits as written, "" for the default (21)

	// CWD holds the decoded arguments of the CWD commands, in order; nil
	// when there are none.
	CWD []string
	// Name is the decoded file name (RETR) or directory (NLST); "" when
	// the url-path ends with "/" or is absent.
	Name string
	// Type is the type code in lower case: "a" (ASCII), "i" (image), "d"
	// (directory listing), or "" when the URL gives none. The drafts'
	// codes, which Parse accepts in the Lenient mode, are "a" or "e"
	// followed by a form code "n", "t" or "c", "e" alone, and "l"
	// followed by a byte size ("l8"); TypeCommand gives their TYPE
	// argument.
	Type string
	// NoPath reports a URL without a url-path: "ftp://host" (RFC 1630
	// and draft-03: list the directory the login starts in), where
	// "ftp://host/" has an empty one.
	NoPath bool

	// at holds where each part is written in the URL's String form.
	at ftpSpans
}

// ftpSpans are the spans of an ftp URL's parts (see Span).
type ftpSpans struct {
	authSpans
	CWD  []Span // one per CWD argument
	Name Span
	Type Span // the type code after ";type=", empty when there is none
}

// parseFTP returns the view of an ftp URL. A ";" in the url-path must
// start the final ";type=" (matched without regard to case) and the type
// code must be one of A I D a i d (RFC 1738 section 5, ftptype); with
// drafts (the Lenient mode), also one of the type codes of the 1993-94
// drafts (draft-ietf-uri-url-03 BNF: "A" formcode, "E" formcode, "I",
// "L" digits, with formcode N, T or C, written without the space of RFC
// 959's TYPE command).
func parseFTP(u *urlkit.URL, drafts bool) (*FTP, error) {
	f := new(FTP)
	if err := f.read(u, drafts); err != nil {
		return nil, err
	}
	return f, nil
}

// read fills f with the view of u, with the drafts' type codes if
// drafts is set.
func (f *FTP) read(u *urlkit.URL, drafts bool) error {
	if err := needAuthority(u); err != nil {
		return err
	}
	*f = FTP{Host: u.Host, Port: port(u), HasUser: u.HasUser, HasPassword: u.HasPassword}
	f.at.authSpans = serverSpans(u)
	f.User, _ = u.DecodedUser()
	f.Password, _ = u.DecodedPassword()
	p, off, ok := urlPath(u)
	if !ok {
		if u.HasQuery {
			return noSlashBeforeQuery(u)
		}
		f.NoPath, f.at.Name = true, Span{off - 1, off - 1}
		return nil
	}
	sp := registry.SplitFTP(p) // the split the strict check reads
	if k := sp.Semicolon; k >= 0 {
		return syntaxError(u, off+k, "';' is reserved and must be encoded as %3B in an FTP path: only a final \";type=\" may follow the name (RFC 1738 3.2.2)")
	}
	if sp.TypeAt >= 0 {
		code := lowerASCII(p[sp.TypeAt+6:])
		if !validFTPType(code, drafts) {
			rule := "ftptype must be one of A I D a i d (RFC 1738 section 5, ftptype)"
			if drafts {
				rule = "the type code must be A, I or D, or one of the drafts' A or E with a form code N, T or C, E, or L with a byte size (draft-ietf-uri-url-03 BNF, ftptype)"
			} else if validFTPType(code, true) {
				rule += "; the drafts' E, L and form codes are accepted in the lenient mode"
			}
			return syntaxError(u, off+sp.TypeAt+6, rule)
		}
		f.Type = code
		f.at.Type = Span{off + sp.TypeAt + 6, off + len(p)}
	}
	if n := strings.Count(p[:sp.End], "/"); n > 0 { // the CWD segments, each ended by a "/"
		f.CWD, f.at.CWD = make([]string, 0, n), make([]Span, 0, n)
	}
	for at := 0; ; {
		start, end, next, last := sp.NextSegment(p, at)
		seg := unescape(p[start:end])
		if last {
			f.Name, f.at.Name = seg, Span{off + start, off + end}
			break
		}
		f.CWD = append(f.CWD, seg)
		f.at.CWD = append(f.at.CWD, Span{off + start, off + end})
		at = next
	}
	return nil
}

// validFTPType reports whether code (lower case) is an RFC 1738 type
// code or, with drafts, one of the drafts' codes.
func validFTPType(code string, drafts bool) bool {
	switch code {
	case "a", "i", "d":
		return true
	}
	if !drafts || code == "" {
		return false
	}
	switch code[0] {
	case 'a', 'e':
		return len(code) == 1 || len(code) == 2 && strings.IndexByte("ntc", code[1]) >= 0
	case 'l':
		if len(code) == 1 {
			return false
		}
		for i := 1; i < len(code); i++ {
			if code[i] < '0' || code[i] > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// appendParts appends cwd, name, type, user and password.
func (f *FTP) appendParts(dst []part) []part {
	return append(dst, kv("cwd", strs(f.CWD)), kv("name", str(f.Name)), kv("type", opt(f.Type, f.Type != "")),
		kv("user", opt(f.User, f.HasUser)), kv("password", opt(f.Password, f.HasPassword)))
}

// URL builds the ftp URL: user and password encoded for RFC 1738's user
// production, each CWD argument and the name for fsegment (so "/" becomes
// %2F and ";" %3B), and ";type=" with the type code when there is one.
func (f *FTP) URL() *urlkit.URL {
	u := serverURL("ftp", f.Host, f.Port)
	setLogin(u, f.User, f.Password, f.HasUser, f.HasPassword)
	if f.NoPath && f.CWD == nil && f.Name == "" && f.Type == "" {
		return u
	}
	var b strings.Builder
	b.WriteByte('/')
	for _, c := range f.CWD {
		b.WriteString(escape(c, &keepFseg))
		b.WriteByte('/')
	}
	b.WriteString(escape(f.Name, &keepFseg))
	if f.Type != "" {
		b.WriteString(";type=")
		b.WriteString(f.Type)
	}
	setPath(u, b.String())
	return u
}

// FTPLogin is the login an FTP URL asks for (RFC 1738 3.2.1).
type FTPLogin struct {
	// Anonymous: the URL gives no user name (or an empty one, which USER
	// cannot carry: RFC 959 wants at least one character), so the client
	// follows the anonymous convention: user "anonymous", the user's mail
	// address as the password.
	Anonymous   bool
	User        string // the user name to send (decoded)
	Password    string // the password to send (decoded), when HasPassword
	HasPassword bool   // the URL gives a password, possibly empty; else the client asks for one if the server wants it
}

// Login returns the login the URL asks for. Explain prints it and the
// access layer performs it, so the two always agree.
func (f *FTP) Login() FTPLogin {
	if !f.HasUser || f.User == "" {
		return FTPLogin{Anonymous: true, User: "anonymous"}
	}
	return FTPLogin{User: f.User, Password: f.Password, HasPassword: f.HasPassword}
}

// IsDir reports whether the URL designates a directory listing: the type
// code "d", or an empty name (the url-path ends with "/" or is absent;
// RFC 1738 is silent there, and a listing is what such a URL is used for).
func (f *FTP) IsDir() bool { return f.Type == "d" || f.Name == "" }

// TypeCommand returns the argument of the FTP TYPE command for the type
// code ("A", "I", "E N", "L 8"), or "" for "d" and for no type code.
func (f *FTP) TypeCommand() string {
	switch t := f.Type; {
	case t == "" || t == "d":
		return ""
	case t[0] == 'l':
		return "L " + t[1:]
	case len(t) == 2:
		return strings.ToUpper(t[:1] + " " + t[1:])
	default:
		return strings.ToUpper(t)
	}
}

// guessType returns the type code a client would use for a file name the
// URL gives no ";type=" for (RFC 1738 3.2.3: "the client program
// interpreting the URL must guess the appropriate mode"), and why. Names
// with a suffix of text formats, and a few conventional text file names
// (README, motd), guess "a"; every other name guesses "i", which
// transfers every byte unchanged.
func guessType(name string) (code, reason string) {
	lower := lowerASCII(name) // byte for byte: strings.ToLower may change the length
	if textNames[lower] {
		return "a", "\"" + name + "\" is conventionally a text file"
	}
	dot := strings.LastIndexByte(lower, '.')
	if dot < 0 || dot == len(lower)-1 {
		return "i", "\"" + name + "\" has no suffix to tell text from binary; image transfers every byte unchanged"
	}
	suffix := lower[dot:]
	if textSuffixes[suffix] {
		return "a", "the suffix " + name[dot:] + " names a text format"
	}
	if binarySuffixes[suffix] {
		return "i", "the suffix " + name[dot:] + " names a binary format"
	}
	return "i", "the suffix " + name[dot:] + " is not a known text format; image transfers every byte unchanged"
}

var textNames = set("readme", "install", "copying", "changelog", "changes", "news", "todo", "makefile", "motd", "index", "ls-lr", "00index", "00readme")

var textSuffixes = set(".txt", ".text", ".asc", ".html", ".htm", ".shtml", ".xml", ".sgml", ".css", ".js", ".json", ".csv", ".tsv",
	".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".go", ".py", ".pl", ".pm", ".sh", ".tcl", ".el", ".lisp", ".f", ".p",
	".tex", ".latex", ".bib", ".ps", ".eps", ".rtf", ".md", ".rst", ".me", ".ms", ".man", ".diff", ".patch", ".log",
	".conf", ".cfg", ".ini", ".faq", ".1", ".2", ".3", ".4", ".5", ".6", ".7", ".8")

var binarySuffixes = set(".z", ".gz", ".tgz", ".taz", ".zip", ".zoo", ".arc", ".lzh", ".arj", ".tar", ".bz2", ".xz", ".zst", ".7z",
	".gif", ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".xbm", ".pdf", ".dvi", ".mp3", ".au", ".wav", ".mpg", ".mpeg", ".mov", ".avi",
	".exe", ".com", ".dll", ".bin", ".o", ".a", ".so", ".hqx", ".sit", ".iso", ".img", ".jar", ".class", ".deb", ".rpm")

// lowerASCII lower-cases the ASCII letters of s, leaving other bytes.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func init() {
	register(&unit{
		parse: func(u *urlkit.URL, m urlkit.Mode) (View, error) {
			return nilView(parseFTP(u, m == urlkit.Lenient))
		},
		parts: func(dst []part, u *urlkit.URL, m urlkit.Mode) ([]part, error) {
			var f FTP // on the stack
			if err := f.read(u, m == urlkit.Lenient); err != nil {
				return dst, err
			}
			return f.appendParts(dst), nil
		},
		concerns: ftpConcerns,
		plan:     ftpPlan,
		proxied:  true,
	}, "ftp")
}

// ftpConcerns: the USER and PASS arguments, each CWD argument and the
// name go into FTP command lines.
func ftpConcerns(v View, c *concernList) {
	f, _ := v.(*FTP)
	if f == nil {
		return
	}
	c.scanSpan(f.at.User, ctlLine, "FTP USER command")
	c.scanSpan(f.at.Password, ctlLine, "FTP PASS command")
	for _, sp := range f.at.CWD {
		c.scanSpan(sp, ctlLine, "FTP CWD command")
	}
	c.scanSpan(f.at.Name, ctlLine, "FTP RETR or NLST command")
}

// ftpPlan is the access algorithm of RFC 1738 section 3.2, as urlkit's
// FTP client carries it out (package fetch executes these steps).
func ftpPlan(v View, p *planner) {
	f := v.(*FTP)
	if dir := p.opts.FTPLoginDir; dir != "" {
		p.comment("the control connection of an earlier URL of this server and login is kept (draft-ietf-uri-url-06 3.2.5): no new connection, no login")
		st := p.send("CWD", dir, ftpLine("CWD", dir))
		st.Reply, st.Why, st.RFC = "250 (else the client opens a new connection)", "back to the login directory, which the URL's CWDs are relative to", "RFC 1738 3.2.2"
	} else {
		ftpLogin(f, p)
	}
	if !ftpAccess(f, p) {
		return
	}
	if p.opts.KeepFTP {
		p.comment("the control connection is kept for the next URL of this server and login; QUIT ends it at the end of the run")
		return
	}
	p.send("QUIT", "", "QUIT\r\n").Reply = "221"
}

// ftpLogin plans the connection and the login (RFC 1738 3.2.1), and with
// PlanOptions.KeepFTP the PWD that remembers the login directory.
func ftpLogin(f *FTP, p *planner) {
	p.connect(addr(f.Host, f.Port, "ftp"))
	p.add(Step{Kind: Expect, Reply: "220", Text: "the server's greeting (RFC 959 5.4)"})
	defer func() {
		if p.opts.KeepFTP {
			st := p.send("PWD", "", "PWD\r\n")
			st.Reply, st.Why, st.RFC = "257", "the login directory, for the next URL on this connection to go back to", "RFC 1738 3.2.2"
		}
	}()
	if331 := Cond{On: "USER", Reply: "331", Text: "the server replies 331 (it wants a password)"}
	switch l := f.Login(); {
	case l.Anonymous:
		if f.HasUser {
			p.comment("the URL gives an empty user name (RFC 1738 3.1), which USER cannot carry (RFC 959 wants at least one character): the client logs in as if there were none")
		}
		p.comment("no user name in the URL: the anonymous FTP convention (RFC 1738 3.2.1): user \"anonymous\", password the user's e-mail address")
		p.send("USER", "anonymous", "USER anonymous\r\n").Reply = "230, or 331"
		st := p.send("PASS", p.opts.Email, ftpLine("PASS", p.opts.Email))
		st.When, st.Reply = if331, "230"
	case !l.HasPassword:
		p.send("USER", l.User, ftpLine("USER", l.User)).Reply = "230, or 331"
		p.add(Step{Kind: Ask, When: if331, Why: "no password in the URL: the client asks the user and sends PASS with the answer", RFC: "RFC 1738 3.2.1",
			Text: "the password of " + l.User})
		st := p.send("PASS", "", "PASS ")
		st.When, st.Reply, st.Secret, st.Answers = if331, "230", true, true
	default:
		p.send("USER", l.User, ftpLine("USER", l.User)).Reply = "230, or 331"
		st := p.send("PASS", l.Password, ftpLine("PASS", l.Password))
		st.When, st.Reply, st.Secret = if331, "230", l.Password != ""
		if l.Password == "" {
			st.Why, st.RFC = "the URL gives an empty password: PASS has no argument", "RFC 1738 3.1"
		}
	}
}

// The conditions of the MLST, MLSD, LIST, NLST and PASV steps.
var (
	featMLST    = Cond{On: "FEAT", Lists: "MLST", Text: "FEAT lists MLST"}
	listRefused = Cond{On: "LIST", Reply: "5xx !550", Text: "LIST is refused"}
	epsvRefused = Cond{On: "EPSV", Reply: "5xx", Text: "the server refuses EPSV"}
)

// ftpLine is an FTP command line (cmdLine) on the control connection, a
// Telnet NVT (RFC 959 4.1): a 0xFF byte of the argument goes as IAC IAC,
// or "\xff\xf4" would arrive as IAC IP (interrupt process).
func ftpLine(verb, arg string) string {
	return cmdLine(verb, strings.ReplaceAll(arg, "\xff", "\xff\xff"))
}

// ftpAccess plans the CWDs and the transfer (RFC 1738 3.2.2); it reports
// whether the plan goes on (false after a refusal).
func ftpAccess(f *FTP, p *planner) bool {
	for i, c := range f.CWD {
		st := p.send("CWD", c, ftpLine("CWD", c))
		st.Reply = "250"
		if i < len(f.at.CWD) {
			st.At = f.at.CWD[i]
		}
		if c == "" {
			st.Why, st.RFC = "an empty segment: CWD with a null argument", "RFC 1738 3.2.2"
		}
	}
	if p.opts.Head {
		p.comment("-I: what the server says about %q, without its data", f.Name)
		if !f.IsDir() {
			if !p.ftpType(f, "I") {
				return false
			}
			st := p.send("SIZE", f.Name, ftpLine("SIZE", f.Name))
			st.Reply, st.Why, st.RFC = "213 (a refusal is ignored)", "the size, in TYPE I the file's bytes", "RFC 3659 4"
			st = p.send("MDTM", f.Name, ftpLine("MDTM", f.Name))
			st.Reply, st.Why, st.RFC = "213 (a refusal is ignored)", "the modification time", "RFC 3659 3"
		}
		st := p.send("FEAT", "", "FEAT\r\n")
		st.Reply, st.Why, st.RFC = "211 (a refusal is ignored)", "whether the server offers MLST", "RFC 2389"
		st = p.send("MLST", f.Name, ftpLine("MLST", f.Name))
		st.When, st.Reply, st.Why, st.RFC = featMLST, "250", "the file's facts in a standard form", "RFC 3659 7"
		return true
	}
	typ := f.TypeCommand()
	if p.opts.List {
		p.comment("--list: a listing with the facts of each entry: MLSD (RFC 3659 7) when the server has it, else LIST, else NLST")
		if typ != "" && typ != "D" && !p.ftpType(f, typ) {
			return false
		}
		st := p.send("FEAT", "", "FEAT\r\n")
		st.Reply, st.Why, st.RFC = "211 (a refusal is ignored)", "whether the server offers MLSD (it lists MLST)", "RFC 2389"
		p.passive()
		st = p.send("MLSD", f.Name, ftpLine("MLSD", f.Name))
		st.When, st.Reply, st.RFC = featMLST, "150 (or 125), then 226", "RFC 3659 7"
		st = p.send("LIST", f.Name, ftpLine("LIST", f.Name))
		st.When, st.Reply, st.Why = Cond{On: "FEAT", Lists: "MLST", Not: true, Text: "FEAT does not list MLST"}, "150 (or 125), then 226", "the server's own format: Unix ls -l and DOS are read"
		st = p.send("EPSV", "", "EPSV\r\n")
		st.When, st.Reply = listRefused, "229"
		st = p.send("PASV", "", "PASV\r\n")
		st.When, st.Reply = epsvRefused, "227"
		st = p.send("NLST", f.Name, ftpLine("NLST", f.Name))
		st.When, st.Reply, st.Why = listRefused, "150 (or 125), then 226", "names only"
		p.add(Step{Kind: End, Text: "the listing ends when the server closes the data connection; the 226 reply confirms it"})
		return true
	}
	if f.IsDir() {
		switch {
		case f.Type == "d":
			p.comment(";type=d: a directory listing by NLST (RFC 1738 3.2.2)")
		case f.NoPath:
			p.comment("no url-path: the URL names the directory the login starts in, which the client lists (RFC 1630; draft-ietf-uri-url-03), with NLST")
		default:
			p.comment("the name is empty (the url-path ends with \"/\"): RFC 1738 does not say what that means; urlkit lists the directory, with NLST")
		}
		if typ != "" && !p.ftpType(f, typ) {
			return false
		}
		p.passive()
		p.send("NLST", f.Name, ftpLine("NLST", f.Name)).Reply = "150 (or 125), then 226"
		p.add(Step{Kind: End, Text: "the listing, one name per line, ends when the server closes the data connection; the 226 reply confirms it"})
	} else {
		if f.Type == "" {
			code, why := guessType(f.Name)
			typ = strings.ToUpper(code)
			p.comment("no ;type= in the URL, so the client guesses (RFC 1738 3.2.3): TYPE %s, since %s", typ, why)
		}
		if !p.ftpType(f, typ) {
			return false
		}
		if typ == "I" {
			st := p.send("SIZE", f.Name, ftpLine("SIZE", f.Name))
			st.Reply, st.Why, st.RFC = "213 (a refusal is ignored)", "the size in advance, to tell a complete transfer from a short one; servers refuse SIZE in TYPE A", "RFC 3659 4"
			if p.opts.ModTime {
				st = p.send("MDTM", f.Name, ftpLine("MDTM", f.Name))
				st.Reply, st.Why, st.RFC = "213 (a refusal is ignored)", "the modification time (a gateway's Last-Modified)", "RFC 3659 3"
			}
		}
		p.passive()
		if n := p.opts.FTPRestart; n > 0 && typ == "I" {
			st := p.send("REST", strconv.FormatInt(n, 10), "REST "+strconv.FormatInt(n, 10)+"\r\n")
			st.Reply, st.Why, st.RFC = "350", "resume: the data starts at this byte of the file (SIZE says how many follow)", "RFC 3659 5"
		}
		p.send("RETR", f.Name, ftpLine("RETR", f.Name)).Reply = "150 (or 125), then 226"
		if f.Name != "" {
			st := p.send("CWD", f.Name, ftpLine("CWD", f.Name))
			st.When, st.Why = Cond{On: "RETR", Reply: "550", Text: "RETR fails with 550"}, "to tell a directory (add a \"/\" to list it) from a missing file"
		}
		p.add(Step{Kind: End, Text: "the file ends when the server closes the data connection; fewer bytes than SIZE or the 150 reply announced is a short transfer"})
	}
	return true
}

// ftpType adds the TYPE command, or the refusal of a type urlkit's FTP
// client does not transfer (the drafts' E and L, the form codes); it
// reports whether the plan goes on.
func (p *planner) ftpType(f *FTP, typ string) bool {
	if typ != "A" && typ != "I" {
		p.unsupported(f.at.Type.At, "TYPE "+typ+": urlkit's FTP client transfers types A and I only (the drafts' E, L and form codes are read, not carried out)")
		return false
	}
	st := p.send("TYPE", typ, "TYPE "+typ+"\r\n")
	st.Reply = "200"
	if f.Type != "" && f.Type != "d" {
		st.Why, st.RFC = ";type="+f.Type+": the client performs TYPE with the type code", "RFC 1738 3.2.2"
	}
	return true
}

// passive adds the data connection as the FTP client opens it: EPSV (RFC
// 2428), and PASV if the server refuses it.
func (p *planner) passive() {
	p.send("EPSV", "", "EPSV\r\n").Reply = "229"
	st := p.send("PASV", "", "PASV\r\n")
	st.When, st.Reply = epsvRefused, "227"
	p.add(Step{Kind: Data, Text: "the client opens the data connection to the port of the 229 reply (or of the 227 reply, on the control connection's address)"})
}
