package main

// A telnet session on a real terminal: urlkit runs in a tmux pane against
// inetutils telnetd's scripted login. The test checks what only a terminal
// shows: raw mode while the session runs and the terminal restored after,
// the window size sent (NAWS: the server's "stty size" answers with the
// pane's size) and sent again after a resize (SIGWINCH), and the ^] escape
// to the local prompt, whose quit ends the session.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

func TestSessionOnTerminal(t *testing.T) {
	env := wt.ServerEnv(t, "TELNET_PORT", "TELNET_USER", "TELNET_PASS")
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatal("tmux is not installed (test.sh installs it)")
		}
		t.Skip("no tmux")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "urlkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sock := filepath.Join(dir, "tmux.sock") // a server of our own
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	url := "telnet://" + env["TELNET_USER"] + ":" + env["TELNET_PASS"] + "@127.0.0.1:" + env["TELNET_PORT"] + "/"
	script := "stty -g > before; " + bin + " get --login " + url + "; echo exit=$?; stty -g > after; sleep 60"
	tm("-f", "/dev/null", "new-session", "-d", "-s", "urlkit", "-x", "100", "-y", "30", "-c", dir, "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-p", "-t", "urlkit") }
	waitFor := func(what string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(screen(), what) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("the terminal never shows %q:\n%s", what, screen())
	}
	waitFor("Welcome, tester.")
	if s := screen(); !strings.Contains(s, "login as: tester") || strings.Contains(s, env["TELNET_PASS"]) {
		t.Errorf("login as / password:\n%s", s)
	}

	// Raw mode while the session runs.
	tty := strings.TrimSpace(tm("display-message", "-p", "-t", "urlkit", "#{pane_tty}"))
	out, err := exec.Command("stty", "-a", "-F", tty).CombinedOutput()
	if err != nil {
		t.Fatalf("stty -F %s: %v\n%s", tty, err, out)
	}
	if !strings.Contains(string(out), "-icanon") || !strings.Contains(string(out), "-echo ") {
		t.Errorf("the terminal is not in raw mode during the session:\n%s", out)
	}

	// NAWS: the window size, then a new one after a resize.
	tm("send-keys", "-t", "urlkit", "size", "Enter")
	waitFor("size 30 100")
	tm("resize-window", "-t", "urlkit", "-x", "120", "-y", "40")
	time.Sleep(300 * time.Millisecond)
	tm("send-keys", "-t", "urlkit", "size", "Enter")
	waitFor("size 40 120")

	// ^] and the local prompt; quit ends the session, cleanly.
	tm("send-keys", "-t", "urlkit", "C-]")
	waitFor("telnet>") // capture-pane drops the trailing blank
	tm("send-keys", "-t", "urlkit", "quit", "Enter")
	waitFor("exit=0")
	deadline := time.Now().Add(5 * time.Second)
	var before, after []byte
	for time.Now().Before(deadline) {
		before, _ = os.ReadFile(filepath.Join(dir, "before"))
		after, _ = os.ReadFile(filepath.Join(dir, "after"))
		if len(after) > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(before) == 0 || string(before) != string(after) {
		t.Errorf("the terminal is not restored: stty -g before %q, after %q", before, after)
	}

	// A signal ends the session: the terminal is restored all the same.
	os.Remove(filepath.Join(dir, "after"))
	tm("respawn-pane", "-k", "-t", "urlkit", "sh", "-c", "stty -g > before; "+bin+" get "+url+"; stty -g > after; sleep 60")
	waitFor("login:")
	shell := strings.TrimSpace(tm("display-message", "-p", "-t", "urlkit", "#{pane_pid}"))
	child, err := exec.Command("pgrep", "-P", shell).Output() // urlkit, the shell's one child
	if err != nil {
		t.Fatalf("pgrep -P %s: %v", shell, err)
	}
	if out, err := exec.Command("kill", "-TERM", strings.Fields(string(child))[0]).CombinedOutput(); err != nil {
		t.Fatalf("kill -TERM: %v %s", err, out)
	}
	deadline = time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		before, _ = os.ReadFile(filepath.Join(dir, "before"))
		after, _ = os.ReadFile(filepath.Join(dir, "after"))
		if len(after) > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(before) == 0 || string(before) != string(after) {
		t.Errorf("after SIGTERM the terminal is not restored: stty -g before %q, after %q", before, after)
	}
}

// A tn3270 session on a terminal: c3270 when installed, else the built-in
// client. Both are tried: the built-in one with c3270 out of urlkit's
// PATH, and c3270 where it is installed (test.sh installs it).
func TestTN3270OnTerminal(t *testing.T) {
	env := wt.ServerEnv(t, "TN3270_PORT")
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatal("tmux is not installed (test.sh installs it)")
		}
		t.Skip("no tmux")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "urlkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	url := "tn3270://127.0.0.1:" + env["TN3270_PORT"] + "/"

	t.Run("built-in", func(t *testing.T) {
		// An empty PATH for urlkit alone: it cannot find c3270.
		pane := startPane(t, tmux, dir, "PATH=/nonexistent "+bin+" get "+url)
		pane.waitFor("My PC thinks it's a MAINFRAME")
		pane.keys("C-d")
		pane.waitFor("exit=0")
		pane.restored()
	})
	t.Run("c3270", func(t *testing.T) {
		if _, err := exec.LookPath("c3270"); err != nil {
			if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
				t.Fatal("c3270 is not installed (test.sh installs it)")
			}
			t.Skip("no c3270")
		}
		pane := startPane(t, tmux, dir, bin+" get "+url)
		pane.waitFor("My PC thinks it's a MAINFRAME")
		// c3270 draws its own status line below the 3270 screen: the
		// screen above came through c3270, not the built-in client.
		if !c3270Running() {
			t.Errorf("no c3270 process while the screen shows")
		}
	})
}

// c3270Running reports whether a c3270 process runs, from /proc (procps
// may be absent).
func c3270Running() bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err == nil && strings.TrimSpace(string(b)) == "c3270" {
			return true
		}
	}
	return false
}

// tmuxPane is a command running on a tmux terminal of its own, with the
// terminal's settings saved before and after it (stty -g).
type tmuxPane struct {
	t    *testing.T
	tmux string
	sock string
	dir  string
}

// startPane runs cmd in a new 80x30 tmux session, in a work dir of its own
// under dir.
func startPane(t *testing.T, tmux, dir, cmd string) *tmuxPane {
	t.Helper()
	work, err := os.MkdirTemp(dir, "pane")
	if err != nil {
		t.Fatal(err)
	}
	p := &tmuxPane{t: t, tmux: tmux, sock: filepath.Join(work, "tmux.sock"), dir: work}
	script := "stty -g > before; " + cmd + "; echo exit=$?; stty -g > after; sleep 60"
	p.run("-f", "/dev/null", "new-session", "-d", "-s", "urlkit", "-x", "80", "-y", "30", "-c", work, "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", p.sock, "kill-server").Run() })
	return p
}

func (p *tmuxPane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (p *tmuxPane) keys(k ...string) { p.run(append([]string{"send-keys", "-t", "urlkit"}, k...)...) }

func (p *tmuxPane) waitFor(what string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(p.run("capture-pane", "-p", "-t", "urlkit"), what) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("the terminal never shows %q:\n%s", what, p.run("capture-pane", "-p", "-t", "urlkit"))
}

// restored checks that the terminal's settings after the command are the
// ones before it.
func (p *tmuxPane) restored() {
	p.t.Helper()
	var before, after []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(after) == 0; time.Sleep(100 * time.Millisecond) {
		before, _ = os.ReadFile(filepath.Join(p.dir, "before"))
		after, _ = os.ReadFile(filepath.Join(p.dir, "after"))
	}
	if len(before) == 0 || string(before) != string(after) {
		p.t.Errorf("the terminal is not restored: stty -g before %q, after %q", before, after)
	}
}
