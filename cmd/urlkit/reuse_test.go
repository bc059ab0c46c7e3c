package main

import (
	"fmt"
	"math/rand/v2"
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

// 20 URLs on one FTP server and login use one control connection and one
// login: ProFTPD's session log (one process per connection) proves it.
// The URLs go to different directories, relative and absolute, so each
// one's CWDs start from the login directory again (RFC 1738 3.2.2).
func TestGetReusesFTPSession(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS", "FTP_DIR", "FTP_SESSION_LOG")
	tag := fmt.Sprintf("reuse-%d", rand.Uint64())
	home := filepath.Join(e["FTP_DIR"], "root", "home", e["FTP_USER"])
	for _, d := range []string{filepath.Join(home, tag), filepath.Join(e["FTP_DIR"], "root", "pub", tag)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	base := "ftp://" + e["FTP_USER"] + ":" + e["FTP_PASS"] + "@127.0.0.1:" + e["FTP_PORT"]
	var args []string
	want := map[string]string{}
	dir := t.TempDir()
	for i := range 20 {
		name := fmt.Sprintf("f%02d.txt", i)
		content := fmt.Sprintf("file %d of %s\n", i, tag)
		var url, local string
		if i%2 == 0 { // relative to the login directory
			local = filepath.Join(home, tag, name)
			url = base + "/" + tag + "/" + name
		} else { // absolute (%2F), then back
			local = filepath.Join(e["FTP_DIR"], "root", "pub", tag, name)
			url = base + "/%2Fpub/" + tag + "/" + name
		}
		if err := os.WriteFile(local, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name)
		want[out] = content
		args = append(args, "-o", out, url)
	}
	code, _, stderr := runCLI(t, "", false, append([]string{"get", "-q"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for out, content := range want {
		if got, _ := os.ReadFile(out); string(got) != content {
			t.Errorf("%s: %q, want %q", out, got, content)
		}
	}
	// The session log: the pids of the sessions that fetched our files,
	// and their logins. ProFTPD logs a command after it has sent the
	// reply, so the log may lag the CLI's exit by a moment: read it until
	// the QUIT of a session with our files is there, for at most 10 s.
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if log, err = os.ReadFile(e["FTP_SESSION_LOG"]); err != nil {
			t.Fatal(err)
		}
		if quitLogged(string(log), tag) || time.Now().After(deadline) {
			break
		}
	}
	pids := map[string]bool{}
	retrs := 0
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, `"RETR f`) && strings.HasSuffix(line, " 226") {
			pid, _, _ := strings.Cut(line, " ")
			if p := pidLines(string(log), pid); strings.Contains(p, tag) {
				pids[pid] = true
				retrs++
			}
		}
	}
	if len(pids) != 1 || retrs != 20 {
		t.Fatalf("%d RETRs of our files in %d sessions %v, want 20 in one", retrs, len(pids), pids)
	}
	for pid := range pids {
		session := pidLines(string(log), pid)
		if n := strings.Count(session, `"USER `); n != 1 {
			t.Errorf("session %s logged in %d times:\n%s", pid, n, session)
		}
		if n := strings.Count(session, `"PWD"`); n != 1 {
			t.Errorf("session %s asked PWD %d times", pid, n)
		}
		if !strings.Contains(session, `"QUIT" 221`) {
			t.Errorf("session %s did not end with QUIT", pid)
		}
		t.Logf("the session:\n%s", session)
	}
}

// quitLogged reports whether a session that named tag has logged its QUIT.
func quitLogged(log, tag string) bool {
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"QUIT" 221`) {
			pid, _, _ := strings.Cut(line, " ")
			if strings.Contains(pidLines(log, pid), tag) {
				return true
			}
		}
	}
	return false
}

// A run of news URLs to one server and login is one NNTP session (and a
// second login its own): INN is reached through a relay that counts the
// connections and records what the client sends on each.
func TestGetReusesNNTPConnection(t *testing.T) {
	e := wt.ServerEnv(t, "NNTP_PORT", "NNTP_USER", "NNTP_PASS")
	rel := wt.NewRelay(t, "127.0.0.1:"+e["NNTP_PORT"])
	login := "nntp://" + e["NNTP_USER"] + ":" + e["NNTP_PASS"] + "@" + rel.Addr() + "/local.general"
	args := []string{"get", "--nntp", rel.Addr(),
		"news:local.test", "news:first@test.invalid", "nntp://" + rel.Addr() + "/local.test/2", login, "news:*", "news:local.test"}
	code, out, stderr := runCLI(t, "", false, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Subject: First test article", "Subject: Re: First test article", "local.test 3 1 y", "<cross@test.invalid>"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	var sessions []string
	for _, b := range rel.Conns(t) {
		sessions = append(sessions, string(b))
	}
	if len(sessions) != 2 {
		t.Fatalf("%d connections, want 2 (one per login):\n%q", len(sessions), sessions)
	}
	for _, s := range sessions {
		logins := strings.Count(s, "AUTHINFO USER ")
		if strings.Count(s, "QUIT\r\n") != 1 || !strings.HasSuffix(s, "QUIT\r\n") || strings.Count(s, "CAPABILITIES\r\n") > 2+logins {
			t.Errorf("a session does not greet once and end with one QUIT:\n%q", s)
		}
	}
	if n := strings.Count(sessions[0]+sessions[1], "AUTHINFO USER "); n != 1 {
		t.Errorf("%d logins, want 1", n)
	}
}

// pidLines returns the lines of the session log of one process.
func pidLines(log, pid string) string {
	var b strings.Builder
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, pid+" ") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// Many HTTP URLs to one server share one keep-alive connection (net/http's
// pool, which get does not defeat).
func TestGetHTTPKeepAlive(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s\n", r.URL.Path)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	var args []string
	for i := range 20 {
		args = append(args, fmt.Sprintf("%s/f%d", srv.URL, i))
	}
	code, out, stderr := runCLI(t, "", false, append([]string{"get"}, args...)...)
	if code != exitOK || strings.Count(out, "\n") != 20 {
		t.Fatalf("exit %d %q: %s", code, out, stderr)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 20 URLs, want 1", n)
	}
}
