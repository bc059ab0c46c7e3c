package gateway

import (
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/listing"
	"github.com/urlkit/urlkit/scheme"
)

// maxEntries bounds the entries of a listing that is not paged (a
// directory, WAIS hits) shown on one page.
const maxEntries = 10000

// cell is one cell of a listing's table: text, and a link when Href is
// set (always from gatewayHref).
type cell struct {
	Text, Href string
}

// tablePage is every listing's page: FTP and file directories, news
// groups and articles, WAIS hits, Prospero directories.
type tablePage struct {
	pageHead
	Parent     string // href of the directory above, or ""
	Search     *searchPage
	Cols       []string
	Rows       [][]cell
	Prev, Next string // hrefs of the pages around this one
	PageNo     int
	Post       *postForm
	Err        string
	Empty      string
}

// listing renders a structured listing, the entries of the body of
// the Transport's JSON listing (fetch.Transport: Entries), or, when the
// body has none (a Transport of another kind), the body as text. It
// keeps only what the page shows, so a news server's thousands of
// groups or a group's thousands of articles cost no more than a page:
// a group list (paged from its start) is read up to the asked page and
// one entry more; a group's articles (newest first: paged from its end)
// are read to the end keeping the newest page*size of them; other
// listings up to maxEntries.
func (q *query) listing(resp *http.Response) {
	l := entriesOf(resp.Body)
	if l == nil {
		q.textPage(resp.Body, resp.Header.Get("Content-Type"))
		return
	}
	var es []listing.Entry
	p := tablePage{pageHead: pageHead{URL: q.redacted()}}
	no, _ := strconv.Atoi(q.params.Get("page"))
	keep := max(no, 1) * q.wf.cfg.PageSize
	f := l.Header.Format
	total, ring := 0, 0 // articles: how many, where the oldest kept one is
	for l.Next() {
		total++
		switch {
		case f == listing.Articles && len(es) == keep:
			es[ring], ring = *l.Entry(), (ring+1)%keep
			continue
		case f == listing.Groups && len(es) == keep+1, len(es) == maxEntries:
			total = -1 // more than shown
		default:
			es = append(es, *l.Entry())
			continue
		}
		break
	}
	if err := l.Err(); err != nil {
		p.Err = safetext.Visible("the listing ends early: " + err.Error())
	}
	if total < 0 && f != listing.Groups {
		p.Err = "only the first " + strconv.Itoa(len(es)) + " entries are shown"
	}
	switch f {
	case listing.Groups:
		q.groups(&p, es)
	case listing.Articles:
		es = append(es[ring:], es[:ring]...) // oldest first
		q.articles(&p, es, max(total, len(es)))
	case listing.WAIS:
		q.waisHits(&p, es)
	case listing.Prospero:
		q.prosperoLinks(&p, es)
	default:
		q.directory(&p, es)
	}
	q.wf.render(q.w, q.r, http.StatusOK, "table", p)
}

// entriesOf returns the entries of a listing's body, as the Transport
// gives them with its JSON lines, or nil.
func entriesOf(body io.Reader) *listing.List {
	if b, ok := body.(*releasingBody); ok {
		body = b.ReadCloser
	}
	if b, ok := body.(interface{ Entries() *listing.List }); ok {
		return b.Entries()
	}
	return nil
}

// page cuts the page the request asks for (?page=N, from 1) out of n
// rows, and sets the links to the pages around it.
func (q *query) page(p *tablePage, n int) (from, to int) {
	size := q.wf.cfg.PageSize
	no, _ := strconv.Atoi(q.params.Get("page"))
	pages := (n + size - 1) / size
	if no < 1 {
		no = 1
	}
	if no > pages && pages > 0 {
		no = pages
	}
	p.PageNo = no
	if no > 1 {
		p.Prev = q.self() + "?page=" + strconv.Itoa(no-1)
	}
	if no < pages {
		p.Next = q.self() + "?page=" + strconv.Itoa(no+1)
	}
	from = (no - 1) * size
	return from, min(from+size, n)
}

// directory is an FTP or file: directory: name, type, size and time, a
// link to each entry and to the parent.
func (q *query) directory(p *tablePage, es []listing.Entry) {
	p.Title = "Directory"
	p.Cols = []string{"Name", "Type", "Size", "Modified"}
	p.Empty = "The directory is empty."
	child, parent := q.dirLinks()
	p.Parent = parent
	for _, e := range es {
		href := ""
		if child != nil && e.Name != "" && e.Name != "." && e.Name != ".." {
			href = child(e.Name, e.Kind == "dir")
		}
		t := ""
		if !e.Time.IsZero() {
			t = e.Modified()
		}
		p.Rows = append(p.Rows, []cell{{Text: e.Name, Href: href}, {Text: e.Kind}, {Text: sizeText(e.Size)}, {Text: t}})
	}
}

// dirLinks returns how to link an entry of the directory the URL names,
// and the link to its parent ("" at the top).
func (q *query) dirLinks() (child func(name string, dir bool) string, parent string) {
	switch v := q.view.(type) {
	case *scheme.FTP:
		base := *v
		// A password never goes into a link: the browser's login
		// answers each request.
		base.Password, base.HasPassword = "", false
		base.Type, base.NoPath = "", false
		cwd := append([]string(nil), v.CWD...)
		if v.Name != "" {
			cwd = append(cwd, v.Name)
		}
		child = func(name string, dir bool) string {
			c := base
			c.CWD = append(append([]string(nil), cwd...), name)
			c.Name = ""
			if !dir {
				c.CWD, c.Name = c.CWD[:len(c.CWD)-1], name
			}
			return gatewayHref(c.URL().String())
		}
		if len(cwd) > 0 {
			c := base
			c.CWD, c.Name = cwd[:len(cwd)-1], ""
			if len(c.CWD) == 0 {
				c.CWD = nil
			}
			parent = gatewayHref(c.URL().String())
		}
	case *scheme.File:
		dir := strings.TrimSuffix(v.Path, "/")
		child = func(name string, isDir bool) string {
			c := scheme.File{Host: v.Host, Path: dir + "/" + name}
			if isDir {
				c.Path += "/"
			}
			return gatewayHref(c.URL().String())
		}
		if up := path.Dir(dir); dir != "" && underDir(q.wf.cfg.AllowFile, up) {
			c := scheme.File{Host: v.Host, Path: strings.TrimSuffix(up, "/") + "/"}
			parent = gatewayHref(c.URL().String())
		}
	}
	return child, parent
}

// groups is a news server's group list, paged, each group linked.
func (q *query) groups(p *tablePage, es []listing.Entry) {
	p.Title = "News groups"
	p.Cols = []string{"Group", "Articles", "Posting"}
	from, to := q.page(p, len(es))
	for _, e := range es[from:to] {
		href := ""
		switch v := q.view.(type) {
		case *scheme.NNTP:
			g := scheme.NNTP{Host: v.Host, Port: v.Port, Group: e.Name}
			href = gatewayHref(g.URL().String())
		default:
			g := scheme.News{Group: e.Name}
			href = gatewayHref(g.URL().String())
		}
		count := ""
		if g := e.Group; g.High >= g.Low && g.High > 0 {
			count = strconv.FormatInt(g.High-g.Low+1, 10)
		}
		p.Rows = append(p.Rows, []cell{{Text: e.Name, Href: href}, {Text: count}, {Text: postingStatus(e.Group.Status)}})
	}
}

func postingStatus(s string) string {
	switch s {
	case "y":
		return "yes"
	case "n":
		return "no"
	case "m":
		return "moderated"
	}
	return s
}

// articles is a news group's overview, newest first, paged, each
// article linked (news:<message-id>, or nntp://host/group/number for
// an nntp URL); with --allow-post the page has the posting form.
func (q *query) articles(p *tablePage, es []listing.Entry, total int) {
	p.Title = "News group"
	p.Cols = []string{"Subject", "From", "Date", "No."}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	// es holds the newest articles, newest first: the asked page's
	// among them.
	from, to := q.page(p, total)
	for _, e := range es[from:min(to, len(es))] {
		a := &e.Article
		href := ""
		if v, ok := q.view.(*scheme.NNTP); ok {
			u := scheme.NNTP{Host: v.Host, Port: v.Port, Group: v.Group, Article: strconv.FormatInt(a.Number, 10)}
			href = gatewayHref(u.URL().String())
		} else if id := strings.TrimSuffix(strings.TrimPrefix(a.MessageID, "<"), ">"); id != "" {
			href = newsHref(id)
		}
		subject := e.Name
		if subject == "" {
			subject = "(no subject)"
		}
		p.Rows = append(p.Rows, []cell{{Text: subject, Href: href}, {Text: a.From}, {Text: a.Date}, {Text: strconv.FormatInt(a.Number, 10)}})
	}
	if v, ok := q.view.(*scheme.News); ok && v.Group != "" {
		p.Title = v.Group
		p.Post = q.postForm(v.Group)
	}
}

// newsHref is the link to the article with the message-id id (without
// "<" ">").
func newsHref(id string) string {
	n := scheme.News{MessageID: id}
	return gatewayHref(n.URL().String())
}

// waisHits is a WAIS search's results: headline, score, size and type,
// each linked to its document. The server's fields are shown as the
// listing's text and JSON forms show them (safetext.Visible).
func (q *query) waisHits(p *tablePage, es []listing.Entry) {
	p.Title = "WAIS search results"
	p.Cols = []string{"Headline", "Score", "Size", "Type"}
	p.Search = q.waisSearch()
	v := safetext.Visible
	for _, e := range es {
		types := make([]string, len(e.WAIS.Types))
		for i, t := range e.WAIS.Types {
			types[i] = v(t)
		}
		p.Rows = append(p.Rows, []cell{{Text: v(e.Name), Href: gatewayHref(e.URL)}, {Text: strconv.FormatInt(e.WAIS.Score, 10)}, {Text: sizeText(e.Size)}, {Text: strings.Join(types, " ")}})
	}
	p.Empty = "Nothing found."
}

// prosperoLinks is a Prospero directory: each link's target through the
// gateway (an external link by its own URL). The server's fields are
// shown as the listing's text and JSON forms show them
// (safetext.Visible).
func (q *query) prosperoLinks(p *tablePage, es []listing.Entry) {
	p.Title = "Prospero directory"
	p.Cols = []string{"Name", "Target", "Size", "Modified", "Host"}
	v := safetext.Visible
	for _, e := range es {
		l := &e.Prospero
		p.Rows = append(p.Rows, []cell{{Text: v(e.Name), Href: gatewayHref(e.URL)}, {Text: v(l.Target)}, {Text: v(l.Size)}, {Text: v(e.Modified())}, {Text: v(l.Host)}})
	}
}
