package gateway

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// maxEntries bounds the entries of a listing that is not paged (a
// directory, WAIS hits) shown on one page.
const maxEntries = 10000

// entry is one JSON line of a structured listing, in any of the forms
// urlkit writes (get --list --json): FTP and file (name, type, size,
// time), news groups (group, high, low, status), a group's articles
// (number, date, from, subject, message_id), WAIS hits (headline,
// score, lines, length, types, url), Prospero links (name, target, host,
// hsoname, size, modified, url).
type entry struct {
	Name      string          `json:"name"`
	Type      string          `json:"type"`
	Size      json.RawMessage `json:"size"`
	Time      string          `json:"time"`
	URL       string          `json:"url"`
	Group     string          `json:"group"`
	High      int64           `json:"high"`
	Low       int64           `json:"low"`
	Status    string          `json:"status"`
	Number    int64           `json:"number"`
	Date      string          `json:"date"`
	From      string          `json:"from"`
	Subject   string          `json:"subject"`
	MessageID string          `json:"message_id"`
	Headline  string          `json:"headline"`
	Score     int64           `json:"score"`
	Lines     int64           `json:"lines"`
	Length    *int64          `json:"length"`
	Types     []string        `json:"types"`
	Target    string          `json:"target"`
	Host      string          `json:"host"`
	HSOName   string          `json:"hsoname"`
	Modified  string          `json:"modified"`
}

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

// listing renders a structured listing, its form told by its fields.
// It keeps only what the page shows, so a news server's thousands of
// groups or a group's thousands of articles cost no more than a page:
// a group list (paged from its start) is read up to the asked page and
// one entry more; a group's articles (newest first: paged from its end)
// are read to the end keeping the newest page*size of them; other
// listings up to maxEntries.
func (q *query) listing(r io.Reader) {
	var es []entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	p := tablePage{pageHead: pageHead{URL: q.redacted()}}
	no, _ := strconv.Atoi(q.params.Get("page"))
	keep := max(no, 1) * q.wf.cfg.PageSize
	total, ring := 0, 0 // articles: how many, where the oldest kept one is
	for sc.Scan() {
		e, err := readEntry(sc.Bytes())
		if err != nil {
			p.Err = safetext.Visible("a listing line does not read: " + err.Error())
			break
		}
		if e == nil {
			continue
		}
		total++
		switch {
		case e.MessageID != "" && len(es) == keep:
			es[ring], ring = *e, (ring+1)%keep
			continue
		case e.Group != "" && len(es) == keep+1, len(es) == maxEntries:
			total = -1 // more than shown
		default:
			es = append(es, *e)
			continue
		}
		break
	}
	if err := sc.Err(); err != nil && p.Err == "" {
		p.Err = safetext.Visible("the listing ends early: " + err.Error())
	}
	if total < 0 && (len(es) == 0 || es[0].Group == "") {
		p.Err = "only the first " + strconv.Itoa(len(es)) + " entries are shown"
	}
	switch {
	case len(es) > 0 && es[0].Group != "":
		q.groups(&p, es)
	case len(es) > 0 && es[0].MessageID != "":
		es = append(es[ring:], es[:ring]...) // oldest first
		q.articles(&p, es, max(total, len(es)))
	case len(es) > 0 && es[0].Headline != "":
		q.waisHits(&p, es)
	case len(es) > 0 && es[0].HSOName != "":
		q.prosperoLinks(&p, es)
	default:
		q.directory(&p, es)
	}
	q.wf.render(q.w, q.r, http.StatusOK, "table", p)
}

// readEntry reads a line of a listing: a JSON object, or a name (a
// file: directory, as fetch lists it, a directory's with a "/"); nil
// for an empty line.
func readEntry(line []byte) (*entry, error) {
	s := strings.TrimRight(string(line), "\r")
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	e := &entry{}
	if s[0] != '{' {
		e.Name, e.Type = strings.TrimSuffix(s, "/"), "file"
		if strings.HasSuffix(s, "/") {
			e.Type = "dir"
		}
		return e, nil
	}
	return e, json.Unmarshal(line, e)
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
func (q *query) directory(p *tablePage, es []entry) {
	p.Title = "Directory"
	p.Cols = []string{"Name", "Type", "Size", "Modified"}
	p.Empty = "The directory is empty."
	child, parent := q.dirLinks()
	p.Parent = parent
	for _, e := range es {
		size := ""
		if n, err := strconv.ParseInt(string(e.Size), 10, 64); err == nil {
			size = sizeText(n)
		}
		href := ""
		if e.URL != "" {
			href = gatewayHref(e.URL)
		} else if child != nil && e.Name != "" && e.Name != "." && e.Name != ".." {
			href = child(e.Name, e.Type == "dir")
		}
		p.Rows = append(p.Rows, []cell{{Text: e.Name, Href: href}, {Text: e.Type}, {Text: size}, {Text: e.Time}})
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
func (q *query) groups(p *tablePage, es []entry) {
	p.Title = "News groups"
	p.Cols = []string{"Group", "Articles", "Posting"}
	from, to := q.page(p, len(es))
	for _, e := range es[from:to] {
		href := ""
		switch v := q.view.(type) {
		case *scheme.NNTP:
			g := scheme.NNTP{Host: v.Host, Port: v.Port, Group: e.Group}
			href = gatewayHref(g.URL().String())
		default:
			g := scheme.News{Group: e.Group}
			href = gatewayHref(g.URL().String())
		}
		count := ""
		if e.High >= e.Low && e.High > 0 {
			count = strconv.FormatInt(e.High-e.Low+1, 10)
		}
		p.Rows = append(p.Rows, []cell{{Text: e.Group, Href: href}, {Text: count}, {Text: postingStatus(e.Status)}})
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
func (q *query) articles(p *tablePage, es []entry, total int) {
	p.Title = "News group"
	p.Cols = []string{"Subject", "From", "Date", "No."}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	// es holds the newest articles, newest first: the asked page's
	// among them.
	from, to := q.page(p, total)
	for _, e := range es[from:min(to, len(es))] {
		href := ""
		if v, ok := q.view.(*scheme.NNTP); ok {
			a := scheme.NNTP{Host: v.Host, Port: v.Port, Group: v.Group, Article: strconv.FormatInt(e.Number, 10)}
			href = gatewayHref(a.URL().String())
		} else if id := strings.TrimSuffix(strings.TrimPrefix(e.MessageID, "<"), ">"); id != "" {
			href = newsHref(id)
		}
		subject := e.Subject
		if subject == "" {
			subject = "(no subject)"
		}
		p.Rows = append(p.Rows, []cell{{Text: subject, Href: href}, {Text: e.From}, {Text: e.Date}, {Text: strconv.FormatInt(e.Number, 10)}})
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
// each linked to its document.
func (q *query) waisHits(p *tablePage, es []entry) {
	p.Title = "WAIS search results"
	p.Cols = []string{"Headline", "Score", "Size", "Type"}
	p.Search = q.waisSearch()
	for _, e := range es {
		size := ""
		if e.Length != nil {
			size = sizeText(*e.Length)
		}
		p.Rows = append(p.Rows, []cell{{Text: e.Headline, Href: gatewayHref(e.URL)}, {Text: strconv.FormatInt(e.Score, 10)}, {Text: size}, {Text: strings.Join(e.Types, " ")}})
	}
	p.Empty = "Nothing found."
}

// prosperoLinks is a Prospero directory: each link's target through the
// gateway (an external link by its own URL).
func (q *query) prosperoLinks(p *tablePage, es []entry) {
	p.Title = "Prospero directory"
	p.Cols = []string{"Name", "Target", "Size", "Modified", "Host"}
	for _, e := range es {
		p.Rows = append(p.Rows, []cell{{Text: e.Name, Href: gatewayHref(e.URL)}, {Text: e.Target}, {Text: unquote(e.Size)}, {Text: e.Modified}, {Text: e.Host}})
	}
}

// unquote is a JSON string's text, or the raw JSON of another value.
func unquote(b json.RawMessage) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(b)
}
