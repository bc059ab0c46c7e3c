package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urlkit/urlkit"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// TestNetScripts runs the get scripts that need the real servers
// (testdata/netscript); they see the servers' environment variables.
func TestNetScripts(t *testing.T) {
	wt.ServerEnv(t, "FTP_PORT", "GOPHER_PORT", "GOPHERNICUS_PORT", "HTTP_PORT")
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/netscript",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				for _, p := range []string{"FTP_", "GOPHER_", "GOPHERNICUS_", "HTTP_"} {
					if strings.HasPrefix(k, p) {
						e.Vars = append(e.Vars, kv)
					}
				}
			}
			return nil
		},
	})
}

// TestSessionScripts runs the session scripts (testdata/sessionscript)
// against inetutils telnetd, in.rlogind and Hercules.
func TestSessionScripts(t *testing.T) {
	wt.ServerEnv(t, "TELNET_PORT", "TELNET_USER", "TELNET_PASS", "RLOGIN_PORT", "RLOGIN_USER", "RLOGIN_PASS", "TN3270_PORT")
	// A session that ends early (the server closed after a prompt, once in
	// a clean-clone run) shows in the fake login's log: the lines its
	// shell read ("cmd LINE"), or their absence.
	t.Cleanup(func() {
		if log := os.Getenv("TELNET_LOG"); log != "" && t.Failed() {
			b, _ := os.ReadFile(log)
			for _, line := range strings.Split(string(b), "\n") {
				t.Logf("telnet server log: %q", line)
			}
		}
	})
	runServerScripts(t, "testdata/sessionscript", "TELNET_", "RLOGIN_", "TN3270_")
}

// TestNetScriptsWAISProspero runs the get scripts against the WAIS and
// Prospero servers (testdata/netscript-wais).
func TestNetScriptsWAISProspero(t *testing.T) {
	wt.ServerEnv(t, "WAIS_PORT", "PROSPERO_PORT", "PROSPERO_LOG")
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/netscript-wais",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			for _, kv := range os.Environ() {
				if strings.HasPrefix(kv, "WAIS_") || strings.HasPrefix(kv, "PROSPERO_") {
					e.Vars = append(e.Vars, kv)
				}
			}
			return nil
		},
	})
}

// TestNewsScripts runs the news, mail, mid and cid scripts
// (testdata/newsscript) against INN, aiosmtpd and Exim.
func TestNewsScripts(t *testing.T) {
	wt.ServerEnv(t, "NNTP_PORT", "SMTP_PORT", "EXIM_PORT")
	runServerScripts(t, "testdata/newsscript", "NNTP_", "SMTP_", "EXIM_")
}

// runServerScripts runs the scripts of dir with the environment variables
// of the servers (those starting with one of prefixes).
func runServerScripts(t *testing.T, dir string, prefixes ...string) {
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				for _, p := range prefixes {
					if strings.HasPrefix(k, p) {
						e.Vars = append(e.Vars, kv)
					}
				}
			}
			return nil
		},
	})
}

func TestProgress(t *testing.T) {
	var out strings.Builder
	now := time.Unix(1000, 0)
	p := newProgress(&out, "big.bin", 200<<20)
	p.width = 120
	p.now = func() time.Time { return now }
	p.start = now
	p.add(1 << 20) // too early: nothing drawn
	if out.Len() != 0 {
		t.Fatalf("drawn before the delay: %q", out.String())
	}
	now = now.Add(2 * time.Second)
	p.add(49 << 20) // 50 MiB in 2 s
	want := "\rbig.bin                   50.0 MiB / 200.0 MiB  25% [=====               ]  25.0 MiB/s ETA 0:06\x1b[K"
	if out.String() != want {
		t.Errorf("bar:\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	now = now.Add(100 * time.Millisecond)
	p.add(1) // within the redraw interval: nothing
	if out.Len() != 0 {
		t.Errorf("redrawn too soon: %q", out.String())
	}
	p.done()
	if !strings.HasSuffix(out.String(), "\n") || !strings.Contains(out.String(), "50.0 MiB / 200.0 MiB") {
		t.Errorf("final line %q", out.String())
	}

	out.Reset()
	q := newProgress(&out, "stream", -1)
	q.now = p.now
	q.start = now.Add(-time.Second)
	q.add(3 << 10)
	if want := "\rstream                     3.0 KiB   3.0 KiB/s  0:01\x1b[K"; out.String() != want {
		t.Errorf("unknown size:\n%q\nwant\n%q", out.String(), want)
	}

	out.Reset()
	r := newProgress(&out, "quick", 10)
	r.add(10)
	r.done()
	if out.Len() != 0 {
		t.Errorf("a short transfer drew a bar: %q", out.String())
	}
}

func TestAtomicFile(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/out.bin"
	f, err := createOutput(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("partial")
	f.abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("abort left %v", entries)
	}
	f, err = createOutput(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("complete")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the file exists before commit: %v", err)
	}
	if err := f.commit(); err != nil {
		t.Fatal(err)
	}
	f.abort() // no effect after commit
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "complete" {
		t.Errorf("after commit: %q, %v", b, err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o666&^umask() {
		t.Errorf("mode %v, want %v", fi.Mode().Perm(), 0o666&^umask())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %v", entries)
	}
	if _, err := createOutput(context.Background(), dir+"/"); err == nil {
		t.Error("createOutput of a directory path succeeded")
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://user:secret@h/pub/big%20file.bin": "big file.bin",
		"http://h/dir/":                          "dir",
		"gopher://h":                             "h",
		"ftp://h/a%0Ab":                          `a\nb`,
		"ftp://h/pub/big.bin;type=i":             "big.bin",
	} {
		u := mustParse(t, in)
		if got := displayName(u); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}

func mustParse(t *testing.T, s string) *urlkit.URL {
	t.Helper()
	u, err := urlkit.Parse(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return &u
}

// A transfer that breaks off leaves no file behind (and no temporary
// file), whatever the protocol.
func TestGetNoPartialFile(t *testing.T) {
	part := strings.Repeat("x", 1000)
	httpHead := wt.Func(func(s *wt.Session) error {
		for {
			line, err := s.ReadLine()
			if err != nil || line == "" {
				return err
			}
		}
	})
	var data wt.Data
	for _, tc := range []struct {
		name, url string
		script    []wt.Step
		exit      int
	}{
		{"http reset", "http://%s/f.bin", []wt.Step{httpHead, wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n" + part), wt.Pause(20 * time.Millisecond), wt.Reset()}, exitShort},
		{"gopher reset", "gopher://%s/9/f.bin", []wt.Step{wt.Expect("/f.bin"), wt.SendRaw(part), wt.Pause(20 * time.Millisecond), wt.Reset()}, exitShort},
		{"gopher stall", "gopher://%s/9/f.bin", []wt.Step{wt.Expect("/f.bin"), wt.SendRaw(part), wt.Stall()}, exitTimeout},
		{"ftp reset", "ftp://%s/f.bin", []wt.Step{
			wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS nobody@example.org"), wt.Send("230 ok"),
			wt.Expect("TYPE I"), wt.Send("200 ok"), wt.Expect("SIZE f.bin"), wt.Send("213 65536"),
			wt.Expect("EPSV"), wt.EPSV(&data), wt.Expect("RETR f.bin"), wt.Send("150 Opening (65536 bytes)"),
			wt.OnData(&data, wt.SendRaw(part), wt.Pause(20*time.Millisecond), wt.Reset()),
			wt.Send("426 aborted"), wt.Expect("QUIT"), wt.Send("221 bye")}, exitShort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wt.Start(t, tc.script...)
			dir := t.TempDir()
			st, _, errOut := TestStreams("")
			url := fmt.Sprintf(tc.url, srv.Addr())
			code := run(t.Context(), []string{"get", "-q", "--timeout", "500ms", "--email", "nobody@example.org", "-o", dir + "/out.bin", url}, st)
			if code != tc.exit {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.exit, errOut)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
			if !strings.HasPrefix(errOut.String(), `urlkit: "`+url+`": `) {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// The progress line fits the terminal's width, one column spare, and
// degrades to shorter forms: a narrower bar, no bar, a clipped name, no
// name, the figures alone.
func TestProgressWidth(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, total := range []int64{200 << 20, -1} {
		var prev int
		for _, width := range []int{200, 100, 80, 72, 60, 50, 40, 30, 20, 10, 3, 0} {
			var out strings.Builder
			p := newProgress(&out, "a-rather-long-file-name-for-the-bar.tar.gz", total)
			p.width = width
			p.now = func() time.Time { return now }
			p.start = now.Add(-2 * time.Second)
			p.add(50 << 20)
			line, ok := strings.CutPrefix(out.String(), "\r")
			line, ok2 := strings.CutSuffix(line, "\x1b[K")
			if !ok || !ok2 {
				t.Fatalf("width %d: %q", width, out.String())
			}
			room := width - 1
			if width == 0 {
				room = 79 // unknown: 80 columns
			}
			if len(line) > room {
				t.Errorf("total %d, width %d: %d columns: %q", total, width, len(line), line)
			}
			if width >= 40 && !strings.Contains(line, "50.0 MiB") {
				t.Errorf("total %d, width %d: no figures: %q", total, width, line)
			}
			if width <= 80 && width > 0 && prev > 0 && len(line) > prev {
				t.Errorf("total %d, width %d: longer than at a wider width: %q", total, width, line)
			}
			if width > 0 {
				prev = len(line)
			}
		}
	}
	var out strings.Builder
	p := newProgress(&out, "big.bin", 200<<20)
	p.width = 80
	p.now = func() time.Time { return now }
	p.start = now.Add(-2 * time.Second)
	p.add(50 << 20)
	if want := "\rbig.bin             50.0 MiB / 200.0 MiB  25% [==        ]  25.0 MiB/s ETA 0:06\x1b[K"; out.String() != want {
		t.Errorf("80 columns:\n%q\nwant\n%q", out.String(), want)
	}
}

// /dev/null is a character device, not a terminal.
func TestIsTerminalDevNull(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
}

// A UTF-8 name is clipped between runes and counted in runes.
func TestClipNameUTF8(t *testing.T) {
	if got := clipName("ééééééééééééé", 10); got != "ééééééé..." {
		t.Errorf("clip: %q", got)
	}
	if got := clipName("é", 3); got != "é  " {
		t.Errorf("pad: %q", got)
	}
}

// TestGetListOverLongLine: a line of a URL list over the 1 MiB limit is
// skipped, as the message says, and the URLs after it are fetched.
func TestGetListOverLongLine(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := "file://" + dir + "/a\n" + strings.Repeat("x", maxLine+10) + "\nfile://" + dir + "/b\n"
	code, out, stderr := runCLI(t, in, false, "get", "-q")
	if code != exitFail || out != "a\nb\n" || !strings.Contains(stderr, "standard input line 2: longer than 1048576 bytes; skipped") {
		t.Errorf("exit %d %q: %s", code, out, stderr)
	}
}
