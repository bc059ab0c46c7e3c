package scheme

import (
	"fmt"
	"strconv"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/registry"
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
	// Unsupported marks a refusal that is no safety matter: urlkit's
	// clients cannot carry out what the URL asks (an FTP type other than
	// A and I, a Gopher telnet item).
	Unsupported bool
	// Message says what the concern is, why it matters, and the section.
	Message string
}

// String formats the concern as "offset N: MESSAGE".
func (c Concern) String() string { return "offset " + strconv.Itoa(c.Offset) + ": " + c.Message }

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
//   - telnet, rlogin and tn3270: the user name and password (CR, LF,
//     NUL: printed as "login as: USER", typed at the login prompts with
//     get --login; NUL ends the fields of rlogin's handshake);
//   - file and afs: the path (NUL: no file name holds one);
//   - every scheme: the host (CR, LF, NUL, TAB, space), and raw control
//     bytes anywhere (only a URL built by a program can hold them).
//
// WAIS requests are binary and HTTP sends the path as written, so their
// decoded bytes are no concern.
//
// v is u's view as Parse returns it in the mode u is read in, when the
// caller has it (the access layer reads the view, the concerns and the
// plan once per access: see PlanOptions.View); nil means that Concerns
// reads u in the Lenient mode itself.
func Concerns(u *urlkit.URL, v View) []Concern {
	if v == nil {
		v, _ = Parse(u, urlkit.Lenient)
	}
	return concernsOf(u, v)
}

// concernsOf is Concerns for u and its view v (nil when u is not a valid
// view of its scheme: the fields found without the view are still
// scanned).
func concernsOf(u *urlkit.URL, v View) []Concern {
	c := &concernList{u: u, s: u.String(), l: layoutOf(u)}
	c.port()
	c.raw()
	if u.HasAuthority {
		c.scan(u.Host, c.l.host, ctlCR|ctlLF|ctlNUL|ctlTAB|ctlSP, "host name")
	}
	if un, _ := unitOf(u.SchemeName()); un != nil && un.concerns != nil {
		un.concerns(v, c)
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
	s    string // u.String()
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
	n, ok := c.u.EffectivePort()
	name := c.u.SchemeName()
	def := urlkit.DefaultPort(name)
	if !ok || def == 0 || n == def {
		return
	}
	msg := "port " + strconv.Itoa(n) + " is not the " + name + " default (" + strconv.Itoa(def) + ")"
	svc, blocked := BlockedPort(n)
	if known, ok := portService(n); ok {
		msg += "; port " + strconv.Itoa(n) + " usually runs " + known + ", which could take the request as commands of its own"
	} else if blocked {
		msg += "; port " + strconv.Itoa(n) + " usually runs " + svc
	} else if n < 1024 {
		msg += "; it is a well-known port (below 1024), reserved for some other protocol"
	}
	if un, _ := unitOf(name); blocked && un != nil && un.proxied {
		msg += "; it is on the list of ports browsers block: the access layer refuses it unless told to allow it (get --allow-port " + strconv.Itoa(n) + ")"
	} else if blocked {
		msg += "; it is on the list of ports browsers block"
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

// scanSpan is scan for the part of the URL at sp.
func (c *concernList) scanSpan(sp Span, forbid uint8, field string) {
	if sp.At < sp.End && sp.End <= len(c.s) {
		c.scan(c.s[sp.At:sp.End], sp.At, forbid, field)
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

// portService returns the protocol that usually listens on port n, from
// the registry's table of well-known ports (25 SMTP, 119 NNTP, 6667
// IRC, ...).
func portService(n int) (string, bool) {
	p, ok := registry.LookupPort(n)
	return p.Use, ok && p.Use != ""
}

// BlockedPort reports whether port is on the Fetch standard's list of
// bad ports, and the name of the service the list gives for it. The
// access layer refuses a non-default port on the list unless told
// otherwise, and explain says so.
func BlockedPort(port int) (service string, blocked bool) {
	p, ok := registry.LookupPort(port)
	return p.Blocked, ok && p.Blocked != ""
}
