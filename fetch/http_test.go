package fetch

// Tests against the real nginx of scripts/servers/start-http.sh (origin
// server on HTTP_PORT, proxy on HTTP_PROXY_PORT).

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type httpEnv struct {
	base, proxy, user, pass string
}

func realHTTP(t *testing.T) httpEnv {
	e := wiretest.ServerEnv(t, "HTTP_PORT", "HTTP_PROXY_PORT", "HTTP_USER", "HTTP_PASS")
	return httpEnv{
		base:  "http://127.0.0.1:" + e["HTTP_PORT"],
		proxy: "http://127.0.0.1:" + e["HTTP_PROXY_PORT"],
		user:  e["HTTP_USER"], pass: e["HTTP_PASS"],
	}
}

// noEnv is a Fetcher setting that keeps the developer's proxies out.
func noEnv() func(string) string { return func(string) string { return "" } }

func TestRealHTTP(t *testing.T) {
	e := realHTTP(t)
	f := &Fetcher{Getenv: noEnv()}
	tests := []struct {
		path  string
		want  string
		ctype string
		final string // suffix of Response.URL
		kind  error
	}{
		{path: "/hello.txt", want: "Hello from HTTP.\n", ctype: "text/plain"},
		{path: "/dir/a%20file.txt", want: "a file with a space\n"},
		{path: "/redirect", want: "Hello from HTTP.\n", final: "/hello.txt"},
		{path: "/missing", kind: ErrNotFound},
		{path: "/private/secret.txt", kind: ErrAccessDenied},
		{path: "/redirect-ftp", kind: ErrRedirect},
		{path: "/redirect-loop", kind: ErrRedirect},
	}
	for _, tt := range tests {
		resp, err := f.Get(testCtx(t), e.base+tt.path)
		if tt.kind != nil {
			if !errors.Is(err, tt.kind) {
				t.Errorf("%s: err = %v, want %v", tt.path, err, tt.kind)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		got := readAll(t, resp)
		if got != tt.want || resp.Size != int64(len(tt.want)) || resp.Reply != "200 OK" {
			t.Errorf("%s: %q size %d reply %q", tt.path, got, resp.Size, resp.Reply)
		}
		if !strings.HasPrefix(resp.ContentType, tt.ctype) || !strings.HasSuffix(resp.URL, tt.final) {
			t.Errorf("%s: content type %q, URL %q", tt.path, resp.ContentType, resp.URL)
		}
	}
}

// A redirect to a blocked port is refused before connecting.
func TestRealHTTPRedirectToBlockedPort(t *testing.T) {
	e := realHTTP(t)
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), e.base+"/redirect-smtp")
	if !errors.Is(err, ErrRedirect) || !errors.Is(err, ErrBlockedPort) {
		t.Errorf("err = %v, want ErrRedirect and ErrBlockedPort", err)
	}
}

// A user and password in the URL (RFC 3986) become Basic authorization;
// they appear neither in errors nor in the trace.
func TestRealHTTPAuth(t *testing.T) {
	e := realHTTP(t)
	var trace strings.Builder
	f := &Fetcher{Getenv: noEnv(), Trace: &trace}
	u := strings.Replace(e.base, "http://", "http://"+e.user+":"+e.pass+"@", 1) + "/private/secret.txt"
	resp, err := f.Get(testCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "top secret\n" {
		t.Errorf("body %q", got)
	}
	if strings.Contains(resp.URL, ":"+e.pass+"@") || strings.Contains(trace.String(), ":"+e.pass+"@") {
		t.Errorf("password in Response.URL %q or trace:\n%s", resp.URL, trace.String())
	}
	if !strings.Contains(trace.String(), "> Authorization: xxxxx") {
		t.Errorf("trace does not show the masked Authorization header:\n%s", trace.String())
	}
	bad := strings.Replace(e.base, "http://", "http://"+e.user+":wrong-password@", 1) + "/private/secret.txt"
	_, err = f.Get(testCtx(t), bad)
	if !errors.Is(err, ErrAccessDenied) || strings.Contains(err.Error(), "wrong-password") {
		t.Errorf("err = %v, want ErrAccessDenied without the password", err)
	}
}

// The fragment is never sent; an escaped CR LF stays escaped on the
// request line (RFC 1630), so nothing is injected.
func TestRealHTTPRequestLine(t *testing.T) {
	e := realHTTP(t)
	log := followLog(t, "HTTP_LOG")
	f := &Fetcher{Getenv: noEnv()}
	resp, err := f.Get(testCtx(t), e.base+"/echo?a=1#secret-fragment")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "method=GET uri=/echo?a=1 args=a=1\n" {
		t.Errorf("echo: %q", got)
	}
	resp, err = f.Get(testCtx(t), e.base+"/echo?x%0D%0AX-Injected:%201")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "method=GET uri=/echo?x%0D%0AX-Injected:%201 args=x%0D%0AX-Injected:%201\n" {
		t.Errorf("echo: %q", got)
	}
	lines := log.newLines(t, "X-Injected", 1)
	if strings.Contains(lines, "secret-fragment") || !strings.Contains(lines, `"GET /echo?a=1 HTTP/1.1"`) {
		t.Errorf("server log:\n%s", lines)
	}
}

// Through the nginx proxy, the whole URL goes on the request line.
func TestRealHTTPProxy(t *testing.T) {
	e := realHTTP(t)
	log := followLog(t, "HTTP_PROXY_LOG")
	for _, f := range []*Fetcher{
		{Getenv: noEnv(), Gateways: map[string]Gateway{"http": {URL: e.proxy}}},
		{Getenv: env(map[string]string{"http_proxy": e.proxy})},
	} {
		resp, err := f.Get(testCtx(t), e.base+"/hello.txt#frag")
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, resp); got != "Hello from HTTP.\n" || resp.Via != e.proxy {
			t.Errorf("via proxy: %q, Via %q", got, resp.Via)
		}
	}
	want := `"GET ` + e.base + `/hello.txt HTTP/1.1"`
	if lines := log.newLines(t, want, 2); strings.Count(lines, want) != 2 || strings.Contains(lines, "frag") {
		t.Errorf("proxy log, want 2 times %s:\n%s", want, lines)
	}

	// no_proxy: straight to the origin.
	log = followLog(t, "HTTP_PROXY_LOG")
	f := &Fetcher{Getenv: env(map[string]string{"http_proxy": e.proxy, "no_proxy": "127.0.0.1"})}
	resp, err := f.Get(testCtx(t), e.base+"/echo?no-proxy-mark")
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	if resp.Via != "" {
		t.Errorf("Via = %q with no_proxy", resp.Via)
	}
	settle()
	if lines := log.newLines(t, "", 0); strings.Contains(lines, "no-proxy-mark") {
		t.Errorf("no_proxy: the proxy was used:\n%s", lines)
	}
}

// Other schemes through the proxy: gopher is gatewayed (nginx asks
// pygopherd's HTTP side); ftp gets nginx's 502, and its log shows the
// request line. With a password, the URL goes to the gateway with it
// (the gateway needs it to log in; nginx refuses userinfo with 400), but
// our error does not show it.
func TestRealGatewayOtherSchemes(t *testing.T) {
	e := realHTTP(t)
	env := wiretest.ServerEnv(t, "GOPHER_PORT", "FTP_PORT", "FTP_USER", "FTP_PASS")
	log := followLog(t, "HTTP_PROXY_LOG")
	f := &Fetcher{Getenv: noEnv(), Gateways: map[string]Gateway{"gopher": {URL: e.proxy}, "ftp": {URL: e.proxy}}}
	gopherURL := "gopher://127.0.0.1:" + env["GOPHER_PORT"] + "/0/hello.txt"
	resp, err := f.Get(testCtx(t), gopherURL+"#frag")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "Hello from gopher.\r\n" && got != "Hello from gopher.\n" {
		t.Errorf("gopher via proxy: %q", got)
	}
	ftpURL := "ftp://127.0.0.1:" + env["FTP_PORT"] + "/pub/hello.txt"
	_, err = f.Get(testCtx(t), ftpURL)
	if !errors.Is(err, ErrStatus) || !strings.Contains(err.Error(), "502") || !strings.Contains(err.Error(), `"`+ftpURL+`"`) {
		t.Errorf("ftp via nginx: err = %v, want the 502 for %s", err, ftpURL)
	}
	userURL := "ftp://" + env["FTP_USER"] + ":" + env["FTP_PASS"] + "@127.0.0.1:" + env["FTP_PORT"] + "/pub/hello.txt"
	_, err = f.Get(testCtx(t), userURL)
	if err == nil || strings.Contains(err.Error(), ":"+env["FTP_PASS"]+"@") {
		t.Errorf("ftp with password via nginx: err = %v, want an error without the password", err)
	}
	lines := log.newLines(t, env["FTP_USER"]+":", 1)
	for _, want := range []string{`"GET ` + gopherURL + ` HTTP/1.1" 200`, `"GET ` + ftpURL + ` HTTP/1.1" 502`, `"GET ` + userURL + ` HTTP/1.1" 400`} {
		if !strings.Contains(lines, want) {
			t.Errorf("proxy log lacks %s:\n%s", want, lines)
		}
	}
}

// WWW_gopher_GATEWAY: CERN's path gateway, here nginx's /gopher-gw/.
func TestRealPathGateway(t *testing.T) {
	e := realHTTP(t)
	gp := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	log := followLog(t, "HTTP_LOG")
	f := &Fetcher{Getenv: env(map[string]string{"WWW_gopher_GATEWAY": e.base + "/gopher-gw"})}
	resp, err := f.Get(testCtx(t), "gopher://127.0.0.1:"+gp+"/0/hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); !strings.HasPrefix(got, "Hello from gopher.") || resp.Via != e.base+"/gopher-gw" {
		t.Errorf("path gateway: %q via %q", got, resp.Via)
	}
	want := `"GET /gopher-gw/127.0.0.1:` + gp + `/0/hello.txt HTTP/1.1" 200`
	if lines := log.newLines(t, want, 1); !strings.Contains(lines, want) {
		t.Errorf("access log lacks %s:\n%s", want, lines)
	}
}

func TestGatewayMisconfigured(t *testing.T) {
	f := &Fetcher{Getenv: env(map[string]string{"gopher_proxy": "socks5://127.0.0.1:1080"})}
	_, err := f.Get(testCtx(t), "gopher://127.0.0.1/")
	if !errors.Is(err, ErrGateway) {
		t.Errorf("err = %v, want ErrGateway", err)
	}
}

func TestUnsupportedScheme(t *testing.T) {
	// wais has an opener among the standard ones: Register takes it away.
	f := &Fetcher{Getenv: noEnv()}
	f.Register("WAIS", nil)
	_, err := f.Get(testCtx(t), "wais://127.0.0.1/db")
	if !errors.Is(err, ErrUnsupportedScheme) || !strings.Contains(err.Error(), "wais_proxy") {
		t.Errorf("err = %v, want ErrUnsupportedScheme naming the gateway variables", err)
	}
}
