package gopher

// Fault injection with wiretest: failures pygopherd and Gophernicus do not
// produce on demand. Normal behaviour is tested in integration_test.go.

import (
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

func TestFaultReset(t *testing.T) {
	t.Run("gopher+ length", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/f\t+"), wt.SendRaw("+4096\r\n"+strings.Repeat("x", 100)), wt.Pause(20*time.Millisecond), wt.Reset())
		r := fetch(t, srv.Addr(), "/f", nil, str("+"))
		b, err := io.ReadAll(r)
		if !errors.Is(err, ErrShortTransfer) {
			t.Fatalf("%d bytes, err = %v; want ErrShortTransfer", len(b), err)
		}
	})
	t.Run("gopher+ length, clean close", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/f\t+"), wt.SendRaw("+4096\r\n"+strings.Repeat("x", 100)), wt.Close())
		b, err := io.ReadAll(fetch(t, srv.Addr(), "/f", nil, str("+")))
		if !errors.Is(err, ErrShortTransfer) || len(b) != 100 || !strings.Contains(err.Error(), "100 of 4096 bytes") {
			t.Fatalf("%d bytes, err = %v", len(b), err)
		}
	})
	t.Run("plain binary", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/bin"), wt.SendRaw(strings.Repeat("x", 100)), wt.Pause(20*time.Millisecond), wt.Reset())
		_, err := io.ReadAll(fetch(t, srv.Addr(), "/bin", nil, nil))
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("err = %v, want ECONNRESET", err)
		}
	})
}

func TestFaultStall(t *testing.T) {
	const limit = 300 * time.Millisecond
	t.Run("header", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x\t+"), wt.Stall())
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		start := time.Now()
		var c Client
		_, err := c.Fetch(ctx, srv.Addr(), "/x", nil, str("+"))
		wt.WantDeadline(t, start, limit, err)
	})
	t.Run("body", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x"), wt.SendRaw("0partial\tmenu\th\t70\r\n"), wt.Stall())
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		start := time.Now()
		var c Client
		r, err := c.Fetch(ctx, srv.Addr(), "/x", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		m := r.Menu()
		if !m.Next() || m.Item().Display != "partial" {
			t.Fatal("first item missing")
		}
		if m.Next() {
			t.Fatal("second item from a stalled server")
		}
		wt.WantDeadline(t, start, limit, m.Err())
	})
	t.Run("cancel", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x"), wt.Stall())
		ctx, cancel := context.WithCancel(t.Context())
		var c Client
		r, err := c.Fetch(ctx, srv.Addr(), "/x", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := io.ReadAll(r); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestFaultGarbage(t *testing.T) {
	t.Run("menu", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect(""), wt.SendRaw("1ok\t/ok\th\t70\r\n\t\t\t\r\n"), wt.Close())
		m := fetch(t, srv.Addr(), "", nil, nil).Menu()
		for m.Next() {
		}
		if !errors.Is(m.Err(), ErrMalformedItem) {
			t.Errorf("Err = %v, want ErrMalformedItem", m.Err())
		}
	})
	t.Run("attributes", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x\t!"), wt.SendRaw("+-2\r\n\x00\x01garbage\r\n"), wt.Close())
		_, err := fetch(t, srv.Addr(), "/x", nil, str("!")).Attributes()
		if !errors.Is(err, ErrMalformedAttributes) {
			t.Errorf("err = %v, want ErrMalformedAttributes", err)
		}
	})
	t.Run("error header with dot body", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x\t+"), wt.SendRaw("--1\r\n2 admin@x\r\nbusy, try later\r\n.\r\nignored\r\n"), wt.Close())
		var c Client
		_, err := c.Fetch(testCtx(t), srv.Addr(), "/x", nil, str("+"))
		var pe *PlusError
		if !errors.As(err, &pe) || pe.Code != 2 || pe.Msg != "busy, try later" {
			t.Errorf("err = %#v (%v)", pe, err)
		}
	})
	t.Run("endless error body", func(t *testing.T) {
		srv := wt.Start(t, wt.Expect("/x\t+"), wt.SendRaw("--2\r\n1 x\r\n"+strings.Repeat("e", 1<<20)), wt.Close())
		var c Client
		_, err := c.Fetch(testCtx(t), srv.Addr(), "/x", nil, str("+"))
		var pe *PlusError
		if !errors.As(err, &pe) || len(pe.Msg) > maxErrorBody {
			t.Errorf("err = %v (message %d bytes)", err, len(pe.Msg))
		}
	})
}

func TestFaultOverlongLine(t *testing.T) {
	srv := wt.Start(t, wt.Expect(""), wt.SendRaw("1"+strings.Repeat("x", 1<<20)+"\r\n"), wt.Close())
	c := Client{MaxLine: 1000}
	r, err := c.Fetch(testCtx(t), srv.Addr(), "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := r.Menu()
	if m.Next() {
		t.Fatal("over-long line returned")
	}
	if !errors.Is(m.Err(), ErrLineTooLong) {
		t.Errorf("Err = %v, want ErrLineTooLong", m.Err())
	}

	srv = wt.Start(t, wt.Expect("/x\t!"), wt.SendRaw("+-2\r\n+ABSTRACT:\r\n "+strings.Repeat("y", 1<<20)), wt.Close())
	r, err = c.Fetch(testCtx(t), srv.Addr(), "/x", nil, str("!"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Attributes(); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("attributes: %v, want ErrLineTooLong", err)
	}
}

// A Gopher+ "+-1" response must end with its "." line: a connection that
// closes before it cut the data short. Plain responses (no header) are
// not judged by the client, which only reports Terminated.
func TestTerminator(t *testing.T) {
	for _, tc := range []struct {
		name, send string
		plus       bool
		short      bool // Read fails with ErrShortTransfer
		terminated bool
	}{
		{"+-1 with the dot", "+-1\r\nline one\r\n..dot-stuffed\r\n.\r\n", true, false, true},
		{"+-1 closed before the dot", "+-1\r\nline one\r\nline two\r\n", true, true, false},
		{"+-1 closed mid-line", "+-1\r\nline one\r\nline t", true, true, false},
		{"+-1 ending in a stuffed dot line", "+-1\r\nx\r\n..\r\n", true, true, false},
		{"+-1 empty data, just the dot", "+-1\r\n.\r\n", true, false, true},
		{"+-1 dot without line end", "+-1\r\nx\r\n.", true, false, true},
		{"+-2 needs no dot", "+-2\r\nline\r\n", true, false, false},
		{"plain menu with the dot", "0a\t/a\th\t70\r\n.\r\n", false, false, true},
		{"plain menu without the dot", "0a\t/a\th\t70\r\n", false, false, false},
		{"plain text, LF dot", "text\n.\n", false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, plus := "/x", (*string)(nil)
			expect := "/x"
			if tc.plus {
				plus, expect = str("+"), "/x\t+"
			}
			srv := wt.Start(t, wt.Expect(expect), wt.SendRaw(tc.send), wt.Close())
			r := fetch(t, srv.Addr(), sel, nil, plus)
			b, err := io.ReadAll(r)
			if tc.short {
				if !errors.Is(err, ErrShortTransfer) || !strings.Contains(err.Error(), `before the "." line`) {
					t.Fatalf("%q, err = %v; want ErrShortTransfer naming the missing \".\" line", b, err)
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got := r.Terminated(); got != tc.terminated {
				t.Errorf("Terminated() = %v, want %v", got, tc.terminated)
			}
		})
	}
}

// A "+-1" body ends at its "." line even if the server keeps the
// connection open (and sends more).
func TestDotEndsPlusBody(t *testing.T) {
	srv := wt.Start(t, wt.Expect("/x\t+"), wt.SendRaw("+-1\r\nline\r\n.\r\nafter the end\r\n"), wt.Stall())
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	var c Client
	r, err := c.Fetch(ctx, srv.Addr(), "/x", nil, str("+"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil || string(b) != "line\r\n.\r\n" || !r.Terminated() {
		t.Fatalf("%q, %v, Terminated %v; want the data up to the \".\" line", b, err, r.Terminated())
	}
}
