package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/fetch"
)

// webServer serves a web form over fetch.Transport on loopback.
func webServer(t *testing.T, cfg webConfig) *httptest.Server {
	t.Helper()
	if cfg.Transport == nil {
		f := &fetch.Fetcher{IgnoreEnvironment: true}
		f.NNTP.Server = cfg.NNTP
		f.Mail.Server = cfg.SMTP
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
	port := server(t, "GOPHER_PORT")
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
	port := server(t, "FTP_PORT")
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
}

func TestWebNews(t *testing.T) {
	port := server(t, "NNTP_PORT")
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
}

func TestWebWAIS(t *testing.T) {
	port := server(t, "WAIS_PORT")
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
	port := server(t, "PROSPERO_PORT")
	ts := webServer(t, webConfig{})
	wantPage(t, ts, "/prospero://127.0.0.1:"+port+"/AFTP/pub", 200, "hello.txt", `href="/prospero://127.0.0.1/AFTP/pub/hello.txt"`, "DIRECTORY")
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

// server returns the port of a test server from its environment
// variable (scripts/with-servers.sh), skipping the test without it
// unless URLKIT_REQUIRE_SERVERS=1.
func server(t testing.TB, env string) string {
	t.Helper()
	p := os.Getenv(env)
	if p == "" {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatalf("%s is not set: run under scripts/with-servers.sh", env)
		}
		t.Skipf("%s is not set (scripts/with-servers.sh starts the server)", env)
	}
	return p
}
