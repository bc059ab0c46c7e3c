package gateway

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/wiretest"
)

// The gateway against the real servers of scripts/with-servers.sh,
// through the proxy form, as curl -x sends it:
//
//	scripts/with-servers.sh ftp gopher http -- env URLKIT_REQUIRE_SERVERS=1 go test ./gateway/

// testNames are the names the tests' resolver knows (no query leaves
// the process): private and link-local addresses that must be refused,
// and a name of the loopback servers that --allow-dest can name.
var testNames = map[string][]netip.Addr{
	"private.test":     {netip.MustParseAddr("10.0.0.7")},
	"lan.test":         {netip.MustParseAddr("192.168.1.20")},
	"metadata.test":    {netip.MustParseAddr("169.254.169.254")},
	"cgnat.test":       {netip.MustParseAddr("100.64.0.9")},
	"v6private.test":   {netip.MustParseAddr("fd00::9")},
	"servers.test":     {netip.MustParseAddr("127.0.0.1")},
	"mapped.test":      {netip.MustParseAddr("::ffff:127.0.0.1")},
	"multicast.test":   {netip.MustParseAddr("224.0.0.251")},
	"unspecified.test": {netip.MustParseAddr("0.0.0.0")},
}

// realGateway serves a gateway on loopback whose Fetcher resolves with
// the test names and whose destination check fails the test if it ever
// lets a connection go anywhere but loopback: no test sends a packet
// outside 127.0.0.0/8 and ::1.
func realGateway(t *testing.T, cfg Config) (*Handler, string) {
	t.Helper()
	if cfg.Fetcher == nil {
		cfg.Fetcher = &fetch.Fetcher{}
	}
	cfg.Fetcher.Resolver = wiretest.Resolver(t, func(name string) []netip.Addr { return testNames[name] })
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	policy := h.fetcher.DialCheck
	var mu sync.Mutex
	h.fetcher.DialCheck = func(network string, addr netip.AddrPort) error {
		err := policy(network, addr)
		if err == nil && !addr.Addr().IsLoopback() {
			mu.Lock()
			defer mu.Unlock()
			t.Errorf("the gateway was about to connect to %s (%s) outside loopback", addr, network)
			return errors.New("test: no connection outside loopback")
		}
		return err
	}
	srv := serveTest(t, h)
	return h, srv.URL
}

// proxyGet sends target to the gateway as a proxy gets it and returns
// the response and its body.
func proxyGet(t *testing.T, gw, target string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := proxyRequest(t, gw, target)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: reading: %v", target, err)
	}
	return resp, string(b)
}

// logLines returns the number of lines of a server's log, to show that
// a refused request never reached it.
func logLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

type proxyCase struct {
	name, url string
	hdr       []string
	status    int      // 0: 200
	ctype     string   // Content-Type's media type, if checked
	has       []string // the body holds these
}

func (c proxyCase) run(t *testing.T, gw string) {
	t.Helper()
	resp, body := proxyGet(t, gw, c.url, c.hdr...)
	want := c.status
	if want == 0 {
		want = 200
	}
	if resp.StatusCode != want {
		t.Errorf("%s: %s: status %d, want %d; body %q", c.name, c.url, resp.StatusCode, want, clip(body))
	}
	if c.ctype != "" && !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) {
		t.Errorf("%s: Content-Type %q, want %s", c.name, resp.Header.Get("Content-Type"), c.ctype)
	}
	for _, s := range c.has {
		if !strings.Contains(body, s) {
			t.Errorf("%s: the body lacks %q: %q", c.name, s, clip(body))
		}
	}
	checkSecurityHeaders(t, c.name, resp.Header)
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// Issue 38 items 2 and 3 against pygopherd: the proxy form gives the
// object's bytes; the destination policy, the port policy and the
// CR/LF guard refuse before anything reaches the server.
func TestProxyFormGopher(t *testing.T) {
	env := wiretest.ServerEnv(t, "GOPHER_PORT", "GOPHER_LOG")
	port := env["GOPHER_PORT"]
	base := "gopher://127.0.0.1:" + port
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1:" + port, "servers.test"}})
	for _, c := range []proxyCase{
		{name: "menu", url: base + "/1/", ctype: "application/gopher-menu", has: []string{"0hello\t/hello.txt\t"}},
		{name: "text", url: base + "/0/hello.txt", ctype: "text/plain", has: []string{"Hello"}},
		{name: "binary", url: base + "/9/bin/data.bin", ctype: "application/octet-stream", has: []string{strings.Repeat("\x01", 4096)}},
		{name: "a name --allow-dest names", url: "gopher://servers.test:" + port + "/0/hello.txt", has: []string{"Hello"}},
		{name: "no such item", url: base + "/0/nope", status: 404},
	} {
		c.run(t, gw)
	}
	before := logLines(t, env["GOPHER_LOG"])
	for _, c := range []proxyCase{
		{name: "the gopher-to-SMTP attack (port policy)", url: "gopher://127.0.0.1:25/0HELO", status: 403},
		{name: "CR LF in a selector", url: base + "/0/hello.txt%0D%0Ajunk", status: 403, has: []string{"offset"}},
		{name: "NUL in a selector", url: base + "/0/a%00b", status: 403},
		{name: "a URL that does not parse", url: "gopher://127.0.0.1:99999/1/", status: 400, has: []string{"offset"}},
		{name: "loopback, another port than --allow-dest's", url: "gopher://127.0.0.1:1/1/", status: 403},
		{name: "loopback as an IPv4-mapped IPv6 literal", url: "gopher://[::ffff:127.0.0.2]:" + port + "/1/", status: 403},
		{name: "::1", url: "gopher://[::1]:" + port + "/1/", status: 403},
		{name: "a name of a private address", url: "gopher://private.test/1/", status: 403},
		{name: "a name of a 192.168 address", url: "gopher://lan.test:70/1/", status: 403},
		{name: "link-local (cloud metadata)", url: "gopher://metadata.test:70/1/", status: 403},
		{name: "link-local literal", url: "gopher://169.254.169.254/1/", status: 403},
		{name: "CGNAT", url: "gopher://cgnat.test/1/", status: 403},
		{name: "fc00::/7", url: "gopher://v6private.test/1/", status: 403},
		{name: "multicast", url: "gopher://multicast.test/1/", status: 403},
		{name: "unspecified", url: "gopher://unspecified.test:" + port + "/1/", status: 403},
		{name: "unspecified literal", url: "gopher://0.0.0.0:" + port + "/1/", status: 403},
		{name: "private literal", url: "gopher://10.1.2.3/1/", status: 403},
	} {
		c.run(t, gw)
	}
	if after := logLines(t, env["GOPHER_LOG"]); after != before {
		t.Errorf("refused requests reached pygopherd: %d new log lines", after-before)
	}
}

// Without --allow-dest the test servers (loopback) are refused.
func TestProxyFormLoopbackRefused(t *testing.T) {
	env := wiretest.ServerEnv(t, "GOPHER_PORT", "GOPHER_LOG")
	_, gw := realGateway(t, Config{})
	before := logLines(t, env["GOPHER_LOG"])
	for _, host := range []string{"127.0.0.1", "servers.test", "localhost"} {
		proxyCase{name: host, url: "gopher://" + host + ":" + env["GOPHER_PORT"] + "/1/", status: 403, has: []string{"destination"}}.run(t, gw)
	}
	if after := logLines(t, env["GOPHER_LOG"]); after != before {
		t.Errorf("refused requests reached pygopherd: %d new log lines", after-before)
	}
}

// The gateway never fetches from itself, even when --allow-dest names
// its host.
func TestProxyFormSelfRefused(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	defer srv.Close()
	// The gateway learns its address as urlkit serve tells it.
	h2, err := New(Config{AllowDest: []string{"127.0.0.1"}, Listen: []string{srv.Listener.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h2
	resp, body := proxyGet(t, srv.URL, "gopher://"+srv.Listener.Addr().String()+"/1/")
	if resp.StatusCode != 403 || !strings.Contains(body, "own") {
		t.Errorf("a fetch from the gateway itself: %d %q", resp.StatusCode, body)
	}
}

// Issue 38 items 2 and 3 against ProFTPD: files, listings, the Basic
// challenge, a password for one request that shows nowhere (not in the
// page, a header or the access log), and the check on the data
// connection's address.
func TestProxyFormFTP(t *testing.T) {
	env := wiretest.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS")
	host := "127.0.0.1:" + env["FTP_PORT"]
	user, pass := env["FTP_USER"], env["FTP_PASS"]
	var log bytes.Buffer
	var logMu sync.Mutex
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1"}, AccessLog: lockedWriter{&logMu, &log}})
	for _, c := range []proxyCase{
		{name: "anonymous text", url: "ftp://" + host + "/pub/hello.txt", ctype: "text/plain", has: []string{"Hello from anonymous FTP."}},
		{name: "a directory", url: "ftp://" + host + "/pub/", has: []string{"hello.txt"}},
		{name: "a directory as JSON lines", url: "ftp://" + host + "/pub/", hdr: []string{"Accept", "application/x-ndjson"}, ctype: "application/x-ndjson", has: []string{`"name":"hello.txt"`}},
		{name: "550", url: "ftp://" + host + "/pub/missing.txt", status: 404},
		{name: "a user without a password", url: "ftp://" + user + "@" + host + "/home.txt", status: 401},
		{name: "the password in Basic credentials", url: "ftp://" + user + "@" + host + "/home.txt", hdr: []string{"Authorization", basicAuth(user, pass)}, has: []string{"login directory"}},
		{name: "the password in the URL", url: "ftp://" + user + ":" + pass + "@" + host + "/home.txt", has: []string{"login directory"}},
		{name: "a wrong password", url: "ftp://" + user + "@" + host + "/home.txt", hdr: []string{"Authorization", basicAuth(user, "wrong-pw-4711")}, status: 401},
		{name: "CR LF in a command", url: "ftp://" + host + "/pub/a%0D%0ADELE%20b", status: 403},
	} {
		c.run(t, gw)
	}
	resp, _ := proxyGet(t, gw, "ftp://"+user+"@"+host+"/home.txt")
	if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Basic ") {
		t.Errorf("401 without a Basic challenge: %q", got)
	}
	for _, hdr := range [][]string{{"Authorization", basicAuth(user, pass)}, {"Authorization", basicAuth(user, "wrong-pw-4711")}, nil} {
		target := "ftp://" + user + "@" + host + "/home.txt"
		if hdr == nil {
			target = "ftp://" + user + ":wrong-pw-4711@" + host + "/home.txt"
		}
		resp, body := proxyGet(t, gw, target, hdr...)
		var h bytes.Buffer
		resp.Header.Write(&h)
		for _, secret := range []string{pass, "wrong-pw-4711"} {
			if strings.Contains(body, secret) || strings.Contains(h.String(), secret) {
				t.Errorf("the password %q shows in the answer: %s\n%s", secret, h.String(), body)
			}
		}
	}
	logMu.Lock()
	defer logMu.Unlock()
	for _, secret := range []string{pass, "wrong-pw-4711"} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the password %q is in the access log:\n%s", secret, log.String())
		}
	}
	if !strings.Contains(log.String(), "ftp://"+user+":xxxxx@"+host+"/home.txt") {
		t.Errorf("the access log lacks the redacted URL:\n%s", log.String())
	}
}

// The data connection is checked too: with only the control port
// allowed, the passive data port (another port of 127.0.0.1) is refused.
func TestProxyFormFTPDataConnectionChecked(t *testing.T) {
	env := wiretest.ServerEnv(t, "FTP_PORT")
	host := "127.0.0.1:" + env["FTP_PORT"]
	_, gw := realGateway(t, Config{AllowDest: []string{host}})
	resp, body := proxyGet(t, gw, "ftp://"+host+"/pub/hello.txt")
	if resp.StatusCode != 403 || strings.Contains(body, "Hello") {
		t.Errorf("a data connection to a port --allow-dest does not name: %d %q", resp.StatusCode, clip(body))
	}
}

// http through the proxy form goes through the same destination check
// (the Transport's HTTP dials with it).
func TestProxyFormHTTP(t *testing.T) {
	env := wiretest.ServerEnv(t, "HTTP_PORT")
	target := "http://127.0.0.1:" + env["HTTP_PORT"] + "/"
	for _, tt := range []struct {
		allow  []string
		status int
	}{{nil, 403}, {[]string{"127.0.0.1:" + env["HTTP_PORT"]}, 200}} {
		_, gw := realGateway(t, Config{AllowDest: tt.allow})
		pu, _ := url.Parse(gw)
		c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := c.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("--allow-dest %v: %s: %d, want %d", tt.allow, target, resp.StatusCode, tt.status)
		}
		checkSecurityHeaders(t, target, resp.Header)
	}
}

func basicAuth(user, pass string) string {
	r, _ := http.NewRequest("GET", "http://x/", nil)
	r.SetBasicAuth(user, pass)
	return r.Header.Get("Authorization")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Issue 38 item 4: the other schemes through the proxy form, each
// against its real server, and each refused without --allow-dest.
func TestProxyFormGophernicus(t *testing.T) {
	env := wiretest.ServerEnv(t, "GOPHERNICUS_PORT")
	base := "gopher://127.0.0.1:" + env["GOPHERNICUS_PORT"]
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1:" + env["GOPHERNICUS_PORT"]}})
	for _, c := range []proxyCase{
		{name: "menu", url: base + "/1/", ctype: "application/gopher-menu", has: []string{"0Hello\t"}},
		{name: "search", url: base + "/7/cgi-bin/search%09foo", has: []string{"foo"}},
	} {
		c.run(t, gw)
	}
}

func TestProxyFormNews(t *testing.T) {
	env := wiretest.ServerEnv(t, "NNTP_PORT")
	server := "127.0.0.1:" + env["NNTP_PORT"]
	_, gw := realGateway(t, Config{AllowDest: []string{server}, NNTP: server})
	for _, c := range []proxyCase{
		{name: "an article by message-id", url: "news:first@test.invalid", ctype: "message/rfc822", has: []string{"Message-ID: <first@test.invalid>"}},
		{name: "a group's overview", url: "nntp://" + server + "/local.test", has: []string{"<second@test.invalid>"}},
		{name: "the group list as JSON lines", url: "news:*", hdr: []string{"Accept", "application/x-ndjson"}, has: []string{`"group":"local.test"`}},
		{name: "430", url: "news:nope@test.invalid", status: 404},
	} {
		c.run(t, gw)
	}
	_, closed := realGateway(t, Config{NNTP: server})
	proxyCase{name: "the news server on loopback, not allowed", url: "news:first@test.invalid", status: 403}.run(t, closed)
}

func TestProxyFormWAIS(t *testing.T) {
	env := wiretest.ServerEnv(t, "WAIS_PORT")
	base := "wais://127.0.0.1:" + env["WAIS_PORT"]
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1:" + env["WAIS_PORT"]}})
	for _, c := range []proxyCase{
		{name: "a search", url: base + "/test?gopher", has: []string{"Alpha document about gophers"}},
		{name: "an unknown database", url: base + "/nodb?gopher", status: 404},
	} {
		c.run(t, gw)
	}
	_, closed := realGateway(t, Config{})
	proxyCase{name: "loopback WAIS, not allowed", url: base + "/test?gopher", status: 403}.run(t, closed)
}

// Prospero answers over UDP: the reply's source is checked as the
// address dialled is.
func TestProxyFormProspero(t *testing.T) {
	env := wiretest.ServerEnv(t, "PROSPERO_PORT")
	base := "prospero://127.0.0.1:" + env["PROSPERO_PORT"]
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1:" + env["PROSPERO_PORT"]}})
	for _, c := range []proxyCase{
		{name: "a directory", url: base + "/AFTP/pub", has: []string{"it's here.txt"}},
		{name: "no such directory", url: base + "/AFTP/nonesuch", status: 404},
	} {
		c.run(t, gw)
	}
	_, closed := realGateway(t, Config{})
	proxyCase{name: "loopback Prospero, not allowed", url: base + "/AFTP/pub", status: 403}.run(t, closed)
}

// file: through the proxy form, from the --allow-file directory only.
func TestProxyFormFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/a.txt", []byte("text in a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, gw := realGateway(t, Config{AllowFile: dir})
	proxyCase{name: "a file under --allow-file", url: "file://" + dir + "/a.txt", ctype: "text/plain", has: []string{"text in a file"}}.run(t, gw)
	proxyCase{name: "a file elsewhere", url: "file:///etc/passwd", status: 403}.run(t, gw)
	_, off := realGateway(t, Config{})
	proxyCase{name: "file: without --allow-file", url: "file://" + dir + "/a.txt", status: 403}.run(t, off)
}

// DNS rebinding gains nothing: the check is on the address dialled, so a
// name that resolves to an allowed address for one fetch and to a
// private one for the next is refused the second time.
func TestProxyFormRebinding(t *testing.T) {
	env := wiretest.ServerEnv(t, "GOPHER_PORT")
	var rebound atomic.Bool
	f := &fetch.Fetcher{}
	cfg := Config{AllowDest: []string{"127.0.0.1:" + env["GOPHER_PORT"]}, Fetcher: f}
	_, gw := realGateway(t, cfg)
	// realGateway set the test names; this name answers differently
	// for the second fetch.
	f.Resolver = wiretest.Resolver(t, func(name string) []netip.Addr {
		if name != "rebind.test" {
			return nil
		}
		if rebound.Load() {
			return []netip.Addr{netip.MustParseAddr("10.0.0.1")}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	url := "gopher://rebind.test:" + env["GOPHER_PORT"] + "/0/hello.txt"
	proxyCase{name: "first lookup: the allowed address", url: url, has: []string{"Hello"}}.run(t, gw)
	rebound.Store(true)
	proxyCase{name: "second lookup: a private address", url: url, status: 403}.run(t, gw)
}
