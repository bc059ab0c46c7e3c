package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// -I against the real servers: ProFTPD's SIZE, MDTM and MLST (its FEAT
// lists MLST), nginx's HEAD, pygopherd's Gopher+ attributes.
func TestGetHead(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "HTTP_PORT", "GOPHER_PORT")
	for _, tc := range []struct {
		url  string
		want []string // regular expressions, each matching a line
	}{
		{"ftp://127.0.0.1:" + e["FTP_PORT"] + "/pub/64k.bin", []string{`^Content-Length: 65536$`, `^Last-Modified: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$`, `^MLST: .*size=65536;.*type=file;.* /pub/64k.bin$`}},
		{"http://127.0.0.1:" + e["HTTP_PORT"] + "/hello.txt", []string{`^Status: 200 OK$`, `^Content-Length: \d+$`, `^Etag: "`}},
		{"gopher://127.0.0.1:" + e["GOPHER_PORT"] + "/0/hello.txt", []string{`^\+INFO: 0hello.txt\t`, `^\+ABSTRACT:\r?$`}},
	} {
		code, out, stderr := runCLI(t, "", false, "get", "-I", tc.url)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", tc.url, code, stderr)
			continue
		}
		for _, re := range tc.want {
			if !regexp.MustCompile("(?m)" + re).MatchString(out) {
				t.Errorf("%s: no line matches %s in:\n%s", tc.url, re, out)
			}
		}
	}
	code, out, stderr := runCLI(t, "", false, "get", "-I", "--json", "ftp://127.0.0.1:"+e["FTP_PORT"]+"/pub/hello.txt")
	var obj struct {
		URL    string
		Size   int64
		Time   string
		Fields []struct{ Name, Value string }
	}
	if err := json.Unmarshal([]byte(out), &obj); code != exitOK || err != nil || obj.Size != 26 || obj.Time == "" || len(obj.Fields) != 3 {
		t.Errorf("--json: exit %d, %v: %s %s", code, err, out, stderr)
	}
	// A missing file: SIZE and MDTM are refused, and so is MLST (550).
	code, _, stderr = runCLI(t, "", false, "get", "-I", "ftp://127.0.0.1:"+e["FTP_PORT"]+"/pub/missing.bin")
	if code != exitRemoteNoent || !strings.Contains(stderr, "MLST: 550") {
		t.Errorf("missing: exit %d: %s", code, stderr)
	}
}

// -I with --compressed: a HEAD response whose Content-Encoding is gzip has
// no body to decompress, and its header is shown (curl -sI --compressed).
func TestHeadCompressed(t *testing.T) {
	srv := wt.Start(t, httpHead(), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 20\r\n\r\n"), wt.Close())
	code, out, stderr := runCLI(t, "", false, "get", "-I", "--compressed", "http://"+srv.Addr()+"/f")
	if code != exitOK || !strings.Contains(out, "Content-Encoding: gzip") {
		t.Errorf("exit %d %q: %s", code, out, stderr)
	}
}

// --compressed with an empty body labelled gzip: nothing to decompress,
// an empty file, as curl --compressed gives.
func TestCompressedEmptyBody(t *testing.T) {
	srv := wt.Start(t, httpHead(), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n"), wt.Close())
	code, out, stderr := runCLI(t, "", false, "get", "--compressed", "http://"+srv.Addr()+"/f")
	if code != exitOK || out != "" {
		t.Errorf("exit %d %q: %s", code, out, stderr)
	}
}
