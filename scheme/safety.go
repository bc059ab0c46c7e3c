package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
)

// Concern is one warning of RFC 1738 section 6 about a URL: a port other
// than the scheme's default (a caution), or a decoded control character
// that would enter a protocol line (a refusal).
type Concern struct {
	// Offset is the byte offset in the URL's String form of the cause:
	// the escape (or raw byte) of a control character, or the port.
	Offset int
	// Refuse reports a control character in a protocol line: the access
	// layer refuses such a URL before sending anything. A port concern is
	// a caution only.
	Refuse bool
	// Message says what the concern is, why it matters, and the section.
	Message string
}

// String formats the concern as "offset N: MESSAGE".
func (c Concern) String() string { return "offset " + strconv.Itoa(c.Offset) + ": " + c.Message }

// CheckSafe returns the first refusal of Concerns as a *urlkit.Error
// wrapping ErrUnsafe, or nil. It is the check the access layer runs
// before it sends anything: RFC 1738 section 6 warns that encoded
// delimiters of a protocol (CR and LF for the line-based ones) must not
// be decoded into its lines.
func CheckSafe(u *urlkit.URL) error {
	for _, c := range Concerns(u) {
		if c.Refuse {
			return &urlkit.Error{Op: "access", Input: u.Redacted(), Offset: c.Offset, Err: ErrUnsafe, Rule: c.Message}
		}
	}
	return nil
}

// Concerns lists what RFC 1738 section 6 warns about in u, in order of
// offset: a written port that is not the scheme's default (with the
// protocol that usually listens there), and each byte that decodes to
// CR, LF, NUL, or (where the protocol gives it a meaning) TAB or space
// inside a field that a client puts into a protocol line:
//
//   - ftp: the USER and PASS arguments, each CWD argument and the name
//     (CR, LF, NUL);
//   - gopher: the selector and search (CR, LF, NUL), and the Gopher+
//     string (CR, LF, NUL, TAB, except the CR LF and TAB that structure
//     an ASK submission);
//   - nntp and news: the group and the message-id (CR, LF, NUL, TAB,
//     space: NNTP separates arguments with spaces);
//   - mailto: the address in RCPT TO (CR, LF, NUL);
//   - prospero: the hsoname (CR, LF) and the fields (CR, LF, NUL);
//   - rlogin: the user name (NUL ends the fields of its handshake);
//   - file and afs: the path (NUL: no file name holds one);
//   - every scheme: the host (CR, LF, NUL, TAB, space), and raw control
//     bytes anywhere (only a URL built by a program can hold them).
//
// Telnet's user and password are advisory (shown, never sent), WAIS
// requests are binary and HTTP sends the path as written, so their
// decoded bytes are no concern.
func Concerns(u *urlkit.URL) []Concern {
	c := &concernList{u: u, l: layoutOf(u)}
	c.port()
	c.raw()
	if u.HasAuthority {
		c.scan(u.Host, c.l.host, ctlCR|ctlLF|ctlNUL|ctlTAB|ctlSP, "host name")
	}
	switch u.SchemeName() {
	case "ftp":
		c.ftp()
	case "gopher":
		c.gopher()
	case "nntp":
		if p, off, ok := urlPath(u); ok {
			c.scan(p, off, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
		}
	case "news":
		c.scan(u.SchemeSpecificPart(), c.l.ssp, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
	case "mailto":
		c.scan(u.SchemeSpecificPart(), c.l.ssp, ctlCR|ctlLF|ctlNUL, "SMTP RCPT TO address")
	case "prospero":
		if p, off, ok := urlPath(u); ok {
			ppath, fields, _ := strings.Cut(p, ";")
			c.scan(ppath, off, ctlCR|ctlLF, "Prospero request (hsoname)")
			c.scan(fields, off+len(ppath)+1, ctlCR|ctlLF|ctlNUL, "Prospero request (fields)")
		}
	case "rlogin":
		c.scan(u.User, c.l.user, ctlNUL, "rlogin handshake (user name)")
	case "file", "afs":
		c.scan(u.Path, c.l.path, ctlNUL, "file name")
		c.scan(u.Query, c.l.query, ctlNUL, "file name")
	}
	list := c.list
	if c.dropped > 0 {
		verb := "noted"
		if c.droppedRefuse {
			verb = "refused"
		}
		list = append(list, Concern{Offset: c.droppedAt, Refuse: c.droppedRefuse,
			Message: fmt.Sprintf("and %d more concerns from here on, not listed (the first %d are); the access layer %s this URL", c.dropped, maxConcerns, verb)})
	}
	// Keep the order of the input.
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].Offset < list[j-1].Offset; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	return list
}

// Control bytes a field may not receive.
const (
	ctlCR uint8 = 1 << iota
	ctlLF
	ctlNUL
	ctlTAB
	ctlSP

	ctlLine = ctlCR | ctlLF | ctlNUL
	ctlNNTP = ctlCR | ctlLF | ctlNUL | ctlTAB | ctlSP
)

func ctlBit(b byte) uint8 {
	switch b {
	case '\r':
		return ctlCR
	case '\n':
		return ctlLF
	case 0:
		return ctlNUL
	case '\t':
		return ctlTAB
	case ' ':
		return ctlSP
	}
	return 0
}

var ctlNames = map[byte]string{'\r': "CR", '\n': "LF", 0: "NUL", '\t': "TAB", ' ': "space"}

type concernList struct {
	u    *urlkit.URL
	l    layout
	list []Concern
	seen map[int]bool

	// Past maxConcerns, concerns are only counted (hostile input: a
	// megabyte of %0D is 349,000 of them), then summed up in one.
	dropped       int
	droppedAt     int // the lowest offset dropped
	droppedRefuse bool
}

// maxConcerns bounds the concerns listed for one URL, so that their
// memory and the output that shows them do not grow with the input.
const maxConcerns = 64

func (c *concernList) add(off int, refuse bool, msg string) {
	if len(c.list) >= maxConcerns {
		if c.dropped == 0 || off < c.droppedAt {
			c.droppedAt = off
		}
		c.dropped++
		c.droppedRefuse = c.droppedRefuse || refuse
		return
	}
	if c.seen == nil {
		c.seen = map[int]bool{}
	}
	if c.seen[off] {
		return
	}
	c.seen[off] = true
	c.list = append(c.list, Concern{Offset: off, Refuse: refuse, Message: msg})
}

// port adds the caution of a written port that is not the default.
func (c *concernList) port() {
	n, ok := c.u.PortNumber()
	name := c.u.SchemeName()
	def := urlkit.DefaultPort(name)
	if !ok || def == 0 || n == def {
		return
	}
	msg := "port " + strconv.Itoa(n) + " is not the " + name + " default (" + strconv.Itoa(def) + ")"
	svc, blocked := BlockedPort(n)
	if known, ok := PortService(n); ok {
		msg += "; port " + strconv.Itoa(n) + " usually runs " + known + ", which could take the lines below as commands of its own"
	} else if blocked {
		msg += "; port " + strconv.Itoa(n) + " usually runs " + svc
	} else if n < 1024 {
		msg += "; it is a well-known port (below 1024), reserved for some other protocol"
	}
	if blocked {
		msg += "; it is on the list of ports browsers block: the access layer refuses it unless told to allow it (get --allow-port " + strconv.Itoa(n) + ")"
	}
	c.add(c.l.port, false, msg+" (RFC 1738 section 6)")
}

// raw adds raw control bytes, which only a URL built by a program holds.
func (c *concernList) raw() {
	s := c.u.String()
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == 0x7f {
			c.add(i, true, fmt.Sprintf("raw control byte 0x%02X", b)+" in the URL: it would enter a protocol line unencoded (RFC 1738 section 6); the access layer refuses this URL")
		}
	}
}

// scan adds a refusal for each escape of raw (which starts at offset off)
// that decodes to a byte of forbid.
func (c *concernList) scan(raw string, off int, forbid uint8, field string) {
	for i := 0; i < len(raw); i++ {
		if !isEscape(raw, i) {
			continue
		}
		b := cc.Unhex(raw[i+1])<<4 | cc.Unhex(raw[i+2])
		if ctlBit(b)&forbid != 0 {
			c.refuse(off+i, raw[i:i+3], b, field)
		}
		i += 2
	}
}

func (c *concernList) refuse(off int, esc string, b byte, field string) {
	if len(c.list) >= maxConcerns {
		c.add(off, true, "") // only counted: no message to build
		return
	}
	var why string
	switch b {
	case '\r', '\n':
		why = ctlNames[b] + " ends the line, and what follows would be read as a command of its own"
	case 0:
		why = "NUL ends a string for many servers"
		if field == "file name" {
			why = "no file name can hold NUL"
		}
	case '\t':
		why = "TAB separates the fields of the request"
	default:
		why = "a space separates the arguments of the command"
	}
	c.add(off, true, esc+" decodes to "+ctlNames[b]+" in the "+field+": "+why+" (RFC 1738 section 6); the access layer refuses this URL")
}

func (c *concernList) ftp() {
	u := c.u
	c.scan(u.User, c.l.user, ctlLine, "FTP USER command")
	c.scan(u.Password, c.l.pass, ctlLine, "FTP PASS command")
	p, off, ok := urlPath(u)
	if !ok {
		return
	}
	if k := strings.IndexByte(p, ';'); k >= 0 {
		p = p[:k]
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		field := "FTP CWD command"
		if i == len(segs)-1 {
			field = "FTP RETR or NLST command"
		}
		c.scan(s, off, ctlLine, field)
		off += len(s) + 1
	}
}

func (c *concernList) gopher() {
	p, off, ok := urlPath(c.u)
	if !ok || p == "" {
		return
	}
	// The type character is not sent (RFC 1630: it tells the client how to
	// read the reply).
	n := 1
	if isEscape(p, 0) {
		n = 3
	}
	sel, rest, found := cutEscape(p[n:], '\t')
	c.scan(sel, off+n, ctlLine, "Gopher selector line")
	if !found {
		return
	}
	off += n + len(sel) + 3
	search, plus, found := cutEscape(rest, '\t')
	c.scan(search, off, ctlLine, "Gopher search")
	if !found {
		return
	}
	off += len(search) + 3
	req, err := ParseGopherPlus(unescape(plus))
	if err != nil || !req.Form {
		c.scan(plus, off, ctlLine|ctlTAB, "Gopher+ string")
		return
	}
	// An ASK submission: the head (up to its TAB) holds no control
	// character; after it, the CR LF are the form's own (the values were
	// checked to hold none) and a value may not hold NUL.
	head := indexEscape(plus, '\t')
	if head < 0 { // the TAB was written raw, which raw reported
		c.scan(plus, off, ctlLine|ctlTAB, "Gopher+ string")
		return
	}
	c.scan(plus[:head], off, ctlLine|ctlTAB, "Gopher+ view")
	c.scan(plus[head:], off+head, ctlNUL, "Gopher+ ASK value")
}

// wellKnownPorts names the protocol that usually listens on a port: the
// IANA assignments (and common use) of the ports a URL on a non-default
// port most often reaches.
var wellKnownPorts = map[int]string{
	7: "echo", 9: "discard", 13: "daytime", 19: "chargen", 20: "FTP data", 21: "FTP", 22: "SSH",
	23: "telnet", 25: "SMTP", 37: "time", 43: "whois", 53: "DNS", 70: "Gopher", 79: "finger",
	80: "HTTP", 88: "Kerberos", 110: "POP3", 111: "SUN RPC (portmapper)", 113: "ident",
	119: "NNTP", 123: "NTP", 135: "MS RPC", 139: "NetBIOS", 143: "IMAP", 161: "SNMP",
	179: "BGP", 194: "IRC", 210: "WAIS (Z39.50)", 389: "LDAP", 443: "HTTPS", 445: "SMB",
	465: "SMTP over TLS", 513: "rlogin", 514: "rsh", 515: "LPD (printing)", 540: "UUCP",
	563: "NNTP over TLS", 587: "mail submission (SMTP)", 631: "IPP (printing)", 636: "LDAP over TLS",
	993: "IMAP over TLS", 995: "POP3 over TLS", 1525: "Prospero", 2049: "NFS",
	3306: "MySQL", 5432: "PostgreSQL", 6379: "Redis", 6667: "IRC", 6697: "IRC over TLS",
	11211: "memcached",
}

// PortService returns the protocol that usually listens on port n, from
// a small table of well-known ports (25 SMTP, 119 NNTP, 6667 IRC, ...).
func PortService(n int) (string, bool) {
	s, ok := wellKnownPorts[n]
	return s, ok
}
