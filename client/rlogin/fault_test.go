package rlogin

// Scripted servers (wiretest) for what rlogind does not do on demand:
// refusals with messages, flush requests, flow-control modes, stalls.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

func expectBytes(want string) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		s.Conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		got := make([]byte, len(want))
		n, err := io.ReadFull(s.Conn, got)
		if err != nil || string(got) != want {
			return fmt.Errorf("got %q (%v), want %q", got[:n], err, want)
		}
		return nil
	})
}

func urgent(b string) wt.Step {
	return wt.Func(func(s *wt.Session) error { return wire.SendUrgent(s.Conn, []byte(b)) })
}

const hs = "\x00alice\x00bob\x00vt100/9600\x00"

func dialScript(t *testing.T, d Dialer, steps ...wt.Step) (*Conn, *wt.Server, error) {
	t.Helper()
	srv := wt.Start(t, append([]wt.Step{expectBytes(hs)}, steps...)...)
	d.Term, d.Speed = "vt100", 9600
	c, err := d.Dial(testCtx(t), srv.Addr(), "alice", "bob")
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, srv, err
}

func TestFaultRefusal(t *testing.T) {
	_, _, err := dialScript(t, Dialer{}, wt.SendRaw("\x01Permission denied.\r\n"), wt.Close())
	var he *HandshakeError
	if !errors.As(err, &he) || he.Msg != "Permission denied." || !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v", err)
	}
	// A message without a line end is cut at maxRefusal bytes, escaped.
	_, _, err = dialScript(t, Dialer{}, wt.SendRaw("\x01\x1b[2J"+strings.Repeat("x", 5000)), wt.Stall())
	if !errors.As(err, &he) || !strings.HasPrefix(he.Msg, `\x1b[2J`) || len(he.Msg) != maxRefusal+3 {
		t.Fatalf("err = %.80v (%d)", err, len(he.Msg))
	}
}

func TestFaultHandshakeStall(t *testing.T) {
	srv := wt.Start(t, wt.Stall())
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	var d Dialer
	if _, err := d.Dial(ctx, srv.Addr(), "a", "b"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

// RFC 1282 flush: output before the urgent mark is dropped.
func TestFaultFlush(t *testing.T) {
	c, _, err := dialScript(t, Dialer{}, wt.SendRaw("\x00junk output "), urgent("\x02"), wt.SendRaw("kept"), wt.Close())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // all of it has arrived
	b, err := io.ReadAll(c)
	if err != nil || string(b) != "kept" {
		t.Fatalf("%q, %v", b, err)
	}
}

// Window size: none sent without a size, sent on SetWindowSize once
// asked; raw and cooked flow control follow the urgent bytes.
func TestFaultWindowAndFlow(t *testing.T) {
	c, srv, err := dialScript(t, Dialer{}, wt.SendRaw("\x00"), urgent("\x90"), // window request + raw
		wt.Pause(300*time.Millisecond), wt.SendRaw("$ "),
		expectBytes("\xff\xffss\x00\x18\x00\x50\x00\x00\x00\x00ls\r"), urgent("\x20"), wt.SendRaw("done"), wt.Close())
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "$ " {
		t.Fatalf("%q %v", buf, err)
	}
	if !c.RawMode() {
		t.Error("not raw after urgent 0x10")
	}
	c.SetWindowSize(80, 24)
	c.Write([]byte("ls\r"))
	rest, _ := io.ReadAll(c)
	if string(rest) != "done" || c.RawMode() {
		t.Errorf("%q raw %v", rest, c.RawMode())
	}
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestUnsafeArgs(t *testing.T) {
	var d Dialer
	for _, u := range []string{"root\r\nx", "a\x00b"} {
		if _, err := d.Dial(testCtx(t), "127.0.0.1:1", u, "bob"); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("user %q: %v", u, err)
		}
	}
	d.Term = "vt100\n"
	if _, err := d.Dial(testCtx(t), "127.0.0.1:1", "a", "b"); !errors.Is(err, ErrUnsafeArg) || !strings.Contains(err.Error(), "terminal type") {
		t.Errorf("term: %v", err)
	}
}

func TestHandshakeBytes(t *testing.T) {
	b, err := Handshake("alice", "bob", "vt100", 9600)
	if err != nil || !bytes.Equal(b, []byte(hs)) {
		t.Fatalf("%q %v", b, err)
	}
	if got := AppendWindowSize(nil, 0x1234, 70000); !bytes.Equal(got, []byte("\xff\xffss\xff\xff\x12\x34\x00\x00\x00\x00")) {
		t.Errorf("%q", got)
	}
}

// Mid-session: a reset is reported; a deadline ends a read that waits.
func TestFaultSessionResetAndDeadline(t *testing.T) {
	c, _, err := dialScript(t, Dialer{}, wt.SendRaw("\x00partial"), wt.Pause(50*time.Millisecond), wt.Reset())
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(c)
	if string(b) != "partial" || !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("%q, %v", b, err)
	}
	c2, _, err := dialScript(t, Dialer{}, wt.SendRaw("\x00"), wt.Stall())
	if err != nil {
		t.Fatal(err)
	}
	c2.SetDeadline(time.Now().Add(200 * time.Millisecond))
	start := time.Now()
	if _, err := c2.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// Close from another goroutine ends a waiting Read.
	c3, _, err := dialScript(t, Dialer{}, wt.SendRaw("\x00"), wt.Stall())
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, func() { c3.Close() })
	if _, err := c3.Read(make([]byte, 10)); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
}
