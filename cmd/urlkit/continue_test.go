package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// get -C - -o FILE continues FILE as curl -C - and wget -c do (issue 37):
// the tests against the real ProFTPD and nginx hold another tool's
// first 30% of an object and prove with the servers' logs that only the
// rest crossed the wire.

// continueServers is the real ProFTPD and nginx with an object of their
// own: the same random bytes under the same name on both.
type continueServers struct {
	body               []byte
	name               string
	ftpURL, httpURL    string
	xferlog, accessLog string // the servers' logs: ProFTPD's xferlog, nginx's access log
	ftpCommands        string // ProFTPD's command log
}

func newContinueServers(t *testing.T, size int) *continueServers {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_DIR", "FTP_LOG", "FTP_XFERLOG", "HTTP_PORT", "HTTP_DIR", "HTTP_LOG")
	s := &continueServers{
		body:        randomBytes(t, size),
		name:        fmt.Sprintf("continue-%d.bin", rand.Uint64()),
		xferlog:     e["FTP_XFERLOG"],
		accessLog:   e["HTTP_LOG"],
		ftpCommands: e["FTP_LOG"],
	}
	for _, dir := range []string{filepath.Join(e["FTP_DIR"], "anon", "pub"), filepath.Join(e["HTTP_DIR"], "www"), filepath.Join(e["HTTP_DIR"], "www", "norange")} {
		p := filepath.Join(dir, s.name)
		if err := os.WriteFile(p, s.body, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(p) })
	}
	s.ftpURL = "ftp://127.0.0.1:" + e["FTP_PORT"] + "/pub/" + s.name
	s.httpURL = "http://127.0.0.1:" + e["HTTP_PORT"] + "/" + s.name
	return s
}

// logTail returns a function that reads what was appended to the log
// at path since logTail was called.
func logTail(t *testing.T, path string) func() string {
	t.Helper()
	fi, err := os.Stat(path)
	var from int64
	if err == nil {
		from = fi.Size()
	}
	return func() string {
		// The servers write their log lines after the transfer: give
		// them a moment.
		deadline := time.Now().Add(2 * time.Second)
		for {
			b, err := os.ReadFile(path)
			if err == nil && int64(len(b)) > from || time.Now().After(deadline) {
				if int64(len(b)) < from {
					return ""
				}
				return string(b[from:])
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// xferBytes returns the byte count of each transfer of pub/name in
// ProFTPD's xferlog lines (wu-ftpd's format: the date's five fields,
// the transfer time, the remote host, the bytes sent, the file's path
// on the server...).
func xferBytes(log, name string) []string {
	var n []string
	for l := range strings.Lines(log) {
		if f := strings.Fields(l); len(f) > 8 && strings.HasSuffix(f[8], "/pub/"+name) {
			n = append(n, f[7])
		}
	}
	return n
}

// nginxAnswers returns the status and body bytes ("206 45876") of each
// GET of path in nginx's access log lines (the combined format).
func nginxAnswers(log, path string) []string {
	var a []string
	for l := range strings.Lines(log) {
		_, rest, ok := strings.Cut(l, `"GET `+path+` HTTP/1.1" `)
		if f := strings.Fields(rest); ok && len(f) >= 2 {
			a = append(a, f[0]+" "+f[1])
		}
	}
	return a
}

// heldFile writes data to a FILE name in a new directory, as another
// tool's download, and returns the directory and FILE's path.
func heldFile(t *testing.T, name string, data []byte, perm os.FileMode) (dir, out string) {
	t.Helper()
	dir = t.TempDir()
	out = filepath.Join(dir, name)
	if err := os.WriteFile(out, data, perm); err != nil {
		t.Fatal(err)
	}
	return dir, out
}

// onlyFile fails unless dir holds just the file name: no partial copy,
// no temporary file.
func onlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != name {
		t.Errorf("in the directory: %v, want only %s", entries, name)
	}
}

// The case: FILE holds the first 30% of the object, from
// another tool; get -C - -o FILE continues it to a byte-identical whole,
// and the servers sent only the missing 70% (65,536 bytes: 45,876 sent,
// not 65,536): ProFTPD's xferlog and nginx's access log (206) say so.
func TestGetContinueOtherToolsFile(t *testing.T) {
	s := newContinueServers(t, 65536)
	held := len(s.body) * 3 / 10
	for _, c := range []struct{ proto, url, log string }{
		{"ftp", s.ftpURL, s.xferlog},
		{"http", s.httpURL, s.accessLog},
	} {
		t.Run(c.proto, func(t *testing.T) {
			dir, out := heldFile(t, s.name, s.body[:held], 0o640)
			tail := logTail(t, c.log)
			cmds := logTail(t, s.ftpCommands)
			code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, c.url)
			got, _ := os.ReadFile(out)
			if code != exitOK || !bytes.Equal(got, s.body) {
				t.Fatalf("exit %d, %d bytes (identical: %v): %s", code, len(got), bytes.Equal(got, s.body), stderr)
			}
			if stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
			if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("FILE's mode: %v, %v", fi, err)
			}
			onlyFile(t, dir, s.name)
			rest := fmt.Sprint(len(s.body) - held)
			log := tail()
			t.Logf("%s log:\n%s", c.proto, log)
			switch c.proto {
			case "ftp":
				if n := xferBytes(log, s.name); len(n) != 1 || n[0] != rest {
					t.Errorf("xferlog: transfers of %v bytes, want [%s]:\n%s", n, rest, log)
				}
				if l := cmds(); !strings.Contains(l, fmt.Sprintf(`"REST %d" 350`, held)) || !strings.Contains(l, `"RETR `+s.name+`" 226`) {
					t.Errorf("no REST %d then RETR in ProFTPD's command log:\n%s", held, l)
				}
			case "http":
				if a := nginxAnswers(log, "/"+s.name); len(a) != 1 || a[0] != "206 "+rest {
					t.Errorf("nginx answered %v, want [206 %s]:\n%s", a, rest, log)
				}
			}
		})
	}
}

// A FILE that already holds the whole object is left alone, and get
// says so: FTP sends no RETR (SIZE says there is nothing left), nginx
// answers the range past the end with 416 and no body.
func TestGetContinueWholeFile(t *testing.T) {
	s := newContinueServers(t, 20000)
	for _, c := range []struct{ proto, url, log string }{
		{"ftp", s.ftpURL, s.ftpCommands},
		{"http", s.httpURL, s.accessLog},
	} {
		t.Run(c.proto, func(t *testing.T) {
			dir, out := heldFile(t, s.name, s.body, 0o644)
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			os.Chtimes(out, old, old)
			tail := logTail(t, c.log)
			code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, c.url)
			got, _ := os.ReadFile(out)
			if code != exitOK || !bytes.Equal(got, s.body) || !strings.Contains(stderr, fmt.Sprintf("%s is already complete (%d bytes): nothing to fetch", out, len(s.body))) {
				t.Fatalf("exit %d, %d bytes: %q", code, len(got), stderr)
			}
			if fi, err := os.Stat(out); err != nil || !fi.ModTime().Equal(old) {
				t.Errorf("FILE was touched: %v, %v", fi.ModTime(), err)
			}
			onlyFile(t, dir, s.name)
			log := tail()
			switch c.proto {
			case "ftp":
				if !strings.Contains(log, fmt.Sprintf(`"SIZE %s" 213`, s.name)) || strings.Contains(log, "RETR "+s.name) || strings.Contains(log, "REST ") {
					t.Errorf("ProFTPD's command log, want SIZE and no REST or RETR:\n%s", log)
				}
			case "http":
				if a := nginxAnswers(log, "/"+s.name); len(a) != 1 || !strings.HasPrefix(a[0], "416 ") {
					t.Errorf("nginx answered %v, want [416]:\n%s", a, log)
				}
			}
		})
	}
}

// A FILE longer than the object is not its start: the object comes
// again whole, into urlkit's partial copy, which replaces FILE once
// complete.
func TestGetContinueLargerFileRestarts(t *testing.T) {
	s := newContinueServers(t, 30000)
	for _, c := range []struct{ proto, url, log, want string }{
		{"ftp", s.ftpURL, s.xferlog, "more than the remote file's 30000 (SIZE)"},
		{"http", s.httpURL, s.accessLog, "more than the resource's 30000 (416 Requested Range Not Satisfiable)"},
	} {
		t.Run(c.proto, func(t *testing.T) {
			dir, out := heldFile(t, s.name, append(bytes.Clone(s.body), "and more"...), 0o644)
			tail := logTail(t, c.log)
			code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, c.url)
			got, _ := os.ReadFile(out)
			if code != exitOK || !bytes.Equal(got, s.body) || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "fetched again from the start") {
				t.Fatalf("exit %d, %d bytes: %s", code, len(got), stderr)
			}
			onlyFile(t, dir, s.name)
			log := tail()
			switch c.proto {
			case "ftp":
				if n := xferBytes(log, s.name); len(n) != 1 || n[0] != "30000" {
					t.Errorf("xferlog: transfers of %v bytes, want [30000]:\n%s", n, log)
				}
			case "http":
				if a := nginxAnswers(log, "/"+s.name); len(a) != 2 || !strings.HasPrefix(a[0], "416 ") || a[1] != "200 30000" {
					t.Errorf("nginx answered %v, want [416 200 30000]:\n%s", a, log)
				}
			}
		})
	}
}

// A server that answers the range with the whole object (200: nginx
// with byte ranges off; or the resource changed, If-Range) restarts the
// transfer into urlkit's partial copy; FILE is replaced once it is
// complete.
func TestGetContinue200Restarts(t *testing.T) {
	s := newContinueServers(t, 40000)
	url := strings.Replace(s.httpURL, "/"+s.name, "/norange/"+s.name, 1)
	dir, out := heldFile(t, s.name, s.body[:12000], 0o644)
	tail := logTail(t, s.accessLog)
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, url)
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, s.body) || !strings.Contains(stderr, "the server sent the whole resource (200 OK), not the rest from byte 12000") {
		t.Fatalf("exit %d, %d bytes: %s", code, len(got), stderr)
	}
	onlyFile(t, dir, s.name)
	if a := nginxAnswers(tail(), "/norange/"+s.name); len(a) != 1 || a[0] != "200 40000" {
		t.Errorf("nginx answered %v, want [200 40000]", a)
	}

	// urlkit's own copy, with the validator of another version: nginx
	// compares it with the file's ETag (If-Range) and sends it all.
	if err := os.WriteFile(out, []byte("an older FILE"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(partName(out), s.body[:10000], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(partName(out)+".validator", []byte(`"5f0-another"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tail = logTail(t, s.accessLog)
	code, _, stderr = runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, s.httpURL)
	got, _ = os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, s.body) || !strings.Contains(stderr, "fetched again from the start") {
		t.Fatalf("If-Range: exit %d, %d bytes: %s", code, len(got), stderr)
	}
	onlyFile(t, dir, s.name)
	if a := nginxAnswers(tail(), "/"+s.name); len(a) != 1 || a[0] != "200 40000" {
		t.Errorf("If-Range: nginx answered %v, want [200 40000]", a)
	}
}

// TYPE A cannot start at a byte (its offsets count CRLF text): a text
// FILE is fetched again whole, into the partial copy, and replaced.
func TestGetContinueTypeARestarts(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_DIR", "FTP_XFERLOG")
	text := strings.Repeat("a line of text\n", 1000)
	name := fmt.Sprintf("continue-%d.txt", rand.Uint64())
	src := filepath.Join(e["FTP_DIR"], "anon", "pub", name)
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(src) })
	dir, out := heldFile(t, name, []byte(text[:3000]), 0o644)
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, "ftp://127.0.0.1:"+e["FTP_PORT"]+"/pub/"+name)
	got, _ := os.ReadFile(out)
	if code != exitOK || string(got) != text || !strings.Contains(stderr, "a TYPE A transfer cannot be resumed") {
		t.Fatalf("exit %d, %d bytes: %s", code, len(got), stderr)
	}
	onlyFile(t, dir, name)
}

// When both exist, urlkit's own partial copy wins: the range starts
// after its bytes (with its validator), and FILE is replaced by the
// completed copy.
func TestGetContinueHiddenCopyWins(t *testing.T) {
	body := randomBytes(t, 50000)
	var ranges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ranges = append(ranges, r.Header.Get("Range")+" "+r.Header.Get("If-Range"))
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(body))
	}))
	defer srv.Close()
	dir, out := heldFile(t, "f.bin", body[:15000], 0o644)
	if err := os.WriteFile(partName(out), body[:25000], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(partName(out)+".validator", []byte(`"v1"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) {
		t.Fatalf("exit %d, %d bytes: %s", code, len(got), stderr)
	}
	if len(ranges) != 1 || ranges[0] != `bytes=25000- "v1"` {
		t.Errorf("requests: %q, want the range after the partial copy's 25000 bytes", ranges)
	}
	onlyFile(t, dir, "f.bin")
}

// A transfer that fails while it continues FILE leaves FILE intact: the
// bytes it held, then what arrived (the object's next bytes), nothing
// else and no other file; the next get -C - goes on from there. Data that
// is not the object (an FTP server that ignores REST and sends the file
// from its start, past SIZE) is cut off again: FILE holds what it held.
func TestGetContinueInterruptedKeepsFile(t *testing.T) {
	body := randomBytes(t, 100000)
	held, cutAt := 30000, 60000
	cut := true
	var ranges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ranges = append(ranges, r.Header.Get("Range")+" "+r.Header.Get("If-Range"))
		if !cut {
			http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(body))
			return
		}
		// The rest is announced, and cut at cutAt.
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", held, len(body)-1, len(body)))
		w.WriteHeader(http.StatusPartialContent)
		sendCut(w, body[held:], cutAt-held)
	}))
	defer srv.Close()
	dir, out := heldFile(t, "f.bin", body[:held], 0o644)
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ := os.ReadFile(out)
	if code != exitShort || !bytes.Equal(got, body[:cutAt]) || !strings.Contains(stderr, fmt.Sprintf("; %d bytes kept: get -C - continues", cutAt)) {
		t.Fatalf("cut: exit %d, %d bytes (the object's start: %v): %s", code, len(got), bytes.HasPrefix(body, got), stderr)
	}
	onlyFile(t, dir, "f.bin")
	cut = false
	code, _, stderr = runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ = os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) {
		t.Fatalf("continued: exit %d, %d bytes: %s", code, len(got), stderr)
	}
	if want := []string{fmt.Sprintf("bytes=%d- ", held), fmt.Sprintf("bytes=%d- ", cutAt)}; fmt.Sprint(ranges) != fmt.Sprint(want) {
		t.Errorf("requests %q, want %q (Range, no If-Range: no validator is known)", ranges, want)
	}
	onlyFile(t, dir, "f.bin")

	// REST answered with 350, then the file from its start: past SIZE.
	fake := restIgnored(t, 400)
	held400 := bytes.Repeat([]byte("x"), 400)
	if err := os.WriteFile(out, held400, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", false, "get", "-q", "--email", faultEmail, "-C", "-", "-o", out, "ftp://"+fake.Addr()+"/f.bin")
	got, _ = os.ReadFile(out)
	if code != exitFail || !bytes.Equal(got, held400) || !strings.Contains(stderr, "is cut back to the 400 bytes it held") {
		t.Errorf("REST ignored: exit %d, %d bytes: %s", code, len(got), stderr)
	}
	onlyFile(t, dir, "f.bin")
}
