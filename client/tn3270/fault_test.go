package tn3270

// Scripted TN3270 servers (wiretest) for what Hercules does not do: ask
// queries, read input, misbehave.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/client/telnet"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// negotiation is what Hercules sends on connect, and answer what the
// client must reply (RFC 1576, RFC 1091, RFC 885, RFC 856).
const (
	negotiation = "\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0\xff\xfd\x19\xff\xfb\x19\xff\xfd\x00\xff\xfb\x00"
	answer      = "\xff\xfb\x18\xff\xfa\x18\x00IBM-3278-2\xff\xf0\xff\xfb\x19\xff\xfd\x19\xff\xfb\x00\xff\xfd\x00"
)

// expectBytes reads exactly len(want) bytes and compares them.
func expectBytes(want []byte) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		s.Conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		got := make([]byte, len(want))
		n, err := io.ReadFull(s.Conn, got)
		if err != nil || !bytes.Equal(got, want) {
			return fmt.Errorf("got %q (%v), want %q", got[:n], err, want)
		}
		return nil
	})
}

func sendRecord(rec []byte) wt.Step { return wt.SendRaw(string(AppendRecord(nil, rec))) }

func dial(t *testing.T, addr string) *Conn {
	t.Helper()
	var d Dialer
	c, err := d.Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The whole cycle: negotiation, a query answered, a logon screen, typed
// input sent with Enter, the next screen.
func TestScriptedLogon(t *testing.T) {
	screen := rec(cmdEW, 0xC3, orderSF, AttrProtected, "LOGON:", orderSF, 0, orderIC, orderSBA, addr(40), orderSF, AttrProtected)
	// An IAC (0xFF) inside a record is doubled on the wire: RA with 0xFF.
	second := rec(cmdEW, 0xC3, orderSBA, addr(80), "WELCOME", orderRA, addr(100), 0xFF)
	input := rec(byte(AIDEnter), addr(13), orderSBA, addr(8), "ALICE")
	srv := wt.Start(t,
		wt.SendRaw(negotiation), expectBytes([]byte(answer)),
		sendRecord([]byte{cmdWSF, 0x00, 0x05, 0x01, 0xFF, 0x02}), expectBytes(AppendRecord(nil, QueryReply())),
		sendRecord(screen), expectBytes(AppendRecord(nil, input)),
		sendRecord(second), wt.Stall())
	c := dial(t, srv.Addr())
	if err := c.ReadScreen(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Screen.Text(), " LOGON:") || c.Screen.Cursor != 8 {
		t.Fatalf("screen %q cursor %d", c.Screen.Text()[:20], c.Screen.Cursor)
	}
	keys, _ := ParseKeys("ALICE<enter>")
	screens := 0
	if err := c.Play(testCtx(t), keys, func(*Screen) error { screens++; return nil }); err != nil || screens != 1 {
		t.Fatalf("Play: %v, %d screens", err, screens)
	}
	if line := strings.Split(c.Screen.Text(), "\n")[1]; line != "WELCOME" || c.Screen.Locked {
		t.Errorf("second screen row 2 = %q, locked %v", line, c.Screen.Locked)
	}
	for a := 87; a < 100; a++ {
		if c.Screen.Cells[a].Char != 0xFF {
			t.Fatalf("cell %d = %+v, want the 0xFF of RA (IAC IAC on the wire)", a, c.Screen.Cells[a])
		}
	}
}

// A server that talks NVT (no TN3270 negotiation) is reported as such.
func TestFaultNotTN3270(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("login: \xff\xef"), wt.Stall())
	err := dial(t, srv.Addr()).ReadScreen(testCtx(t))
	if !errors.Is(err, ErrNotTN3270) || !strings.Contains(err.Error(), `it sent "login: "`) {
		t.Fatal(err)
	}
	// A prompt without IAC EOR, and then nothing: said at once, not
	// after the timeout.
	srv3 := wt.Start(t, wt.SendRaw("login: "), wt.Stall())
	start := time.Now()
	err = dial(t, srv3.Addr()).ReadScreen(testCtx(t))
	if !errors.Is(err, ErrNotTN3270) || !strings.Contains(err.Error(), `it sent "login: "`) || time.Since(start) > 5*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
	srv2 := wt.Start(t, wt.SendRaw("bye\r\n"), wt.Close())
	if err := dial(t, srv2.Addr()).ReadScreen(testCtx(t)); !errors.Is(err, ErrNotTN3270) {
		t.Fatal(err)
	}
}

func TestFaultRecordTooLong(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw(negotiation), expectBytes([]byte(answer)), wt.SendRaw("\xf5\xc3"+strings.Repeat("\xc1", DefaultMaxRecord+10)), wt.Stall())
	err := dial(t, srv.Addr()).ReadScreen(testCtx(t))
	if !errors.Is(err, telnet.ErrProtocol) || !strings.Contains(err.Error(), "record longer than 65536 bytes") {
		t.Fatal(err)
	}
}

func TestFaultBadRecord(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw(negotiation), expectBytes([]byte(answer)), sendRecord([]byte{0xF5, 0xC3, orderSBA, 0x3F}), wt.Stall())
	err := dial(t, srv.Addr()).ReadScreen(testCtx(t))
	if !errors.Is(err, ErrDataStream) || !strings.Contains(err.Error(), "record byte 2: SBA needs 2 more bytes") {
		t.Fatal(err)
	}
}

func TestFaultStallAndClose(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw(negotiation), wt.Stall())
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if err := dial(t, srv.Addr()).ReadScreen(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stall: %v", err)
	}
	srv2 := wt.Start(t, wt.SendRaw(negotiation), expectBytes([]byte(answer)), wt.SendRaw("\xf5\xc3\xc1"), wt.Close())
	err := dial(t, srv2.Addr()).ReadScreen(testCtx(t))
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "connection closed by the host") {
		t.Fatalf("close in a record: %v", err)
	}
}

// Play stops at a key that cannot be applied, naming it.
func TestPlayErrors(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw(negotiation), expectBytes([]byte(answer)),
		sendRecord(rec(cmdEW, 0xC3, orderSF, AttrProtected, "READ ONLY")), wt.Stall())
	c := dial(t, srv.Addr())
	if err := c.ReadScreen(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	keys, _ := ParseKeys("<tab>x")
	err := c.Play(testCtx(t), keys, nil)
	var pe *ProtectedFieldError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "key 2 (x): tn3270: cursor at row 1 column 1") {
		t.Fatalf("err = %v", err)
	}
}
