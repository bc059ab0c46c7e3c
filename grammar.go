package urlkit

import (
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/registry"
)

// The scheme-specific productions of RFC 1738 section 5, applied in the
// RFC1738 mode after the generic rules (scheme, login, hostport, xchar in
// the url-path) have run. The generic rules already reported every byte
// that is not xchar and every bad escape, so the functions here skip such
// bytes and report only what the scheme's own production adds. They work
// on the input by offset and allocate only to report an error.
//
// Literal strings of the BNF (";type=") are matched without regard to
// case: RFC 1738 section 5 uses the conventions of RFC 822, whose quoted
// literals are case-insensitive.

// schemeGrammar applies the scheme-specific production of RFC 1738
// section 5 named by the scheme's registry row, after the generic rules
// passed.
func (p *parser) schemeGrammar(u *URL, sch *registry.Scheme) {
	switch sch.Production {
	case registry.Generic:
	case registry.FTP:
		p.ftpURL(u)
	case registry.HTTP: // parseFast's pass checks it too (search1738), as fileURL (fpath1738, fquery1738)
		if u.HasQuery {
			p.search(p.queryAt, p.urlEnd(u), "an HTTP search (RFC 1738 3.3; section 5, search)")
		}
	case registry.Gopher:
		p.gopherURL(u)
	case registry.Mailto:
		p.mailtoURL(u)
	case registry.News:
		p.newsURL(u)
	case registry.NNTP:
		p.nntpURL(u)
	case registry.Telnet:
		p.telnetURL(u)
	case registry.WAIS:
		p.waisURL(u)
	case registry.File:
		p.fileURL(u)
	case registry.Prospero:
		p.prosperoURL(u)
	}
}

// urlEnd returns the offset where the URL ends before its fragment.
func (p *parser) urlEnd(u *URL) int {
	if u.HasFragment {
		return p.fragAt - 1
	}
	return len(p.s)
}

// urlPathAt returns the offset of RFC 1738's url-path (after the "/" that
// follows the host), or -1 when the URL has none.
func (p *parser) urlPathAt(u *URL) int {
	if !u.HasAuthority || u.Path == "" || u.Path[0] != '/' {
		return -1
	}
	return p.pathAt + 1
}

// needPath reports a missing "/" after the host for productions that
// require one, unless the generic rules already reported a "?" there.
func (p *parser) needPath(u *URL, rule string) {
	if u.Path == "" && u.HasQuery {
		return // "'/' must separate the host from the url-path" was reported
	}
	p.fail(p.pathAt, ErrSchemeSyntax, rule)
}

// requirePath returns the offset of the url-path of a production that
// requires one, or reports rule and returns false.
func (p *parser) requirePath(u *URL, rule string) (int, bool) {
	i := p.urlPathAt(u)
	if i < 0 {
		p.needPath(u, rule)
		return 0, false
	}
	return i, true
}

// encodedSemicolons reports each unencoded ";" of s[i:end] with rule.
func (p *parser) encodedSemicolons(i, end int, rule string) {
	s := p.s
	for ; i < end; i++ {
		k := strings.IndexByte(s[i:end], ';')
		if k < 0 {
			return
		}
		i += k
		p.fail(i, ErrInvalidChar, rule)
		if p.stop() {
			return
		}
	}
}

// escapeAt reports whether a valid %XX escape starts at i (before end).
func (p *parser) escapeAt(i, end int) bool {
	s := p.s
	return s[i] == '%' && i+2 < end && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2])
}

// reported reports whether the generic rules already reported the byte
// at i: a byte that is not xchar, or a "%" that starts no valid escape.
func (p *parser) reported(i, end int) bool {
	c := p.s[i]
	if c == '%' {
		return !p.escapeAt(i, end)
	}
	return !cc.Is(c, cc.Xchar)
}

// search checks RFC 1738's search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
// in s[i:end]: of the reserved characters, "/" and "?" must be encoded.
// what names the search with its article ("an HTTP search (...)").
func (p *parser) search(i, end int, what string) {
	s := p.s
	if i >= end || strings.IndexByte(s[i:end], '/') < 0 && strings.IndexByte(s[i:end], '?') < 0 {
		return // the common case, with two vectorized scans
	}
	for ; i < end; i++ {
		if c := s[i]; (c == '/' || c == '?') && p.wants(i) {
			p.fail(i, ErrInvalidChar, describe(c)+" is reserved and must be encoded as "+encoded(c)+" in "+what)
			if p.stop() {
				return
			}
		}
	}
}

// ftpURL checks ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
// with fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]: a ";" may
// appear unencoded only to start the final ";type=". The url-path is
// split by registry.SplitFTP, the split the ftp view reads too.
func (p *parser) ftpURL(u *URL) {
	s, end := p.s, p.urlEnd(u)
	i := p.urlPathAt(u)
	if i < 0 {
		return
	}
	f := registry.SplitFTP(s[i:end])
	if f.Semicolon >= 0 {
		p.encodedSemicolons(i+f.Semicolon, i+f.End, "';' is reserved and must be encoded as %3B in an FTP path: only a final \";type=\" may follow the name (RFC 1738 3.2.2; section 5, fsegment)")
		if p.stop() {
			return
		}
	}
	if f.TypeAt >= 0 {
		p.ftpType(i+f.TypeAt+6, end)
	}
}

// ftpType checks the ftptype at t, which must be the last byte of the url-path.
func (p *parser) ftpType(t, end int) {
	s := p.s
	if t == end || strings.IndexByte("AIDaid", s[t]) < 0 {
		p.fail(t, ErrSchemeSyntax, "ftptype must be one of A I D a i d (RFC 1738 section 5, ftptype)")
		return
	}
	if t+1 < end {
		p.fail(t+1, ErrSchemeSyntax, "the ftptype is one character and ends the url-path (RFC 1738 section 5, ftpurl)")
	}
}

// gopherURL checks gopherurl = "gopher://" hostport [ / [ gtype [ selector
// [ "%09" search [ "%09" gopher+_string ] ] ] ] ]. gtype, selector and
// gopher+_string are xchar, which the generic rules checked; the search
// between the first and the second "%09" is the search production. The
// url-path is split by registry.SplitGopher, as the gopher view does.
func (p *parser) gopherURL(u *URL) {
	end := p.urlEnd(u)
	i := p.urlPathAt(u)
	if i < 0 || i >= end {
		return
	}
	g := registry.SplitGopher(p.s[i:end])
	if g.SearchAt < 0 {
		return
	}
	p.search(i+g.SearchAt, i+g.SearchEnd, "a gopher search (RFC 1738 section 5, gopherurl uses the search production)")
}

// mailtoURL checks mailtourl = "mailto:" encoded822addr, encoded822addr =
// 1*xchar, "further defined in RFC822": the decoded text must be an RFC
// 822 addr-spec. There are no reserved characters in a mailto URL (RFC
// 1738 3.5), so escapes and characters count alike.
func (p *parser) mailtoURL(u *URL) {
	i, end := p.schemeEnd+1, p.urlEnd(u)
	if i >= end {
		p.fail(i, ErrSchemeSyntax, "a mailto URL needs an address (RFC 1738 section 5, encoded822addr = 1*xchar)")
		return
	}
	p.addrSpec(i, end)
}

// newsURL checks newsurl = "news:" grouppart, grouppart = "*" | group |
// article, article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@"
// host. An "@" makes it an article (RFC 1738 3.6). A "//" start is
// read as RFC 5538's news://HOST/..., not the unique part of a
// message-id, which the article production would allow: news://u:pw@h
// would otherwise send "u:pw" to the reader's own server as part of a
// message-id, where every other reading sees a password for h.
func (p *parser) newsURL(u *URL) {
	s := p.s
	a, end := p.schemeEnd+1, p.urlEnd(u)
	if u.HasAuthority {
		p.fail(a, ErrSchemeSyntax, "news URLs take no host: the reader's own news server is used (RFC 1738 3.6): write news:GROUP, or nntp://HOST/GROUP for a group on a given server; RFC 5538's news://HOST/GROUP is accepted in the rfc3986 mode")
		return
	}
	switch {
	case a >= end:
		p.fail(a, ErrSchemeSyntax, "a news URL names a newsgroup, a message-id (unique@host) or '*' (RFC 1738 3.6; section 5, grouppart)")
		return
	case end-a == 1 && s[a] == '*':
		return
	}
	at := strings.IndexByte(s[a:end], '@')
	if at < 0 {
		p.group(a, end, "news")
		return
	}
	at += a
	if at == a {
		p.fail(a, ErrSchemeSyntax, "a message-id needs its unique part before '@' (RFC 1738 section 5, article)")
		if p.stop() {
			return
		}
	}
	// The unique part is xchar without "@", which the generic rules
	// checked; what follows the "@" is a host.
	p.hostname1738(s[at+1:end], at+1, false, true)
}

// group checks group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
// in s[a:end].
func (p *parser) group(a, end int, scheme string) {
	s := p.s
	if a >= end {
		p.fail(a, ErrSchemeSyntax, "the newsgroup name is missing (RFC 1738 section 5, "+scheme+"url)")
		return
	}
	for i := a; i < end; i++ {
		c := s[i]
		switch {
		case cc.Is(c, cc.Alpha):
			continue
		case i > a && (cc.Is(c, cc.Digit) || c == '-' || c == '.' || c == '+' || c == '_'):
			continue
		case c == '%' && p.escapeAt(i, end):
			p.fail(i, ErrSchemeSyntax, "escapes are not allowed in a newsgroup name (RFC 1738 section 5, group)")
		case p.reported(i, end):
			continue
		case i == a:
			p.fail(i, ErrSchemeSyntax, "a newsgroup name starts with a letter, not "+describe(c)+" (RFC 1738 section 5, group)")
		default:
			p.fail(i, ErrSchemeSyntax, describe(c)+" is not allowed in a newsgroup name (letters, digits, '-', '.', '+', '_'; RFC 1738 section 5, group)")
		}
		if p.stop() {
			return
		}
	}
}

// nntpURL checks nntpurl = "nntp://" hostport "/" group [ "/" digits ].
func (p *parser) nntpURL(u *URL) {
	s, end := p.s, p.urlEnd(u)
	i, ok := p.requirePath(u, "an nntp URL needs '/' and a newsgroup name after the host (RFC 1738 3.7; section 5, nntpurl)")
	if !ok {
		return
	}
	slash := strings.IndexByte(s[i:end], '/')
	if slash < 0 {
		p.group(i, end, "nntp")
		return
	}
	slash += i
	p.group(i, slash, "nntp")
	if p.stop() {
		return
	}
	if slash+1 == end {
		p.fail(end, ErrSchemeSyntax, "an article number (digits) must follow the '/' after the newsgroup (RFC 1738 section 5, nntpurl)")
		return
	}
	for j := slash + 1; j < end; j++ {
		if c := s[j]; c < '0' || c > '9' {
			if !p.reported(j, end) {
				p.fail(j, ErrSchemeSyntax, describe(c)+" in the article number: it is digits only (RFC 1738 section 5, nntpurl)")
			}
			return
		}
	}
}

// telnetURL checks telneturl = "telnet://" login [ "/" ]: nothing follows
// the optional "/".
func (p *parser) telnetURL(u *URL) {
	if u.Path == "" || u.Path == "/" && !u.HasQuery {
		return
	}
	p.fail(p.pathAt+1, ErrSchemeSyntax, "a telnet URL ends after the host and port, with an optional '/' (RFC 1738 3.8; section 5, telneturl)")
}

// waisURL checks waisurl = waisdatabase | waisindex | waisdoc:
//
//	"wais://" hostport "/" database
//	"wais://" hostport "/" database "?" search
//	"wais://" hostport "/" database "/" wtype "/" wpath
//
// with database, wtype and wpath *uchar (no reserved character unencoded).
func (p *parser) waisURL(u *URL) {
	s, end := p.s, p.urlEnd(u)
	i, ok := p.requirePath(u, "a wais URL needs '/' and a database name after the host (RFC 1738 3.9; section 5, waisurl)")
	if !ok {
		return
	}
	pathEnd := end
	if u.HasQuery {
		pathEnd = p.queryAt - 1
	}
	slashes := 0
	for j := i; j < pathEnd; j++ {
		c := s[j]
		switch {
		case c == '/':
			slashes++
			if slashes < 3 {
				continue
			}
			p.fail(j, ErrInvalidChar, "'/' must be encoded as %2F in a wpath (RFC 1738 section 5, wpath = *uchar)")
		case c == '%' || cc.Is(c, cc.Uchar) || p.reported(j, pathEnd):
			continue
		default:
			part := [3]string{"database", "wtype", "wpath"}[min(slashes, 2)]
			rule := describe(c) + " is reserved and must be encoded as " + encoded(c) + " in a WAIS " + part + " (RFC 1738 section 5, " + part + " = *uchar)"
			if part == "wpath" && (c == '=' || c == ';') {
				rule += "; RFC 1630's digits=value; wpath fields are accepted in the rfc1630 mode"
			}
			p.fail(j, ErrInvalidChar, rule)
		}
		if p.stop() {
			return
		}
	}
	if slashes == 1 {
		p.fail(pathEnd, ErrSchemeSyntax, "a WAIS document URL is /database/wtype/wpath: the '/' and the wpath are missing (RFC 1738 3.9; section 5, waisdoc)")
		if p.stop() {
			return
		}
	}
	if !u.HasQuery {
		return
	}
	if slashes > 0 {
		p.fail(p.queryAt-1, ErrSchemeSyntax, "a WAIS document URL (/database/wtype/wpath) takes no search (RFC 1738 3.9; section 5, waisurl)")
		return
	}
	p.search(p.queryAt, end, "a WAIS search (RFC 1738 section 5, search)")
}

// fileURL checks fileurl = "file://" [ host | "localhost" ] "/" fpath:
// the "/" is required and a ";" must be encoded (fsegment).
func (p *parser) fileURL(u *URL) {
	end := p.urlEnd(u)
	i, ok := p.requirePath(u, "a file URL needs '/' and a path after the host (RFC 1738 3.10; section 5, fileurl)")
	if !ok {
		return
	}
	p.encodedSemicolons(i, end, "';' is reserved and must be encoded as %3B in a file path (RFC 1738 section 5, fsegment)")
}

// prosperoURL checks prosperourl = "prospero://" hostport "/" ppath
// *[ fieldspec ], fieldspec = ";" fieldname "=" fieldvalue, where the
// ppath has no ";" and field names and values have no "/", ";" or "=".
func (p *parser) prosperoURL(u *URL) {
	s, end := p.s, p.urlEnd(u)
	i, ok := p.requirePath(u, "a prospero URL needs '/' and an hsoname after the host (RFC 1738 3.11; section 5, prosperourl)")
	if !ok {
		return
	}
	semi := strings.IndexByte(s[i:end], ';')
	if semi < 0 {
		return
	}
	inName := true
	for j := i + semi + 1; j <= end; j++ {
		if j == end || s[j] == ';' {
			if inName {
				p.fail(j, ErrSchemeSyntax, "a Prospero field is \";\" fieldname \"=\" fieldvalue: the '=' is missing (RFC 1738 3.11; section 5, fieldspec)")
				if p.stop() {
					return
				}
			}
			inName = true
			continue
		}
		switch c := s[j]; c {
		case '=':
			if inName {
				inName = false
				continue
			}
			p.fail(j, ErrInvalidChar, "'=' must be encoded as %3D in a Prospero field value (RFC 1738 section 5, fieldvalue)")
		case '/':
			what := "value (RFC 1738 section 5, fieldvalue)"
			if inName {
				what = "name (RFC 1738 section 5, fieldname)"
			}
			p.fail(j, ErrInvalidChar, "'/' must be encoded as %2F in a Prospero field "+what)
		default:
			continue
		}
		if p.stop() {
			return
		}
	}
}
