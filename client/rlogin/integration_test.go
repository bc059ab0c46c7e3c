package rlogin

// Integration tests against rsh-redone's in.rlogind (RLOGIN_PORT), started
// by scripts/servers/start-rlogin.sh. rlogind accepts only privileged
// source ports, so the login tests need root. Without the variables the
// tests skip, or fail with URLKIT_REQUIRE_SERVERS=1.

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/internal/wiretest"
)

type rlogind struct {
	addr, user, pass, trusted string
}

func server(t *testing.T) rlogind {
	t.Helper()
	env := wiretest.ServerEnv(t, "RLOGIN_PORT", "RLOGIN_USER", "RLOGIN_PASS", "RLOGIN_TRUSTED")
	return rlogind{"127.0.0.1:" + env["RLOGIN_PORT"], env["RLOGIN_USER"], env["RLOGIN_PASS"], env["RLOGIN_TRUSTED"]}
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv(wiretest.RequireServersVar) == "1" {
			t.Fatal("rlogind accepts only privileged source ports: run the tests as root")
		}
		t.Skip("needs root for a privileged source port")
	}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

// reader copies c's output to out in the background.
func reader(c *Conn, out *wiretest.Buffer) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, c)
		done <- err
	}()
	return done
}

// A trusted login (.rhosts): no password; the window size goes out when
// rlogind asks for it with urgent 0x80, and again on a change.
func TestTrustedLogin(t *testing.T) {
	srv := server(t)
	needRoot(t)
	var trace wiretest.Buffer
	d := Dialer{Term: "xterm", Width: 100, Height: 40, Trace: &trace}
	c, err := d.Dial(testCtx(t), srv.addr, srv.trusted, srv.user)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.Privileged() || c.SourcePort() < 512 || c.SourcePort() > 1023 {
		t.Errorf("source port %d, privileged %v", c.SourcePort(), c.Privileged())
	}
	var out wiretest.Buffer
	done := reader(c, &out)
	t.Cleanup(func() {
		if t.Failed() { // what the client and the server saw, for a failure on CI
			log, _ := os.ReadFile(os.Getenv("RLOGIN_LOG"))
			t.Logf("trace:\n%s\nrlogind's log (last 2000 bytes):\n%s", trace.String(), log[max(0, len(log)-2000):])
		}
	})
	wiretest.WaitFor(t, &out, "$ ")
	c.Write([]byte("whoami; echo TERM=$TERM; stty size\r"))
	wiretest.WaitFor(t, &out, "40 100")
	c.SetWindowSize(132, 50)
	time.Sleep(100 * time.Millisecond)
	c.Write([]byte("stty size; exit\r"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.String()
	// rsh-redone sends its window request twice in a row; if the second
	// arrives before the first was fetched, Linux makes the first data:
	// one stray 0x80 is the server's doing (see the package doc).
	if strings.Count(got, "\x80") > 1 || strings.Contains(got, "\x00") {
		t.Errorf("a control byte leaked into the output: %q", got)
	}
	for _, want := range []string{"\r\n" + srv.user + "\r\n", "TERM=xterm\r\n", "\r\n40 100\r\n", "\r\n50 132\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
	c.Close() // flushes the trace
	tr := trace.String()
	for _, want := range []string{`> \x00` + srv.trusted + `\x00` + srv.user + `\x00xterm/38400\x00`, "< [urgent 0x80]",
		`\xff\xffss\x00(\x00d\x00\x00\x00\x00`, `\xff\xffss\x002\x00\x84\x00\x00\x00\x00`} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %s:\n%s", want, tr)
		}
	}
}

// An untrusted remote user gets the password prompt (PAM over the
// connection).
func TestPasswordLogin(t *testing.T) {
	srv := server(t)
	needRoot(t)
	var d Dialer
	c, err := d.Dial(testCtx(t), srv.addr, "stranger", srv.user)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out wiretest.Buffer
	done := reader(c, &out)
	wiretest.WaitFor(t, &out, "Password: ")
	c.Write([]byte(srv.pass + "\r"))
	wiretest.WaitFor(t, &out, "$ ")
	c.Write([]byte("echo logged in as $(whoami); exit\r"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\r\nlogged in as "+srv.user+"\r\n") {
		t.Errorf("output:\n%q", out.String())
	}
	if strings.Contains(out.String(), srv.pass) {
		t.Error("the password was echoed")
	}
}

// From an unprivileged port rlogind closes the connection at once; the
// error says why.
func TestUnprivilegedRefused(t *testing.T) {
	srv := server(t)
	d := Dialer{Unprivileged: true}
	_, err := d.Dial(testCtx(t), srv.addr, srv.trusted, srv.user)
	var he *HandshakeError
	if !errors.As(err, &he) || !errors.Is(err, ErrRefused) || he.Privileged || !strings.Contains(err.Error(), "is not privileged") {
		t.Fatalf("err = %v", err)
	}
}

// The CLI drives rlogin with telnet.Session (a Remote): pipe mode, the
// one-time login responder answering PAM's password prompt, the end when
// the server closes. (A test-only import of the telnet client.)
func TestSessionPipeMode(t *testing.T) {
	srv := server(t)
	needRoot(t)
	var trace wiretest.Buffer
	d := Dialer{Trace: &trace}
	c, err := d.Dial(testCtx(t), srv.addr, "stranger", srv.user)
	if err != nil {
		t.Fatal(err)
	}
	var out wiretest.Buffer
	s := telnet.Session{Conn: c, In: strings.NewReader("echo via session; whoami\nexit\n"), Out: &out,
		Login: &telnet.Login{PasswordLine: srv.pass + "\r", Password: srv.pass}, Linger: 10 * time.Second}
	if s.Supports(telnet.CmdBreak) || !s.Supports(telnet.CmdQuit) {
		t.Error("rlogin has no telnet commands")
	}
	if err := s.Run(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, "via session\r\n"+srv.user+"\r\n") || strings.Contains(got, srv.pass) {
		t.Errorf("output:\n%q", got)
	}
	if tr := trace.String(); strings.Contains(tr, srv.pass) || !strings.Contains(tr, "xxxxx\\r") {
		t.Errorf("trace:\n%s", tr)
	}
}
