//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// TestGetLimitFlags: the curl-spelled flags reach the fetch, and the
// message names the flag that sets the limit.
func TestGetLimitFlags(t *testing.T) {
	stalled := func() string {
		return "http://" + wt.Start(t, wt.Func(func(s *wt.Session) error {
			for {
				if l, err := s.ReadLine(); err != nil || l == "" {
					return err
				}
			}
		}), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nsome"), wt.Stall()).Addr() + "/f"
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		hint string
		exit int
	}{
		{[]string{"--max-time", "700ms"}, "timed out: the maximum time for the whole transfer passed; --max-time sets the limit", exitTimeout},
		{[]string{"--speed-limit", "1k", "--speed-time", "700ms"}, "timed out: slower than the speed limit; --speed-limit and --speed-time set the limit", exitTimeout},
		{[]string{"--max-filesize", "10"}, "--max-filesize sets the limit", exitTooLarge},
	} {
		start := time.Now()
		code, _, stderr := runCLI(t, "", false, append(append([]string{"get", "-o", out}, tc.args...), stalled())...)
		if code != tc.exit || !strings.Contains(stderr, tc.hint) || time.Since(start) > 5*time.Second {
			t.Errorf("%v: exit %d after %v: %s", tc.args, code, time.Since(start), stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v: left %v", tc.args, entries)
		}
	}
	// A local file larger than the limit: refused up front, no file.
	code, _, stderr := runCLI(t, "", false, "get", "-o", out, "--max-filesize", "1k", source(t, strings.Repeat("x", 2000)))
	if code != exitTooLarge || !strings.Contains(stderr, "2000 bytes, more than the limit of 1024") {
		t.Errorf("file: exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("file: left %v", entries)
	}
	// A FIFO named by a file: URL is refused at once.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		code, _, stderr := runCLI(t, "", false, "get", "file://"+fifo)
		if code != exitFail || !strings.Contains(stderr, "--allow-special-files") {
			t.Errorf("FIFO: exit %d: %s", code, stderr)
		}
	}
	// Bad values are usage errors.
	for _, bad := range [][]string{{"--max-filesize", "ten"}, {"--speed-limit", "-1"}, {"--max-time", "soon"}} {
		if code, _, _ := runCLI(t, "", false, append([]string{"get"}, append(bad, "http://h/")...)...); code != exitUsage {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "10": 10, "1k": 1024, "2M": 2 << 20, "3G": 3 << 30} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "k", "-1", "1T", "99999999999G"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

// TestNewsLimitEndsTransfer: an article past --max-filesize, or one whose
// output fails, ends the transfer at once: the connection is closed, not
// read to the end of an article a hostile server never ends.
func TestNewsLimitEndsTransfer(t *testing.T) {
	for _, tc := range []struct {
		args []string
		exit int
	}{
		{[]string{"--max-filesize", "100k"}, exitTooLarge},
		{[]string{"-o", "/dev/full"}, exitWrite},
	} {
		srv := wt.Start(t, wt.Send("200 fake news server ready"),
			wt.Expect("CAPABILITIES"), wt.SendRaw("101 Capabilities\r\nVERSION 2\r\nREADER\r\n.\r\n"),
			wt.Expect("ARTICLE <a@b>"), wt.Send("220 0 <a@b>"), endlessLines("an endless article", 1<<40))
		start := time.Now()
		code, _, stderr := runCLI(t, "", false, append(append([]string{"get", "-q", "--nntp", srv.Addr()}, tc.args...), "news:a@b")...)
		if code != tc.exit || time.Since(start) > 5*time.Second {
			t.Errorf("%v: exit %d after %v: %s", tc.args, code, time.Since(start), stderr)
		}
	}
}
