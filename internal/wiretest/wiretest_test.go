package wiretest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

func TestScript(t *testing.T) {
	srv := Start(t,
		Send("220 hello"),
		Expect("USER x"),
		ExpectPrefix("PASS "),
		Sendf("230 %s", "in"),
		SendRaw("raw"),
		Close(),
	)
	c, r := dial(t, srv.Addr())
	if l, _ := r.ReadString('\n'); l != "220 hello\r\n" {
		t.Errorf("greeting %q", l)
	}
	fmt.Fprintf(c, "USER x\r\nPASS y\r\n")
	rest, err := io.ReadAll(r)
	if err != nil || string(rest) != "230 in\r\nraw" {
		t.Errorf("rest %q, %v", rest, err)
	}
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Error(err)
	}
	if got := strings.Join(srv.Received(), "|"); got != "USER x|PASS y" {
		t.Errorf("Received() = %q", got)
	}
}

func TestExpectMismatch(t *testing.T) {
	// Use a sub-test with a fake TB so the expected failure stays contained.
	ft := &fakeTB{TB: t}
	srv := Start(ft, Expect("QUIT"))
	c, _ := dial(t, srv.Addr())
	fmt.Fprintf(c, "NOOP\r\n")
	if err := srv.Wait(5 * time.Second); err == nil || !strings.Contains(err.Error(), `got "NOOP", want "QUIT"`) {
		t.Errorf("Wait() = %v", err)
	}
	srv.stop()
	if len(ft.errs) != 1 {
		t.Errorf("errors reported: %q", ft.errs)
	}
}

type fakeTB struct {
	testing.TB
	errs []string
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Cleanup(func()) {}

func TestReset(t *testing.T) {
	srv := Start(t, Send("data"), Pause(50*time.Millisecond), Reset())
	_, r := dial(t, srv.Addr())
	_, err := io.ReadAll(r)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("err = %v, want ECONNRESET", err)
	}
}

func TestStall(t *testing.T) {
	srv := Start(t, Stall())
	c, r := dial(t, srv.Addr())
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := r.ReadByte(); !errors.Is(err, syscall.ETIMEDOUT) && !isTimeout(err) {
		t.Errorf("err = %v, want a timeout", err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestData(t *testing.T) {
	var d1, d2 Data
	srv := Start(t,
		Expect("EPSV"), EPSV(&d1),
		OnData(&d1, Send("over data"), Close()),
		Expect("PASV"), PASV(&d2, "10.1.2.3"),
		OnData(&d2, ExpectEOF()),
	)
	c, r := dial(t, srv.Addr())
	fmt.Fprintf(c, "EPSV\r\n")
	l, _ := r.ReadString('\n')
	var port int
	if _, err := fmt.Sscanf(l, "229 Entering Extended Passive Mode (|||%d|)", &port); err != nil {
		t.Fatalf("%q: %v", l, err)
	}
	dc, dr := dial(t, fmt.Sprintf("127.0.0.1:%d", port))
	if b, _ := io.ReadAll(dr); string(b) != "over data\r\n" {
		t.Errorf("data %q", b)
	}
	dc.Close()
	fmt.Fprintf(c, "PASV\r\n")
	l, _ = r.ReadString('\n')
	var p1, p2 int
	if _, err := fmt.Sscanf(l, "227 Entering Passive Mode (10,1,2,3,%d,%d).", &p1, &p2); err != nil {
		t.Fatalf("%q: %v", l, err)
	}
	dc2, _ := dial(t, fmt.Sprintf("127.0.0.1:%d", p1<<8|p2))
	dc2.Close()
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Error(err)
	}
}
