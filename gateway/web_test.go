package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/wiretest"
)

// webServer serves a web form over fetch.Transport on loopback.
func webServer(t *testing.T, cfg webConfig) *httptest.Server {
	t.Helper()
	if cfg.Transport == nil {
		f := &fetch.Fetcher{IgnoreEnvironment: true}
		f.NNTP.Server = cfg.NNTP
		f.Mail.Server = cfg.SMTP
		f.Mail.From = "gateway@example.org" // the gateway's sender: Send takes it from the Fetcher
		cfg.Transport = &fetch.Transport{Fetcher: f}
		cfg.Send = f.Send
	}
	ts := httptest.NewServer(newWebForm(cfg))
	t.Cleanup(ts.Close)
	return ts
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// get fetches the gateway path p (as sent on the request line).
func get(t *testing.T, ts *httptest.Server, p string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = p // sent as it is: "/gopher://host/1/"
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// wantPage fetches p and checks its status and that the page holds each
// of want.
func wantPage(t *testing.T, ts *httptest.Server, p string, status int, want ...string) string {
	t.Helper()
	resp, body := get(t, ts, p)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: status %d, want %d\n%s", p, resp.StatusCode, status, body)
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("GET %s: the page lacks %q\n%s", p, w, body)
		}
	}
	checkPage(t, body)
	return body
}

var hrefRE = regexp.MustCompile(`(?i)\b(href|src|action)="([^"]*)"`)

// checkPage checks the page rules on a rendered page: every link is a
// gateway link ("/" and a scheme, never "//"), no script.
func checkPage(t *testing.T, body string) {
	t.Helper()
	if strings.Contains(strings.ToLower(body), "<script") {
		t.Errorf("a page holds a script element:\n%s", body)
	}
	for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
		if !isGatewayLink(m[2]) {
			t.Errorf("%s=%q is not a gateway link", m[1], m[2])
		}
	}
}

// isGatewayLink reports a link of the forms the web form writes: "/",
// or "/" followed by a URL's scheme and ":".
func isGatewayLink(h string) bool {
	rest, ok := strings.CutPrefix(h, "/")
	name, _, colon := strings.Cut(rest, ":")
	return h == "/" || ok && colon && isScheme(name)
}

func TestWebHome(t *testing.T) {
	ts := webServer(t, webConfig{})
	wantPage(t, ts, "/", 200, `name="url"`, `action="/"`)
	resp, _ := get(t, ts, "/?url="+url.QueryEscape("gopher://gopher.example/1/docs"))
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/gopher://gopher.example/1/docs" {
		t.Errorf("?url=: %d Location %q, want 303 to the web form of the URL", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Text that is not a URL with a scheme never becomes a Location: "//"
	// would leave the gateway.
	for _, bad := range []string{"//evil.example/", "/\\evil.example", "no scheme here", "http://a b/"} {
		resp, body := get(t, ts, "/?url="+url.QueryEscape(bad))
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("?url=%q: %d Location %q, want 400 and no redirect", bad, resp.StatusCode, resp.Header.Get("Location"))
		}
		checkPage(t, body)
	}
	wantPage(t, ts, "/file:///etc/passwd", http.StatusForbidden, "--allow-file")
	wantPage(t, ts, "/telnet://guest:advice@bbs.example:2323/", 200, "bbs.example", "2323", "guest", "advice", "urlkit get", "advisory")
	wantPage(t, ts, "/rlogin://root@host.example/", 200, "rlogin -l root host.example")
	wantPage(t, ts, "/mailto:someone@example.org", 200, "someone@example.org", "--allow-send")
}

func TestSplitTarget(t *testing.T) {
	for _, tc := range []struct{ in, target, params string }{
		{"/gopher://h/1/", "gopher://h/1/", ""},
		{"/gopher://h/0/a?charset=cp437", "gopher://h/0/a", "charset=cp437"},
		{"/news:local.test?page=2", "news:local.test", "page=2"},
		{"/http://h/p?q=1", "http://h/p?q=1", ""},             // the URL's own query
		{"/wais://h/db?page", "wais://h/db?page", ""},         // a search for "page"
		{"/http://h/?page=2&x=1", "http://h/?page=2&x=1", ""}, // not the gateway's alone
		{"/?url=gopher%3A%2F%2Fh%2F", "", "url=gopher%3A%2F%2Fh%2F"},
	} {
		target, params := splitTarget(tc.in)
		if target != tc.target || params.Encode() != tc.params {
			t.Errorf("splitTarget(%q) = %q, %q; want %q, %q", tc.in, target, params.Encode(), tc.target, tc.params)
		}
	}
}

func TestWebGopher(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	ts := webServer(t, webConfig{})
	host := "127.0.0.1:" + port
	wantPage(t, ts, "/gopher://"+host+"/1/map", 200,
		`href="/gopher://`+host+`/0/hello.txt"`, `href="/gopher://`+host+`/1/docs"`,
		`href="/gopher://`+host+`/7/map/search"`, `href="/gopher://`+host+`/9/bin/data.bin"`,
		`href="/http://127.0.0.1/"`, `href="/telnet://`, "Hand-written menu for tests")
	wantPage(t, ts, "/gopher://"+host+"/0/hello.txt", 200, `<pre id="text">`)
	// A search: the form, then its words in the URL (RFC 1738 3.4: %09).
	wantPage(t, ts, "/gopher://"+host+"/7/map/search", 200, `name="search"`)
	resp, _ := get(t, ts, "/gopher://"+host+"/7/map/search?search=gophers+rule")
	if loc := resp.Header.Get("Location"); resp.StatusCode != 303 || loc != "/gopher://"+host+"/7/map/search%09gophers%20rule" {
		t.Errorf("search answer: %d %q", resp.StatusCode, loc)
	}
	// Gopher+: the abstract shown, the views as links, the ASK form.
	wantPage(t, ts, "/gopher://"+host+"/0/hello.txt%09%09!", 200, "This is the abstract of hello.txt", `href="/gopher://`+host+`/0/hello.txt%09%09&#43;text/plain"`)
	wantPage(t, ts, "/gopher://"+host+"/0/form.txt%09%09?", 200, "What is your name?", `<option>green</option>`, `method="post"`)
	// A binary item is a download with a file name.
	resp, _ = get(t, ts, "/gopher://"+host+"/9/bin/data.bin")
	if cd := resp.Header.Get("Content-Disposition"); resp.StatusCode != 200 || cd != `attachment; filename=data.bin` {
		t.Errorf("binary item: %d Content-Disposition %q", resp.StatusCode, cd)
	}
	wantPage(t, ts, "/gopher://"+host+"/0/nonexistent", http.StatusNotFound, "does not exist")
}

func TestWebFTP(t *testing.T) {
	port := wiretest.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
	ts := webServer(t, webConfig{})
	host := "127.0.0.1:" + port
	wantPage(t, ts, "/ftp://"+host+"/pub/", 200, `href="/ftp://`+host+`/pub/hello.txt"`, `href="/ftp://`+host+`/"`, "Parent directory")
	wantPage(t, ts, "/ftp://"+host+"/pub/hello.txt", 200, "Hello from anonymous FTP.")
	// A user without a password: a Basic challenge, the password asked
	// of the browser, never in a link.
	resp, body := get(t, ts, "/ftp://tester@"+host+"/home.txt")
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
		t.Errorf("a login without a password: %d %q\n%s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
	// The browser's answer: used for that request, in no page.
	user, pass := os.Getenv("FTP_USER"), os.Getenv("FTP_PASS")
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = "/ftp://" + user + "@" + host + "/"
	req.SetBasicAuth(user, pass)
	resp, err = noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "home.txt") || strings.Contains(string(b), pass) {
		t.Errorf("with the login: %d, want the home directory without the password\n%s", resp.StatusCode, b)
	}
	checkPage(t, string(b))
	// A password written in the URL is used, and shown nowhere: not in
	// the address field, not in the page's own links.
	for _, p := range []string{"/", "/home.txt"} {
		page := wantPage(t, ts, "/ftp://"+user+":"+pass+"@"+host+p, 200, "xxxxx")
		if strings.Contains(page, pass) {
			t.Errorf("the password is on the page of %s:\n%s", p, page)
		}
	}
}

func TestWebNews(t *testing.T) {
	port := wiretest.ServerEnv(t, "NNTP_PORT")["NNTP_PORT"]
	ts := webServer(t, webConfig{NNTP: "127.0.0.1:" + port})
	wantPage(t, ts, "/news:*", 200, `href="/news:local.test"`, "local.general")
	body := wantPage(t, ts, "/news:local.test", 200, `href="/news:first@test.invalid"`, "Re: First test article")
	if strings.Index(body, "Crossposted article") > strings.Index(body, "First test article") {
		t.Errorf("a group's articles are not newest first:\n%s", body)
	}
	if strings.Contains(body, `method="post"`) {
		t.Errorf("a posting form without AllowPost")
	}
	wantPage(t, ts, "/news:second@test.invalid", 200, "Re: First test article", `href="/news:first@test.invalid"`, `href="/news:local.test"`)
	// mid: as get resolves it (through the news server): links to mid:.
	wantPage(t, ts, "/mid:second@test.invalid", 200, "Re: First test article", `href="/mid:first@test.invalid"`)
}

func TestWebWAIS(t *testing.T) {
	port := wiretest.ServerEnv(t, "WAIS_PORT")["WAIS_PORT"]
	ts := webServer(t, webConfig{})
	db := "/wais://127.0.0.1:" + port + "/test"
	wantPage(t, ts, db, 200, `name="search"`)
	resp, _ := get(t, ts, db+"?search=gopher")
	if loc := resp.Header.Get("Location"); resp.StatusCode != 303 || loc != db+"?gopher" {
		t.Fatalf("search answer: %d %q", resp.StatusCode, loc)
	}
	body := wantPage(t, ts, db+"?gopher", 200, "Alpha document about gophers", "197", `href="`+db+`/TEXT/`)
	m := regexp.MustCompile(`href="(` + regexp.QuoteMeta(db) + `/TEXT/[^"]*)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no document link")
	}
	wantPage(t, ts, htmlUnescape(m[1]), 200, "small burrowing rodents")
}

func TestWebProspero(t *testing.T) {
	port := wiretest.ServerEnv(t, "PROSPERO_PORT")["PROSPERO_PORT"]
	ts := webServer(t, webConfig{})
	// The server's links name its host as "127.0.0.1(PORT)": the link
	// shows the port unless it is Prospero's default, 1525.
	host := "127.0.0.1"
	if port != "1525" {
		host += ":" + port
	}
	wantPage(t, ts, "/prospero://127.0.0.1:"+port+"/AFTP/pub", 200, "hello.txt", `href="/prospero://`+host+`/AFTP/pub/hello.txt"`, "DIRECTORY")
}

// htmlUnescape undoes the escapes html/template writes in an attribute.
func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#34;", `"`, "&#39;", "'").Replace(s)
}

// The web form's fetch errors map to the statuses of CLI.md.
func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&fetch.Error{Kind: fetch.ErrNotFound}, 404},
		{&fetch.Error{Kind: fetch.ErrNeedPassword}, 401},
		{&fetch.Error{Kind: fetch.ErrBlockedPort}, 403},
		{&fetch.Error{Kind: fetch.ErrTimeout}, 504},
		{&fetch.Error{Kind: fetch.ErrProtocol}, 502},
	} {
		if got := statusOf(tc.err); got != tc.want {
			t.Errorf("statusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func answer(status int, ct string, body io.Reader) *http.Response {
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(body)}
}

// post sends a form to the gateway path p with the browser's
// Sec-Fetch-Site header site ("" for none).
func post(t *testing.T, ts *httptest.Server, p, site string, form url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = p
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if site != "" {
		req.Header.Set("Sec-Fetch-Site", site)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// Posting: only with AllowPost, only from the gateway's own pages (a
// cross-site form is refused before anything is sent), and the article
// then reads back from INN.
func TestWebNewsPost(t *testing.T) {
	port := wiretest.ServerEnv(t, "NNTP_PORT")["NNTP_PORT"]
	nntp := "127.0.0.1:" + port
	off := webServer(t, webConfig{NNTP: nntp})
	subject := "web form post " + strings.ReplaceAll(t.Name(), "/", " ")
	form := url.Values{"from": {"Web <web@example.org>"}, "subject": {subject}, "body": {"posted from the web form\n.a dot line\n"}}
	if resp, _ := post(t, off, "/news:local.post", "same-origin", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a post without AllowPost: %d, want 403", resp.StatusCode)
	}
	ts := webServer(t, webConfig{NNTP: nntp, AllowPost: true})
	wantPage(t, ts, "/news:local.post", 200, `method="post"`, `action="/news:local.post"`)
	if resp, _ := post(t, ts, "/news:local.post", "cross-site", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-site post: %d, want 403", resp.StatusCode)
	}
	bad := url.Values{"from": {"Web <web@example.org>"}, "subject": {"two\r\nNewsgroups: other"}, "body": {"x"}}
	if resp, _ := post(t, ts, "/news:local.post", "same-origin", bad); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a subject of two lines: %d, want 400", resp.StatusCode)
	}
	resp, body := post(t, ts, "/news:local.post", "same-origin", form)
	if resp.StatusCode != 200 || !strings.Contains(body, "240") {
		t.Fatalf("a post: %d\n%s", resp.StatusCode, body)
	}
	for i := 0; ; i++ {
		_, page := get(t, ts, "/news:local.post")
		if strings.Contains(page, subject) {
			break
		}
		if i == 50 {
			t.Fatalf("the posted article is not in the group:\n%s", page)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Texts: UTF-8 as it is, Latin-1 and CP437 told apart, ?charset= over
// the guess; HTML from a server (an "h" item) under a CSP sandbox. The
// files are served by pygopherd from its content directory (as they
// are: Gophernicus would recode Latin-1 to UTF-8 itself).
func TestWebCharsetAndHTML(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	dir := filepath.Join(wiretest.ServerEnv(t, "GOPHER_DIR")["GOPHER_DIR"], "root", "web-charset")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	files := map[string]string{
		"utf8.txt":   "caf\u00e9 \u2603\n",
		"latin1.txt": "caf\xe9 cr\xe8me br\xfbl\xe9e\n",
		"cp437.txt":  "\xc9\xcd\xcd\xbb\n\xba\x41\x41\xba\n\xc8\xcd\xcd\xbc\n",
		"page.html":  "<html><body><script>window.x=1</script>hi</body></html>\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts := webServer(t, webConfig{})
	base := "/gopher://127.0.0.1:" + port + "/0/web-charset/"
	wantPage(t, ts, base+"utf8.txt", 200, "caf\u00e9 \u2603", "<strong>utf-8</strong>")
	wantPage(t, ts, base+"latin1.txt", 200, "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e", "<strong>iso-8859-1</strong>")
	wantPage(t, ts, base+"cp437.txt", 200, "\u2554\u2550\u2550\u2557", "<strong>cp437</strong>")
	wantPage(t, ts, base+"cp437.txt?charset=iso-8859-1", 200, "\u00c9\u00cd\u00cd\u00bb", "<strong>iso-8859-1</strong>")
	resp, body := get(t, ts, "/gopher://127.0.0.1:"+port+"/h/web-charset/page.html")
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox") || !strings.Contains(body, "<script>") {
		t.Errorf("an h item: Content-Security-Policy %q, want it sandboxed as it came\n%s", csp, body)
	}
}

// A Gopher+ ASK form answered: the answers go to pygopherd as the
// Gopher+ data block, and its answer (the document: pygopherd runs no
// form script) is rendered.
func TestWebGopherAsk(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	ts := webServer(t, webConfig{})
	ask := "/gopher://127.0.0.1:" + port + "/0/form.txt%09%09?"
	resp, body := post(t, ts, ask, "same-origin", url.Values{"a0": {"Ann"}, "a1": {"green"}})
	if resp.StatusCode != 200 || !strings.Contains(body, "A form document.") {
		t.Fatalf("the ASK form's answers: %d\n%s", resp.StatusCode, body)
	}
	checkPage(t, body)
	if resp, _ := post(t, ts, ask, "cross-site", url.Values{"a0": {"Ann"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-site ASK form: %d, want 403", resp.StatusCode)
	}
}

// file: URLs only under AllowFile: a directory with its links, a file,
// nothing above the directory.
func TestWebFile(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("file a\n"), 0o644)
	ts := webServer(t, webConfig{AllowFile: dir})
	wantPage(t, ts, "/file://"+dir+"/", 200, `href="/file://`+dir+`/a.txt"`)
	wantPage(t, ts, "/file://"+dir+"/a.txt", 200, "file a")
	wantPage(t, ts, "/file:///etc/passwd", http.StatusForbidden)
	wantPage(t, ts, "/file://"+dir+"/../../etc/passwd", http.StatusForbidden)
}

// The web form inside the Handler (urlkit serve's): its security
// headers on every page, the destination policy refusing loopback
// (a 403 page) unless AllowDest names it.
func TestWebThroughHandler(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	menu := "/gopher://127.0.0.1:" + port + "/1/map"
	for _, tc := range []struct {
		allow  []string
		status int
		want   string
	}{
		{nil, http.StatusForbidden, "is a loopback address"},
		{[]string{"127.0.0.1"}, 200, `href="/gopher://127.0.0.1:` + port + `/0/hello.txt"`},
	} {
		h, err := New(Config{AllowDest: tc.allow})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		resp, body := get(t, ts, menu)
		ts.Close()
		h.Close()
		if resp.StatusCode != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("AllowDest %q: %d, want %d with %q\n%s", tc.allow, resp.StatusCode, tc.status, tc.want, body)
		}
		checkPage(t, body)
		if csp := resp.Header.Get("Content-Security-Policy"); strings.Contains(csp, "script-src") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("the page's Content-Security-Policy is %q", csp)
		}
	}
}

// A group list in pages: the links to the pages around, each page its
// own groups.
func TestWebPaging(t *testing.T) {
	port := wiretest.ServerEnv(t, "NNTP_PORT")["NNTP_PORT"]
	ts := webServer(t, webConfig{NNTP: "127.0.0.1:" + port, PageSize: 2})
	first := wantPage(t, ts, "/news:*", 200, `href="/news:*?page=2"`)
	second := wantPage(t, ts, "/news:*?page=2", 200, `href="/news:*?page=1"`, `href="/news:*?page=3"`)
	if first == second {
		t.Error("page 2 is page 1")
	}
	// A group newest first: page 1 the two newest, page 2 the oldest.
	one := wantPage(t, ts, "/news:local.test", 200, "Crossposted article", "Re: First test article", `href="/news:local.test?page=2"`)
	two := wantPage(t, ts, "/news:local.test?page=2", 200, `href="/news:first@test.invalid"`, `href="/news:local.test?page=1"`)
	if strings.Contains(one, `href="/news:first@test.invalid"`) || strings.Contains(two, "Crossposted article") {
		t.Errorf("the pages of a group are not newest first:\n%s\n%s", one, two)
	}
}

// A MIME article posted through the form's Send and read back: its
// parts listed, the one with a Content-ID linked as mid:MID/CID.
func TestWebArticleParts(t *testing.T) {
	port := wiretest.ServerEnv(t, "NNTP_PORT")["NNTP_PORT"]
	ts := webServer(t, webConfig{NNTP: "127.0.0.1:" + port})
	f := &fetch.Fetcher{IgnoreEnvironment: true}
	f.NNTP.Server = "127.0.0.1:" + port
	id := "mime" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@test.invalid"
	article := "From: Web <web@example.org>\nSubject: parts\nMessage-ID: <" + id + ">\nMIME-Version: 1.0\n" +
		"Content-Type: multipart/mixed; boundary=bb\n\n--bb\nContent-Type: text/plain; charset=iso-8859-1\n\ncaf\xe9 <b>\n" +
		"--bb\nContent-Type: image/gif\nContent-ID: <pic@test.invalid>\nContent-Disposition: attachment; filename=p.gif\n\nGIF89a\n--bb--\n"
	u, err := fetch.ParseURL("news:local.post", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Send(t.Context(), &u, strings.NewReader(article)); err != nil {
		t.Fatal(err)
	}
	wantPage(t, ts, "/news:"+id, 200, "caf\u00e9 &lt;b&gt;", "image/gif", `href="/mid:`+id+`/pic@test.invalid"`)
}

// The mailto form sends only with AllowSend and an SMTP server; the
// message reaches aiosmtpd.
func TestWebMailto(t *testing.T) {
	port := wiretest.ServerEnv(t, "SMTP_PORT")["SMTP_PORT"]
	smtp := "127.0.0.1:" + port
	ts := webServer(t, webConfig{SMTP: smtp})
	wantPage(t, ts, "/mailto:bob@example.org", 200, "--allow-send")
	form := url.Values{"subject": {"from the web form"}, "body": {"Hello, Bob.\n"}}
	if resp, _ := post(t, ts, "/mailto:bob@example.org", "same-origin", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("sending without AllowSend: %d, want 403", resp.StatusCode)
	}
	ts = webServer(t, webConfig{SMTP: smtp, AllowSend: true})
	wantPage(t, ts, "/mailto:bob@example.org", 200, `method="post"`, `name="subject"`)
	if resp, _ := post(t, ts, "/mailto:bob@example.org", "cross-site", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-site form: %d, want 403", resp.StatusCode)
	}
	resp, body := post(t, ts, "/mailto:bob@example.org", "same-origin", form)
	if resp.StatusCode != 200 || !strings.Contains(body, "250") {
		t.Errorf("sending: %d\n%s", resp.StatusCode, body)
	}
	// The same through the Handler urlkit serve runs: its Config names
	// the sender, as serve takes it from $EMAIL.
	h, err := New(Config{SMTP: smtp, AllowSend: true, MailFrom: "gateway@example.org", AllowDest: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hs := httptest.NewServer(h)
	defer hs.Close()
	if resp, body := post(t, hs, "/mailto:bob@example.org", "same-origin", form); resp.StatusCode != 200 || !strings.Contains(body, "250") {
		t.Errorf("sending through the Handler: %d\n%s", resp.StatusCode, body)
	}
}

// A "+" line (a redundant server, RFC 1436 3.8) links to the item
// before it on its own host; every type gets its label. Served by a real
// Gophernicus from a gophermap the test writes.
func TestWebGopherTypes(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHERNICUS_PORT")["GOPHERNICUS_PORT"]
	dir := filepath.Join(wiretest.ServerEnv(t, "GOPHERNICUS_DIR")["GOPHERNICUS_DIR"], "root", "web-types")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var m strings.Builder
	for _, typ := range "0124569gIhsdp;" {
		m.WriteString(string(typ) + "item " + string(typ) + "\t/sel" + string(typ) + "\t127.0.0.1\t" + port + "\n")
	}
	m.WriteString("0text\t/t.txt\t127.0.0.1\t" + port + "\n+mirror\t/t.txt\tmirror.example\t7000\n")
	if err := os.WriteFile(filepath.Join(dir, "gophermap"), []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := webServer(t, webConfig{})
	wantPage(t, ts, "/gopher://127.0.0.1:"+port+"/1/web-types/", 200,
		`[mirror]</span><a href="/gopher://mirror.example:7000/0/t.txt"`,
		`[CSO]</span><a href="/gopher://127.0.0.1:`+port+`/2/sel2"`,
		`[image]`, `[GIF]`, `[sound]`, `[video]`, `[document]`, `[PNG]`, `[DOS binary]`, `[binhex]`, `[uuencoded]`)
}
