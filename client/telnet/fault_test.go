package telnet

// Fault injection with wiretest: misbehaving servers telnetd does not
// imitate. Normal sessions are tested in integration_test.go.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// readAllFrom collects what the client sends until it closes.
func readAllFrom(got *[]byte) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		s.Conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		b, err := io.ReadAll(s.Conn)
		*got = b
		return err
	})
}

func closeWrite() wt.Step {
	return wt.Func(func(s *wt.Session) error { return s.Conn.(*net.TCPConn).CloseWrite() })
}

func dial(t *testing.T, d *Dialer, addr string) *Conn {
	t.Helper()
	c, err := d.Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A server that repeats its requests forever gets one answer per settled
// option and a bounded number of refusals: negotiation cannot loop.
func TestFaultNegotiationFlood(t *testing.T) {
	flood := strings.Repeat("\xff\xfb\x01", 1000) + // WILL ECHO (accepted once)
		strings.Repeat("\xff\xfd\x18", 1000) + // DO TERMINAL-TYPE (accepted once)
		strings.Repeat("\xff\xfb\x63\xff\xfd\x63", 1000) + // WILL 99, DO 99 (refused)
		strings.Repeat("\xff\xfc\x01\xff\xfb\x01", 100) // WONT ECHO, WILL ECHO: each a real change
	var got []byte
	srv := wt.Start(t, wt.SendRaw(flood+"hello"), closeWrite(), readAllFrom(&got))
	var d Dialer
	c := dial(t, &d, srv.Addr())
	b, err := io.ReadAll(c)
	if err != nil || string(b) != "hello" {
		t.Fatalf("%q, %v", b, err)
	}
	c.Close()
	if err := srv.Wait(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	count := func(seq string) int { return bytes.Count(got, []byte(seq)) }
	if n := count("\xff\xfd\x01"); n != 101 { // DO ECHO: the first WILL and each WILL after a WONT
		t.Errorf("DO ECHO sent %d times, want 101", n)
	}
	if n := count("\xff\xfe\x01"); n != 100 { // DONT ECHO: acknowledging each WONT
		t.Errorf("DONT ECHO sent %d times, want 100", n)
	}
	if n := count("\xff\xfb\x18"); n != 1 {
		t.Errorf("WILL TERMINAL-TYPE sent %d times", n)
	}
	if n, m := count("\xff\xfe\x63"), count("\xff\xfc\x63"); n != maxRefusals || m != maxRefusals {
		t.Errorf("refusals of option 99: DONT %d, WONT %d; want %d each", n, m, maxRefusals)
	}
	if len(got) > 1000 {
		t.Errorf("client sent %d bytes", len(got))
	}
}

func TestFaultOversizedSubneg(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("ok\xff\xfa\x18"+strings.Repeat("x", 5000)+"\xff\xf0"), wt.Stall())
	d := Dialer{MaxSubneg: 100}
	c := dial(t, &d, srv.Addr())
	b, err := io.ReadAll(c)
	var pe *ProtocolError
	if !errors.As(err, &pe) || pe.Offset != 105 || string(b) != "ok" ||
		!strings.Contains(err.Error(), "subnegotiation of TERMINAL-TYPE longer than the limit of 100 bytes") {
		t.Fatalf("%q, %v", b, err)
	}
	// The error sticks: the stream position is lost.
	if _, err2 := c.Read(make([]byte, 10)); !errors.Is(err2, ErrProtocol) {
		t.Fatalf("second read: %v", err2)
	}
}

func TestFaultNotACommand(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("abc\xff\x42"), wt.Stall())
	var d Dialer
	_, err := io.ReadAll(dial(t, &d, srv.Addr()))
	if !errors.Is(err, ErrProtocol) || err.Error() != "telnet: byte 4: IAC followed by 0x42, which is not a command (RFC 854 commands are 239-255)" {
		t.Fatal(err)
	}
}

func TestFaultReset(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("partial output"), wt.Pause(20*time.Millisecond), wt.Reset())
	var d Dialer
	c := dial(t, &d, srv.Addr())
	var out bytes.Buffer
	s := Session{Conn: c, In: strings.NewReader(""), Out: &out, Linger: 5 * time.Second}
	if err := s.Run(testCtx(t)); !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("err = %v, want ECONNRESET", err)
	}
	if out.String() != "partial output" {
		t.Errorf("output %q", out.String())
	}
}

// A stalled server: the session ends with the context.
func TestFaultStall(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("login: "), wt.Stall())
	var d Dialer
	c := dial(t, &d, srv.Addr())
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	pr, _ := io.Pipe() // input that never ends
	s := Session{Conn: c, In: pr, Out: io.Discard}
	start := time.Now()
	if err := s.Run(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
}

// RFC 854 Synch: data sent between the urgent notification and the DM is
// dropped, the rest is kept.
func TestFaultSynch(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("keep1 "), wt.Pause(200*time.Millisecond),
		wt.Func(func(s *wt.Session) error { return wire.SendUrgent(s.Conn, []byte("junk\xff\xf2")) }),
		wt.Pause(200*time.Millisecond), wt.SendRaw("after"), wt.Close())
	var d Dialer
	b, err := io.ReadAll(dial(t, &d, srv.Addr()))
	if err != nil || string(b) != "keep1 after" {
		t.Fatalf("%q, %v", b, err)
	}
}

// The escape character runs the prompt; its commands go out as IAC
// commands, and quit ends the session.
func TestSessionEscape(t *testing.T) {
	var got []byte
	srv := wt.Start(t, readAllFrom(&got))
	var d Dialer
	c := dial(t, &d, srv.Addr())
	cmds := []Command{CmdInterrupt, CmdAreYouThere, CmdSendEscape, CmdBreak, CmdAbortOutput, CmdQuit}
	s := Session{Conn: c, In: strings.NewReader("ls\n\x1d\x1d\x1d\x1d\x1dx\x1dnot sent"), Out: io.Discard, Escape: DefaultEscape,
		Prompt: func() (Command, error) { cmd := cmds[0]; cmds = cmds[1:]; return cmd, nil }}
	if err := s.Run(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := srv.Wait(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if want := "ls\r\n\xff\xf4\xff\xf6\x1d\xff\xf3\xff\xf5x"; string(got) != want {
		t.Errorf("sent %q, want %q", got, want)
	}
}

func TestUnsafeArgs(t *testing.T) {
	if err := (&Login{UserLine: "u\r\n", PasswordLine: "p\x00w\r\n", Password: "p\x00w"}).Check(); !errors.Is(err, ErrUnsafeArg) || !strings.Contains(err.Error(), "password") {
		t.Errorf("Login.Check: %v", err)
	}
	d := Dialer{TermTypes: []string{"VT100\r\nX"}}
	if _, err := d.Dial(testCtx(t), "127.0.0.1:1"); !errors.Is(err, ErrUnsafeArg) {
		t.Fatalf("terminal type: %v", err)
	}
	srv := wt.Start(t, wt.ExpectEOF())
	var d2 Dialer
	s := Session{Conn: dial(t, &d2, srv.Addr()), In: strings.NewReader(""), Out: io.Discard, Login: &Login{UserLine: "root\r\nrm -rf /\r\n"}}
	if err := s.Run(testCtx(t)); !errors.Is(err, ErrUnsafeArg) || !strings.Contains(err.Error(), "offset 4") {
		t.Fatalf("login user: %v", err)
	}
	if err := srv.Wait(10 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// Urgent data without a DM (a broken server): dropping stops once the
// urgent byte has been read, so the session goes on.
func TestFaultUrgentWithoutDM(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("keep1 "), wt.Pause(200*time.Millisecond),
		wt.Func(func(s *wt.Session) error { return wire.SendUrgent(s.Conn, []byte("junk!")) }),
		wt.Pause(200*time.Millisecond), wt.SendRaw("after"), wt.Close())
	var d Dialer
	b, err := io.ReadAll(dial(t, &d, srv.Addr()))
	if err != nil || !strings.HasPrefix(string(b), "keep1 ") || !strings.HasSuffix(string(b), "after") {
		t.Fatalf("%q, %v", b, err)
	}
}

// OnOption reports each change once, from the reading goroutine, and may
// use the Conn.
func TestOnOption(t *testing.T) {
	// The client answers the options: the server reads the answers
	// after its half-close, as closing with them unread makes the kernel
	// reset the connection, and the client could lose the "x" (seen
	// once in CI-like runs: "connection reset by peer").
	var answers []byte
	srv := wt.Start(t, wt.SendRaw("\xff\xfb\x01\xff\xfb\x01\xff\xfd\x00\xff\xfc\x01\xff\xfb\x63x"), closeWrite(), readAllFrom(&answers))
	var events []string
	var c *Conn
	d := Dialer{OnOption: func(opt byte, remote, on bool) {
		events = append(events, fmt.Sprintf("%s remote=%v %v binary-local=%v", OptionName(opt), remote, on, c.LocalEnabled(OptBinary)))
	}}
	c = dial(t, &d, srv.Addr())
	if b, err := io.ReadAll(c); err != nil || string(b) != "x" {
		t.Fatalf("%q %v", b, err)
	}
	c.Close()
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	want := []string{"ECHO remote=true true binary-local=false", "BINARY remote=false true binary-local=true", "ECHO remote=true false binary-local=true"}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("events %q\nwant %q", events, want)
	}
}

// Dialer.Request asks first; the server's answers are not answered again,
// and NAWS is only offered with a size.
func TestRequest(t *testing.T) {
	var got []byte
	srv := wt.Start(t, wt.Func(func(s *wt.Session) error {
		buf := make([]byte, 6)
		if _, err := io.ReadFull(s.Conn, buf); err != nil || string(buf) != "\xff\xfb\x03\xff\xfd\x03" {
			return fmt.Errorf("got %q, %v; want WILL SGA, DO SGA", buf, err)
		}
		return nil
	}), wt.SendRaw("\xff\xfd\x03\xff\xfb\x03ok"), closeWrite(), readAllFrom(&got))
	d := Dialer{Request: []byte{OptSGA, OptNAWS}}
	c := dial(t, &d, srv.Addr())
	if b, err := io.ReadAll(c); err != nil || string(b) != "ok" {
		t.Fatalf("%q %v", b, err)
	}
	c.Close()
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || !c.LocalEnabled(OptSGA) || !c.RemoteEnabled(OptSGA) {
		t.Errorf("after the answers the client sent %q; SGA local %v remote %v", got, c.LocalEnabled(OptSGA), c.RemoteEnabled(OptSGA))
	}
}
