package main

import (
	"encoding/json"
	"strings"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// --list against ProFTPD: its FEAT lists MLST, so MLSD, parsed.
func TestGetListProFTPD(t *testing.T) {
	port := wt.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
	code, out, stderr := runCLI(t, "", false, "get", "--trace", "--list", "--json", "ftp://127.0.0.1:"+port+"/pub/")
	if code != exitOK || !strings.Contains(stderr, "> MLSD\n") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			Name, Type, Time string
			Size             *int64
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		seen[e.Name] = true
		if e.Name == "64k.bin" && (e.Type != "file" || e.Size == nil || *e.Size != 65536 || e.Time == "") {
			t.Errorf("64k.bin: %+v", e)
		}
		if e.Name == "sub dir" && e.Type != "dir" {
			t.Errorf("sub dir: %+v", e)
		}
	}
	if !seen["64k.bin"] || !seen["sub dir"] || seen["."] {
		t.Errorf("entries %v", seen)
	}
	// Without --list a trailing / stays NLST (RFC 1738).
	_, _, stderr = runCLI(t, "", false, "get", "--trace", "ftp://127.0.0.1:"+port+"/pub/")
	if !strings.Contains(stderr, "> NLST\n") || strings.Contains(stderr, "MLSD") {
		t.Errorf("the default listing: %s", stderr)
	}
}

// A server without MLSD: LIST in Unix and DOS formats; one that refuses
// LIST too: NLST.
func TestGetListFallbacks(t *testing.T) {
	login := func() []wt.Step {
		return []wt.Step{wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS list@example.org"), wt.Send("230 ok"),
			wt.Expect("CWD d"), wt.Send("250 ok"), wt.Expect("FEAT"), wt.Send("211-Features:"), wt.Send(" SIZE"), wt.Send("211 End")}
	}
	listing := "total 2\r\n-rw-r--r--   1 ftp ftp  26 Jan  2  2006 a file.txt\r\n11-23-26  07:19PM       <DIR>          pub\r\nweird line\r\n"
	var d1 wt.Data
	srv := wt.Start(t, append(login(), wt.Expect("EPSV"), wt.EPSV(&d1), wt.Expect("LIST"), wt.Send("150 here"),
		wt.OnData(&d1, wt.SendRaw(listing), wt.Close()), wt.Send("226 done"), wt.Expect("QUIT"), wt.Send("221 bye"))...)
	code, out, stderr := runCLI(t, "", false, "get", "--email", "list@example.org", "--list", "ftp://"+srv.Addr()+"/d/")
	want := "file            26 2006-01-02T00:00:00Z a file.txt\ndir              - 2026-11-23T19:19:00Z pub\n"
	if code != exitOK || out != want || !strings.Contains(stderr, "LIST line not read: weird line") {
		t.Errorf("LIST: exit %d\n%q\nwant\n%q\n%s", code, out, want, stderr)
	}
	var d2, d3 wt.Data
	srv = wt.Start(t, append(login(), wt.Expect("EPSV"), wt.EPSV(&d2), wt.Expect("LIST"), wt.Send("502 no LIST here"),
		wt.Expect("EPSV"), wt.EPSV(&d3), wt.Expect("NLST"), wt.Send("150 here"),
		wt.OnData(&d3, wt.SendRaw("x.txt\r\ny.txt\r\n"), wt.Close()), wt.Send("226 done"), wt.Expect("QUIT"), wt.Send("221 bye"))...)
	code, out, stderr = runCLI(t, "", false, "get", "--email", "list@example.org", "--list", "--json", "ftp://"+srv.Addr()+"/d/")
	if code != exitOK || out != "{\"name\":\"x.txt\"}\n{\"name\":\"y.txt\"}\n" {
		t.Errorf("NLST: exit %d %q: %s", code, out, stderr)
	}
	_ = d2
}

// A listing of lines no parser reads is named line by line for the first
// ten, each clipped, and the rest counted: a hostile server's endless
// listing must not be kept in memory to be warned about.
func TestGetListWarningsBounded(t *testing.T) {
	var d wt.Data
	long := "?" + strings.Repeat("x", 3000)
	listing := strings.Repeat(long+"\r\n", 25)
	srv := wt.Start(t, wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS list@example.org"), wt.Send("230 ok"),
		wt.Expect("CWD d"), wt.Send("250 ok"), wt.Expect("FEAT"), wt.Send("211-Features:"), wt.Send(" SIZE"), wt.Send("211 End"),
		wt.Expect("EPSV"), wt.EPSV(&d), wt.Expect("LIST"), wt.Send("150 here"),
		wt.OnData(&d, wt.SendRaw(listing), wt.Close()), wt.Send("226 done"), wt.Expect("QUIT"), wt.Send("221 bye"))
	code, out, stderr := runCLI(t, "", false, "get", "--email", "list@example.org", "--list", "ftp://"+srv.Addr()+"/d/")
	if code != exitOK || out != "" || strings.Count(stderr, "LIST line not read: ?xxx") != 10 ||
		!strings.Contains(stderr, "15 more LIST lines not read") || len(stderr) > 10<<10 {
		t.Errorf("exit %d %q, %d bytes of messages:\n%.2000s", code, out, len(stderr), stderr)
	}
}
