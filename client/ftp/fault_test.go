package ftp

// Fault injection with wiretest: replies and failures ProFTPD does not
// produce on demand. Normal behaviour is tested in integration_test.go.

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// anonLogin is the opening of most scripts.
func anonLogin() []wt.Step {
	return []wt.Step{
		wt.Send("220 fake server"),
		wt.Expect("USER anonymous"), wt.Send("331 send password"),
		wt.Expect("PASS anonymous@"), wt.Send("230 logged in"),
	}
}

// retrThenStall is the script of a RETR f whose server sends payload on
// the data connection and then nothing more on either connection.
func retrThenStall(payload string) []wt.Step {
	var data wt.Data
	return wt.Script(anonLogin(), wt.Steps(
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f"), wt.Send("150 here it comes"),
		wt.OnData(&data, wt.SendRaw(payload)),
		wt.Stall(),
	))
}

// A data connection reset (RST) in the middle of a binary transfer.
func TestFaultResetMidTransfer(t *testing.T) {
	var data wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("TYPE I"), wt.Send("200 ok"),
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (65536 bytes)"),
		wt.OnData(&data, wt.SendRaw(strings.Repeat("x", 1000)), wt.Pause(20*time.Millisecond), wt.Reset()),
		wt.Send("426 Connection closed; transfer aborted"),
		wt.Expect("NOOP"), wt.Send("200 ok"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	ctx := testCtx(t)
	if err := c.Type(ctx, TypeImage); err != nil {
		t.Fatal(err)
	}
	body, err := c.Retr(ctx, "f.bin")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(body)
	if !errors.Is(err, ErrShortTransfer) {
		t.Fatalf("ReadAll = %d bytes, %v; want ErrShortTransfer", len(b), err)
	}
	if !errors.Is(err, syscall.ECONNRESET) && !strings.Contains(err.Error(), "of 65536 bytes") {
		t.Errorf("err = %v, want the reset or the byte count", err)
	}
	if cerr := body.Close(); !errors.Is(cerr, ErrShortTransfer) {
		t.Errorf("Close = %v, want ErrShortTransfer", cerr)
	}
	if err := c.Noop(ctx); err != nil {
		t.Errorf("control connection should survive a data reset: %v", err)
	}
}

// The data connection ends cleanly but early and the server lies with 226:
// the size announced in the 150 reply catches it.
func TestFaultShortTransferCleanClose(t *testing.T) {
	var data wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("TYPE I"), wt.Send("200 ok"),
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (65536 bytes)"),
		wt.OnData(&data, wt.SendRaw(strings.Repeat("x", 1000)), wt.Close()),
		wt.Send("226 Transfer complete"),
		wt.Expect("NOOP"), wt.Send("200 ok"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	ctx := testCtx(t)
	c.Type(ctx, TypeImage)
	body, err := c.Retr(ctx, "f.bin")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(body)
	if !errors.Is(err, ErrShortTransfer) || len(b) != 1000 || !strings.Contains(err.Error(), "1000 of 65536 bytes") {
		t.Fatalf("ReadAll = %d bytes, %v; want 1000 and ErrShortTransfer", len(b), err)
	}
	if cerr := body.Close(); !errors.Is(cerr, ErrShortTransfer) {
		t.Errorf("Close = %v", cerr)
	}
	if err := c.Noop(ctx); err != nil {
		t.Errorf("control connection should be fine: %v", err)
	}
}

// A server that stops answering: the context's deadline ends every kind of
// wait within bounded time, with an error matching DeadlineExceeded.
func TestFaultStall(t *testing.T) {
	const limit = 300 * time.Millisecond
	t.Run("greeting", func(t *testing.T) {
		srv := wt.Start(t, wt.Stall())
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		start := time.Now()
		_, err := Dial(ctx, srv.Addr())
		wt.WantDeadline(t, start, limit, err)
	})
	t.Run("command", func(t *testing.T) {
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(wt.Expect("CWD /pub"), wt.Stall()))...)
		c := login(t, nil, srv.Addr(), "", "")
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		start := time.Now()
		wt.WantDeadline(t, start, limit, c.Cwd(ctx, "/pub"))
		if err := c.Noop(t.Context()); !errors.Is(err, ErrClosed) {
			t.Errorf("after the timeout: %v, want ErrClosed", err)
		}
	})
	t.Run("data", func(t *testing.T) {
		srv := wt.Start(t, retrThenStall("some bytes")...)
		c := login(t, nil, srv.Addr(), "", "")
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		start := time.Now()
		body, err := c.Retr(ctx, "f")
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(body)
		wt.WantDeadline(t, start, limit, err)
		if !errors.Is(err, ErrShortTransfer) || string(b) != "some bytes" {
			t.Errorf("got %q, %v", b, err)
		}
		wt.WantDeadline(t, start, limit, body.Close())
	})
	t.Run("cancel", func(t *testing.T) {
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(wt.Expect("NOOP"), wt.Stall()))...)
		c := login(t, nil, srv.Addr(), "", "")
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		if err := c.Noop(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestFaultGarbageReply(t *testing.T) {
	t.Run("greeting", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("SSH-2.0-OpenSSH_9.2"))
		_, err := Dial(testCtx(t), srv.Addr())
		if !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), "SSH-2.0") {
			t.Fatalf("err = %v, want ErrMalformedReply quoting the line", err)
		}
	})
	t.Run("after command", func(t *testing.T) {
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(wt.Expect("PWD"), wt.Send("2OO \"/\" is cwd")))...)
		c := login(t, nil, srv.Addr(), "", "")
		_, err := c.Pwd(testCtx(t))
		if !errors.Is(err, ErrMalformedReply) {
			t.Fatalf("err = %v, want ErrMalformedReply", err)
		}
		if err := c.Noop(testCtx(t)); !errors.Is(err, ErrClosed) {
			t.Errorf("after garbage: %v, want ErrClosed", err)
		}
	})
	t.Run("bad PASV", func(t *testing.T) {
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
			wt.Expect("PASV"), wt.Send("227 Entering Passive Mode (127,0,0,1,999,1)."),
			wt.Expect("NOOP"), wt.Send("200 ok"),
		))...)
		c := login(t, &Dialer{DisableEPSV: true}, srv.Addr(), "", "")
		if _, err := c.Retr(testCtx(t), "f"); !errors.Is(err, ErrMalformedReply) {
			t.Fatalf("err = %v, want ErrMalformedReply", err)
		}
		if err := c.Noop(testCtx(t)); err != nil {
			t.Errorf("a bad PASV reply is complete; the session goes on: %v", err)
		}
	})
	t.Run("server closes", func(t *testing.T) {
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(wt.Expect("NOOP"), wt.Close()))...)
		c := login(t, nil, srv.Addr(), "", "")
		if err := c.Noop(testCtx(t)); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("err = %v, want io.ErrUnexpectedEOF", err)
		}
	})
}

func TestFaultOverlongLine(t *testing.T) {
	t.Run("line", func(t *testing.T) {
		srv := wt.Start(t, wt.SendRaw("220 "+strings.Repeat("x", 1<<20)+"\r\n"))
		_, err := (&Dialer{MaxLine: 512}).Dial(testCtx(t), srv.Addr())
		if !errors.Is(err, ErrLineTooLong) {
			t.Fatalf("err = %v, want ErrLineTooLong", err)
		}
	})
	t.Run("reply lines", func(t *testing.T) {
		srv := wt.Start(t, wt.SendRaw("220-hi\r\n"+strings.Repeat(" more\r\n", 5000)+"220 end\r\n"))
		_, err := (&Dialer{MaxReplyLines: 100}).Dial(testCtx(t), srv.Addr())
		if !errors.Is(err, ErrReplyTooLong) {
			t.Fatalf("err = %v, want ErrReplyTooLong", err)
		}
	})
	t.Run("listing line", func(t *testing.T) {
		var data wt.Data
		srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
			wt.Expect("EPSV"), wt.EPSV(&data),
			wt.Expect("NLST"), wt.Send("150 listing"),
			wt.OnData(&data, wt.Send("ok.txt"), wt.SendRaw(strings.Repeat("n", 100000)+"\r\n"), wt.Close()),
			wt.Send("226 done"),
		))...)
		c := login(t, &Dialer{MaxLine: 1000}, srv.Addr(), "", "")
		l, err := c.Nlst(testCtx(t), "")
		if err != nil {
			t.Fatal(err)
		}
		if !l.Next() || l.Item() != "ok.txt" {
			t.Fatalf("first line %q, %v", l.Item(), l.Err())
		}
		if l.Next() {
			t.Fatalf("over-long line returned: %d bytes", len(l.Item()))
		}
		if !errors.Is(l.Err(), ErrLineTooLong) {
			t.Errorf("Err = %v, want ErrLineTooLong", l.Err())
		}
		l.Close()
	})
}

// A PASV reply announcing another (here: private) address: by default only
// its port is used and the data connection goes to the control peer.
func TestFaultPASVAddress(t *testing.T) {
	for _, announced := range []string{"10.9.8.7", "0.0.0.0", "192.0.2.1"} {
		t.Run(announced, func(t *testing.T) {
			var data wt.Data
			srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
				wt.Expect("PASV"), wt.PASV(&data, announced),
				wt.Expect("RETR f"), wt.Send("150 ok"),
				wt.OnData(&data, wt.SendRaw("payload"), wt.Close()),
				wt.Send("226 ok"),
			))...)
			c := login(t, &Dialer{DisableEPSV: true, Timeout: 2 * time.Second}, srv.Addr(), "", "")
			if got := retrString(t, c, "f"); got != "payload" {
				t.Errorf("got %q", got)
			}
		})
	}
}

// A server without EPSV (500) makes the client fall back to PASV once and
// remember it.
func TestFaultEPSVRefused(t *testing.T) {
	var d1, d2 wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("EPSV"), wt.Send("500 EPSV not understood"),
		wt.Expect("PASV"), wt.PASV(&d1, "127.0.0.1"),
		wt.Expect("RETR a"), wt.Send("150 ok"), wt.OnData(&d1, wt.SendRaw("A"), wt.Close()), wt.Send("226 ok"),
		wt.Expect("PASV"), wt.PASV(&d2, "127.0.0.1"),
		wt.Expect("RETR b"), wt.Send("150 ok"), wt.OnData(&d2, wt.SendRaw("B"), wt.Close()), wt.Send("226 ok"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	if retrString(t, c, "a")+retrString(t, c, "b") != "AB" {
		t.Error("wrong data")
	}
}

func TestFault421(t *testing.T) {
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(wt.Expect("CWD x"), wt.Send("421 Timeout, closing control connection")))...)
	c := login(t, nil, srv.Addr(), "", "")
	wantReply(t, c.Cwd(testCtx(t), "x"), 421)
	if err := c.Noop(testCtx(t)); !errors.Is(err, ErrClosed) {
		t.Errorf("after 421: %v, want ErrClosed", err)
	}
}

// Login variants ProFTPD does not use: 230 straight after USER (no
// password asked), and 332 (account required).
func TestFaultLoginVariants(t *testing.T) {
	t.Run("230 after USER", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("220 hi"), wt.Expect("USER joe"), wt.Send("230 welcome, no password needed"),
			wt.Expect("NOOP"), wt.Send("200 ok"))
		c := dial(t, nil, srv.Addr())
		if err := c.Login(testCtx(t), "joe", "never-sent"); err != nil {
			t.Fatal(err)
		}
		c.Noop(testCtx(t))
		for _, l := range srv.Received() {
			if strings.Contains(l, "never-sent") {
				t.Errorf("password sent: %q", l)
			}
		}
	})
	t.Run("332 without account", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("220 hi"), wt.Expect("USER joe"), wt.Send("331 password"),
			wt.Expect("PASS pw"), wt.Send("332 need account"))
		c := dial(t, nil, srv.Addr())
		re := wantReply(t, c.Login(testCtx(t), "joe", "pw"), 332)
		if re.Cmd != "PASS" {
			t.Errorf("Cmd = %q", re.Cmd)
		}
	})
	t.Run("332 with account", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("220 hi"), wt.Expect("USER joe"), wt.Send("332 need account"),
			wt.Expect("ACCT acme"), wt.Send("230 ok"))
		c := dial(t, nil, srv.Addr())
		if err := c.LoginAccount(testCtx(t), "joe", "pw", "acme"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("120 then 220", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("120 ready in 1 minute", "220-multi", " line", "220 ready"))
		dial(t, nil, srv.Addr())
	})
	t.Run("greeting refusal", func(t *testing.T) {
		srv := wt.Start(t, wt.Send("421 too many users"))
		_, err := Dial(testCtx(t), srv.Addr())
		wantReply(t, err, 421)
	})
}

// A passive port the server could not bind: "425 ... Address already in
// use" is transient (RFC 959 4.2), and the next EPSV gets another port
// (seen once with ProFTPD under load).
func TestFaultTransientEPSV(t *testing.T) {
	var data wt.Data
	srv := wt.Start(t, wt.Script(anonLogin(), wt.Steps(
		wt.Expect("TYPE I"), wt.Send("200 ok"),
		wt.Expect("EPSV"), wt.Send("425 EPSV: Address already in use"),
		wt.Expect("EPSV"), wt.EPSV(&data),
		wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (3 bytes)"),
		wt.OnData(&data, wt.SendRaw("abc"), wt.Close()),
		wt.Send("226 done"),
	))...)
	c := login(t, nil, srv.Addr(), "", "")
	ctx := testCtx(t)
	if err := c.Type(ctx, TypeImage); err != nil {
		t.Fatal(err)
	}
	body, err := c.Retr(ctx, "f.bin")
	if err != nil {
		t.Fatalf("Retr after a transient 425: %v", err)
	}
	b, err := io.ReadAll(body)
	if err != nil || string(b) != "abc" {
		t.Fatalf("ReadAll = %q, %v", b, err)
	}
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
}

// While a body is open Quit refuses (ErrBusy) and closes nothing; Close
// closes the data connection too, so a read of the body fails at once
// instead of waiting on a server that sends nothing more.
func TestFaultCloseDuringTransfer(t *testing.T) {
	srv := wt.Start(t, retrThenStall("abc")...)
	c := login(t, nil, srv.Addr(), "", "")
	ctx := testCtx(t)
	body, err := c.Retr(ctx, "f")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(body, make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(ctx); !errors.Is(err, ErrBusy) {
		t.Fatalf("Quit during a transfer = %v, want ErrBusy", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	start := time.Now()
	_, err = body.Read(make([]byte, 10))
	if !errors.Is(err, ErrShortTransfer) || !errors.Is(err, net.ErrClosed) {
		t.Errorf("Read after Close = %v, want ErrShortTransfer from the closed data connection", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Read after Close took %v: the data connection was left open", d)
	}
	if err := body.Close(); !errors.Is(err, ErrShortTransfer) {
		t.Errorf("body.Close = %v, want the read's ErrShortTransfer", err)
	}
	if err := c.Noop(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Noop after Close = %v, want ErrClosed", err)
	}
}
