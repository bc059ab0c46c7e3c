package gateway

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeUpstream is a RoundTripper standing in for fetch.Transport where a
// test is about the gateway's own behaviour (headers, refusals before
// any fetch, limits), which no real server's answer changes; the
// tests against the real servers are in serve_test.go.
type fakeUpstream struct {
	calls atomic.Int32
	fn    func(r *http.Request) (*http.Response, error)
}

func (f *fakeUpstream) RoundTrip(r *http.Request) (*http.Response, error) {
	f.calls.Add(1)
	if f.fn != nil {
		return f.fn(r)
	}
	return textResponse(r, 200, "hello\n"), nil
}

func textResponse(r *http.Request, code int, body string) *http.Response {
	return &http.Response{StatusCode: code, Header: http.Header{"Content-Type": {"text/plain"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}
}

// newTestHandler returns a gateway over up.
func newTestHandler(t *testing.T, cfg Config, up http.RoundTripper) *Handler {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.rt.(*guard).next = up
	return h
}

// serveTest runs h on a loopback listener, as urlkit serve does.
func serveTest(t *testing.T, h *Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Config = h.Server()
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// proxyRequest is what curl -x GW TARGET sends: TARGET, absolute, on
// the request line, to the gateway. (Go's http.Client refuses to send a
// gopher: or ftp: URL even to a proxy; an opaque URL carries it.)
func proxyRequest(t *testing.T, gw, target string) *http.Request {
	t.Helper()
	u, err := url.Parse(gw)
	if err != nil {
		t.Fatal(err)
	}
	u.Opaque = target
	req, err := http.NewRequestWithContext(t.Context(), "GET", "http://x/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL = u
	req.Host = u.Host
	return req
}

func checkSecurityHeaders(t *testing.T, what string, hd http.Header) {
	t.Helper()
	csp := hd.Get("Content-Security-Policy")
	if csp == "" || strings.Contains(csp, "script") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("%s: Content-Security-Policy %q: want one without script sources, default-src 'none'", what, csp)
	}
	if hd.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", what, hd.Get("X-Content-Type-Options"))
	}
	if hd.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("%s: Referrer-Policy %q", what, hd.Get("Referrer-Policy"))
	}
}

// Issue 38 item 3: CSP without script sources, nosniff and no-referrer
// on every response, whatever its status and form.
func TestSecurityHeadersEveryResponse(t *testing.T) {
	up := &fakeUpstream{fn: func(r *http.Request) (*http.Response, error) {
		if strings.Contains(r.URL.String(), "fail") {
			return nil, errors.New("upstream broke")
		}
		resp := textResponse(r, 200, "<script>alert(1)</script>")
		resp.Header.Set("Content-Type", "text/html")
		resp.Header.Set("Content-Security-Policy", "script-src *")
		return resp, nil
	}}
	h := newTestHandler(t, Config{}, up)
	for _, tt := range []struct {
		method, target, remote string
		sandbox                bool
	}{
		{"GET", "/", "127.0.0.1:1", false},
		{"GET", "/robots.txt", "127.0.0.1:1", false},
		{"GET", "/no/such/page", "127.0.0.1:1", false},
		{"CONNECT", "example.org:443", "127.0.0.1:1", false},
		{"GET", "/", "203.0.113.7:1", false}, // refused client
		{"GET", "gopher://192.0.2.1/h/page", "127.0.0.1:1", true},
		{"GET", "http://192.0.2.1/page.html", "127.0.0.1:1", true},
		{"GET", "gopher://192.0.2.1/0/fail", "127.0.0.1:1", false},
		{"POST", "gopher://192.0.2.1/1/", "127.0.0.1:1", false},
	} {
		r := httptest.NewRequest(tt.method, tt.target, nil)
		if tt.method == "CONNECT" || !strings.HasPrefix(tt.target, "/") {
			r.RequestURI = tt.target
		}
		r.RemoteAddr = tt.remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		what := tt.method + " " + tt.target + " (" + tt.remote + ")"
		checkSecurityHeaders(t, what, w.Result().Header)
		if got := strings.Contains(w.Result().Header.Get("Content-Security-Policy"), "sandbox"); got != tt.sandbox {
			t.Errorf("%s: CSP %q: sandbox %v, want %v", what, w.Result().Header.Get("Content-Security-Policy"), got, tt.sandbox)
		}
	}
}

// Issue 38 item 3: a client outside --allow-from is refused before
// anything is fetched; one inside is served.
func TestClientRefusedBeforeFetch(t *testing.T) {
	up := &fakeUpstream{}
	h := newTestHandler(t, Config{AllowFrom: []string{"198.51.100.0/24"}}, up)
	for _, target := range []string{"gopher://192.0.2.1/1/", "/gopher://192.0.2.1/1/", "/", "/robots.txt"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RequestURI = target
		r.RemoteAddr = "203.0.113.7:5555"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden {
			t.Errorf("%s from 203.0.113.7: status %d, want 403", target, w.Code)
		}
	}
	if n := up.calls.Load(); n != 0 {
		t.Errorf("the upstream was asked %d times for a refused client", n)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.RequestURI = "gopher://192.0.2.1/1/"
	r.RemoteAddr = "198.51.100.9:5555"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || up.calls.Load() != 1 || w.Body.String() != "hello\n" {
		t.Errorf("allowed client: status %d, %d fetches, body %q", w.Code, up.calls.Load(), w.Body)
	}
}

// Issue 38 item 3 / CLI.md: a listen address that is not loopback needs
// --allow-from.
func TestNewListenNeedsAllowFrom(t *testing.T) {
	for _, tt := range []struct {
		listen    string
		allowFrom []string
		ok        bool
	}{
		{"127.0.0.1:8070", nil, true},
		{"[::1]:8070", nil, true},
		{"0.0.0.0:8070", nil, false},
		{"[::]:8070", nil, false},
		{"192.0.2.1:8070", nil, false},
		{"0.0.0.0:8070", []string{"192.0.2.0/24"}, true},
		{"localhost:8070", nil, false}, // an IP address, please
	} {
		_, err := New(Config{Listen: []string{tt.listen}, AllowFrom: tt.allowFrom})
		if (err == nil) != tt.ok {
			t.Errorf("New(listen %s, allow-from %v): %v, want ok=%v", tt.listen, tt.allowFrom, err, tt.ok)
		}
		if err != nil && tt.allowFrom == nil && strings.HasSuffix(tt.listen, ":8070") && !strings.HasPrefix(tt.listen, "localhost") && !strings.Contains(err.Error(), "--allow-from") {
			t.Errorf("error %q does not name --allow-from", err)
		}
	}
	for _, cfg := range []Config{
		{AllowFrom: []string{"not-a-cidr"}},
		{AllowDest: []string{"host:0"}},
		{AllowFile: "relative/dir"},
		{AllowFile: "/no/such/dir/at/all"},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}

func TestConnectRefused(t *testing.T) {
	up := &fakeUpstream{}
	srv := serveTest(t, newTestHandler(t, Config{}, up))
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusMethodNotAllowed || up.calls.Load() != 0 {
		t.Errorf("CONNECT: status %d, %d fetches; want 405 and none", resp.StatusCode, up.calls.Load())
	}
}

func TestRobotsDisallowsAll(t *testing.T) {
	srv := serveTest(t, newTestHandler(t, Config{}, &fakeUpstream{}))
	resp, err := http.Get(srv.URL + "/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != "User-agent: *\nDisallow: /\n" {
		t.Errorf("robots.txt: %d %q", resp.StatusCode, b)
	}
}

// The proxy form streams: the first bytes reach the client while the
// upstream is still sending.
func TestProxyFormStreams(t *testing.T) {
	pr, pw := io.Pipe()
	up := &fakeUpstream{fn: func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/octet-stream"}}, Body: pr, ContentLength: -1, Request: r}, nil
	}}
	srv := serveTest(t, newTestHandler(t, Config{}, up))
	done := make(chan struct{})
	go func() {
		defer close(done)
		pw.Write([]byte("first chunk\n"))
	}()
	resp, err := http.DefaultClient.Do(proxyRequest(t, srv.URL, "gopher://192.0.2.1/9/big"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	if err != nil || line != "first chunk\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	<-done
	pw.Write([]byte("rest"))
	pw.Close()
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != "rest" {
		t.Errorf("rest %q, %v", rest, err)
	}
}

// An object that breaks off after its header was sent is a truncated
// response for the client, not a complete one.
func TestProxyFormBrokenUpstream(t *testing.T) {
	up := &fakeUpstream{fn: func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: -1, Request: r,
			Body: io.NopCloser(io.MultiReader(strings.NewReader("partial"), iotestErrReader{}))}, nil
	}}
	srv := serveTest(t, newTestHandler(t, Config{}, up))
	resp, err := http.DefaultClient.Do(proxyRequest(t, srv.URL, "gopher://192.0.2.1/9/x"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Errorf("a broken transfer read as complete: %q", b)
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("fetch: short transfer") }

// Issue 38 item 3: a client that stops reading cannot hold a fetch: the
// write times out, the fetch is closed and its slot given back.
func TestSlowClientReleasesFetch(t *testing.T) {
	closed := make(chan struct{})
	up := &fakeUpstream{fn: func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: -1, Request: r,
			Body: &endless{closed: closed}}, nil
	}}
	h := newTestHandler(t, Config{IdleTimeout: 1 * time.Second}, up)
	srv := serveTest(t, h)
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4096)
	io.WriteString(c, "GET gopher://192.0.2.1/9/endless HTTP/1.1\r\nHost: 192.0.2.1\r\n\r\n")
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream was not closed 10 s after the client stopped reading")
	}
	waitFor(t, func() bool {
		h.rt.(*guard).lim.mu.Lock()
		defer h.rt.(*guard).lim.mu.Unlock()
		return len(h.rt.(*guard).lim.clients) == 0
	})
}

type endless struct {
	closed chan struct{}
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func (e *endless) Close() error { close(e.closed); return nil }

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 100 {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not met in 2 s")
}

// Issue 38 item 3: upstream fetches are bounded in all and per client;
// a request over the bound waits, and gets 503 if no slot comes in
// time, 429 when its client already has too many waiting.
func TestLimiter(t *testing.T) {
	l := newLimiter(2, 1, 1)
	a := clientOf("192.0.2.1:1")
	b := clientOf("192.0.2.2:1")
	c := clientOf("[2001:db8::1]:1")
	c2 := clientOf("[2001:db8::2]:1") // the same /64
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	wait := func() context.Context {
		ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	ra, code := l.acquire(ctx, a)
	if code != 0 {
		t.Fatal(code)
	}
	if _, code := l.acquire(wait(), a); code != http.StatusServiceUnavailable {
		t.Errorf("second fetch of one client: %d, want 503 after waiting", code)
	}
	rc, code := l.acquire(ctx, c)
	if code != 0 {
		t.Fatal(code)
	}
	if _, code := l.acquire(wait(), b); code != http.StatusServiceUnavailable {
		t.Errorf("third fetch in all: %d, want 503 after waiting", code)
	}
	// A waiter gets the slot given back.
	got := make(chan int)
	go func() {
		r, code := l.acquire(ctx, c2)
		if r != nil {
			defer r()
		}
		got <- code
	}()
	waitFor(t, func() bool { l.mu.Lock(); defer l.mu.Unlock(); return l.clients[c].users == 2 })
	// c's /64 has one fetch and one waiting (maxWait 1): one more is
	// refused at once.
	if _, code := l.acquire(ctx, c2); code != http.StatusTooManyRequests {
		t.Errorf("too many waiting: %d, want 429", code)
	}
	rc()
	rc() // twice is harmless
	if code := <-got; code != 0 {
		t.Errorf("waiter: %d", code)
	}
	ra()
	waitFor(t, func() bool { l.mu.Lock(); defer l.mu.Unlock(); return len(l.clients) == 0 && len(l.all) == 0 })
}

// Issue 38 item 2: file: is off unless --allow-file DIR, then only under
// DIR (dot segments and symbolic links do not lead out).
func TestFilePolicy(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("in"), 0o644)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))
	up := &fakeUpstream{}
	off := newTestHandler(t, Config{}, up)
	on := newTestHandler(t, Config{AllowFile: dir}, up)
	for _, tt := range []struct {
		h      *Handler
		target string
		code   int
	}{
		{off, "file://" + dir + "/in.txt", 403},
		{on, "file://" + dir + "/in.txt", 200},
		{on, "file://localhost" + dir + "/in.txt", 200},
		{on, "file://" + dir + "/", 200},
		{on, "file://" + dir + "/../" + filepath.Base(outside) + "/secret.txt", 403},
		{on, "file://" + dir + "/%2e%2e/" + filepath.Base(outside) + "/secret.txt", 403},
		{on, "file://" + dir + "/link/secret.txt", 403},
		{on, "file://" + outside + "/secret.txt", 403},
		{on, "file:///etc/passwd", 403},
		{on, "file://otherhost" + dir + "/in.txt", 403},
	} {
		before := up.calls.Load()
		r := httptest.NewRequest("GET", "/", nil)
		r.RequestURI = tt.target
		r.URL, _ = url.Parse(tt.target)
		r.RemoteAddr = "127.0.0.1:1"
		w := httptest.NewRecorder()
		tt.h.ServeHTTP(w, r)
		fetched := up.calls.Load() > before
		if w.Code != tt.code || fetched != (tt.code == 200) {
			t.Errorf("%s: status %d (fetched %v), want %d", tt.target, w.Code, fetched, tt.code)
		}
	}
}
