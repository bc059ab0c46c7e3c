package fetch

// fetch.Transport through an http.Client, against the real servers of
// test.sh (ProFTPD, pygopherd, Gophernicus, INN, freeWAIS-sf, Prospero,
// nginx) and the file system.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// tget fetches rawURL through a Transport of f (nil: the zero
// Transport) with an http.Client, and returns the response with its
// body read.
func tget(t *testing.T, tr *Transport, method, rawURL string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	if tr == nil {
		tr = &Transport{}
	}
	req, err := http.NewRequestWithContext(testCtx(t), method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, rawURL, err)
	}
	return resp, body
}

// fetchError returns the *Error that a failure's response carries.
func fetchError(t *testing.T, resp *http.Response) *Error {
	t.Helper()
	var fe *Error
	e, ok := resp.Body.(error)
	if !ok || !errors.As(e, &fe) {
		t.Fatalf("status %d: the body carries no *fetch.Error", resp.StatusCode)
	}
	return fe
}

// transportCase is one request through the Transport and what must come
// back.
type transportCase struct {
	name   string
	url    string
	method string   // "" is GET
	hdr    []string // request header fields, name then value
	status int      // 0 is 200
	ctype  string   // Content-Type, exactly
	body   string   // the body exactly, unless contains is set
	has    []string // lines or parts the body must hold
	length int64    // Content-Length: 0 unchecked, -1 must be absent
	mod    bool     // Last-Modified must be present
	kind   error    // the *Error's kind, for a failure
}

func (tc transportCase) run(t *testing.T, tr *Transport) {
	t.Helper()
	method := tc.method
	if method == "" {
		method = http.MethodGet
	}
	resp, body := tget(t, tr, method, tc.url, tc.hdr...)
	want := tc.status
	if want == 0 {
		want = http.StatusOK
	}
	if resp.StatusCode != want {
		t.Fatalf("status %d, want %d; body %q", resp.StatusCode, want, clipBody(body))
	}
	if tc.ctype != "" {
		if got := resp.Header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("Content-Type %q, want %q", got, tc.ctype)
		}
	}
	if tc.body != "" && len(tc.has) == 0 && string(body) != tc.body {
		t.Errorf("body %q, want %q", clipBody(body), clipBody([]byte(tc.body)))
	}
	for _, h := range tc.has {
		if !bytes.Contains(body, []byte(h)) {
			t.Errorf("body %q lacks %q", clipBody(body), h)
		}
	}
	switch {
	case tc.length > 0 && (resp.ContentLength != tc.length || resp.Header.Get("Content-Length") != "" && resp.Header.Get("Content-Length") != strconv.FormatInt(tc.length, 10)):
		t.Errorf("Content-Length %d (%q), want %d", resp.ContentLength, resp.Header.Get("Content-Length"), tc.length)
	case tc.length < 0 && resp.ContentLength >= 0 && method == http.MethodGet:
		t.Errorf("Content-Length %d, want none", resp.ContentLength)
	}
	if tc.mod {
		lm, err := http.ParseTime(resp.Header.Get("Last-Modified"))
		if err != nil || lm.Before(time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)) || lm.After(time.Now().Add(time.Hour)) {
			t.Errorf("Last-Modified %q: %v", resp.Header.Get("Last-Modified"), err)
		}
	}
	if tc.kind != nil {
		fe := fetchError(t, resp)
		if !errors.Is(fe, tc.kind) {
			t.Errorf("error %v, want kind %v", fe, tc.kind)
		}
		if strings.TrimSpace(string(body)) != fe.Error() {
			t.Errorf("body %q, want the error's message %q", body, fe.Error())
		}
	}
}

func clipBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

func TestTransportFTP(t *testing.T) {
	e := realFTP(t)
	login := "ftp://" + e.user + "@" + e.host
	for _, tc := range []transportCase{
		{name: "text: TYPE A, the extension's type without its guessed charset", url: e.anon("/pub/hello.txt"), ctype: "text/plain", body: "Hello from anonymous FTP.\n"},
		{name: "binary: SIZE as Content-Length, MDTM as Last-Modified", url: e.anon("/pub/64k.bin"), ctype: "application/octet-stream", body: strings.Repeat("x", 65536), length: 65536, mod: true},
		{name: ";type=i of a text name: its bytes, SIZE", url: e.anon("/pub/lines.txt;type=i"), ctype: "text/plain", body: "one\ntwo\n\nfour\n", length: 14, mod: true},
		{name: "a directory: the NLST names as text", url: e.anon("/pub/"), ctype: "text/plain", has: []string{"hello.txt\n", "64k.bin\n"}, length: -1},
		{name: "a directory as JSON lines (Accept)", url: e.anon("/pub/"), hdr: []string{"Accept", "text/html, application/x-ndjson;q=0.9"}, ctype: "application/x-ndjson",
			has: []string{`{"name":"hello.txt","type":"file","size":26,"time":"`, `{"name":"sub dir","type":"dir"`}},
		{name: "HEAD: SIZE and MDTM, no data", url: e.anon("/pub/64k.bin"), method: http.MethodHead, length: 65536, mod: true},
		{name: "550: 404", url: e.anon("/pub/missing.txt"), status: http.StatusNotFound, kind: ErrNotFound},
		{name: "missing directory: 404", url: e.anon("/nodir/x.txt"), status: http.StatusNotFound, kind: ErrNotFound},
		{name: "a directory named as a file: 404", url: e.anon("/pub"), status: http.StatusNotFound, kind: ErrIsDirectory},
		{name: "a user without a password: 401", url: login + "/home.txt", status: http.StatusUnauthorized, kind: ErrNeedPassword},
		{name: "the password from Basic credentials", url: login + "/home.txt", hdr: []string{"Authorization", basic(e.user, e.pass)}, body: "in the login directory of " + e.user + "\n"},
		{name: "user and password from Basic credentials", url: "ftp://" + e.host + "/home.txt", hdr: []string{"Authorization", basic(e.user, e.pass)}, body: "in the login directory of " + e.user + "\n"},
		{name: "a wrong password: 530 is 401", url: login + "/home.txt", hdr: []string{"Authorization", basic(e.user, "wrong-pass-xyzzy")}, status: http.StatusUnauthorized, kind: ErrAccessDenied},
		{name: "CR LF in a command: 403, nothing sent", url: e.anon("/pub/a%0D%0ADELE%20b"), status: http.StatusForbidden, kind: ErrUnsafe},
		{name: "a blocked port: 403", url: "ftp://127.0.0.1:25/x", status: http.StatusForbidden, kind: ErrBlockedPort},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
}

// TestTransportPasswordNeverShown: a password given in the Basic
// credentials or the URL appears in no header or body of the answer,
// even when the login fails.
func TestTransportPasswordNeverShown(t *testing.T) {
	e := realFTP(t)
	const secret = "s3cr3t-never-shown"
	for _, url := range []string{"ftp://" + e.user + "@" + e.host + "/home.txt", "ftp://" + e.user + ":" + secret + "@" + e.host + "/home.txt"} {
		resp, body := tget(t, nil, http.MethodGet, url, "Authorization", basic(e.user, secret))
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", url, resp.StatusCode)
		}
		var hdr bytes.Buffer
		resp.Header.Write(&hdr)
		if bytes.Contains(body, []byte(secret)) || bytes.Contains(hdr.Bytes(), []byte(secret)) || strings.Contains(fetchError(t, resp).Error(), secret) {
			t.Errorf("the password shows: %s\n%s", hdr.String(), body)
		}
		if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, `Basic realm="ftp://127.0.0.1"`) {
			t.Errorf("WWW-Authenticate %q", got)
		}
	}
}

func basic(user, pass string) string {
	r, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	r.SetBasicAuth(user, pass)
	return r.Header.Get("Authorization")
}

func TestTransportGopher(t *testing.T) {
	base := realGopher(t)
	for _, tc := range []transportCase{
		{name: "menu: as the server sent it", url: base + "/1/", ctype: "application/gopher-menu", has: []string{"0hello\t/hello.txt\t", "1docs\t/docs\t"}, length: -1},
		{name: "text: still as sent", url: base + "/0/hello.txt", ctype: "text/plain", has: []string{"Hello"}, length: -1},
		{name: "binary item 9", url: base + "/9/bin/data.bin", ctype: "application/octet-stream", body: strings.Repeat("\x01", 4096)},
		{name: "GIF item g", url: base + "/g/bin/pixel.gif", ctype: "image/gif", has: []string{"GIF8"}},
		{name: "Gopher+ +N: Content-Length", url: base + "/9/bin/data.bin%09%09+", ctype: "application/octet-stream", body: strings.Repeat("\x01", 4096), length: 4096},
		{name: "HTML item h", url: base + "/h/docs/page.html", ctype: "text/html", has: []string{"<"}},
		{name: "a type 3 error item: 404", url: base + "/0/nope", status: http.StatusNotFound, kind: ErrNotFound},
		{name: "a Gopher+ error: 404", url: base + "/0/nope%09%09+", status: http.StatusNotFound, kind: ErrNotFound},
		{name: "the gopher-to-SMTP attack: 403", url: "gopher://127.0.0.1:25/0HELO", status: http.StatusForbidden, kind: ErrBlockedPort},
		{name: "POST: 405", url: base + "/1/", method: http.MethodPost, status: http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
}

func TestTransportGophernicus(t *testing.T) {
	base := realGophernicus(t)
	for _, tc := range []transportCase{
		{name: "menu with its . line", url: base + "/1/", ctype: "application/gopher-menu", has: []string{"0Hello\t", ".\r\n"}},
		{name: "text", url: base + "/0/hello.txt", ctype: "text/plain", has: []string{"Hello"}},
		{name: "search", url: base + "/7/cgi-bin/search%09foo", ctype: "application/gopher-menu", has: []string{"foo"}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
}

func TestTransportFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("text in a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := "file://" + filepath.ToSlash(dir)
	for _, tc := range []transportCase{
		{name: "text", url: base + "/a.txt", ctype: "text/plain", body: "text in a file\n", length: 15, mod: true},
		{name: "an image by its extension", url: base + "/p.png", ctype: "image/png", length: 8},
		{name: "a directory", url: base + "/", ctype: "text/plain; charset=utf-8", has: []string{"a.txt"}},
		{name: "missing: 404", url: base + "/missing.txt", status: http.StatusNotFound, kind: ErrNotFound},
		{name: "another host: 403", url: "file://elsewhere.invalid/etc/passwd", status: http.StatusForbidden, kind: ErrRemoteFile},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
}

func TestTransportNews(t *testing.T) {
	e := nntpEnv(t)
	server := "127.0.0.1:" + e["NNTP_PORT"]
	f := &Fetcher{Getenv: noEnv()}
	f.NNTP.Server = server
	tr := &Transport{Fetcher: f}
	nd := []string{"Accept", "application/x-ndjson"}
	for _, tc := range []transportCase{
		{name: "an article by message-id", url: "news:first@test.invalid", ctype: "message/rfc822", has: []string{"Message-ID: <first@test.invalid>\n", "\n\n"}},
		{name: "an article by number", url: "nntp://" + server + "/local.test/3", ctype: "message/rfc822", has: []string{"<cross@test.invalid>"}},
		{name: "a group's overview", url: "nntp://" + server + "/local.test", ctype: "text/plain", has: []string{"<first@test.invalid>", "<second@test.invalid>"}},
		{name: "a group's overview as JSON lines", url: "news:local.test", hdr: nd, ctype: "application/x-ndjson", has: []string{`"number":1,`, `"message_id":"\u003cfirst@test.invalid\u003e"`}},
		{name: "the group list as JSON lines", url: "news:*", hdr: nd, ctype: "application/x-ndjson", has: []string{`{"group":"local.test","high":3,"low":1,`}},
		{name: "mid: the article", url: "mid:second@test.invalid", ctype: "message/rfc822", has: []string{"References: <first@test.invalid>"}},
		{name: "430: 404", url: "news:nope@test.invalid", status: http.StatusNotFound, kind: ErrNotFound},
		{name: "411: 404", url: "nntp://" + server + "/local.nope", status: http.StatusNotFound, kind: ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, tr) })
	}
	t.Run("no news server: 400", func(t *testing.T) {
		transportCase{url: "news:local.test", status: http.StatusBadRequest, kind: ErrNeedInput}.run(t, &Transport{Fetcher: &Fetcher{Getenv: noEnv()}})
	})
}

func TestTransportWAIS(t *testing.T) {
	env := wt.ServerEnv(t, "WAIS_PORT", "WAIS_DIR")
	base := "wais://127.0.0.1:" + env["WAIS_PORT"]
	for _, tc := range []transportCase{
		{name: "search: the hits as text", url: base + "/test?gopher", ctype: "text/x-wais-hits", has: []string{"2 hits", "Alpha document about gophers", base + "/test/TEXT/%01"}},
		{name: "search: the hits as JSON lines", url: base + "/test?gopher", hdr: []string{"Accept", "application/x-ndjson"}, ctype: "application/x-ndjson", has: []string{`"headline":"Alpha document about gophers"`, `"url":"` + base + `/test/TEXT/%01`}},
		{name: "an unknown database: 404", url: base + "/nodb?gopher", status: http.StatusNotFound, kind: ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
	t.Run("a hit's document, with its length", func(t *testing.T) {
		_, hits := tget(t, nil, http.MethodGet, base+"/test?zeppelin", "Accept", "application/x-ndjson")
		var hit struct {
			URL    string `json:"url"`
			Length int64  `json:"length"`
		}
		if err := json.Unmarshal(bytes.SplitN(hits, []byte("\n"), 2)[0], &hit); err != nil || hit.URL == "" {
			t.Fatalf("hits %q: %v", hits, err)
		}
		want, err := os.ReadFile(filepath.Join(env["WAIS_DIR"], "corpus", "big.txt"))
		if err != nil {
			t.Fatal(err)
		}
		transportCase{url: hit.URL, ctype: "text/plain", body: string(want)}.run(t, nil)
	})
}

func TestTransportProspero(t *testing.T) {
	env := wt.ServerEnv(t, "PROSPERO_PORT")
	base := "prospero://127.0.0.1:" + env["PROSPERO_PORT"]
	for _, tc := range []transportCase{
		{name: "a directory as text", url: base + "/AFTP/pub", ctype: "text/x-prospero-listing", has: []string{"Prospero directory", "it's here.txt"}},
		{name: "a directory as JSON lines", url: base + "/AFTP/pub", hdr: []string{"Accept", "application/x-ndjson"}, ctype: "application/x-ndjson", has: []string{`"name":"it's here.txt"`}},
		{name: "no such directory: 404", url: base + "/AFTP/nonesuch", status: http.StatusNotFound, kind: ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
}

func TestTransportHTTP(t *testing.T) {
	e := realHTTP(t)
	for _, tc := range []transportCase{
		{name: "to http.DefaultTransport", url: e.base + "/hello.txt", ctype: "text/plain", body: "Hello from HTTP.\n"},
		{name: "the server's 404 as it is", url: e.base + "/nonesuch", status: http.StatusNotFound},
		{name: "a blocked port: 403, nothing sent", url: "http://127.0.0.1:25/", status: http.StatusForbidden, kind: ErrBlockedPort},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, nil) })
	}
	t.Run("Transport.HTTP carries http", func(t *testing.T) {
		var n atomic.Int32
		tr := &Transport{HTTP: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			n.Add(1)
			return http.DefaultTransport.RoundTrip(r)
		})}
		transportCase{url: e.base + "/hello.txt", body: "Hello from HTTP.\n"}.run(t, tr)
		if n.Load() != 1 {
			t.Errorf("Transport.HTTP called %d times", n.Load())
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestTransportProxyForm: a request a server received with an absolute
// URL on its request line (the proxy form) is fetched by that URL as the
// client wrote it.
func TestTransportProxyForm(t *testing.T) {
	base := realGopher(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := (&Transport{}).RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	defer srv.Close()
	proxy, _ := url.Parse(srv.URL)
	// net/http sends only http URLs to a proxy: the request line by hand.
	conn, err := net.Dial("tcp", proxy.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s/0/hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", base)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain" || !bytes.Contains(b, []byte("Hello")) {
		t.Errorf("%s %q %q", resp.Status, resp.Header.Get("Content-Type"), b)
	}
}

// TestTransportUpstreamFaults: an upstream that does not answer in time
// is 504, one that cannot be reached or breaks its protocol 502 (a
// scripted server: real servers do not stall or send garbage on
// demand).
func TestTransportUpstreamFaults(t *testing.T) {
	stall := wt.Start(t, wt.Expect("/x"), wt.Stall())
	garbage := wt.Start(t, wt.Send("SSH-2.0-OpenSSH"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	tr := &Transport{Fetcher: &Fetcher{Getenv: noEnv(), Timeout: 300 * time.Millisecond}}
	for _, tc := range []transportCase{
		{name: "a stalled gopher server: 504", url: "gopher://" + stall.Addr() + "/0/x", status: http.StatusGatewayTimeout, kind: ErrTimeout},
		{name: "nothing listening: 502", url: "gopher://" + closed + "/0/x", status: http.StatusBadGateway, kind: ErrConnect},
		{name: "not an NNTP server: 502", url: "nntp://" + garbage.Addr() + "/g", status: http.StatusBadGateway, kind: ErrProtocol},
		{name: "no opener: 501", url: "telnet://127.0.0.1/", status: http.StatusNotImplemented, kind: ErrUnsupportedScheme},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, tr) })
	}
}

// TestTransportStatusOf: every kind of failure has the status the
// Transport's documentation gives it.
func TestTransportStatusOf(t *testing.T) {
	for _, tc := range []struct {
		kind   error
		scheme string
		want   int
	}{
		{ErrInvalidURL, "ftp", 400}, {ErrBadMessage, "news", 400}, {ErrNeedInput, "gopher", 400},
		{ErrNeedPassword, "ftp", 401}, {ErrAccessDenied, "ftp", 401}, {ErrAccessDenied, "file", 403},
		{ErrUnsafe, "ftp", 403}, {ErrBlockedPort, "gopher", 403}, {ErrRemoteFile, "file", 403}, {ErrSpecialFile, "file", 403},
		{ErrNotFound, "ftp", 404}, {ErrIsDirectory, "ftp", 404},
		{ErrUnsupportedScheme, "telnet", 501},
		{ErrConnect, "ftp", 502}, {ErrProtocol, "gopher", 502}, {ErrShortTransfer, "ftp", 502}, {ErrStatus, "ftp", 502},
		{ErrLongTransfer, "ftp", 502}, {ErrTooLarge, "ftp", 502}, {ErrNullCWD, "ftp", 502}, {ErrTLS, "https", 502},
		{ErrCertificate, "https", 502}, {ErrRedirect, "http", 502}, {ErrGateway, "gopher", 502}, {nil, "ftp", 502},
		{ErrTimeout, "ftp", 504}, {ErrConnectTimeout, "ftp", 504}, {ErrMaxTime, "ftp", 504}, {ErrTooSlow, "ftp", 504},
	} {
		if got := statusOf(&Error{Kind: tc.kind, Scheme: tc.scheme}); got != tc.want {
			t.Errorf("%v (%s): %d, want %d", tc.kind, tc.scheme, got, tc.want)
		}
	}
}
