package telnet

// Integration tests against GNU inetutils telnetd (TELNET_PORT) started by
// scripts/servers/start-telnet.sh, which runs a fake login and a tiny
// command loop on the pty. Without the variables they skip, or fail with
// URLKIT_REQUIRE_SERVERS=1.

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type telnetd struct {
	addr, user, pass, log string
}

func server(t *testing.T) telnetd {
	t.Helper()
	env := wiretest.ServerEnv(t, "TELNET_PORT", "TELNET_USER", "TELNET_PASS", "TELNET_LOG")
	return telnetd{"127.0.0.1:" + env["TELNET_PORT"], env["TELNET_USER"], env["TELNET_PASS"], env["TELNET_LOG"]}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

// logLines returns the fake login's log lines written since the test began.
func logSince(t *testing.T, path string, from int) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b[from:])), "\n")
}

func logSize(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Size())
}

// A whole session over pipes: the login answered once, commands, exit.
func TestSessionLogin(t *testing.T) {
	srv := server(t)
	from := logSize(t, srv.log)
	var trace wiretest.Buffer
	d := Dialer{Trace: &trace, Width: 100, Height: 40, TermTypes: []string{"XTERM"}}
	c, err := d.Dial(testCtx(t), srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	var out wiretest.Buffer
	s := Session{Conn: c, In: strings.NewReader("echo hello there\nwhoami\nsize\nterm\nexit\n"), Out: &out,
		Login: &Login{UserLine: srv.user + "\r\n", PasswordLine: srv.pass + "\r\n", Password: srv.pass}, Linger: 5 * time.Second}
	if err := s.Run(testCtx(t)); err != nil {
		t.Fatalf("Run: %v\noutput:\n%s", err, out.String())
	}
	got := out.String()
	// The input is typed ahead right after the password. What arrives
	// while the password prompt has echo off is not echoed; what arrives
	// after the server turned echo back on is, and may follow "Password: "
	// on its line. Either way each answer follows a "$ " prompt.
	lines := map[string]bool{}
	for _, l := range strings.Split(got, "\r\n") {
		if strings.HasPrefix(l, "Password: ") {
			l = "Password: "
		}
		lines[strings.TrimPrefix(l, "$ ")] = true
	}
	for _, want := range []string{"login: " + srv.user, "Password: ", "Welcome, " + srv.user + ".", "hello there",
		srv.user, "size 40 100", "term xterm", "bye"} {
		if !lines[want] {
			t.Errorf("output lacks the line %q:\n%s", want, got)
		}
	}
	if strings.Contains(trace.String(), srv.pass) {
		t.Errorf("the password is in the trace:\n%s", trace.String())
	}
	// telnetd asks for BINARY (DO BINARY), which the client grants: the
	// lines typed end with CR alone (AppendLine), the password masked.
	if !sent(trace.String(), srv.user+`\rxxxxx\r`) {
		t.Errorf("trace lacks the login name and the masked password, each ending with CR (binary mode):\n%s", trace.String())
	}
	wantLog := []string{"user " + srv.user, "login ok " + srv.user, "cmd echo hello there", "cmd whoami", "cmd size", "cmd term", "cmd exit"}
	if gotLog := logSince(t, srv.log, from); strings.Join(gotLog, "|") != strings.Join(wantLog, "|") {
		t.Errorf("server log = %q, want %q", gotLog, wantLog)
	}
	if !c.LocalEnabled(OptNAWS) || !c.LocalEnabled(OptTermType) {
		t.Errorf("NAWS %v, TTYPE %v: want both enabled", c.LocalEnabled(OptNAWS), c.LocalEnabled(OptTermType))
	}
}

// Without a Login the prompts are left to the user; a wrong password is
// refused by the server and the session still ends cleanly.
func TestSessionWrongPassword(t *testing.T) {
	srv := server(t)
	from := logSize(t, srv.log)
	var d Dialer
	c, err := d.Dial(testCtx(t), srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	var out wiretest.Buffer
	s := Session{Conn: c, In: strings.NewReader(""), Out: &out, Login: &Login{UserLine: srv.user + "\r\n", PasswordLine: "wrong\r\n", Password: "wrong"}, Linger: 5 * time.Second}
	if err := s.Run(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Login incorrect") {
		t.Errorf("output:\n%s", out.String())
	}
	if got := logSince(t, srv.log, from); len(got) != 2 || got[1] != "login failed "+srv.user {
		t.Errorf("server log = %q", got)
	}
}

// A window size set during the session reaches the pty (NAWS).
func TestWindowSizeUpdate(t *testing.T) {
	srv := server(t)
	d := Dialer{Width: 80, Height: 24}
	c, err := d.Dial(testCtx(t), srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	var out wiretest.Buffer
	s := Session{Conn: c, In: pr, Out: &out, Login: &Login{UserLine: srv.user + "\r\n", PasswordLine: srv.pass + "\r\n", Password: srv.pass}, Linger: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- s.Run(testCtx(t)) }()
	wiretest.WaitFor(t, &out, "$ ")
	pw.Write([]byte("size\n"))
	wiretest.WaitFor(t, &out, "size 24 80")
	if err := c.SetWindowSize(132, 50); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // telnetd applies it to the pty asynchronously
	pw.Write([]byte("size\nexit\n"))
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "size 50 132") {
		t.Errorf("output:\n%s", out.String())
	}
}

// The escape prompt's commands reach telnetd as IAC commands; telnetd
// answers AO and IP with a Synch (urgent IAC DM), which the client takes
// out of the stream without losing the data that follows. IP interrupts
// the fake login's shell loop, which ends the session.
func TestEscapeCommandsSynch(t *testing.T) {
	srv := server(t)
	var trace wiretest.Buffer
	d := Dialer{Trace: &trace}
	c, err := d.Dial(testCtx(t), srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	var out wiretest.Buffer
	cmds := make(chan Command, 4)
	s := Session{Conn: c, In: pr, Out: &out, Escape: DefaultEscape, Login: &Login{UserLine: srv.user + "\r\n", PasswordLine: srv.pass + "\r\n", Password: srv.pass},
		Prompt: func() (Command, error) { return <-cmds, nil }, Linger: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- s.Run(testCtx(t)) }()
	wiretest.WaitFor(t, &out, "$ ")
	cmds <- CmdAbortOutput
	pw.Write([]byte{DefaultEscape})
	// telnetd puts AO's VDISCARD character (^O) into the pty's line:
	// end that line before the command.
	pw.Write([]byte("\nwhoami\n"))
	wiretest.WaitFor(t, &out, "$ "+srv.user+"\r\n")
	cmds <- CmdInterrupt
	pw.Write([]byte{DefaultEscape})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the IP write may be traced just after the close
	if got := out.String(); strings.ContainsRune(got, 0xFFFD) || strings.Contains(got, "\xff") {
		t.Errorf("output:\n%q", got)
	}
	// AO's Synch comes while the session goes on, so its DM is always
	// seen. IP's Synch races the end of the session it interrupts: telnetd
	// sends the urgent DM as the shell exits, and the close may overtake
	// it (the trace then ends in a lone IAC), so that one may be missing.
	tr := trace.String()
	if dm := strings.Count(tr, `\xff\xf2`); !sent(tr, `\xff\xf5`) || !sent(tr, `\xff\xf4`) || dm < 1 || dm > 2 {
		t.Errorf("want AO and IP sent and one or two DMs received:\n%s", tr)
	}
}

// No size at first: NAWS is refused; a size given later is offered with
// WILL NAWS, which telnetd accepts, and reaches the pty.
func TestWindowSizeLate(t *testing.T) {
	srv := server(t)
	var d Dialer
	c, err := d.Dial(testCtx(t), srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	var out wiretest.Buffer
	s := Session{Conn: c, In: pr, Out: &out, Login: &Login{UserLine: srv.user + "\r\n", PasswordLine: srv.pass + "\r\n", Password: srv.pass}, Linger: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- s.Run(testCtx(t)) }()
	wiretest.WaitFor(t, &out, "$ ")
	if c.LocalEnabled(OptNAWS) {
		t.Fatal("NAWS enabled without a size")
	}
	if err := c.SetWindowSize(90, 30); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !c.LocalEnabled(OptNAWS) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // telnetd applies the size to the pty
	pw.Write([]byte("size\nexit\n"))
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "size 30 90") {
		t.Errorf("output:\n%s", out.String())
	}
}

// sent reports whether a line of the trace tr that the client sent ("> ")
// holds s.
func sent(tr, s string) bool {
	for l := range strings.Lines(tr) {
		if strings.HasPrefix(l, "> ") && strings.Contains(l, s) {
			return true
		}
	}
	return false
}
