package scheme

import (
	"errors"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
)

// Gopher is the view of a gopher URL (RFC 1738 3.4):
//
//	gopher://<host>:<port>/<gophertype><selector>
//	gopher://<host>:<port>/<gophertype><selector>%09<search>
//	gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>
//
// An empty gopher-path means type "1" and an empty selector (the top
// directory). The selector ends at the first %09 and the search at the
// second; the Gopher+ string is the rest, which may hold further %09
// (an ASK submission does).
//
// A selector and a search cannot hold a TAB: URL encodes it as %09,
// which reads back as the start of the next field, as a TAB does in the
// Gopher protocol (which also forbids CR and LF in a selector).
type Gopher struct {
	Host      string // as written
	Port      string // the digits as written, "" for the default (70)
	Type      byte   // the gopher type character, decoded ('0' file, '1' directory, '7' search, ...)
	Selector  string // decoded
	Search    string // decoded; see HasSearch
	HasSearch bool   // a first %09 is present
	Plus      string // the Gopher+ string, decoded; see HasPlus and PlusRequest
	HasPlus   bool   // a second %09 is present (HasPlus implies HasSearch)
}

// ParseGopher returns the view of a gopher URL.
func ParseGopher(u *urlkit.URL) (*Gopher, error) {
	if err := expect(u, "gopher"); err != nil {
		return nil, err
	}
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	g := &Gopher{Host: u.Host, Port: port(u), Type: '1'}
	p, _, ok := urlPath(u)
	if !ok && u.HasQuery {
		return nil, noSlashBeforeQuery(u)
	}
	if p == "" {
		return g, nil
	}
	// gtype is one xchar: a character or an escape.
	if isEscape(p, 0) {
		g.Type, p = cc.Unhex(p[1])<<4|cc.Unhex(p[2]), p[3:]
	} else {
		g.Type, p = p[0], p[1:]
	}
	sel, rest, found := cutEscape(p, '\t')
	g.Selector = unescape(sel)
	if !found {
		return g, nil
	}
	search, plus, found := cutEscape(rest, '\t')
	g.HasSearch, g.Search = true, unescape(search)
	if found {
		g.HasPlus, g.Plus = true, unescape(plus)
	}
	return g, nil
}

// Scheme returns "gopher".
func (g *Gopher) Scheme() string { return "gopher" }

// URL builds the gopher URL: the type and selector encoded for xchar, the
// search for RFC 1738's search production, the Gopher+ string for xchar,
// with %09 between them.
func (g *Gopher) URL() *urlkit.URL {
	u := serverURL("gopher", g.Host, g.Port)
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(escape(string([]byte{g.Type}), &keepXchar)) // not string(g.Type): a byte above 0x7F is no rune
	b.WriteString(escape(g.Selector, &keepXchar))
	if g.HasSearch || g.HasPlus {
		b.WriteString("%09")
		b.WriteString(escape(g.Search, &keepSearch))
	}
	if g.HasPlus {
		b.WriteString("%09")
		b.WriteString(escape(g.Plus, &keepXchar))
	}
	setPath(u, b.String())
	return u
}

// PlusRequest classifies the Gopher+ string (RFC 1738 3.4;
// draft-ietf-uri-url-06 3.4.4 to 3.4.9; draft-ietf-uri-url-03's
// summary). It returns PlusNone when the URL has no Gopher+ string.
func (g *Gopher) PlusRequest() (GopherPlus, error) {
	if !g.HasPlus {
		return GopherPlus{}, nil
	}
	return ParseGopherPlus(g.Plus)
}

// GopherTypes names the gopher item types of RFC 1436 (and the Gopher+
// and later conventions in common use).
var GopherTypes = map[byte]string{
	'0': "a text file",
	'1': "a directory (menu)",
	'2': "a CSO phone-book server",
	'3': "an error",
	'4': "a BinHexed Macintosh file",
	'5': "a DOS binary archive",
	'6': "a uuencoded file",
	'7': "an index-search server",
	'8': "a telnet session",
	'9': "a binary file",
	'+': "a redundant server",
	'T': "a tn3270 session",
	'g': "a GIF image",
	'I': "an image",
	'h': "an HTML page",
	'i': "an informational line",
	's': "a sound",
}

// PlusKind is the kind of a Gopher+ request.
type PlusKind uint8

const (
	// PlusNone: no Gopher+ string (or an empty one).
	PlusNone PlusKind = iota
	// PlusView: "+" for the default view, "+VIEW LANGUAGE" for an
	// alternate view, optionally with a filled-out ASK form (Values).
	PlusView
	// PlusAsk: "?", an item with an ASK form to fill out.
	PlusAsk
	// PlusItemAttributes: "!" for all of an item's attributes, or "!"
	// and attribute names separated by spaces.
	PlusItemAttributes
	// PlusDirectoryAttributes: "$", the attributes of every item of a
	// directory, or only the named ones.
	PlusDirectoryAttributes
)

var plusKindNames = [...]string{"none", "view", "ask", "item_attributes", "directory_attributes"}

// String returns the kind as "none", "view", "ask", "item_attributes" or
// "directory_attributes".
func (k PlusKind) String() string {
	if int(k) < len(plusKindNames) {
		return plusKindNames[k]
	}
	return "unknown"
}

// GopherPlus is a classified Gopher+ string.
type GopherPlus struct {
	Kind PlusKind
	// View and Language name an alternate view (PlusView); both are ""
	// for the default view. A view name holds no space.
	View, Language string
	// Attributes are the attribute names of PlusItemAttributes and
	// PlusDirectoryAttributes ("+ABSTRACT"); nil means all of them.
	Attributes []string
	// Form reports an ASK submission (PlusView only): the string goes on
	// with a TAB, "1" CR LF, "+-1" CR LF, one line per value and a line
	// holding only ".".
	Form bool
	// Values are the submitted ASK values, one per line; none is "." and
	// none holds CR or LF.
	Values []string
}

// ParseGopherPlus classifies a decoded Gopher+ string. The forms are
// those of draft-ietf-uri-url-03's summary and RFC 1738 3.4:
//
//	+[view_name[ language_name]][<TAB>1<CRLF>+-1<CRLF>value<CRLF>...<CRLF>.<CRLF>]
//	?
//	![attribute_name[ attribute_name]...]
//	$[attribute_name[ attribute_name]...]
func ParseGopherPlus(s string) (GopherPlus, error) {
	if s == "" {
		return GopherPlus{}, nil
	}
	fail := func(msg string) (GopherPlus, error) {
		return GopherPlus{}, errors.New("scheme: gopher+: " + msg)
	}
	switch s[0] {
	case '?':
		if len(s) > 1 {
			return fail("a Gopher+ \"?\" (an item with an ASK form) stands alone (draft-ietf-uri-url-06 3.4.4)")
		}
		return GopherPlus{Kind: PlusAsk}, nil
	case '!', '$':
		p := GopherPlus{Kind: PlusItemAttributes}
		if s[0] == '$' {
			p.Kind = PlusDirectoryAttributes
		}
		if len(s) == 1 {
			return p, nil
		}
		p.Attributes = strings.Split(s[1:], " ")
		for _, a := range p.Attributes {
			if a == "" || strings.ContainsAny(a, "\t\r\n") {
				return fail("Gopher+ attribute names are separated by single spaces (%20) and hold no TAB, CR or LF (draft-ietf-uri-url-06 3.4.7)")
			}
		}
		return p, nil
	case '+':
		p := GopherPlus{Kind: PlusView}
		head, form, hasForm := strings.Cut(s[1:], "\t")
		if strings.ContainsAny(head, "\r\n") {
			return fail("a Gopher+ view name holds no CR or LF (draft-ietf-uri-url-06 3.4.8)")
		}
		p.View, p.Language, _ = strings.Cut(head, " ")
		if !hasForm {
			return p, nil
		}
		const start, end = "1\r\n+-1\r\n", ".\r\n"
		if !strings.HasPrefix(form, start) || !strings.HasSuffix(form, end) || len(form) < len(start)+len(end) {
			return fail("a Gopher+ ASK submission is TAB \"1\" CRLF \"+-1\" CRLF, one line per value, and \".\" CRLF (RFC 1738 3.4; draft-ietf-uri-url-06 3.4.9)")
		}
		p.Form = true
		if body := form[len(start) : len(form)-len(end)]; body != "" {
			if !strings.HasSuffix(body, "\r\n") {
				return fail("each Gopher+ ASK value ends with CR LF (RFC 1738 3.4)")
			}
			p.Values = strings.Split(body[:len(body)-2], "\r\n")
			for _, v := range p.Values {
				if v == "." || strings.ContainsAny(v, "\r\n") {
					return fail("a Gopher+ ASK value is one line that is not \".\" (RFC 1738 3.4)")
				}
			}
		}
		return p, nil
	}
	return fail("a Gopher+ string starts with '+', '?', '!' or '$' (draft-ietf-uri-url-03, gopher+ summary)")
}

// String returns the Gopher+ string of the request, decoded: what a
// Gopher view's Plus holds.
func (p GopherPlus) String() string {
	switch p.Kind {
	case PlusAsk:
		return "?"
	case PlusItemAttributes, PlusDirectoryAttributes:
		c := "!"
		if p.Kind == PlusDirectoryAttributes {
			c = "$"
		}
		return c + strings.Join(p.Attributes, " ")
	case PlusView:
		s := "+" + p.View
		if p.Language != "" {
			s += " " + p.Language
		}
		if p.Form {
			s += "\t1\r\n+-1\r\n"
			for _, v := range p.Values {
				s += v + "\r\n"
			}
			s += ".\r\n"
		}
		return s
	}
	return ""
}
