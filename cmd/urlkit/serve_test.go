package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// CLI.md serve: a listen address that is not loopback needs
// --allow-from; without it serve exits 2 and says why, listening on
// nothing.
func TestServeNeedsAllowFrom(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		st, out, errOut := TestStreams("")
		code := run(t.Context(), []string{"serve", "--listen", addr}, st)
		if code != exitUsage || !strings.Contains(errOut.String(), "--allow-from") || out.Len() != 0 {
			t.Errorf("serve --listen %s: exit %d, stderr %q; want 2 naming --allow-from", addr, code, errOut)
		}
	}
	for _, args := range [][]string{
		{"serve", "extra"},
		{"serve", "--allow-from", "nonsense"},
		{"serve", "--allow-dest", "host:0"},
		{"serve", "--allow-file", "relative"},
	} {
		st, _, errOut := TestStreams("")
		if code := run(t.Context(), append(args, "--listen", "127.0.0.1:0"), st); code != exitUsage {
			t.Errorf("%q: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// urlkit serve on loopback: it says where it listens, serves the home
// page and robots.txt with the security headers, writes the access log,
// and stops at a signal (ctx) with status 0.
func TestServeRuns(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "access.log")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errOut := &wiretest.Buffer{} // the server goroutine writes it while the test reads
	st := &Streams{In: strings.NewReader(""), Out: io.Discard, Err: errOut}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--access-log", logFile}, st) }()
	var base string
	re := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/)`)
	for range 200 {
		if m := re.FindStringSubmatch(errOut.String()); m != nil {
			base = m[1]
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if base == "" {
		t.Fatalf("serve did not say where it listens: %q", errOut)
	}
	resp, err := http.Get(base + "robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "Disallow: /") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("robots.txt: %d %q %v", resp.StatusCode, b, resp.Header)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after the signal, stderr %q", code, errOut)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not stop")
	}
	log, _ := os.ReadFile(logFile)
	if !regexp.MustCompile(`^127\.0\.0\.1 - - \[[^]]+\] "GET /robots\.txt HTTP/1\.1" 200 \d+\n$`).Match(log) {
		t.Errorf("access log %q", log)
	}
}

// --allow-send without a mail server or a sender would show a compose
// form that can send nothing: serve exits 2 and names what is missing.
func TestServeAllowSendNeedsServerAndSender(t *testing.T) {
	for _, tc := range []struct{ smtp, email string }{{"", "a@example.org"}, {"127.0.0.1:25", ""}} {
		t.Setenv("SMTPSERVER", tc.smtp)
		t.Setenv("EMAIL", tc.email)
		st, _, errOut := TestStreams("")
		code := run(t.Context(), []string{"serve", "--allow-send", "--listen", "127.0.0.1:0"}, st)
		if code != exitUsage || !strings.Contains(errOut.String(), "$EMAIL") {
			t.Errorf("SMTPSERVER=%q EMAIL=%q: exit %d, stderr %q; want 2 naming the mail server and $EMAIL", tc.smtp, tc.email, code, errOut)
		}
	}
}
