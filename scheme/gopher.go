package scheme

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/gophertype"
	"github.com/urlkit/urlkit/internal/registry"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/schemedata"
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
	Plus      string // the Gopher+ string, decoded; see HasPlus and plusRequest
	HasPlus   bool   // a second %09 is present (HasPlus implies HasSearch)

	// at holds where each part is written in the URL's String form.
	at gopherSpans
}

// gopherSpans are the spans of a gopher URL's parts (see Span).
type gopherSpans struct {
	authSpans
	Type, Selector, Search, Plus Span
}

// parseGopher returns the view of a gopher URL.
func parseGopher(u *urlkit.URL) (*Gopher, error) {
	g := new(Gopher)
	if err := g.read(u); err != nil {
		return nil, err
	}
	return g, nil
}

// read fills g with the view of u.
func (g *Gopher) read(u *urlkit.URL) error {
	if err := needAuthority(u); err != nil {
		return err
	}
	*g = Gopher{Host: u.Host, Port: port(u), Type: '1'}
	g.at.authSpans = serverSpans(u)
	p, off, ok := urlPath(u)
	if !ok && u.HasQuery {
		return noSlashBeforeQuery(u)
	}
	if p == "" {
		return nil
	}
	sp := registry.SplitGopher(p) // the split the strict check reads
	if sp.TypeEnd == 3 {
		g.Type = cc.Unhex(p[1])<<4 | cc.Unhex(p[2])
	} else {
		g.Type = p[0]
	}
	g.at.Type = Span{off, off + sp.TypeEnd}
	g.Selector = unescape(p[sp.TypeEnd:sp.SelectorEnd])
	g.at.Selector = Span{off + sp.TypeEnd, off + sp.SelectorEnd}
	if sp.SearchAt < 0 {
		return nil
	}
	g.HasSearch, g.Search = true, unescape(p[sp.SearchAt:sp.SearchEnd])
	g.at.Search = Span{off + sp.SearchAt, off + sp.SearchEnd}
	if sp.PlusAt >= 0 {
		g.HasPlus, g.Plus = true, unescape(p[sp.PlusAt:])
		g.at.Plus = Span{off + sp.PlusAt, off + len(p)}
	}
	return nil
}

// appendParts appends type, selector, search, plus and plus_request (the
// Gopher+ string classified, null when there is none or it is none of
// the forms).
func (g *Gopher) appendParts(dst []part) []part {
	var req value
	if p, err := g.plusRequest(); err == nil && p.Kind != plusNone {
		view := p.Kind == plusView
		var attrs, values value
		if p.Attributes != nil {
			attrs = strs(p.Attributes)
		}
		if p.Form {
			values = strs(p.Values)
		}
		req = value{Kind: schemedata.KindObject, Sub: []part{kv("kind", str(p.Kind.String())), kv("view", opt(p.View, view)),
			kv("language", opt(p.Language, view)), kv("attributes", attrs), kv("ask_values", values)}}
	}
	return append(dst, kv("type", str(string([]byte{g.Type}))), kv("selector", str(g.Selector)),
		kv("search", opt(g.Search, g.HasSearch)), kv("plus", opt(g.Plus, g.HasPlus)), kv("plus_request", req))
}

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

// plusRequest classifies the Gopher+ string (RFC 1738 3.4;
// draft-ietf-uri-url-06 3.4.4 to 3.4.9; draft-ietf-uri-url-03's
// summary). It returns plusNone when the URL has no Gopher+ string.
func (g *Gopher) plusRequest() (gopherPlus, error) {
	if !g.HasPlus {
		return gopherPlus{}, nil
	}
	return parseGopherPlus(g.Plus)
}

// plusKind is the kind of a Gopher+ request.
type plusKind uint8

const (
	// plusNone: no Gopher+ string (or an empty one).
	plusNone plusKind = iota
	// plusView: "+" for the default view, "+VIEW LANGUAGE" for an
	// alternate view, optionally with a filled-out ASK form (Values).
	plusView
	// plusAsk: "?", an item with an ASK form to fill out.
	plusAsk
	// plusItemAttributes: "!" for all of an item's attributes, or "!"
	// and attribute names separated by spaces.
	plusItemAttributes
	// plusDirectoryAttributes: "$", the attributes of every item of a
	// directory, or only the named ones.
	plusDirectoryAttributes
)

var plusKindNames = [...]string{"none", "view", "ask", "item_attributes", "directory_attributes"}

// String returns the kind as "none", "view", "ask", "item_attributes" or
// "directory_attributes".
func (k plusKind) String() string {
	if int(k) < len(plusKindNames) {
		return plusKindNames[k]
	}
	return "unknown"
}

// gopherPlus is a classified Gopher+ string.
type gopherPlus struct {
	Kind plusKind
	// View and Language name an alternate view (plusView); both are ""
	// for the default view. A view name holds no space.
	View, Language string
	// Attributes are the attribute names of plusItemAttributes and
	// plusDirectoryAttributes ("+ABSTRACT"); nil means all of them.
	Attributes []string
	// Form reports an ASK submission (plusView only): the string goes on
	// with a TAB, "1" CR LF, "+-1" CR LF, one line per value and a line
	// holding only ".".
	Form bool
	// Values are the submitted ASK values, one per line; none is "." and
	// none holds CR or LF.
	Values []string
}

// parseGopherPlus classifies a decoded Gopher+ string. The forms are
// those of draft-ietf-uri-url-03's summary and RFC 1738 3.4:
//
//	+[view_name[ language_name]][<TAB>1<CRLF>+-1<CRLF>value<CRLF>...<CRLF>.<CRLF>]
//	?
//	![attribute_name[ attribute_name]...]
//	$[attribute_name[ attribute_name]...]
func parseGopherPlus(s string) (gopherPlus, error) {
	if s == "" {
		return gopherPlus{}, nil
	}
	fail := func(msg string) (gopherPlus, error) {
		return gopherPlus{}, errors.New("scheme: gopher+: " + msg)
	}
	switch s[0] {
	case '?':
		if len(s) > 1 {
			return fail("a Gopher+ \"?\" (an item with an ASK form) stands alone (draft-ietf-uri-url-06 3.4.4)")
		}
		return gopherPlus{Kind: plusAsk}, nil
	case '!', '$':
		p := gopherPlus{Kind: plusItemAttributes}
		if s[0] == '$' {
			p.Kind = plusDirectoryAttributes
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
		p := gopherPlus{Kind: plusView}
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
func (p gopherPlus) String() string {
	switch p.Kind {
	case plusAsk:
		return "?"
	case plusItemAttributes, plusDirectoryAttributes:
		c := "!"
		if p.Kind == plusDirectoryAttributes {
			c = "$"
		}
		return c + strings.Join(p.Attributes, " ")
	case plusView:
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

func init() {
	register(&unit{parse: view(parseGopher), parts: func(dst []part, u *urlkit.URL, _ urlkit.Mode) ([]part, error) {
		var g Gopher // on the stack
		if err := g.read(u); err != nil {
			return dst, err
		}
		return g.appendParts(dst), nil
	}, concerns: gopherConcerns, plan: gopherPlan, proxied: true}, "gopher")
}

// gopherConcerns: the selector, the search and the Gopher+ string go
// into the request line; the type is not sent (it tells the client how
// to read the reply).
func gopherConcerns(v View, c *concernList) {
	g, _ := v.(*Gopher)
	if g == nil {
		return
	}
	c.scanSpan(g.at.Selector, ctlLine, "Gopher selector line")
	c.scanSpan(g.at.Search, ctlLine, "Gopher search")
	if !g.HasPlus {
		return
	}
	plus := c.s[g.at.Plus.At:g.at.Plus.End]
	req, err := g.plusRequest()
	head := indexEscape(plus, '\t')
	if err != nil || !req.Form || head < 0 { // a raw TAB was reported as a raw byte
		c.scanSpan(g.at.Plus, ctlLine|ctlTAB, "Gopher+ string")
		return
	}
	// An ASK submission: the head (up to its TAB) holds no control
	// character; after it, the CR LF are the form's own (the values were
	// checked to hold none) and a value may not hold NUL.
	c.scanSpan(Span{g.at.Plus.At, g.at.Plus.At + head}, ctlLine|ctlTAB, "Gopher+ view")
	c.scanSpan(Span{g.at.Plus.At + head, g.at.Plus.End}, ctlNUL, "Gopher+ ASK value")
}

// gopherPlan is the access of RFC 1738 3.4 and RFC 1436, with Gopher+ as
// draft-ietf-uri-url-06 3.4 describes it.
func gopherPlan(v View, p *planner) {
	g := v.(*Gopher)
	p.connect(addr(g.Host, g.Port, "gopher"))
	it, known := gophertype.Lookup(g.Type)
	what := it.Meaning
	if !known {
		what = "a type RFC 1436 does not define"
	}
	p.comment("gopher item type %q: %s; the type is not sent, it tells the client how to read the reply", string([]byte{g.Type}), what)
	if it.Session {
		kind := "telnet"
		if g.Type == 'T' {
			kind = "tn3270"
		}
		p.unsupported(g.at.Type.At, fmt.Sprintf("gopher item type %q is an interactive %s session on %s, not a document to fetch; the selector, if any, is the user name to log in with (RFC 1436)",
			string([]byte{g.Type}), kind, addr(g.Host, g.Port, "gopher")))
		return
	}
	r := &request.Gopher{Selector: g.Selector}
	if g.HasSearch {
		s := g.Search
		r.Search = &s
	}
	preq, perr := g.plusRequest()
	if g.HasPlus && g.Plus != "" {
		s := g.Plus
		r.Plus = &s
	}
	switch {
	case g.Type == '7' && !g.HasSearch:
		r.AskSearch = true
		p.add(Step{Kind: Ask, Text: "the words to search for", Request: r,
			Why: "a search server and no search string in the URL: the client asks the user, then sends the selector, a TAB and the words", RFC: "RFC 1436 3.7"})
		p.add(Step{Kind: Send, Op: "REQUEST", Arg: g.Selector, Text: g.Selector + "\t", Answers: true})
		p.gopherReply(g, false)
		return
	case r.Plus != nil && perr != nil:
		p.comment("the Gopher+ string is none of the forms of RFC 1738 3.4 (%v); it is sent as it is", perr)
		if r.Search == nil {
			empty := ""
			r.Search = &empty
		}
	case r.Plus != nil && g.Type != '7' && g.Search == "":
		r.Search = nil
		p.comment("not a search item: the selector, a TAB and the Gopher+ string, without the empty search (draft-ietf-uri-url-06 3.4.3)")
	}
	switch preq.Kind {
	case plusNone:
		if g.HasSearch {
			p.comment("the selector, a TAB and the search string (RFC 1738 3.4)")
		}
	case plusView:
		switch {
		case preq.Form:
			p.gopherForm(r, preq)
			return
		case preq.View == "":
			p.comment("Gopher+: the item's default view (RFC 1738 3.4)")
		case preq.Language == "":
			p.comment("Gopher+: the alternate view %q (RFC 1738 3.4)", preq.View)
		default:
			p.comment("Gopher+: the alternate view %q in the language %q (RFC 1738 3.4)", preq.View, preq.Language)
		}
	case plusAsk:
		r.AskForm = true
		bang := "!"
		attrs := &request.Gopher{Selector: g.Selector, Plus: &bang, Attributes: true}
		st := p.send("ATTRIBUTES", g.Selector, attrs.Line())
		st.Request = r
		st.Why, st.RFC = "Gopher+ \"?\": the item has an ASK form; the client fetches all of its attributes (\"!\", since servers such as pygopherd answer \"!+ASK\" with the document itself) and reads its +ASK block", "draft-ietf-uri-url-06 3.4.5"
		p.add(Step{Kind: End, Text: "the attribute blocks, up to the server's close"})
		p.add(Step{Kind: Ask, Text: "each question of the +ASK block"})
		p.add(Step{Kind: Connect, Text: addr(g.Host, g.Port, "gopher"), Why: "a second connection for the submission: a Gopher server closes each one after its reply", RFC: "RFC 1436 2"})
		p.formLines(r.Selector, nil)
		p.gopherReply(g, true)
		return
	case plusItemAttributes, plusDirectoryAttributes:
		r.Attributes = true
		of := "the item"
		if preq.Kind == plusDirectoryAttributes {
			of = "every item of the directory"
		}
		if preq.Attributes == nil {
			p.comment("Gopher+: all attributes of %s (draft-ietf-uri-url-06 3.4.6)", of)
		} else {
			p.comment("Gopher+: the attributes %s of %s, separated by spaces (draft-ietf-uri-url-06 3.4.7)", strings.Join(preq.Attributes, " "), of)
		}
	}
	p.send("REQUEST", g.Selector, r.Line()).Request = r
	p.gopherReply(g, r.Plus != nil && perr == nil)
}

// gopherForm adds the submission of a filled-in ASK form.
func (p *planner) gopherForm(r *request.Gopher, preq gopherPlus) {
	r.Form = append([]string{}, preq.Values...)
	p.comment("a filled-out ASK form: %d value(s) in a +-1 data block ending with a line holding \".\" (RFC 1738 3.4)", len(preq.Values))
	if preq.View != "" {
		p.comment("the form is submitted for the default view (\"+\"), not %q: urlkit's Gopher client submits forms that way", preq.View)
	}
	p.formLines(r.Selector, r)
	p.comment("the server replies with a Gopher+ data block: a \"+\" length line, then the data")
}

// formLines adds the lines of an ASK submission (Gopher+ 2.6): the head,
// "+-1", each value (dot-stuffed), ".". With r nil the values are the
// user's answers, not known yet.
func (p *planner) formLines(selector string, r *request.Gopher) {
	st := p.send("ASK", selector, selector+"\t+\t1\r\n")
	st.Request = r
	p.send("", "", "+-1\r\n")
	if r == nil {
		p.add(Step{Kind: Send, Op: "ANSWERS", Answers: true})
	} else {
		for _, v := range r.Form {
			if strings.HasPrefix(v, ".") {
				v = "." + v // dot-stuffed, as in a text block
			}
			p.send("", "", v+"\r\n")
		}
	}
	p.send("", "", ".\r\n")
}

// gopherReply says how the reply ends.
func (p *planner) gopherReply(g *Gopher, plus bool) {
	it, _ := gophertype.Lookup(g.Type)
	switch {
	case plus:
		p.add(Step{Kind: End, Text: "the server replies with a Gopher+ data block: a \"+\" length line (+-1: up to a line holding \".\"; +-2: until it closes the connection), then the data"})
	case it.Menu:
		p.add(Step{Kind: End, Text: "the server replies with a menu, one item per line, ending with a line holding \".\", and closes the connection"})
	case g.Type == '0':
		p.add(Step{Kind: End, Text: "the server replies with the text, ending with a line holding \".\", and closes the connection"})
	default:
		p.add(Step{Kind: End, Text: "the server replies with the item and closes the connection"})
	}
}
