package ftp

// Hardening against hostile servers: data ports, Telnet IAC in command
// arguments, a TYPE A transfer cut short.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// trap counts the connections made to 127.0.0.1:port, if it can listen
// there: a refused data port must see none.
type trap struct {
	addr  string
	conns *atomic.Int32
}

func listenTrap(t *testing.T, port int) *trap {
	t.Helper()
	addr, n := wt.Trap(t, fmt.Sprintf("127.0.0.1:%d", port))
	return &trap{addr, n}
}

func (tr *trap) check(t *testing.T) {
	t.Helper()
	time.Sleep(50 * time.Millisecond) // an accept in flight would show
	if n := tr.conns.Load(); n != 0 {
		t.Errorf("%d connection(s) reached %v", n, tr.addr)
	}
}

// An EPSV or PASV reply naming a port of another service (SMTP 25, X11
// 6000): no connection is made, the transfer fails with ErrDataPort, and
// the control connection stays usable.
func TestDataPortRefused(t *testing.T) {
	blocked := func(port int) error {
		if port == 6000 || port < 1024 {
			return fmt.Errorf("port %d is blocked", port)
		}
		return nil
	}
	pasv := func(port int) string {
		return fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d).", port>>8, port&0xff)
	}
	for _, tc := range []struct {
		name   string
		port   int
		check  func(int) error // nil: the default, RefuseWellKnownPort
		noEPSV bool
	}{
		{"EPSV 25, default check", 25, nil, false},
		{"PASV 25, default check", 25, nil, true},
		{"EPSV 1023, default check", 1023, nil, false},
		{"EPSV 6000, caller's check", 6000, blocked, false},
		{"PASV 6000, caller's check", 6000, blocked, true},
		{"EPSV 25, caller's check", 25, blocked, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := listenTrap(t, tc.port)
			passive := wt.Steps(wt.Expect("EPSV"), wt.Sendf("229 Entering Extended Passive Mode (|||%d|)", tc.port))
			if tc.noEPSV {
				passive = wt.Steps(wt.Expect("PASV"), wt.Send(pasv(tc.port)))
			}
			srv := wt.Start(t, wt.Script(anonLogin(), passive, wt.Steps(wt.Expect("NOOP"), wt.Send("200 ok")))...)
			var seen []int
			d := &Dialer{DisableEPSV: tc.noEPSV}
			if tc.check != nil {
				d.CheckDataPort = func(port int) error { seen = append(seen, port); return tc.check(port) }
			}
			c := login(t, d, srv.Addr(), "", "")
			ctx := testCtx(t)
			body, err := c.Retr(ctx, "f.bin")
			if err == nil {
				body.Close()
				t.Fatal("Retr succeeded")
			}
			if !errors.Is(err, ErrDataPort) || !strings.Contains(err.Error(), fmt.Sprint(tc.port)) {
				t.Errorf("err = %v, want ErrDataPort naming port %d", err, tc.port)
			}
			if tc.check != nil && (len(seen) != 1 || seen[0] != tc.port) {
				t.Errorf("CheckDataPort saw %v, want [%d]", seen, tc.port)
			}
			tr.check(t)
			if err := c.Noop(ctx); err != nil {
				t.Errorf("control connection after the refusal: %v", err)
			}
		})
	}
}

// A check that allows the port (as fetch does for --allow-port) lets the
// transfer run.
func TestDataPortAllowed(t *testing.T) {
	var data wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.txt"), wt.Send("150 Opening ASCII mode data connection for f.txt (3 bytes)"),
		wt.OnData(&data, wt.SendRaw("ok\r\n"), wt.Close()),
		wt.Send("226 Transfer complete"),
	))...)
	calls := 0
	c := login(t, &Dialer{CheckDataPort: func(int) error { calls++; return nil }}, srv.Addr(), "", "")
	if got := retrString(t, c, "f.txt"); got != "ok\n" || calls != 1 {
		t.Errorf("got %q with %d checks, want \"ok\\n\" with 1", got, calls)
	}
}

// RFC 959's control connection is a Telnet NVT: 0xFF in an argument goes
// as IAC IAC, so that "\xff\xf4" cannot arrive as IAC IP or "\xff\xf2" as
// IAC DM. The fake server sees the bytes exactly as sent.
func TestIACDoubled(t *testing.T) {
	srv := wt.Start(t,
		wt.Send("220 fake server"),
		wt.Expect("USER u\xff\xffser"), wt.Send("331 password"),
		wt.Expect("PASS p\xff\xff"), wt.Send("230 logged in"),
		wt.Expect("CWD a\xff\xff\xf4\xff\xff\xf2b"), wt.Send("250 ok"),
		wt.Expect("CWD plain"), wt.Send("250 ok"),
	)
	c := dial(t, nil, srv.Addr())
	ctx := testCtx(t)
	if err := c.Login(ctx, "u\xffser", "p\xff"); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"a\xff\xf4\xff\xf2b", "plain"} {
		if err := c.Cwd(ctx, dir); err != nil {
			t.Fatalf("Cwd(%q): %v", dir, err)
		}
	}
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// ProFTPD takes IAC IAC as one 0xFF and drops other Telnet commands: the
// directory "a\xff\xf4\xff\xf2b" is reached only if the bytes are doubled
// (sent raw, ProFTPD would see "CWD ab", which exists too, as a decoy).
func TestIACProFTPD(t *testing.T) {
	e := realFTP(t)
	dir := wt.ServerEnv(t, "FTP_DIR")["FTP_DIR"]
	odd := "iac-a\xff\xf4\xff\xf2b"
	for _, d := range []string{odd, "iac-ab"} {
		p := filepath.Join(dir, "anon", "pub", d) // the anonymous area (start-ftp.sh)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Skipf("cannot create a test directory on the server: %v", err)
		}
		t.Cleanup(func() { os.RemoveAll(p) })
		if err := os.WriteFile(filepath.Join(p, "which"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := login(t, &Dialer{}, e.addr, "", "")
	ctx := testCtx(t)
	if err := c.Cwd(ctx, "/pub/"+odd); err != nil {
		t.Fatalf("Cwd: %v", err)
	}
	if got := retrString(t, c, "which"); got != odd {
		t.Errorf("reached %q, want %q", got, odd)
	}
}

// A TYPE A transfer whose 150 reply announced 1,048,576 bytes and whose
// data connection closed after 262,144, followed by a 226: the stream can
// only be longer than the file (LF -> CRLF), so it was cut short.
func TestASCIIShortTransfer(t *testing.T) {
	var data wt.Data
	line := strings.Repeat("x", 62) + "\r\n"
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("TYPE A"), wt.Send("200 ok"),
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.txt"), wt.Send("150 Opening ASCII mode data connection for f.txt (1048576 bytes)"),
		wt.OnData(&data, wt.SendRaw(strings.Repeat(line, 262144/len(line))), wt.Close()),
		wt.Send("226 Transfer complete"),
		wt.Expect("NOOP"), wt.Send("200 ok"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	ctx := testCtx(t)
	if err := c.Type(ctx, TypeASCII); err != nil {
		t.Fatal(err)
	}
	body, err := c.Retr(ctx, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(body)
	if !errors.Is(err, ErrShortTransfer) || !strings.Contains(err.Error(), "262144 of 1048576 bytes") {
		t.Fatalf("ReadAll = %d bytes, %v; want ErrShortTransfer naming 262144 of 1048576 bytes", len(b), err)
	}
	if cerr := body.Close(); !errors.Is(cerr, ErrShortTransfer) {
		t.Errorf("Close = %v, want ErrShortTransfer", cerr)
	}
	if err := c.Noop(ctx); err != nil {
		t.Errorf("control connection: %v", err)
	}
}

// TYPE A of an LF file: the stream (CRLF) is longer than the size the 150
// reply announced, which is fine.
func TestASCIILongerThanAnnounced(t *testing.T) {
	var data wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("TYPE A"), wt.Send("200 ok"),
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.txt"), wt.Send("150 Opening ASCII mode data connection for f.txt (6 bytes)"),
		wt.OnData(&data, wt.SendRaw("ab\r\ncd\r\n"), wt.Close()),
		wt.Send("226 Transfer complete"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	if err := c.Type(testCtx(t), TypeASCII); err != nil {
		t.Fatal(err)
	}
	if got := retrString(t, c, "f.txt"); got != "ab\ncd\n" {
		t.Errorf("got %q", got)
	}
}
