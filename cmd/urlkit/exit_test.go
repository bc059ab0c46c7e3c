package main

import (
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// Each exit status of get (exit.go) produced by what causes it: fault
// servers for what a real server will not do on demand, the real
// ProFTPD, nginx and pygopherd for the rest. (18 short transfer and 28
// timeout are in the fault matrix and TestGetNoPartialFile, 23 in the
// output file tests, 63 in TestGetLimitFlags.)
func TestGetExitCodes(t *testing.T) {
	stall := func(t *testing.T) string {
		return "gopher://" + wt.Start(t, wt.Expect("/f"), wt.Stall()).Addr() + "/9/f"
	}
	status503 := func(t *testing.T) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/f"
	}
	for _, tc := range []struct {
		name  string
		url   func(t *testing.T) string
		flags []string
		exit  int
		say   string
	}{
		{"usage", func(*testing.T) string { return "file:///x" }, []string{"--parallel-max", "0"}, exitUsage, "--parallel-max 0"},
		{"usage: -C - with --compressed", func(*testing.T) string { return "http://127.0.0.1:1/x" }, []string{"-C", "-", "-o", "x", "--compressed"}, exitUsage, "-C - cannot continue a --compressed transfer"},
		{"unparsable URL", func(*testing.T) string { return "ftp://a b/" }, nil, exitURLRefused, "offset 7"},
		{"unsafe URL", func(*testing.T) string { return "ftp://127.0.0.1/a%0D%0ADELE%20b" }, nil, exitURLRefused, "%0D decodes to CR"},
		{"relative reference", func(*testing.T) string { return "/etc/hostname" }, nil, exitURLRefused, "offset 0: not an absolute URL"},
		{"relative reference, -I", func(*testing.T) string { return "notaurl" }, []string{"-I"}, exitURLRefused, "offset 0: not an absolute URL"},
		{"relative reference, --list", func(*testing.T) string { return "notaurl" }, []string{"--list"}, exitURLRefused, "offset 0: not an absolute URL"},
		// An empty host would be this machine (Go dials ":80").
		{"empty host", func(*testing.T) string { return "https:///x" }, nil, exitURLRefused, "offset 8: empty host"},
		{"TLS to a plain HTTP server", func(t *testing.T) string {
			return "https://" + wt.Start(t, wt.SendRaw("HTTP/1.1 400 Bad Request\r\n\r\n"), wt.Close()).Addr() + "/"
		}, nil, exitTLS, "TLS handshake failed"},
		{"self-signed certificate", func(t *testing.T) string {
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
			t.Cleanup(srv.Close)
			return srv.URL + "/"
		}, nil, exitCertificate, "certificate is not trusted"},
		{"blocked port", func(*testing.T) string { return "gopher://127.0.0.1:25/" }, nil, exitURLRefused, "--allow-port 25"},
		{"connection refused", func(t *testing.T) string { return "http://" + closedPort(t) + "/" }, nil, exitConnect, "cannot connect"},
		{"timeout", stall, []string{"--timeout", "300ms"}, exitTimeout, "timed out"},
		{"HTTP 503", status503, nil, exitHTTPStatus, "HTTP 503"},
		{"retries exhausted", status503, []string{"--retry", "2", "--retry-delay", "10ms"}, exitHTTPStatus, "retry 2 of 2"},
		{"ProFTPD: missing file", func(t *testing.T) string {
			return "ftp://127.0.0.1:" + wt.ServerEnv(t, "FTP_PORT")["FTP_PORT"] + "/pub/no-such-file.bin"
		}, nil, exitRemoteNoent, "550"},
		{"ProFTPD: wrong password", func(t *testing.T) string {
			e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER")
			return "ftp://" + e["FTP_USER"] + ":wrong-pw@127.0.0.1:" + e["FTP_PORT"] + "/home.txt"
		}, nil, exitLogin, "530"},
		{"ProFTPD: user without password, no terminal", func(t *testing.T) string {
			e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER")
			return "ftp://" + e["FTP_USER"] + "@127.0.0.1:" + e["FTP_PORT"] + "/home.txt"
		}, nil, exitLogin, "password required"},
		{"INN: wrong password", func(t *testing.T) string {
			e := wt.ServerEnv(t, "NNTP_PORT", "NNTP_USER")
			return "nntp://" + e["NNTP_USER"] + ":wrong-pw@127.0.0.1:" + e["NNTP_PORT"] + "/local.test"
		}, nil, exitLogin, "481"},
		{"rlogin: login refused", func(t *testing.T) string {
			// RFC 1282: "\0" then three NUL-terminated strings; then
			// the server's refusal, "\1" and a message.
			return "rlogin://u@" + wt.Start(t, wt.Func(func(s *wt.Session) error {
				b := make([]byte, 1)
				for nuls := 0; nuls < 4; {
					if _, err := s.Conn.Read(b); err != nil {
						return err
					}
					if b[0] == 0 {
						nuls++
					}
				}
				_, err := s.Conn.Write([]byte("\x01Permission denied.\r\n"))
				return err
			}), wt.Close()).Addr() + "/"
		}, nil, exitLogin, "Permission denied."},
		{"usage: -o with a session", func(*testing.T) string { return "telnet://127.0.0.1:1/" }, []string{"-o", "x"}, exitUsage, "-o, -O and -C - do not apply"},
		{"nginx: missing file", func(t *testing.T) string {
			return "http://127.0.0.1:" + wt.ServerEnv(t, "HTTP_PORT")["HTTP_PORT"] + "/no-such-file"
		}, nil, exitHTTPStatus, "404"},
		{"pygopherd: missing selector", func(t *testing.T) string {
			return "gopher://127.0.0.1:" + wt.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"] + "/0/no-such-file.txt"
		}, nil, exitRemoteNoent, "not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"get", "-q", "--email", "exit@example.org"}, tc.flags...)
			code, _, stderr := runCLI(t, "", false, append(args, tc.url(t))...)
			if code != tc.exit || !strings.Contains(stderr, tc.say) {
				t.Errorf("exit %d, want %d; stderr %q, want %q in it", code, tc.exit, stderr, tc.say)
			}
		})
	}
}

// A server that fails twice (503, then a reset in the middle of the
// body) and then succeeds: --retry tries again, the file is whole.
func TestGetRetryTransient(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case 2:
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write([]byte(body[:len(body)*6/10]))
			// Cut the connection at 60%.
			rc := http.NewResponseController(w)
			rc.Flush()
			if c, _, err := rc.Hijack(); err == nil {
				c.(*net.TCPConn).SetLinger(0)
				c.Close()
			}
		default:
			w.Write([]byte(body))
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "f")
	start := time.Now()
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--retry", "3", "-o", out, srv.URL+"/f")
	if code != exitOK || n.Load() != 3 {
		t.Fatalf("exit %d after %d requests: %s", code, n.Load(), stderr)
	}
	if strings.Count(stderr, "; retry ") != 2 || !strings.Contains(stderr, "HTTP 503") || !strings.Contains(stderr, "short transfer") {
		t.Errorf("stderr %q, want the two failures and their retries", stderr)
	}
	got, _ := os.ReadFile(out)
	if sha256.Sum256(got) != sha256.Sum256([]byte(body)) {
		t.Errorf("file of %d bytes is not the body of %d", len(got), len(body))
	}
	// Retry-After: 0 for the 503, then the backoff's first second (with
	// jitter) for the reset.
	if d := time.Since(start); d < time.Second || d > 5*time.Second {
		t.Errorf("took %v, want the backoff's 1-1.25s", d)
	}
}

// A permanent failure is never retried.
func TestGetNoRetryPermanent(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	code, _, stderr := runCLI(t, "", false, "get", "--retry", "5", "--retry-delay", "1ms", srv.URL+"/f")
	if code != exitHTTPStatus || n.Load() != 1 || strings.Contains(stderr, "retry") {
		t.Errorf("exit %d after %d requests: %s", code, n.Load(), stderr)
	}
}

// With many URLs the exit status is that of the last URL that failed,
// in input order, also when they run in parallel; on a terminal each URL
// has its summary line.
func TestGetManyExit(t *testing.T) {
	ok := source(t, "fine\n")
	missing := "file:///no/such/file"
	unsafe := "ftp://127.0.0.1:9/x%0Dy"
	for _, par := range [][]string{nil, {"-Z"}} {
		code, _, stderr := runCLI(t, "", false, append([]string{"get"}, append(par, unsafe, missing, ok)...)...)
		if code != exitRemoteNoent {
			t.Errorf("%v: exit %d, want %d (the last failure): %s", par, code, exitRemoteNoent, stderr)
		}
		code, _, stderr = runCLI(t, "", false, append([]string{"get"}, append(par, missing, unsafe, ok)...)...)
		if code != exitURLRefused {
			t.Errorf("%v: exit %d, want %d (the last failure): %s", par, code, exitURLRefused, stderr)
		}
	}
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", true, "get", "-o", filepath.Join(dir, "f"), ok, missing)
	if code != exitRemoteNoent || !strings.Contains(stderr, `-> `+filepath.Join(dir, "f")+`: 5 bytes in `) || !strings.Contains(stderr, `"file:///no/such/file": failed (exit 78)`) {
		t.Errorf("exit %d; stderr %q, want a summary per URL", code, stderr)
	}
}

// -Z with --trace: many FTP transfers at once on the real ProFTPD, each
// file whole, the shared standard error written safely (go test -race).
func TestGetParallelFTP(t *testing.T) {
	port := wt.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
	dir := t.TempDir()
	args := []string{"get", "-Z", "--parallel-max", "4", "--trace", "--output-dir", dir}
	for i := range 8 {
		args = append(args, "-o", fmt.Sprintf("f%d", i), "ftp://127.0.0.1:"+port+"/pub/64k.bin")
	}
	code, _, stderr := runCLI(t, "", false, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for i := range 8 {
		if fi, err := os.Stat(filepath.Join(dir, fmt.Sprintf("f%d", i))); err != nil || fi.Size() != 65536 {
			t.Errorf("f%d: %v", i, err)
		}
	}
	if n := strings.Count(stderr, "> USER anonymous"); n < 1 || n > 4 {
		t.Errorf("%d logins for 8 URLs with 4 at a time, want 1 to 4", n)
	}
}

// source writes a file to fetch and returns its file: URL.
func source(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "src.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + p
}

// send fails with get's numbers: a URL refused 3, a server that cannot
// be reached 7 (it exited 1 for everything).
func TestSendExitCodes(t *testing.T) {
	code, _, stderr := runCLI(t, "body\n", false, "send", "--smtp", closedPort(t), "--from", "me@example.org", "mailto:you@example.org")
	if code != exitConnect || !strings.Contains(stderr, "cannot connect") {
		t.Errorf("refused: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "body\n", false, "send", "mailto:you@exa mple.org")
	if code != exitURLRefused {
		t.Errorf("bad URL: exit %d: %s", code, stderr)
	}
	// An article whose own Newsgroups is not the URL's group: refused
	// before connecting (the port is closed), a message at fault, not
	// the URL.
	article := "From: Me <me@example.org>\nNewsgroups: local.test\nSubject: s\n\nhello\n"
	code, _, stderr = runCLI(t, article, false, "send", "--nntp", closedPort(t), "news:local.post")
	if code != exitFail || !strings.Contains(stderr, `message refused: nntp: bad article: line 2: Newsgroups: "local.test" is not the "local.post" asked for`) {
		t.Errorf("other newsgroups: exit %d: %s", code, stderr)
	}
	// Larger than send takes: 63, with no hint of get's --max-filesize.
	code, _, stderr = runCLI(t, strings.Repeat(strings.Repeat("x", 99)+"\n", 34<<20/100), false, "send", "--smtp", closedPort(t), "--from", "me@example.org", "mailto:you@example.org")
	if code != exitTooLarge || strings.Contains(stderr, "--max-filesize") {
		t.Errorf("too large: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "body\n", false, "send", "notaurl")
	if code != exitURLRefused || !strings.Contains(stderr, "offset 0: not an absolute URL") {
		t.Errorf("relative reference: exit %d: %s", code, stderr)
	}
}
