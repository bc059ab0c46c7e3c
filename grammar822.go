package urlkit

import cc "github.com/urlkit/urlkit/internal/charclass"

// The RFC 822 addr-spec that a mailto URL encodes (RFC 1738 3.5), checked
// on the decoded text while offsets stay those of the input:
//
//	addr-spec      = local-part "@" domain
//	local-part     = word *("." word)
//	word           = atom / quoted-string
//	domain         = sub-domain *("." sub-domain)
//	sub-domain     = domain-ref / domain-literal
//	domain-ref     = atom
//	atom           = 1*<any CHAR except specials, SPACE and CTLs>
//	quoted-string  = <"> *(qtext/quoted-pair) <">
//	domain-literal = "[" *(dtext / quoted-pair) "]"
//	quoted-pair    = "\" CHAR
//	specials       = "(" / ")" / "<" / ">" / "@" / "," / ";" / ":" / "\" / <"> / "." / "[" / "]"
//
// CHAR is US-ASCII (0-127). qtext and dtext may hold a folded line break
// (CRLF followed by a space or tab), never a bare CR. RFC 822 also allows
// comments and white space between the lexical tokens; an address in a
// URL is one token sequence without them (urlkit's choice: a URL names
// an address, it does not carry a header field).

// decAt returns the decoded byte at i and how many input bytes it takes
// (3 for an escape, 1 otherwise).
func (p *parser) decAt(i, end int) (byte, int) {
	if p.escapeAt(i, end) {
		return cc.Unhex(p.s[i+1])<<4 | cc.Unhex(p.s[i+2]), 3
	}
	return p.s[i], 1
}

// what822 names the decoded byte c found at i for a message: "'x'", or
// "'x' (encoded as %XX)".
func (p *parser) what822(c byte, i, w int) string {
	if w == 3 {
		return describe(c) + " (written " + p.s[i:i+3] + ")"
	}
	return describe(c)
}

// addrSection names where the address of the URL's scheme is defined:
// RFC 1738 3.5 for mailto, RFC 1630 for mid and cid (the registry row's
// section), for the error messages.
func (p *parser) addrSection() string {
	if p.sch != nil && p.sch.Name != "mailto" {
		return p.sch.Section + ", an RFC 822 addr-spec"
	}
	return "RFC 1738 3.5"
}

func isAtom822(c byte) bool {
	return c > ' ' && c < 0x7f && !isSpecial822(c)
}

func isSpecial822(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '@', ',', ';', ':', '\\', '"', '.', '[', ']':
		return true
	}
	return false
}

// addrSpec checks s[i:end] as an RFC 822 addr-spec and reports the first
// problem.
func (p *parser) addrSpec(i, end int) {
	// local-part
	for {
		if i = p.word822(i, end); i < 0 {
			return
		}
		if i == end {
			p.fail(end, ErrSchemeSyntax, "the address has no '@' and domain: an RFC 822 addr-spec is local-part \"@\" domain ("+p.addrSection()+")")
			return
		}
		c, w := p.decAt(i, end)
		if c == '.' {
			i += w
			continue
		}
		if c != '@' {
			p.fail(i, ErrSchemeSyntax, p.what822(c, i, w)+" may not appear unquoted in the local-part of an RFC 822 address (RFC 822 6.1, local-part = word *(\".\" word); "+p.addrSection()+")")
			return
		}
		i += w
		break
	}
	// domain
	for {
		if i = p.subDomain822(i, end); i < 0 || i == end {
			return
		}
		c, w := p.decAt(i, end)
		if c != '.' {
			p.fail(i, ErrSchemeSyntax, p.what822(c, i, w)+" may not appear in the domain of an RFC 822 address (RFC 822 6.1, domain = sub-domain *(\".\" sub-domain); "+p.addrSection()+")")
			return
		}
		i += w
	}
}

// word822 checks a word (atom or quoted-string) at i and returns the
// offset after it, or -1 after reporting an error.
func (p *parser) word822(i, end int) int {
	if i == end {
		p.fail(i, ErrSchemeSyntax, "a word of the local-part is missing (RFC 822 6.1, local-part = word *(\".\" word); "+p.addrSection()+")")
		return -1
	}
	if c, w := p.decAt(i, end); c == '"' {
		return p.quoted822(i+w, end, '"', "quoted-string")
	}
	j := p.atom822(i, end)
	if j == i {
		c, w := p.decAt(i, end)
		p.fail(i, ErrSchemeSyntax, p.what822(c, i, w)+" cannot start a word of the local-part of an RFC 822 address (an atom or a quoted-string; RFC 822 3.3; "+p.addrSection()+")")
		return -1
	}
	return j
}

// subDomain822 checks a sub-domain (domain-ref or domain-literal) at i.
func (p *parser) subDomain822(i, end int) int {
	if i == end {
		p.fail(i, ErrSchemeSyntax, "a domain part is missing (RFC 822 6.1, domain = sub-domain *(\".\" sub-domain); "+p.addrSection()+")")
		return -1
	}
	if c, w := p.decAt(i, end); c == '[' {
		return p.quoted822(i+w, end, ']', "domain-literal")
	}
	j := p.atom822(i, end)
	if j == i {
		c, w := p.decAt(i, end)
		p.fail(i, ErrSchemeSyntax, p.what822(c, i, w)+" cannot start a part of the domain of an RFC 822 address (an atom or a domain-literal; RFC 822 6.1; "+p.addrSection()+")")
		return -1
	}
	return j
}

// atom822 returns the offset after the atom characters at i.
func (p *parser) atom822(i, end int) int {
	for i < end {
		c, w := p.decAt(i, end)
		if !isAtom822(c) {
			break
		}
		i += w
	}
	return i
}

// quoted822 checks the rest of a quoted-string (close '"') or a
// domain-literal (close ']') whose opening delimiter ends before i, and
// returns the offset after the closing delimiter.
func (p *parser) quoted822(i, end int, close byte, what string) int {
	for i < end {
		c, w := p.decAt(i, end)
		switch {
		case c == close:
			return i + w
		case c == '\\':
			i += w
			if i == end {
				continue
			}
			c, w = p.decAt(i, end)
			if c >= 0x80 {
				p.fail(i, ErrSchemeSyntax, "non-ASCII "+p.what822(c, i, w)+" in a quoted-pair: RFC 822 text is US-ASCII (RFC 822 3.3, quoted-pair = \"\\\" CHAR)")
				return -1
			}
		case c >= 0x80:
			p.fail(i, ErrSchemeSyntax, "non-ASCII "+p.what822(c, i, w)+" in a "+what+": RFC 822 text is US-ASCII (RFC 822 3.3)")
			return -1
		case c == '[' && close == ']':
			p.fail(i, ErrSchemeSyntax, "'[' may not appear in a domain-literal unless quoted with '\\' (RFC 822 3.3, dtext)")
			return -1
		case c == '\r':
			// Only as the start of a folded line break: CRLF then a space or tab.
			j := i + w
			lf, w2 := byte(0), 0
			if j < end {
				lf, w2 = p.decAt(j, end)
			}
			if lf == '\n' && j+w2 < end {
				if sp, w3 := p.decAt(j+w2, end); sp == ' ' || sp == '\t' {
					i = j + w2 + w3
					continue
				}
			}
			p.fail(i, ErrSchemeSyntax, "a CR in a "+what+" must start a folded line break (CRLF followed by a space or tab; RFC 822 3.3)")
			return -1
		}
		i += w
	}
	p.fail(end, ErrSchemeSyntax, "the "+what+" is not closed: '"+string(close)+"' is missing (RFC 822 3.3)")
	return -1
}
