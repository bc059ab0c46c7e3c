package smtp

// Fault injection with wiretest: replies and failures aiosmtpd and Exim
// do not produce on demand.

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

func opening() []wt.Step {
	return []wt.Step{
		wt.Send("220 fake ESMTP"),
		wt.Expect("EHLO localhost"), wt.Send("250-fake greets you", "250-SIZE 1000", "250 8BITMIME"),
	}
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("err = %v, want *ReplyError %d", err, code)
	}
}

// An RFC 821 server: EHLO unknown, HELO works, no SIZE.
func TestFaultHELOFallback(t *testing.T) {
	srv := wt.Start(t,
		wt.Send("220 old"),
		wt.Expect("EHLO localhost"), wt.Send("500 command unrecognized"),
		wt.Expect("HELO localhost"), wt.Send("250 old"),
		wt.Expect("MAIL FROM:<a@b.c>"), wt.Send("250 ok"),
		wt.Expect("RCPT TO:<d@e.f>"), wt.Send("250 ok"),
		wt.Expect("DATA"), wt.Send("354 go"),
		wt.Expect("Subject: x"), wt.Expect(""), wt.Expect("..hi"), wt.Expect("."), wt.Send("250 queued"),
		wt.Expect("QUIT"), wt.Send("221 bye"),
	)
	c := dial(t, srv.Addr(), nil)
	if ok, _ := c.Extension("SIZE"); ok {
		t.Error("extensions after HELO")
	}
	ctx := testCtx(t)
	if err := c.Send(ctx, "a@b.c", []string{"d@e.f"}, []byte("Subject: x\n\n.hi")); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
}

// 4xx/5xx at every step: typed errors, the connection stays usable.
func TestFaultNegativeReplies(t *testing.T) {
	for _, code := range []int{421, 554} {
		srv := wt.Start(t, wt.Sendf("%d go away", code))
		_, err := Dial(testCtx(t), srv.Addr())
		wantCode(t, err, code)
	}
	srv := wt.Start(t, wt.Send("220 x"), wt.Expect("EHLO localhost"), wt.Send("550 no"))
	_, err := Dial(testCtx(t), srv.Addr())
	wantCode(t, err, 550)

	srv = wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("MAIL FROM:<a@b.c> SIZE=3"), wt.Send("452 insufficient storage"),
		wt.Expect("MAIL FROM:<a@b.c> SIZE=3"), wt.Send("250 ok"),
		wt.Expect("RCPT TO:<d@e.f>"), wt.Send("250 ok"),
		wt.Expect("DATA"), wt.Send("554 no valid recipients"),
		wt.Expect("RSET"), wt.Send("250 ok"),
		wt.Expect("MAIL FROM:<> SIZE=3"), wt.Send("250 ok"),
		wt.Expect("RCPT TO:<d@e.f>"), wt.Send("250 ok"),
		wt.Expect("DATA"), wt.Send("354 go"),
		wt.Expect("x"), wt.Expect("."), wt.Send("552 too big after all"),
		wt.Expect("RSET"), wt.Send("500 what"),
		wt.Expect("NOOP"), wt.Send("250 ok"),
	))...)
	c := dial(t, srv.Addr(), nil)
	ctx := testCtx(t)
	err = c.Send(ctx, "a@b.c", []string{"d@e.f"}, []byte("x\r\n"))
	wantCode(t, err, 452)
	if !err.(*ReplyError).Temporary() {
		t.Error("452 not temporary")
	}
	err = c.Send(ctx, "a@b.c", []string{"d@e.f"}, []byte("x\r\n"))
	wantCode(t, err, 554)
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	err = c.Send(ctx, "", []string{"d@e.f"}, []byte("x\n"))
	wantCode(t, err, 552)
	wantCode(t, c.Reset(ctx), 500)
	if err := c.Noop(ctx); err != nil {
		t.Error(err)
	}
}

func TestFaultBroken(t *testing.T) {
	tests := []struct {
		name string
		srv  []wt.Step
		want func(error) bool
	}{
		{"reset", wt.Steps(wt.Reset()), func(err error) bool { return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) }},
		{"garbage", wt.Steps(wt.Send("OK \x1b]0;pwned\x07")), func(err error) bool {
			return errors.Is(err, ErrMalformedReply) && !strings.ContainsAny(err.Error(), "\x1b\x07")
		}},
		{"mixed codes", wt.Steps(wt.Send("250-a", "251 b")), func(err error) bool { return errors.Is(err, ErrMalformedReply) }},
		{"over-long line", wt.Steps(wt.SendRaw("250 " + strings.Repeat("x", 5000) + "\r\n")), func(err error) bool { return errors.Is(err, ErrLineTooLong) }},
		{"endless reply", wt.Steps(wt.SendRaw(strings.Repeat("250-more\r\n", 200))), func(err error) bool { return errors.Is(err, ErrReplyTooLong) }},
		{"stall", wt.Steps(wt.Stall()), func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
		{"421 closes", wt.Steps(wt.Send("421 shutting down")), func(err error) bool { var re *ReplyError; return errors.As(err, &re) && re.Code == 421 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := wt.Start(t, wt.Script(opening(), wt.Steps(wt.Expect("NOOP")), tt.srv)...)
			c := dial(t, srv.Addr(), nil)
			ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
			defer cancel()
			err := c.Noop(ctx)
			if !tt.want(err) {
				t.Fatalf("err = %v", err)
			}
			if err := c.Noop(testCtx(t)); !errors.Is(err, ErrClosed) {
				t.Errorf("next command: %v, want ErrClosed", err)
			}
		})
	}
}

// Stalled during DATA: the context ends the wait for the verdict.
func TestFaultStallAfterData(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("MAIL FROM:<a@b.c> SIZE=3"), wt.Send("250 ok"),
		wt.Expect("RCPT TO:<d@e.f>"), wt.Send("250 ok"),
		wt.Expect("DATA"), wt.Send("354 go"), wt.Stall(),
	))...)
	c := dial(t, srv.Addr(), nil)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	err := c.Send(ctx, "a@b.c", []string{"d@e.f"}, []byte("x\n"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}

// STARTTLS asked, offered, then refused by the server: no session in clear.
func TestFaultStartTLSRefused(t *testing.T) {
	srv := wt.Start(t,
		wt.Send("220 x"), wt.Expect("EHLO localhost"), wt.Send("250-x", "250 STARTTLS"),
		wt.Expect("STARTTLS"), wt.Send("454 TLS not available"),
	)
	_, err := (&Dialer{StartTLS: true}).Dial(testCtx(t), srv.Addr())
	wantCode(t, err, 454)
}

// AUTH PLAIN: an untrusted connection never gets the password; the SIZE
// check fires before MAIL.
func TestFaultLocalRefusals(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(wt.Expect("QUIT"), wt.Send("221 bye")))...)
	c := dial(t, srv.Addr(), nil)
	ctx := testCtx(t)
	if err := c.Auth(ctx, "u", "p"); !errors.Is(err, ErrAuthNeedsTLS) {
		t.Errorf("Auth: %v", err)
	}
	if err := c.Send(ctx, "a@b.c", []string{"d@e.f"}, make([]byte, 2000)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Send: %v", err)
	}
	if err := c.Send(ctx, "a@b.c", nil, []byte("x")); err == nil {
		t.Error("no recipients accepted")
	}
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
	if _, err := (&Dialer{LocalName: "a\r\nMAIL"}).Dial(ctx, srv.Addr()); !errors.Is(err, ErrUnsafeArg) {
		t.Errorf("LocalName: %v", err)
	}
}

// EHLO's reply broken, and DATA refused or cut: typed errors.
func TestFaultEHLOAndData(t *testing.T) {
	srv := wt.Start(t, wt.Send("220 x"), wt.Expect("EHLO localhost"), wt.Send("250-x", "hello"))
	if _, err := Dial(testCtx(t), srv.Addr()); !errors.Is(err, ErrMalformedReply) {
		t.Errorf("garbage in EHLO: %v", err)
	}
	srv = wt.Start(t, wt.Send("220 x"), wt.Expect("EHLO localhost"), wt.Send("502 no"), wt.Expect("HELO localhost"), wt.Send("501 no"))
	_, err := Dial(testCtx(t), srv.Addr())
	wantCode(t, err, 501)

	srv = wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("MAIL FROM:<a@b.c> SIZE=3"), wt.Send("250 ok"), // "x" goes as "x\r\n"
		wt.Expect("RCPT TO:<d@e.f>"), wt.Send("250 ok"),
		wt.Expect("DATA"), wt.Send("354 go"), wt.Expect("x"), wt.Expect("."), wt.Reset(),
	))...)
	c := dial(t, srv.Addr(), nil)
	err = c.Send(testCtx(t), "a@b.c", []string{"d@e.f"}, []byte("x"))
	if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("reset after the data: %v", err)
	}
	if err := c.Noop(testCtx(t)); !errors.Is(err, ErrClosed) {
		t.Errorf("after the reset: %v", err)
	}
}
