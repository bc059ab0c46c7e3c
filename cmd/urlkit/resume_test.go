package main

import (
	"bytes"
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
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

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	crand.Read(b)
	return b
}

// sendCut answers with body's Content-Length and its first cut bytes,
// then closes the connection.
func sendCut(w http.ResponseWriter, body []byte, cut int) {
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.Write(body[:cut])
	rc := http.NewResponseController(w)
	rc.Flush()
	if c, _, err := rc.Hijack(); err == nil {
		c.Close()
	}
}

// An HTTP transfer cut at 60% leaves no file but a partial copy; get -C -
// continues it with Range and If-Range and the file is byte-identical.
// When the resource changed meanwhile (another ETag) the server sends it
// whole and get starts again cleanly.
func TestGetResumeHTTP(t *testing.T) {
	body := randomBytes(t, 1<<20)
	cut := len(body) * 6 / 10
	etag := `"v1"`
	var n atomic.Int32
	var ranges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ranges = append(ranges, r.Header.Get("Range")+" "+r.Header.Get("If-Range"))
		w.Header().Set("ETag", etag)
		if n.Add(1) == 1 {
			sendCut(w, body, cut)
			return
		}
		http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(body))
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "f.bin")
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	if code != exitShort || !strings.Contains(stderr, fmt.Sprintf("; %d bytes kept: get -C - continues", cut)) {
		t.Fatalf("cut: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the cut transfer left the file")
	}
	code, _, stderr = runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) {
		t.Fatalf("resume: exit %d, %d bytes (identical: %v): %s", code, len(got), bytes.Equal(got, body), stderr)
	}
	if want := fmt.Sprintf("bytes=%d- %s", cut, etag); ranges[1] != want {
		t.Errorf("the resuming request: %q, want %q", ranges[1], want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the directory: %v", entries)
	}

	// The resource changes between the cut and the resume: If-Range
	// does not match, the server sends it all (200), get starts again.
	n.Store(0)
	os.Remove(out)
	code, _, _ = runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	if code != exitShort {
		t.Fatalf("second cut: exit %d", code)
	}
	body = randomBytes(t, 1<<20)
	etag = `"v2"`
	code, _, stderr = runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ = os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) || !strings.Contains(stderr, "fetched again from the start") {
		t.Fatalf("changed resource: exit %d, identical %v: %s", code, bytes.Equal(got, body), stderr)
	}
}

// A resumed HTTP transfer answered with a part that stops short of the
// resource's end (Content-Range "bytes CUT-LAST/LENGTH", LAST+1 <
// LENGTH) is refused: saved, the file would look whole.
func TestGetResumeHTTPShortRange(t *testing.T) {
	body := randomBytes(t, 1<<16)
	cut := len(body) / 2
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if n.Add(1) == 1 {
			sendCut(w, body, cut)
			return
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", cut, cut+9, len(body)))
		w.Header().Set("Content-Length", "10")
		w.WriteHeader(http.StatusPartialContent)
		w.Write(body[cut : cut+10])
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "f.bin")
	if code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin"); code != exitShort {
		t.Fatalf("cut: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	if code != exitFail || !strings.Contains(stderr, "the part ends before the resource does") {
		t.Errorf("short range: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the short range left the file")
	}
}

// A server that answers REST with 350 and then sends the whole file
// anyway: the data goes on past SIZE, so the partial copy it would extend
// is not the file's start plus its rest; it is removed, not offered for
// another -C -.
func TestGetResumeFTPRestIgnored(t *testing.T) {
	srv := restIgnored(t, 4)
	dir := t.TempDir()
	out := filepath.Join(dir, "f.bin")
	if err := os.WriteFile(partName(out), []byte("xxxx"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", faultEmail, "-C", "-", "-o", out, "ftp://"+srv.Addr()+"/f.bin")
	if code != exitFail || !strings.Contains(stderr, "past the 996 bytes that SIZE announced") || !strings.Contains(stderr, "the partial copy is removed") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the directory: %v", entries)
	}
}

// restIgnored is an FTP server whose f.bin has 1000 bytes (SIZE) and
// that answers REST rest with 350, then sends all 1000 from the start.
func restIgnored(t *testing.T, rest int) *wt.Server {
	var d wt.Data
	return wt.Start(t, wt.Send("220 fake server"),
		wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS "+faultEmail), wt.Send("230 ok"),
		wt.Expect("TYPE I"), wt.Send("200 ok"), wt.Expect("SIZE f.bin"), wt.Send("213 1000"),
		wt.Expect("EPSV"), wt.EPSV(&d), wt.Expect(fmt.Sprintf("REST %d", rest)), wt.Sendf("350 restarting at %d", rest),
		wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection"),
		wt.OnData(&d, wt.SendRaw(strings.Repeat("y", 1000)), wt.Close()),
		wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))
}

// An FTP transfer cut at 60% (a fault server resets the data connection)
// is continued against the real ProFTPD with REST: the file is
// byte-identical, and the server's log shows the REST.
func TestGetResumeFTP(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_DIR", "FTP_LOG")
	body := randomBytes(t, 256<<10)
	cut := len(body) * 6 / 10
	name := fmt.Sprintf("resume-%d.bin", rand.Uint64())
	src := filepath.Join(e["FTP_DIR"], "anon", "pub", name)
	if err := os.WriteFile(src, body, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(src) })
	var d wt.Data
	fake := wt.Start(t,
		wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS resume@example.org"), wt.Send("230 ok"),
		wt.Expect("CWD pub"), wt.Send("250 ok"),
		wt.Expect("TYPE I"), wt.Send("200 ok"), wt.Expect("SIZE "+name), wt.Send(fmt.Sprintf("213 %d", len(body))),
		wt.Expect("EPSV"), wt.EPSV(&d), wt.Expect("RETR "+name), wt.Send("150 Opening BINARY mode data connection"),
		wt.OnData(&d, wt.SendRaw(string(body[:cut])), wt.Pause(20*time.Millisecond), wt.Reset()),
		wt.Send("426 aborted"), wt.Expect("QUIT"), wt.Send("221 bye"))
	dir := t.TempDir()
	out := filepath.Join(dir, name)
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--email", "resume@example.org", "-C", "-", "-o", out, "ftp://"+fake.Addr()+"/pub/"+name)
	if code != exitShort || !strings.Contains(stderr, fmt.Sprintf("; %d bytes kept", cut)) {
		t.Fatalf("cut: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", false, "get", "-q", "--trace", "--email", "resume@example.org", "-C", "-", "-o", out, "ftp://127.0.0.1:"+e["FTP_PORT"]+"/pub/"+name)
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) {
		t.Fatalf("resume: exit %d, %d bytes: %s", code, len(got), stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("> REST %d\n", cut)) {
		t.Errorf("no REST %d in the trace: %s", cut, stderr)
	}
	log, _ := os.ReadFile(e["FTP_LOG"])
	if !strings.Contains(string(log), fmt.Sprintf(`"REST %d" 350`, cut)) {
		t.Errorf("ProFTPD's log has no REST %d", cut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the directory: %v", entries)
	}
}

// Gopher cannot resume: get says so and fetches it all again.
func TestGetResumeGopher(t *testing.T) {
	port := wt.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	dir := t.TempDir()
	out := filepath.Join(dir, "hello.txt")
	if err := os.WriteFile(partName(out), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, "gopher://127.0.0.1:"+port+"/0/hello.txt")
	got, _ := os.ReadFile(out)
	if code != exitOK || bytes.HasPrefix(got, []byte("stale")) || !strings.Contains(stderr, "gopher URLs cannot resume a transfer") {
		t.Errorf("exit %d, %q: %s", code, got, stderr)
	}
}

// get -C - finds its partial copy (and the validator it sends as
// If-Range) by a fixed name in the target's directory, which may be a
// shared one such as /tmp. Whatever another user planted there, a
// symbolic link or a hard link to a file it names, is refused, and that
// file is neither written, nor read into a request, nor given the
// target's mode or owner.
func TestGetResumeRefusesPlantedPart(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.txt")
	if err := os.WriteFile(src, []byte("new data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcURL := "file://" + src
	for _, plant := range []string{"symlink", "dangling symlink", "hard link"} {
		t.Run(plant, func(t *testing.T) {
			d := t.TempDir()
			victim := filepath.Join(d, "victim")
			if err := os.WriteFile(victim, []byte("SECRET\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(d, "out")
			var err error
			switch plant {
			case "symlink":
				err = os.Symlink(victim, partName(out))
			case "dangling symlink":
				err = os.Symlink(filepath.Join(d, "made-by-get"), partName(out))
			case "hard link":
				err = os.Link(victim, partName(out))
			}
			if err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srcURL)
			if code == exitOK || !strings.Contains(stderr, "not one get -C - made: remove it") {
				t.Errorf("exit %d: %s", code, stderr)
			}
			if b, err := os.ReadFile(victim); err != nil || string(b) != "SECRET\n" {
				t.Errorf("victim: %q, %v", b, err)
			}
			if fi, err := os.Stat(victim); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("victim mode: %v, %v", fi.Mode(), err)
			}
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("%s was written", out)
			}
			if _, err := os.Lstat(filepath.Join(d, "made-by-get")); err == nil {
				t.Errorf("the dangling link's target was created")
			}
		})
	}

	// A validator planted as a link is not read (its target would go to
	// the server in If-Range) and is replaced, not written through.
	d := t.TempDir()
	out := filepath.Join(d, "out")
	secret := filepath.Join(d, "secret")
	if err := os.WriteFile(secret, []byte("SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, partName(out)+".validator"); err != nil {
		t.Fatal(err)
	}
	part, r, err := openResume(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Validator != "" {
		t.Errorf("validator read through a link: %q", r.Validator)
	}
	if err := part.startAt(0, `"etag"`); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(partName(out) + ".validator"); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("validator: %v, %v", fi, err)
	}
	part.abort()
	if b, _ := os.ReadFile(secret); string(b) != "SECRET\n" {
		t.Errorf("written through the validator link: %q", b)
	}
}
