package gateway

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 38 item 3: the access log never shows a password, in whatever
// form a URL of the request carries it.
func TestRedactTarget(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ftp://user:secret@127.0.0.1/pub/", "ftp://user:xxxxx@127.0.0.1/pub/"},
		{"/ftp://user:secret@127.0.0.1/pub/", "/ftp://user:xxxxx@127.0.0.1/pub/"},
		{"/?url=ftp%3A%2F%2Fuser%3Asecret%40host%2Fpub", "/?url=ftp%3A%2F%2Fuser%3Axxxxx%40host%2Fpub"},
		{"/?url=ftp://user:secret@host/", "/?url=ftp://user:xxxxx@host/"},
		{"/?url=ftp%3a%2f%2fuser%3asecret%40host", "/?url=ftp%3a%2f%2fuser%3axxxxx%40host"},
		{"ftp://user:p%40ss:w@host/", "ftp://user:xxxxx@host/"},                           // an escaped @ in the password
		{"ftp://user:a@b@host/", "ftp://user:xxxxx@host/"},                                // the last @ ends the userinfo
		{"nntp://u:pw@h/g?x=telnet://a:b@c/", "nntp://u:xxxxx@h/g?x=telnet://a:xxxxx@c/"}, // two URLs
		{"ftp://user@host/", "ftp://user@host/"},                                          // no password
		{"ftp://host:21/a@b", "ftp://host:21/a@b"},                                        // an @ in the path, a port
		{"gopher://host:70/1/", "gopher://host:70/1/"},
		{"/", "/"},
		{"ftp://:secret@host/", "ftp://:xxxxx@host/"},
		{"ftp://u:@host/", "ftp://u:@host/"},
		{"%", "%"},
		{"://", "://"},
	} {
		if got := redactTarget(tt.in); got != tt.want {
			t.Errorf("redactTarget(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzRedactTarget(f *testing.F) {
	f.Add("/?url=ftp%3A%2F%2Fuser%3Asecret%40host%2Fpub")
	f.Add("ftp://user:secret@127.0.0.1/pub/")
	f.Fuzz(func(t *testing.T, s string) {
		out := redactTarget(s)
		// Only passwords are replaced: what precedes the first one is
		// kept as it was.
		if i := strings.Index(out, "xxxxx"); i < 0 && out != s || i >= 0 && !strings.HasPrefix(s, out[:i]) {
			t.Fatalf("redactTarget(%q) = %q", s, out)
		}
		if redactTarget(out) != out {
			t.Fatalf("redactTarget is not idempotent on %q: %q then %q", s, out, redactTarget(out))
		}
	})
}

var clfLine = regexp.MustCompile(`^(\S+) - (\S+) \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "([^"]*)" (\d{3}) (\d+|-)\n$`)

func TestAccessLogCLF(t *testing.T) {
	var buf bytes.Buffer
	l := &accessLog{w: &buf}
	r := httptest.NewRequest("GET", "/ftp://tester:hunter2@127.0.0.1:2121/pub/?url=x", nil)
	r.RemoteAddr = "192.0.2.9:4444"
	r.SetBasicAuth("tester", "s3cret-basic")
	lw := &logWriter{ResponseWriter: httptest.NewRecorder(), status: 200}
	lw.WriteHeader(404)
	lw.Write([]byte("hello"))
	l.write(r, lw, time.Date(2026, 11, 29, 1, 2, 3, 0, time.UTC))
	line := buf.String()
	m := clfLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("not a Common Log Format line: %q", line)
	}
	if m[1] != "192.0.2.9" || m[2] != "tester" || m[3] != "GET /ftp://tester:xxxxx@127.0.0.1:2121/pub/?url=x HTTP/1.1" || m[4] != "404" || m[5] != "5" {
		t.Errorf("fields %q", m[1:])
	}
	if strings.Contains(line, "hunter2") || strings.Contains(line, "s3cret") {
		t.Errorf("a password in the log: %q", line)
	}
	if !strings.Contains(line, "[29/Nov/2026:01:02:03 +0000]") {
		t.Errorf("date: %q", line)
	}
}

// What a client sends cannot forge a second log line or break the
// quoted request.
func TestAccessLogEscapes(t *testing.T) {
	var buf bytes.Buffer
	l := &accessLog{w: &buf}
	r := httptest.NewRequest("GET", "/x", nil)
	r.RequestURI = "/a\"b\nc d\x1b[31m"
	r.SetBasicAuth("ev il\"\n", "p")
	l.write(r, &logWriter{ResponseWriter: httptest.NewRecorder(), status: http.StatusOK}, time.Now())
	line := buf.String()
	if strings.Count(line, "\n") != 1 || strings.Count(line, `"`) != 2 || strings.ContainsRune(line, 0x1b) {
		t.Errorf("unescaped: %q", line)
	}
	if !clfLine.MatchString(line) {
		t.Errorf("not a Common Log Format line: %q", line)
	}
}
