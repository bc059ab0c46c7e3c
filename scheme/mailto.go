package scheme

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
)

// Mailto is the view of a mailto URL (RFC 1738 3.5):
//
//	mailto:<rfc822-addr-spec>
//
// There are no reserved characters in a mailto URL: the whole
// scheme-specific part, decoded, is the address, which must be an RFC 822
// addr-spec (quoted local parts and domain literals included). A "%" in
// the address is written %25.
type Mailto struct {
	Address string // the addr-spec, decoded (RFC 6068: the first address)

	// at holds where the address is written in the URL's String form.
	at struct{ Address Span }

	// RFC 6068 (read in the rfc3986 and lenient modes):
	// To is every address, those before "?" and those of "to" hfields;
	// Fields the other hfields in order, decoded; Body the "body"
	// hfield. In the rfc1738 mode To holds Address alone.
	To      []string
	Fields  []HField
	Body    string
	HasBody bool
}

// Recipients returns the addresses the message goes to: To, and those
// of cc and bcc hfields (RFC 6068 2), in order.
func (m *Mailto) Recipients() []string {
	r := append([]string(nil), m.To...)
	if len(r) == 0 {
		r = append(r, m.Address)
	}
	for _, f := range m.Fields {
		if strings.EqualFold(f.Name, "cc") || strings.EqualFold(f.Name, "bcc") {
			for _, a := range splitOutsideQuotes(f.Value, ',') {
				if a = strings.TrimSpace(a); a != "" {
					r = append(r, a)
				}
			}
		}
	}
	return r
}

// HField is one header field of an RFC 6068 mailto URL ("?subject=hi"):
// its name and value, decoded.
type HField struct {
	Name, Value string

	at Span // where "name=value" is written
}

// parseMailto6068 returns the view of an RFC 6068 mailto URL (the
// RFC3986 and Lenient modes):
//
//	mailto:[addr-spec *("," addr-spec)]["?" hfname "=" hfvalue *("&" hfname "=" hfvalue)]
//
// There must be an address (RFC 6068 allows none, for a mail program to
// ask the user for; the view is for sending), and each must hold an "@";
// a "to" hfield adds addresses, "body"
// is the message body, and any other hfield is a header field. Names and
// values are percent-decoded (RFC 6068 2); control characters in them
// are refused later, as concerns, before anything is sent.
func parseMailto6068(u *urlkit.URL) (*Mailto, error) {
	l := layoutOf(u)
	m := &Mailto{}
	addAddrs := func(raw string, off int) error {
		if raw == "" {
			return nil
		}
		for _, piece := range strings.Split(raw, ",") {
			// The addr-spec rules of the rfc1738 mode's mailto grammar.
			a, err := checkAddrSpec(u, piece, off)
			if err != nil {
				return err
			}
			if local, domain := splitAddr(a); local == "" || domain == "" {
				return syntaxError(u, off, "each address of a mailto URL is an addr-spec, local-part@domain (RFC 6068 2: to = addr-spec *(\",\" addr-spec))")
			}
			m.To = append(m.To, a)
			off += len(piece) + 1
		}
		return nil
	}
	path := u.Path
	if err := addAddrs(path, l.ssp); err != nil {
		return nil, err
	}
	m.at.Address = Span{l.ssp, l.ssp + len(path)}
	if u.HasQuery {
		off := l.query
		for _, f := range strings.Split(u.Query, "&") {
			name, value, ok := strings.Cut(f, "=")
			if !ok || name == "" {
				return nil, syntaxError(u, off, "a mailto hfield is NAME=VALUE (RFC 6068 2)")
			}
			n, v := unescape(name), unescape(value)
			switch strings.ToLower(n) {
			case "to":
				if err := addAddrs(value, off+len(name)+1); err != nil {
					return nil, err
				}
			case "body":
				m.Body, m.HasBody = m.Body+v, true
			default:
				m.Fields = append(m.Fields, HField{Name: canonicalField(n), Value: v, at: Span{off, off + len(f)}})
			}
			off += len(f) + 1
		}
	}
	if len(m.To) == 0 {
		// RFC 6068's syntax allows none (a mail program then asks for
		// one); the view is the access's, which has no one to ask.
		return nil, syntaxError(u, l.ssp, "no address to send to: write one before \"?\" or in a to= hfield (RFC 6068 allows none, leaving it to the mail program; urlkit sends the message itself)")
	}
	m.Address = m.To[0]
	return m, nil
}

// splitOutsideQuotes splits s at each sep outside a quoted string.
func splitOutsideQuotes(s string, sep byte) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// parseMailto returns the view of an RFC 1738 mailto URL (the RFC1738
// and RFC1630 modes), checking the address.
func parseMailto(u *urlkit.URL) (*Mailto, error) {
	m := new(Mailto)
	if err := m.read(u); err != nil {
		return nil, err
	}
	return m, nil
}

// read fills m with the view of u (RFC 1738's mailto).
func (m *Mailto) read(u *urlkit.URL) error {
	addr, err := addrSpec(u)
	if err != nil {
		return err
	}
	*m = Mailto{Address: addr}
	o := u.Offsets()
	m.at.Address = Span{o.SchemeSpecificPart, o.Fragment}
	if u.HasFragment {
		m.at.Address.End-- // the "#"
	}
	return nil
}

// appendParts appends address, local_part and domain.
func (m *Mailto) appendParts(dst []part) []part {
	local, domain := m.Split()
	return append(dst, kv("address", str(m.Address)), kv("local_part", str(local)), kv("domain", str(domain)))
}

// URL builds "mailto:" and the address, encoded for xchar (so "%"
// becomes %25 and the unsafe characters of a quoted local part are
// encoded), and "," and "?" encoded too, which RFC 6068 reads as the
// ends of an address; a first "/" of two is %2F. A view of RFC 6068's
// form gets all of To, then its hfields and body after "?", each name
// and value encoded for uchar.
func (m *Mailto) URL() *urlkit.URL {
	to := m.To
	if len(to) == 0 {
		to = []string{m.Address}
	}
	addrs := make([]string, len(to))
	for i, a := range to {
		addrs[i] = escape(a, &keepAddress)
	}
	u := opaqueURL("mailto", noAuthority(strings.Join(addrs, ",")))
	if len(m.Fields) == 0 && !m.HasBody {
		return u
	}
	var q []string
	for _, f := range m.Fields {
		q = append(q, escape(f.Name, &keepUchar)+"="+escape(f.Value, &keepUchar))
	}
	if m.HasBody {
		q = append(q, "body="+escape(m.Body, &keepUchar))
	}
	u.Query, u.HasQuery = strings.Join(q, "&"), true
	return u
}

// Split returns the local-part and the domain of the address: the text
// before and after the "@" that is outside quoted strings.
func (m *Mailto) Split() (localPart, domain string) { return splitAddr(m.Address) }

// opaqueURL builds a URL without an authority from a scheme-specific part
// already encoded.
func opaqueURL(scheme, ssp string) *urlkit.URL {
	u := &urlkit.URL{Scheme: scheme}
	setPath(u, ssp)
	return u
}

// noAuthority writes the first "/" of addresses starting "//" as %2F:
// outside RFC 1738, "mailto://x@c" reads as an authority and no address
// (News.URL does the same for "news://").
func noAuthority(ssp string) string {
	if strings.HasPrefix(ssp, "//") {
		return "%2F" + ssp[1:]
	}
	return ssp
}

// addrSpec decodes the scheme-specific part of u and checks it as an RFC
// 822 addr-spec. The check is urlkit's own (the rfc1738 mode's mailto
// grammar), run on the address encoded for RFC 1738, so that a URL
// written in any mode gets the same rules; the offset of an error is
// mapped back to u.
func addrSpec(u *urlkit.URL) (string, error) {
	return checkAddrSpec(u, u.SchemeSpecificPart(), layoutOf(u).ssp)
}

// checkAddrSpec is addrSpec for the part raw of u written at offset off.
func checkAddrSpec(u *urlkit.URL, raw string, off int) (string, error) {
	if plainAddrSpec(u, raw) {
		return raw, nil
	}
	return checkEncodedAddrSpec(u, raw, off)
}

// plainAddrSpec is checkAddrSpec's common case, which allocates nothing:
// raw needs no decoding and no encoding (every byte an xchar, no "%") and
// is all of u's text after the scheme, so that the text to check is u's
// own; it reports whether that holds and the text is valid. Otherwise
// checkEncodedAddrSpec decides, and finds the error. (Encoding each byte
// and mapping the offsets cost 30 times an http URL's view.)
func plainAddrSpec(u *urlkit.URL, raw string) bool {
	s, n := u.String(), len(u.Scheme)
	if len(s) != n+1+len(raw) || s[n] != ':' || s[n+1:] != raw {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if !keepXchar[raw[i]] { // xchar has no "%": an escape is not plain
			return false
		}
	}
	_, _, err := urlkit.ParseMode(s, urlkit.RFC1738)
	return err == nil
}

// checkEncodedAddrSpec is checkAddrSpec for any raw: it decodes raw,
// encodes the address for RFC 1738 and checks that, mapping the offset
// of an error back to u.
func checkEncodedAddrSpec(u *urlkit.URL, raw string, off int) (string, error) {
	addr, from := unescapeMap(raw)
	// The check of the URL's own scheme (mailto, mid or cid), so that
	// its errors cite the section that defines it.
	prefix := u.SchemeName() + ":"
	var b strings.Builder
	b.WriteString(prefix)
	to := make([]int, 0, len(addr)*3+len(prefix))
	for range len(prefix) {
		to = append(to, 0)
	}
	for i := 0; i < len(addr); i++ {
		e := escape(addr[i:i+1], &keepXchar)
		for range len(e) {
			to = append(to, i)
		}
		b.WriteString(e)
	}
	errs := urlkit.Check(b.String(), urlkit.RFC1738)
	if len(errs) == 0 {
		return addr, nil
	}
	e := errs[0]
	i := len(addr)
	if e.Offset < len(to) {
		i = to[e.Offset]
	}
	return "", syntaxError(u, off+from[i], e.Rule)
}

// splitAddr cuts an addr-spec at the "@" outside quoted strings.
func splitAddr(a string) (string, string) {
	quoted := false
	for i := 0; i < len(a); i++ {
		switch c := a[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == '@' && !quoted:
			return a[:i], a[i+1:]
		}
	}
	return a, ""
}

// mailtoParts is unit.parts: RFC 1738's view on the stack.
func mailtoParts(dst []part, u *urlkit.URL, m urlkit.Mode) ([]part, error) {
	if currentReading(m) {
		v, err := parseMailto6068(u)
		if err != nil {
			return dst, err
		}
		return v.appendParts(dst), nil
	}
	var v Mailto
	if err := v.read(u); err != nil {
		return dst, err
	}
	return v.appendParts(dst), nil
}

// MID is the view of a mid URL (RFC 1630, Message-Id): the RFC 822
// Message-Id of a mail message, without its "<" ">" wrapper. It has the
// form of an addr-spec.
type MID struct {
	ID string // decoded
}

// parseMID returns the view of a mid URL, checking that the id is an
// addr-spec.
func parseMID(u *urlkit.URL) (*MID, error) {
	id, err := addrSpec(u)
	if err != nil {
		return nil, err
	}
	return &MID{ID: id}, nil
}

// appendParts appends id.
func (m *MID) appendParts(dst []part) []part { return append(dst, kv("id", str(m.ID))) }

// URL builds "mid:" and the id encoded for xchar.
func (m *MID) URL() *urlkit.URL { return opaqueURL("mid", escape(m.ID, &keepXchar)) }

// CID is the view of a cid URL (RFC 1630, Content-Id): the Content-ID of
// a body part of the same MIME message, without its "<" ">" wrapper. It
// has the form of an addr-spec.
type CID struct {
	ID string // decoded
}

// parseCID returns the view of a cid URL, checking that the id is an
// addr-spec.
func parseCID(u *urlkit.URL) (*CID, error) {
	id, err := addrSpec(u)
	if err != nil {
		return nil, err
	}
	return &CID{ID: id}, nil
}

// appendParts appends id.
func (c *CID) appendParts(dst []part) []part { return append(dst, kv("id", str(c.ID))) }

// URL builds "cid:" and the id encoded for xchar.
func (c *CID) URL() *urlkit.URL { return opaqueURL("cid", escape(c.ID, &keepXchar)) }

// URN is the view of a urn URL. RFC 1630 reserves the scheme for Uniform
// Resource Names, whose syntax it leaves to a future standard: the view
// keeps the name opaque, as written.
type URN struct {
	Name string // the scheme-specific part as written
}

// parseURN returns the view of a urn URL.
func parseURN(u *urlkit.URL) (*URN, error) {
	return &URN{Name: u.SchemeSpecificPart()}, nil
}

// appendParts appends name.
func (n *URN) appendParts(dst []part) []part { return append(dst, kv("name", str(n.Name))) }

// URL builds "urn:" and the name as it is.
func (n *URN) URL() *urlkit.URL { return opaqueURL("urn", n.Name) }

func init() {
	register(&unit{parse: func(u *urlkit.URL, m urlkit.Mode) (View, error) {
		if currentReading(m) {
			return nilView(parseMailto6068(u))
		}
		return nilView(parseMailto(u))
	}, parts: mailtoParts, concerns: mailtoConcerns, plan: mailtoPlan}, "mailto")
	register(&unit{parse: view(parseMID), plan: func(v View, p *planner) {
		p.comment("mid: a mail message already received (RFC 1630): the client looks in the user's mail for the message whose Message-ID is <%s>", v.(*MID).ID)
	}}, "mid")
	register(&unit{parse: view(parseCID), plan: func(v View, p *planner) {
		p.comment("cid: a body part of the MIME message this URL appears in (RFC 1630): the one whose Content-ID is <%s>", v.(*CID).ID)
	}}, "cid")
	register(&unit{parse: view(parseURN)}, "urn")
}

// mailtoConcerns: the address goes into RCPT TO.
func mailtoConcerns(v View, c *concernList) {
	if m, _ := v.(*Mailto); m != nil {
		c.scanSpan(m.at.Address, ctlCR|ctlLF|ctlNUL, "SMTP RCPT TO address")
		for _, f := range m.Fields {
			// A line break in a header value would start another
			// field (header injection: "?subject=x%0D%0ABcc:victim").
			c.scanSpan(f.at, ctlCR|ctlLF|ctlNUL, "header field "+f.Name+" of the message")
		}
		if c.u.HasQuery {
			off := c.l.query
			for _, f := range strings.Split(c.u.Query, "&") {
				if n, _, _ := strings.Cut(f, "="); strings.EqualFold(unescape(n), "to") {
					c.scan(f, off, ctlCR|ctlLF|ctlNUL, "SMTP RCPT TO address")
				}
				off += len(f) + 1
			}
		}
		return
	}
	c.scan(c.u.SchemeSpecificPart(), c.l.ssp, ctlCR|ctlLF|ctlNUL, "SMTP RCPT TO address")
}

// mailtoPlan: a message sent by SMTP (RFC 821) to the address.
func mailtoPlan(v View, p *planner) {
	m := v.(*Mailto)
	_, domain := m.Split()
	var hfields string
	if p.u.HasQuery && len(m.Fields) == 0 && !m.HasBody && len(m.To) <= 1 {
		// RFC 1738 has no header fields in a mailto URL, and "?" is an
		// atom character of RFC 822; but no domain holds one, and RFC
		// 6068's hfields start there: the mail domain ends before it.
		if i := strings.IndexByte(domain, '?'); i >= 0 {
			domain, hfields = domain[:i], domain[i+1:]
		}
	}
	to := m.Recipients()
	if hfields != "" {
		local, _ := m.Split()
		to = []string{local + "@" + domain}
	}
	server, host := p.opts.MailServer, domain
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		host = domain[1 : len(domain)-1]
	}
	if server == "" {
		server = host + ":25"
	}
	p.connect(server)
	p.comment("mailto designates an Internet mail address, not a data object (RFC 1738 3.5): the client writes a message to it and sends it by SMTP (RFC 821)")
	if p.opts.MailServer == "" && host == domain {
		p.comment("to a mail exchanger of %q (its DNS MX records) or to the user's own mail server (urlkit send: --smtp or SMTPSERVER)", domain)
	} else if p.opts.MailServer != "" {
		p.comment("the user's own mail server, which relays the message (RFC 6409 submission)")
	}
	if hfields != "" {
		p.comment("%q after \"?\": header fields of the message in RFC 6068's form (RFC 1738 has none), not part of the address", hfields)
	}
	for _, f := range m.Fields {
		p.comment("the header field %s: %s, from the URL (RFC 6068 2)", f.Name, f.Value)
		if strings.EqualFold(f.Name, "bcc") {
			p.comment("Bcc's addresses are recipients, and the field is left out of the message")
		}
	}
	if m.HasBody {
		p.comment("the body from the URL's body= hfield (RFC 6068 2)")
	}
	helo := p.opts.LocalName
	if helo == "" {
		if _, helo = splitAddr(p.opts.Email); helo == "" {
			helo = "localhost"
		}
	}
	p.add(Step{Kind: Expect, Reply: "220", Text: "the server's greeting (RFC 5321 4.2)"})
	p.send("EHLO", helo, "EHLO "+helo+"\r\n").Reply = "250 and the extensions"
	st := p.send("HELO", helo, "HELO "+helo+"\r\n")
	st.When, st.Reply = Cond{On: "EHLO", Reply: "500 501 502 504", Text: "the server does not know EHLO (500, 501, 502, 504)"}, "250"
	from := "MAIL FROM:<" + p.opts.Email + ">"
	if p.opts.MessageSize > 0 {
		st = p.send("MAIL", p.opts.Email, from+" SIZE="+strconv.FormatInt(p.opts.MessageSize, 10)+"\r\n")
		st.When, st.Reply, st.RFC = Cond{On: "EHLO", Reply: "2xx", Lists: "SIZE", Text: "the server advertises SIZE"}, "250", "RFC 1870"
		st = p.send("MAIL", p.opts.Email, from+"\r\n")
		st.When, st.Reply = Cond{On: "EHLO", Reply: "2xx", Lists: "SIZE", Not: true, Text: "it does not"}, "250"
	} else {
		p.send("MAIL", p.opts.Email, from+"\r\n").Reply = "250"
	}
	for _, a := range to {
		p.send("RCPT", a, "RCPT TO:<"+a+">\r\n").Reply = "250 or 251"
	}
	p.line("DATA\r\n").Reply = "354"
	p.add(Step{Kind: End, Text: "the message: header lines, an empty line, the body, and a line holding only \".\""})
	p.line("QUIT\r\n").Reply = "221"
}

// canonicalField writes a header field name as RFC 5322's examples do:
// each word capitalised ("subject" -> "Subject", "in-reply-to" ->
// "In-Reply-To").
func canonicalField(name string) string {
	b := []byte(name)
	upper := true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	return string(b)
}
