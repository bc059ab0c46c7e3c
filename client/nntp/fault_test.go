package nntp

// Fault injection with wiretest: replies and failures INN does not
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

// opening is a modern reader server's greeting and capabilities.
func opening() []wt.Step {
	return []wt.Step{
		wt.Send("200 fake ready (posting ok)"),
		wt.Expect("CAPABILITIES"),
		wt.Send("101 Capability list:", "VERSION 2", "READER", "OVER", "POST", "AUTHINFO USER", "."),
	}
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("err = %v, want *ReplyError %d", err, code)
	}
}

func TestFaultGreeting(t *testing.T) {
	for _, code := range []int{400, 502} {
		srv := wt.Start(t, wt.Sendf("%d service unavailable", code))
		_, err := Dial(testCtx(t), srv.Addr())
		wantCode(t, err, code)
	}
	srv := wt.Start(t, wt.Send("hello there"))
	if _, err := Dial(testCtx(t), srv.Addr()); !errors.Is(err, ErrMalformedReply) {
		t.Errorf("garbage greeting: %v", err)
	}
	srv = wt.Start(t, wt.SendRaw("200 "+strings.Repeat("x", 100)+"\r\n"))
	if _, err := (&Dialer{MaxLine: 64}).Dial(testCtx(t), srv.Addr()); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("over-long greeting: %v", err)
	}
	srv = wt.Start(t, wt.Reset())
	if _, err := Dial(testCtx(t), srv.Addr()); err == nil {
		t.Error("reset before the greeting: no error")
	}
}

// oldServer is the start of an RFC 977 server's session: no
// CAPABILITIES, no MODE READER, the group misc.test holding 10 and 11.
func oldServer() []wt.Step {
	return []wt.Step{
		wt.Send("201 old server ready (no posting)"),
		wt.Expect("CAPABILITIES"), wt.Send("500 What?"),
		wt.Expect("MODE READER"), wt.Send("500 What?"),
		wt.Expect("GROUP misc.test"), wt.Send("211 2 10 11 misc.test"),
	}
}

// An RFC 977 server: no CAPABILITIES (500), MODE READER unknown too (500),
// 201 greeting; OVER is unknown, XOVER too, so the scan uses LISTGROUP.
func TestFaultOldServer(t *testing.T) {
	srv := wt.Start(t, append(oldServer(),
		wt.Expect("XOVER 10-11"), wt.Send("500 What?"),
		wt.Expect("LISTGROUP misc.test 10-11"), wt.Send("211 list follows", "10", "11", "."),
		wt.Expect("HEAD 10"), wt.Send("221 10 <a@x> head", "Subject: one", "From: a@x", "Message-ID: <a@x>", "Xref: x misc.test:10", "."),
		wt.Expect("HEAD 11"), wt.Send("423 gone"),
		wt.Expect("QUIT"), wt.Send("205 bye"),
	)...)
	c := dial(t, srv.Addr(), nil)
	if c.Capabilities() != nil || c.PostingAllowed() {
		t.Errorf("caps %v, posting %v", c.Capabilities(), c.PostingAllowed())
	}
	ctx := testCtx(t)
	g, err := c.Group(ctx, "misc.test")
	if err != nil {
		t.Fatal(err)
	}
	s := c.Overview(ctx, g.Low, g.High)
	var got []Overview
	for s.Next() {
		got = append(got, s.Item())
	}
	if s.Err() != nil || len(got) != 1 || got[0].Subject != "one" || got[0].Number != 10 || got[0].Extra[0] != "Xref: x misc.test:10" {
		t.Fatalf("got %+v, %v", got, s.Err())
	}
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
}

// A mode-switching server (RFC 3977 section 5.3): MODE-READER listed, so
// MODE READER is sent and the capabilities are read again.
func TestFaultModeSwitching(t *testing.T) {
	srv := wt.Start(t,
		wt.Send("200 transit server"),
		wt.Expect("CAPABILITIES"), wt.Send("101 caps", "VERSION 2", "IHAVE", "MODE-READER", "."),
		wt.Expect("MODE READER"), wt.Send("201 reader, no posting"),
		wt.Expect("CAPABILITIES"), wt.Send("101 caps", "VERSION 2", "READER", "OVER", "."),
	)
	c := dial(t, srv.Addr(), nil)
	if !c.Capabilities().Has("OVER") || c.Capabilities().Has("IHAVE") || c.PostingAllowed() {
		t.Errorf("caps %v posting %v", c.Capabilities(), c.PostingAllowed())
	}
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Error(err)
	}
	srv = wt.Start(t,
		wt.Send("200 transit server"),
		wt.Expect("CAPABILITIES"), wt.Send("101 caps", "VERSION 2", "MODE-READER", "."),
		wt.Expect("MODE READER"), wt.Send("502 not for you"),
	)
	_, err := Dial(testCtx(t), srv.Addr())
	wantCode(t, err, 502)
}

// 4xx/5xx at every step leave the connection usable.
func TestFaultNegativeReplies(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("GROUP x.y"), wt.Send("411 no such group"),
		wt.Expect("ARTICLE <a@b>"), wt.Send("430 no such article"),
		wt.Expect("HEAD 5"), wt.Send("412 no group selected"),
		wt.Expect("BODY"), wt.Send("420 no current article"),
		wt.Expect("POST"), wt.Send("440 posting not permitted"),
		wt.Expect("POST"), wt.Send("340 send it"),
		wt.Expect("From: a@b"), wt.Expect(""), wt.Expect("body"), wt.Expect("."), wt.Send("441 posting failed"),
		wt.Expect("AUTHINFO USER u"), wt.Send("481 rejected"),
		wt.Expect("AUTHINFO USER u"), wt.Send("381 more"), wt.Expect("AUTHINFO PASS p"), wt.Send("482 out of sequence"),
		wt.Expect("LIST ACTIVE"), wt.Send("503 program fault"),
		wt.Expect("NEWGROUPS 20260102 030405 GMT"), wt.Send("500 what?"),
		wt.Expect("GROUP x.y"), wt.Send("211 0 1 0 x.y"),
		wt.Expect("OVER 1-1000"), wt.Send("423 no articles in that range"),
		wt.Expect("OVER 1001-1500"), wt.Send("412 no group"),
		wt.Expect("QUIT"), wt.Send("205 bye"),
	))...)
	c := dial(t, srv.Addr(), nil)
	ctx := testCtx(t)
	_, err := c.Group(ctx, "x.y")
	wantCode(t, err, 411)
	_, err = c.Article(ctx, "<a@b>")
	wantCode(t, err, 430)
	_, err = c.Head(ctx, "5")
	wantCode(t, err, 412)
	_, err = c.Body(ctx, "")
	wantCode(t, err, 420)
	_, err = c.Post(ctx, strings.NewReader("From: a@b\n\nbody\n"))
	wantCode(t, err, 440)
	if !errors.Is(err, ErrPostingNotAllowed) {
		t.Error("440 is not ErrPostingNotAllowed")
	}
	_, err = c.Post(ctx, strings.NewReader("From: a@b\n\nbody"))
	wantCode(t, err, 441)
	wantCode(t, c.Authenticate(ctx, "u", "p"), 481)
	err = c.Authenticate(ctx, "u", "p")
	wantCode(t, err, 482)
	if re := err.(*ReplyError); re.Cmd != "AUTHINFO PASS" {
		t.Errorf("Cmd = %q", re.Cmd)
	}
	_, err = c.ListActive(ctx, "")
	wantCode(t, err, 503)
	_, err = c.NewGroups(ctx, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	wantCode(t, err, 500)
	if _, err := c.Group(ctx, "x.y"); err != nil {
		t.Fatal(err)
	}
	s := c.Overview(ctx, 1, 1500)
	if s.Next() {
		t.Error("an entry from nothing")
	}
	wantCode(t, s.Err(), 412)
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
}

// Broken transports and garbage in the middle of responses: a typed
// error, the connection closed, later commands fail with ErrClosed.
func TestFaultBrokenResponses(t *testing.T) {
	tests := []struct {
		name  string
		reply []wt.Step
		run   func(c *Conn, ctx context.Context) error
		want  func(error) bool
	}{
		{"reset mid-article", wt.Steps(wt.Send("220 1 <a@b> article", "Subject: x", "", "half"), wt.Pause(20*time.Millisecond), wt.Reset()),
			func(c *Conn, ctx context.Context) error {
				a, err := c.Article(ctx, "1")
				if err != nil {
					return err
				}
				_, err = io.ReadAll(a)
				a.Close()
				return err
			},
			func(err error) bool { return errors.Is(err, syscall.ECONNRESET) }},
		{"article ends without the dot line", wt.Steps(wt.Send("220 1 <a@b> article", "Subject: x", "", "half"), wt.Close()),
			func(c *Conn, ctx context.Context) error {
				a, err := c.Article(ctx, "1")
				if err != nil {
					return err
				}
				_, err = io.ReadAll(a)
				return err
			},
			func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) && errors.Is(err, ErrMalformedReply) }},
		{"over-long article line", wt.Steps(wt.Send("220 1 <a@b> article"), wt.SendRaw(strings.Repeat("y", 5000)+"\r\n.\r\n")),
			func(c *Conn, ctx context.Context) error {
				a, err := c.Article(ctx, "1")
				if err != nil {
					return err
				}
				_, err = io.ReadAll(a)
				return err
			},
			func(err error) bool { return errors.Is(err, ErrLineTooLong) }},
		{"garbage status line", wt.Steps(wt.Send("hello? \x1b[31m")),
			func(c *Conn, ctx context.Context) error { _, err := c.Group(ctx, "a.b"); return err },
			func(err error) bool {
				return errors.Is(err, ErrMalformedReply) && !strings.Contains(err.Error(), "\x1b")
			}},
		{"garbage overview line", wt.Steps(wt.Send("224 overview", "1\tsubject only", ".")),
			func(c *Conn, ctx context.Context) error {
				s := c.Overview(ctx, 1, 1)
				for s.Next() {
				}
				return s.Err()
			},
			func(err error) bool { return errors.Is(err, ErrMalformedReply) }},
		{"garbage active line", wt.Steps(wt.Send("215 list", "a.b 10 x y", ".")),
			func(c *Conn, ctx context.Context) error {
				s, err := c.ListActive(ctx, "a.*")
				if err != nil {
					return err
				}
				for s.Next() {
				}
				return s.Err()
			},
			func(err error) bool { return errors.Is(err, ErrMalformedReply) }},
		{"stall", wt.Steps(wt.Stall()),
			func(c *Conn, _ context.Context) error {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				defer cancel()
				_, err := c.Group(ctx, "a.b")
				return err
			},
			func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
		{"400 closes", wt.Steps(wt.Send("400 shutting down")),
			func(c *Conn, ctx context.Context) error { _, err := c.Group(ctx, "a.b"); return err },
			func(err error) bool { var re *ReplyError; return errors.As(err, &re) && re.Code == 400 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The server reads the client's command before it answers:
			// closing with the command unread would make the kernel send
			// a reset, not the clean end of stream the case is about.
			srv := wt.Start(t, wt.Script(opening(), wt.Steps(wt.ExpectPrefix("")), tt.reply)...)
			c := dial(t, srv.Addr(), &Dialer{MaxLine: 4096})
			start := time.Now()
			err := tt.run(c, testCtx(t))
			if !tt.want(err) {
				t.Fatalf("err = %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if _, err := c.Group(testCtx(t), "a.b"); !errors.Is(err, ErrClosed) {
				t.Errorf("next command: %v, want ErrClosed", err)
			}
		})
	}
}

// A stalled server during a streamed article: the article's context
// ends the read.
func TestFaultStallMidArticle(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("BODY 1"), wt.Send("222 1 <a@b> body", "line one"), wt.Stall(),
	))...)
	c := dial(t, srv.Addr(), nil)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	a, err := c.Body(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(a)
	if string(b) != "line one\n" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ReadAll = %q, %v", b, err)
	}
	if err := a.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("Close = %v", err)
	}
}

// A Post whose article reader fails: the connection is dropped before
// the "." so the server cannot take a partial article as whole.
func TestFaultPostReaderError(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("POST"), wt.Send("340 send"),
		wt.ExpectEOF(), // the buffered first line is never flushed
	))...)
	c := dial(t, srv.Addr(), nil)
	r := io.MultiReader(strings.NewReader("From: a@b\n"), iotestErrReader{})
	if _, err := c.Post(testCtx(t), r); err == nil || !strings.Contains(err.Error(), "reading the article") {
		t.Errorf("err = %v", err)
	}
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Error(err)
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// The capability list itself broken: over-long, unterminated, endless.
func TestFaultCapabilities(t *testing.T) {
	for name, tt := range map[string]struct {
		reply wt.Step
		want  error
	}{
		"over-long line": {wt.SendRaw("101 caps\r\n" + strings.Repeat("X", 5000) + "\r\n.\r\n"), ErrLineTooLong},
		"unterminated":   {wt.Func(func(s *wt.Session) error { wt.Send("101 caps", "READER")(s); return wt.Close()(s) }), io.ErrUnexpectedEOF},
		"endless":        {wt.SendRaw("101 caps\r\n" + strings.Repeat("X\r\n", 2000)), ErrMalformedReply},
	} {
		t.Run(name, func(t *testing.T) {
			srv := wt.Start(t, wt.Send("200 hi"), wt.Expect("CAPABILITIES"), tt.reply)
			_, err := (&Dialer{MaxLine: 4096}).Dial(testCtx(t), srv.Addr())
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// QUIT answered with something other than 205 is reported; the
// connection is closed either way.
func TestFaultQuit(t *testing.T) {
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(wt.Expect("QUIT"), wt.Send("500 what?")))...)
	c := dial(t, srv.Addr(), nil)
	wantCode(t, c.Quit(testCtx(t)), 500)
	if _, err := c.Group(testCtx(t), "a.b"); !errors.Is(err, ErrClosed) {
		t.Errorf("after Quit: %v", err)
	}
}

// A GROUP reply that claims a range of 10^18 numbers, whose batches the
// server answers at once with 423: the listing ends with an error after
// maxEmptyBatches empty batches, not after 10^15 commands.
func TestFaultEndlessEmptyRange(t *testing.T) {
	overs := 0
	srv := wt.Start(t, wt.Script(opening(), wt.Steps(
		wt.Expect("GROUP g"), wt.Send("211 2 1 999999999999999999 g"),
		wt.Func(func(s *wt.Session) error {
			for {
				line, err := s.ReadLine()
				if err != nil {
					return nil
				}
				if !strings.HasPrefix(line, "OVER ") {
					return nil
				}
				overs++
				if _, err := s.Conn.Write([]byte("423 no articles in that range\r\n")); err != nil {
					return nil
				}
			}
		}),
	))...)
	c := dial(t, srv.Addr(), nil)
	g, err := c.Group(t.Context(), "g")
	if err != nil {
		t.Fatal(err)
	}
	o := c.Overview(t.Context(), g.Low, g.High)
	for o.Next() {
		t.Fatal("an article out of nowhere")
	}
	if err := o.Err(); !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), "batches in a row without an article") {
		t.Errorf("Err = %v", err)
	}
	c.Close()
	srv.Wait(time.Second)
	if overs != maxEmptyBatches {
		t.Errorf("%d OVER commands", overs)
	}
}

// The scanner sends the lines it is given (OverviewScanner.Lines: an
// access plan's bytes), each ended with the batch's range or number; a
// line with a CR is refused before anything is sent.
func TestOverviewLinesAsGiven(t *testing.T) {
	srv := wt.Start(t, append(oldServer(),
		wt.Expect("xover 10-11"), wt.Send("500 What?"),
		wt.Expect("listgroup misc.test 10-11"), wt.Send("211 list follows", "10", "."),
		wt.Expect("head 10"), wt.Send("221 10 <a@x> head", "Subject: one", "."),
		wt.Expect("QUIT"), wt.Send("205 bye"),
	)...)
	c := dial(t, srv.Addr(), nil)
	ctx := testCtx(t)
	if _, err := c.Group(ctx, "misc.test"); err != nil {
		t.Fatal(err)
	}
	s := c.Overview(ctx, 10, 11)
	s.Lines = OverviewLines{XOver: "xover ", ListGroup: "listgroup misc.test ", Head: "head "}
	n := 0
	for s.Next() {
		n++
	}
	if s.Err() != nil || n != 1 {
		t.Fatalf("%d articles, %v", n, s.Err())
	}
	s = c.Overview(ctx, 10, 11)
	s.Lines = OverviewLines{ListGroup: "LISTGROUP misc.test\r\nQUIT "} // the method the first scan ended with
	if s.Next() || !errors.Is(s.Err(), ErrUnsafeArg) {
		t.Errorf("a line with CR LF: %v", s.Err())
	}
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
}
