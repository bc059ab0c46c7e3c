package gateway

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/httpstatus"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// webConfig is what the web form needs from the gateway's configuration.
type webConfig struct {
	// Transport fetches every object (fetch.Transport, with the
	// gateway's destination policy and limits).
	Transport http.RoundTripper
	// AllowPost enables the news posting form, AllowSend the mailto
	// form's sending (with SMTP set).
	AllowPost, AllowSend bool
	// NNTP is the news server of news: URLs (HOST[:PORT]), SMTP the mail
	// server of mailto: URLs; shown on pages, the Transport uses them.
	NNTP, SMTP string
	// Send posts a news article or submits a mail message
	// (fetch.Fetcher.Send): the Transport serves GET and HEAD only. Nil
	// turns the forms that send off, whatever AllowPost and AllowSend say.
	Send func(ctx context.Context, u *urlkit.URL, msg io.Reader) (*fetch.Sent, error)
	// AllowFile is the directory under which file: URLs are served; ""
	// refuses them all.
	AllowFile string
	// PageSize is the number of groups or articles on a page; 0 means 50.
	PageSize int
}

// webForm is the gateway for people: a home page with a URL field, and
// every URL rendered as a page whose links lead back through it
// ("/gopher://host/1/docs"). Pages come from one embedded template set;
// every string a server sent goes through html/template's contextual
// escaping, and every href is "/" followed by a URL that urlkit parses
// (gatewayHref), so no page can carry a script or a javascript: link.
type webForm struct {
	cfg   webConfig
	pages *template.Template
	// post guards the forms that act (news posting, mail sending)
	// against cross-site requests.
	post *http.CrossOriginProtection
}

//go:embed templates/*.html
var templateFS embed.FS

// pageTemplates is parsed once: a template error is a bug of the build,
// caught by every test.
var pageTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"size": sizeText,
}).ParseFS(templateFS, "templates/*.html"))

// newWebForm returns the web form of a gateway configured by cfg.
func newWebForm(cfg webConfig) *webForm {
	if cfg.PageSize <= 0 {
		cfg.PageSize = 50
	}
	return &webForm{cfg: cfg, pages: pageTemplates, post: http.NewCrossOriginProtection()}
}

// gatewayParams are the query keys the web form reads itself; a query
// made of these alone ("key=value" each) is the gateway's, any other
// query belongs to the target URL (an http query, a WAIS search).
var gatewayParams = map[string]bool{"charset": true, "page": true, "search": true}

// ServeHTTP serves the home page ("/"), the redirect of the home page's
// form ("/?url=U" to "/U"), and the page of a URL ("/U").
func (wf *webForm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		if err := wf.post.Check(r); err != nil {
			wf.fail(w, r, "", http.StatusForbidden, "a form may only be sent from the gateway's own pages")
			return
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		wf.fail(w, r, "", http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	target, params := splitTarget(r.RequestURI)
	if target == "" {
		if u := strings.TrimSpace(params.Get("url")); u != "" {
			wf.redirect(w, r, u)
			return
		}
		wf.render(w, r, http.StatusOK, "home", homePage{pageHead: pageHead{Title: "urlkit gateway"},
			NNTP: wf.cfg.NNTP, AllowFile: wf.cfg.AllowFile != ""})
		return
	}
	u, err := fetch.ParseURL(target, urlkit.RFC1738)
	if err != nil || u.Scheme == "" {
		msg := "not a URL: a URL with a scheme follows the gateway's \"/\""
		if err != nil {
			msg = err.Error()
		}
		wf.fail(w, r, target, http.StatusBadRequest, msg)
		return
	}
	v, err := scheme.Parse(&u, urlkit.RFC1738)
	if err != nil {
		if v, err = scheme.Parse(&u, urlkit.RFC3986); err != nil {
			wf.fail(w, r, target, http.StatusBadRequest, err.Error())
			return
		}
	}
	q := &query{wf: wf, w: w, r: r, u: &u, text: u.String(), view: v, params: params}
	q.serve()
}

// splitTarget cuts the request's URI into the target URL (after the
// first "/") and the gateway's parameters (a query of gatewayParams
// alone; see ServeHTTP). The home page's form sends "url".
func splitTarget(requestURI string) (string, url.Values) {
	s := strings.TrimPrefix(requestURI, "/")
	target, raw, ok := strings.Cut(s, "?")
	if !ok {
		return s, url.Values{}
	}
	params, err := url.ParseQuery(raw)
	if err != nil {
		return s, url.Values{}
	}
	for _, kv := range strings.Split(raw, "&") {
		k, _, hasValue := strings.Cut(kv, "=")
		if !hasValue || !(gatewayParams[k] || target == "" && k == "url") {
			return s, url.Values{}
		}
	}
	return target, params
}

// redirect answers the home page's form: 303 to the page of the URL, or
// the error page when it does not parse (a Location built from text that
// is not a URL could leave the gateway: "//host").
func (wf *webForm) redirect(w http.ResponseWriter, r *http.Request, raw string) {
	href := gatewayHref(raw)
	if href == "" {
		wf.fail(w, r, raw, http.StatusBadRequest, parseMessage(raw))
		return
	}
	seeOther(w, href)
}

// seeOther answers 303 with the gateway link href. (http.Redirect would
// clean the path, making "/gopher://h/" "/gopher:/h/".)
func seeOther(w http.ResponseWriter, href string) {
	w.Header().Set("Location", href)
	w.WriteHeader(http.StatusSeeOther)
}

// parseMessage says why raw is not a URL the gateway can follow.
func parseMessage(raw string) string {
	if _, err := fetch.ParseURL(raw, urlkit.RFC1738); err != nil {
		return err.Error()
	}
	return "not a URL: a URL with a scheme is needed"
}

// gatewayHref returns the web form's link to the URL s ("/" + s), or ""
// when s does not parse as a URL with a scheme. It is the only way a
// page gets an href: a parsed URL starts with its scheme, so the link
// cannot be "//host" (another site) or carry a javascript: scheme of its
// own; html/template escapes what is left for the attribute.
func gatewayHref(s string) string {
	u, err := fetch.ParseURL(s, urlkit.RFC1738)
	if err != nil || !isScheme(u.Scheme) || !strings.HasPrefix(s, u.Scheme+":") || strings.ContainsAny(s, " \t\r\n\"<>\\") {
		return ""
	}
	return "/" + s
}

// isScheme reports a scheme name as RFC 3986 3.1 writes it: a letter,
// then letters, digits, "+", "-" and ".".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// query is one request for the page of a URL.
type query struct {
	wf     *webForm
	w      http.ResponseWriter
	r      *http.Request
	u      *urlkit.URL
	text   string // the URL as written
	view   scheme.View
	params url.Values
}

func (q *query) serve() {
	switch v := q.view.(type) {
	case *scheme.Telnet:
		q.session(v)
		return
	case *scheme.Mailto:
		q.mailto(v)
		return
	case *scheme.File:
		if q.wf.cfg.AllowFile == "" {
			q.fail(http.StatusForbidden, "file: URLs are not served (the gateway runs without --allow-file)")
			return
		}
		if !underDir(q.wf.cfg.AllowFile, v.Path) {
			q.fail(http.StatusForbidden, "file: URLs are served only under the --allow-file directory")
			return
		}
	case *scheme.Gopher:
		if q.gopher(v) {
			return
		}
	case *scheme.WAIS:
		if q.waisForm(v) {
			return
		}
	case *scheme.News:
		if q.r.Method == http.MethodPost {
			q.newsPost(v)
			return
		}
	}
	if q.r.Method == http.MethodPost {
		q.fail(http.StatusMethodNotAllowed, "this URL takes no form")
		return
	}
	// Listings come as JSON lines; a Gopher menu is read as the server
	// sent it (client/gopher's MenuReader).
	resp, ok := q.fetch(q.text, !strings.EqualFold(q.u.Scheme, "gopher"))
	if !ok {
		return
	}
	defer resp.Body.Close()
	q.object(resp)
}

// object renders a fetched object by its media type.
func (q *query) object(resp *http.Response) {
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "application/gopher-menu":
		q.menu(resp.Body)
	case mt == "application/gopher+-attributes" || mt == "application/x-gopher-plus-attributes":
		q.attributes(resp.Body)
	case mt == "application/x-ndjson" || mt == "application/json" && isListingScheme(q.u.Scheme):
		q.listing(resp)
	case mt == "message/rfc822" || mt == "message/news":
		q.article(resp.Body)
	case mt == "text/html" || mt == "application/xhtml+xml":
		q.sandboxed(resp)
	case strings.HasPrefix(mt, "text/") || mt == "" && isTextByName(q.u):
		q.textPage(resp.Body, ct)
	default:
		q.download(resp)
	}
}

// isListingScheme reports the schemes whose JSON answers are listings.
func isListingScheme(s string) bool {
	switch strings.ToLower(s) {
	case "ftp", "file", "news", "nntp", "wais", "prospero", "gopher":
		return true
	}
	return false
}

// isTextByName guesses text for an object the protocol gave no type.
func isTextByName(u *urlkit.URL) bool {
	switch path.Ext(u.Path) {
	case ".txt", ".text", "", ".md", ".asc":
		return true
	}
	return false
}

// fetch asks the Transport for rawURL; on failure it writes the error
// page and returns false. listing asks for structured listings.
func (q *query) fetch(rawURL string, listing bool) (*http.Response, bool) {
	req, err := http.NewRequestWithContext(q.r.Context(), http.MethodGet, rawURL, nil)
	if err != nil {
		q.fail(http.StatusBadRequest, "the URL cannot be fetched: "+err.Error())
		return nil, false
	}
	if listing {
		req.Header.Set("Accept", "application/x-ndjson, */*;q=0.5")
	}
	// A password for this request only: the browser's Basic answer to
	// our 401 goes to the Transport, never into a link or a page.
	if a := q.r.Header.Get("Authorization"); a != "" {
		req.Header.Set("Authorization", a)
	}
	resp, err := q.wf.cfg.Transport.RoundTrip(req)
	if err != nil {
		q.fetchFailed(err)
		return nil, false
	}
	if resp.StatusCode >= 400 {
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			q.challenge()
			return nil, false
		}
		// The server's words are shown, escaped and cut short.
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		msg := strings.TrimSpace(string(b))
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		q.fail(resp.StatusCode, msg)
		return nil, false
	}
	return resp, true
}

// fetchFailed writes the page of a failed fetch: its status from the
// kind of the *fetch.Error, and urlkit's message (the URL redacted).
func (q *query) fetchFailed(err error) {
	status := statusOf(err)
	if status == http.StatusUnauthorized {
		q.challenge()
		return
	}
	var fe *fetch.Error
	msg := err.Error()
	if errors.As(err, &fe) {
		msg = fe.Error()
	}
	q.fail(status, msg)
}

// statusOf is the status of a fetch that failed with err, an error the
// Transport returned instead of a response: fetch.Transport's status for
// it (it answers its other failures with a response of that status,
// which fetch shows as it is), and for a context ended, 499 when the
// client went away (nobody reads it) or 504 when time ran out.
func statusOf(err error) int {
	switch {
	case errors.Is(err, context.Canceled):
		return 499
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	}
	return httpstatus.Of(err)
}

// challenge asks the browser for a login (RFC 7617); the realm names the
// URL without its password.
func (q *query) challenge() {
	realm := strings.NewReplacer(`"`, "", `\`, "").Replace(q.redacted())
	q.w.Header().Set("WWW-Authenticate", `Basic realm="`+realm+`", charset="UTF-8"`)
	q.fail(http.StatusUnauthorized, "this server needs a password: the browser asks for it, and it is used for this request only")
}

// self is the link to this page: "/" and the URL without its password
// (a password is never in a link: the browser's login answers a 401).
func (q *query) self() string {
	if !q.u.HasPassword {
		return "/" + q.text
	}
	c := *q.u
	c.Password, c.HasPassword = "", false
	return "/" + c.String()
}

// redacted is the URL with its password masked.
func (q *query) redacted() string {
	if !q.u.HasPassword {
		return q.text
	}
	c := *q.u
	c.Password = "xxxxx"
	return c.String()
}

func (q *query) fail(status int, msg string) {
	q.wf.fail(q.w, q.r, q.redacted(), status, msg)
}

// fail writes the error page: the status and urlkit's message, escaped
// like every string on a page.
func (wf *webForm) fail(w http.ResponseWriter, r *http.Request, target string, status int, msg string) {
	if status == 499 {
		return
	}
	wf.render(w, r, status, "error", errorPage{pageHead: pageHead{Title: strconv.Itoa(status) + " " + http.StatusText(status), URL: target},
		Status: status, Message: safetext.Visible(msg)})
}

// render executes a page template. Pages are small (listings are
// paged), so a template error is caught before the status is written.
func (wf *webForm) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var b strings.Builder
	if err := wf.pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "urlkit: page template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	page := cleanText(b.String())
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		io.WriteString(w, page)
	}
}

// cleanText makes a page's text safe for a text browser in a terminal:
// control bytes from a server (an ESC sequence) and bytes that are not
// UTF-8 become U+FFFD, which no terminal acts on. Markup is ASCII
// without control bytes, so only server text changes.
func cleanText(s string) string {
	clean := utf8.ValidString(s)
	for i := 0; clean && i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			clean = false
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// download sends an object that is not for a page as a file to save,
// named after the URL's last segment.
func (q *query) download(resp *http.Response) {
	h := q.w.Header()
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": fileName(q.u)}))
	if n := resp.Header.Get("Content-Length"); n != "" {
		h.Set("Content-Length", n)
	}
	if lm := resp.Header.Get("Last-Modified"); lm != "" {
		h.Set("Last-Modified", lm)
	}
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method != http.MethodHead {
		io.Copy(q.w, resp.Body)
	}
}

// sandboxed serves HTML from a server as it came, under a sandbox that
// runs no script and gives it no origin (RFC 1436 "h" items, HTML over
// ftp or file).
func (q *query) sandboxed(resp *http.Response) {
	h := q.w.Header()
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
	h.Set("Content-Type", resp.Header.Get("Content-Type"))
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method != http.MethodHead {
		io.Copy(q.w, resp.Body)
	}
}

// fileName is the name a download is saved under: the URL's last
// segment, decoded, or "download".
func fileName(u *urlkit.URL) string {
	p := u.Path
	if i := strings.IndexByte(p, ';'); i >= 0 {
		p = p[:i]
	}
	name := path.Base(p)
	if s, err := url.PathUnescape(name); err == nil {
		name = s
	}
	if u.Scheme == "gopher" && len(name) > 1 && p == "/"+name {
		name = name[1:] // the item type of a top-level selector
	}
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	if name == "" || name == "." || name == "/" {
		return "download"
	}
	return name
}

// underDir reports whether the file path p (decoded, absolute) is dir or
// under it once cleaned (".." cannot climb out).
func underDir(dir, p string) bool {
	dir = path.Clean("/" + dir)
	p = path.Clean("/" + p)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// sizeText writes a size in bytes for people ("" when unknown).
func sizeText(n int64) string {
	switch {
	case n < 0:
		return ""
	case n < 10*1024:
		return strconv.FormatInt(n, 10)
	case n < 10*1024*1024:
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d MiB", n/(1024*1024))
}

// pageHead is what every page's header shows: its title and the URL in
// the address field.
type pageHead struct {
	Title string
	URL   string
}

type homePage struct {
	pageHead
	NNTP      string
	AllowFile bool
}

type errorPage struct {
	pageHead
	Status  int
	Message string
}
