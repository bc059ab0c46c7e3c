package gateway

import (
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// gopher serves the gopher URLs that are pages before (or instead of) a
// fetch: the form of a search (type 7, CSO type 2), the redirect of its
// answer, a session item (8, T), and the ASK form of a Gopher+ item. It
// reports whether it wrote the answer.
func (q *query) gopher(v *scheme.Gopher) bool {
	switch {
	case v.Type == '8' || v.Type == 'T':
		t := &scheme.Telnet{Session: "telnet", Host: v.Host, Port: v.Port}
		if v.Type == 'T' {
			t.Session = "tn3270"
		}
		if v.Selector != "" {
			t.User, t.HasUser = v.Selector, true
		}
		q.session(t)
		return true
	case (v.Type == '7' || v.Type == '2') && !v.HasSearch:
		if s, ok := q.params["search"]; ok {
			w := *v
			w.Search, w.HasSearch = strings.Join(s, " "), true
			q.redirectTo(w.URL().String())
			return true
		}
		what := "Search"
		if v.Type == '2' {
			what = "CSO phone book query"
		}
		q.searchPage(what, "search")
		return true
	case v.HasPlus && v.Plus == "?":
		q.askForm(v)
		return true
	}
	return false
}

// redirectTo answers 303 with the page of the URL s.
func (q *query) redirectTo(s string) {
	if href := gatewayHref(s); href != "" {
		seeOther(q.w, href)
		return
	}
	q.fail(http.StatusBadRequest, parseMessage(s))
}

// searchPage is a form that sends its words back to this URL as
// "?search=" (GET: a search changes nothing, and its page can be kept).
func (q *query) searchPage(title, field string) {
	q.wf.render(q.w, q.r, http.StatusOK, "search", searchPage{
		pageHead: pageHead{Title: title, URL: q.redacted()},
		Action:   q.self(), Field: field,
	})
}

type searchPage struct {
	pageHead
	Action string
	Field  string
}

// menuLine is one line of a rendered Gopher menu.
type menuLine struct {
	Type    string // the item type character
	Label   string // what kind of item, in words ("text", "menu")
	Display string
	Href    string // "" for information lines and items without a URL
	Info    bool   // an "i" line: text, not a link
	Error   bool   // a "3" line
	Plus    string // "/" + the item's Gopher+ attributes page, or ""
	Ask     bool   // the item has a Gopher+ ASK form
}

type menuPage struct {
	pageHead
	Lines []menuLine
	Err   string
}

// menu renders a Gopher menu. A menu is read whole (the Transport
// bounds its size) so that a malformed line shows as the page's error
// with the items before it.
func (q *query) menu(r io.Reader) {
	p := menuPage{pageHead: pageHead{Title: "Gopher menu", URL: q.redacted()}}
	m := gopher.NewMenuReader(r, 0)
	last := gopher.ItemType('1')
	for m.Next() {
		it := m.Item()
		if it.Type == '+' {
			// A redundant server of the item before (RFC 1436 3.8): the
			// same kind of item on another host.
			it.Type = last
			l := menuItem(it)
			l.Type, l.Label = "+", typeLabel('+')
			p.Lines = append(p.Lines, l)
			continue
		}
		last = it.Type
		p.Lines = append(p.Lines, menuItem(it))
	}
	if err := m.Err(); err != nil {
		p.Err = safetext.Visible(err.Error())
	}
	q.wf.render(q.w, q.r, http.StatusOK, "menu", p)
}

// menuItem is the line of a menu item: its link through the gateway and
// what it is. A link goes only where gatewayHref allows, so an item's
// host, selector or "URL:" target cannot leave the gateway or run a
// script.
func menuItem(it gopher.Item) menuLine {
	l := menuLine{Type: string(rune(it.Type)), Label: typeLabel(it.Type), Display: it.Display}
	switch it.Type {
	case gopher.TypeInfo:
		l.Info = true
		return l
	case gopher.TypeError:
		l.Error = true
		return l
	}
	l.Href = gatewayHref(itemURL(it))
	if it.IsPlus() && it.Type != gopher.TypeHTML {
		v := itemView(it)
		if it.Plus[0] == '?' {
			l.Ask = true
			v.Search, v.HasSearch, v.Plus, v.HasPlus = "", true, "?", true
		} else {
			v.Search, v.HasSearch, v.Plus, v.HasPlus = "", true, "!", true
		}
		l.Plus = gatewayHref(v.URL().String())
		if l.Ask {
			l.Href = l.Plus
		}
	}
	return l
}

// itemView is the gopher URL's view of a menu item.
func itemView(it gopher.Item) scheme.Gopher {
	host := it.Host
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	v := scheme.Gopher{Host: host, Type: byte(it.Type), Selector: it.Selector}
	if it.Port != "70" {
		v.Port = it.Port
	}
	return v
}

// itemURL is the URL a menu item leads to (RFC 1738 3.4): the gopher
// URL, the target of an "h" item's "URL:" selector, a telnet or tn3270
// URL for types 8 and T.
func itemURL(it gopher.Item) string {
	switch it.Type {
	case gopher.TypeHTML:
		if u, ok := strings.CutPrefix(it.Selector, "URL:"); ok {
			return u
		}
	case gopher.TypeTelnet, gopher.TypeTN3270:
		v := itemView(it)
		t := &scheme.Telnet{Session: "telnet", Host: v.Host}
		if it.Type == gopher.TypeTN3270 {
			t.Session = "tn3270"
		}
		if it.Port != "23" && it.Port != "0" {
			t.Port = it.Port
		}
		if it.Selector != "" {
			t.User, t.HasUser = it.Selector, true
		}
		return t.URL().String()
	}
	v := itemView(it)
	return v.URL().String()
}

// typeLabel names an item type for people (RFC 1436 3.8 and the common
// extensions).
func typeLabel(t gopher.ItemType) string {
	switch t {
	case '0':
		return "text"
	case '1':
		return "menu"
	case '2':
		return "CSO"
	case '3':
		return "error"
	case '4':
		return "binhex"
	case '5':
		return "DOS binary"
	case '6':
		return "uuencoded"
	case '7':
		return "search"
	case '8':
		return "telnet"
	case '9':
		return "binary"
	case '+':
		return "mirror"
	case 'T':
		return "tn3270"
	case 'g':
		return "GIF"
	case 'I':
		return "image"
	case 'h':
		return "HTML"
	case 'i':
		return ""
	case 's':
		return "sound"
	case ';':
		return "video"
	case 'd':
		return "document"
	case 'p':
		return "PNG"
	}
	return "type " + string(rune(t))
}

// attrPage shows a Gopher+ item's attributes: +INFO, +ABSTRACT and the
// rest as text, +VIEWS as links to each view, +ASK as a form.
type attrPage struct {
	pageHead
	Item   *menuLine
	Views  []viewLink
	Blocks []attrBlock
	Ask    *askForm
	Err    string
}

type viewLink struct {
	Name, Size, Href string
}

type attrBlock struct {
	Name, Value string
	Lines       []string
}

// attributes renders the answer to a Gopher+ "!" request.
func (q *query) attributes(r io.Reader) {
	v, _ := q.view.(*scheme.Gopher)
	p := attrPage{pageHead: pageHead{Title: "Gopher+ attributes", URL: q.redacted()}}
	blocks, err := gopher.ParseAttributes(r)
	if err != nil {
		p.Err = safetext.Visible(err.Error())
	}
	for _, b := range blocks {
		switch b.Name {
		case "INFO":
			if it, err := b.Item(); err == nil {
				l := menuItem(it)
				p.Item = &l
			}
			continue
		case "VIEWS":
			if v != nil {
				p.Views = viewLinks(v, b.Lines)
			}
			continue
		case "ASK":
			if v != nil {
				p.Ask = askOf(v, b)
			}
			continue
		}
		p.Blocks = append(p.Blocks, attrBlock{Name: b.Name, Value: b.Value, Lines: b.Lines})
	}
	q.wf.render(q.w, q.r, http.StatusOK, "attributes", p)
}

// viewLinks reads +VIEWS lines ("text/plain En_US: <2k>") as links to
// the item's views (the Gopher+ string "+VIEW LANGUAGE").
func viewLinks(v *scheme.Gopher, lines []string) []viewLink {
	var out []viewLink
	for _, l := range lines {
		name, size, _ := strings.Cut(l, ":")
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		w := *v
		w.Search, w.HasSearch, w.Plus, w.HasPlus = "", true, "+"+name, true
		out = append(out, viewLink{Name: name, Size: strings.TrimSpace(size), Href: gatewayHref(w.URL().String())})
	}
	return out
}

// askForm is a Gopher+ ASK block as an HTML form, posted back to the
// item's "?" URL.
type askForm struct {
	Action    string
	Questions []askQuestion
}

type askQuestion struct {
	Kind, Prompt string
	Name         string // the form field
	Default      string
	Choices      []string
	Password     bool
	Long         bool
	Note         bool // a "Note:" line: text, no field
}

// askOf builds the form of an ASK block; it posts to the item's "?" URL.
func askOf(v *scheme.Gopher, b gopher.Block) *askForm {
	w := *v
	w.Search, w.HasSearch, w.Plus, w.HasPlus = "", true, "?", true
	f := &askForm{Action: gatewayHref(w.URL().String())}
	for i, qu := range b.Questions() {
		a := askQuestion{Kind: qu.Kind, Prompt: qu.Prompt, Name: "a" + strconv.Itoa(i)}
		switch qu.Kind {
		case "Note":
			a.Note = true
		case "Choose", "Select", "ChooseF":
			a.Choices = qu.Defaults
		case "AskP":
			a.Password = true
		case "AskL":
			a.Long = true
		}
		if len(qu.Defaults) > 0 && a.Choices == nil {
			a.Default = qu.Defaults[0]
		}
		f.Questions = append(f.Questions, a)
	}
	return f
}

// askForm serves a Gopher+ item with an ASK form: GET shows the form
// (from the item's attributes), POST sends the answers (the Gopher+
// string "+" TAB "1" and a data block of one value per line, RFC 1738
// 3.4) and renders what the server answers.
func (q *query) askForm(v *scheme.Gopher) {
	if q.r.Method == http.MethodPost {
		if err := q.r.ParseForm(); err != nil {
			q.fail(http.StatusBadRequest, "the form does not read: "+err.Error())
			return
		}
		var vals []string
		for i := 0; ; i++ {
			name := "a" + strconv.Itoa(i)
			if _, ok := q.r.PostForm[name]; !ok {
				break
			}
			a := q.r.PostForm.Get(name)
			// One line each: a line break would end the value (and "."
			// the block).
			a = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(a)
			if a == "." {
				a = ". "
			}
			vals = append(vals, a)
		}
		w := *v
		w.Plus = "+\t1\r\n+-1\r\n"
		for _, a := range vals {
			w.Plus += a + "\r\n"
		}
		w.Plus += ".\r\n"
		// The answers go in the request's URL, not in a link: the page of
		// the result is not one to keep (a password may be among them).
		resp, ok := q.fetch(w.URL().String(), false)
		if !ok {
			return
		}
		defer resp.Body.Close()
		q.object(resp)
		return
	}
	w := *v
	w.Plus = "!"
	resp, ok := q.fetch(w.URL().String(), false)
	if !ok {
		return
	}
	defer resp.Body.Close()
	q.attributes(resp.Body)
}
