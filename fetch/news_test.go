package fetch

// news, nntp, mid and cid access and Send (mailto, news posting) against
// INN, aiosmtpd and Exim; faults from wiretest's scripted servers.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// nntpFaultScript is a reader session up to the GROUP reply; then steps.
func nntpFaultScript(steps ...wt.Step) []wt.Step {
	return append([]wt.Step{
		wt.Send("200 fake news server"),
		wt.Expect("CAPABILITIES"), wt.Send("101 list", "VERSION 2", "READER", "OVER", "."),
	}, steps...)
}

func TestFaultNNTP(t *testing.T) {
	url := func(addr string) string { return "nntp://" + addr + "/g" }
	group := []wt.Step{wt.Expect("GROUP g"), wt.Send("211 3 1 3 g"), wt.Expect("OVER 1-3")}
	over := "224 overview\r\n1\tsubject\tfrom\tdate\t<1@x>\t\t10\t1\r\n"
	for _, tc := range []faultCase{
		{name: "greeting 400", script: []wt.Step{wt.Send("400 service unavailable")}, kind: ErrStatus},
		{name: "greeting 502", script: []wt.Step{wt.Send("502 no permission")}, kind: ErrStatus},
		{name: "garbage greeting", script: []wt.Step{wt.Send("SSH-2.0-OpenSSH")}, kind: ErrProtocol},
		{name: "stall before the greeting", script: []wt.Step{wt.Stall()}, kind: ErrTimeout},
		{name: "reset after CAPABILITIES", script: []wt.Step{wt.Send("200 x"), wt.Expect("CAPABILITIES"), wt.Reset()}, kind: ErrShortTransfer},
		{name: "GROUP 411", script: nntpFaultScript(wt.Expect("GROUP g"), wt.Send("411 no such group"), wt.Expect("QUIT"), wt.Send("205 bye")), kind: ErrNotFound},
		{name: "GROUP 411, QUIT unanswered", script: nntpFaultScript(wt.Expect("GROUP g"), wt.Send("411 no such group"), wt.Expect("QUIT"), wt.Stall()), kind: ErrNotFound},
		{name: "GROUP 480", script: nntpFaultScript(wt.Expect("GROUP g"), wt.Send("480 authentication required")), kind: ErrAccessDenied},
		{name: "GROUP 502", script: nntpFaultScript(wt.Expect("GROUP g"), wt.Send("502 no")), kind: ErrStatus},
		{name: "GROUP garbage", script: nntpFaultScript(wt.Expect("GROUP g"), wt.Send("hello")), kind: ErrProtocol},
		{name: "OVER 503", script: nntpFaultScript(append(group, wt.Send("403 overview broken"))...), kind: ErrStatus, inBody: true},
		{name: "OVER stalls mid-listing", script: nntpFaultScript(append(group, wt.SendRaw(over), wt.Stall())...), kind: ErrTimeout, inBody: true},
		{name: "OVER reset mid-listing", script: nntpFaultScript(append(group, wt.SendRaw(over), wt.Pause(20*time.Millisecond), wt.Reset())...), kind: ErrShortTransfer, inBody: true},
		{name: "OVER closed before its dot", script: nntpFaultScript(append(group, wt.SendRaw(over), wt.Close())...), kind: ErrShortTransfer, inBody: true},
		{name: "OVER garbage line", script: nntpFaultScript(append(group, wt.SendRaw("224 overview\r\nnot a number\tx\r\n.\r\n"))...), kind: ErrProtocol, inBody: true},
		{name: "OVER endless line", script: nntpFaultScript(append(group, wt.SendRaw("224 overview\r\n1\t"), endless(100<<20))...), kind: ErrProtocol, inBody: true},
	} {
		runFault(t, tc, url)
	}
}

// smtpFaultScript is a session up to the EHLO reply; then steps.
func smtpFaultScript(steps ...wt.Step) []wt.Step {
	return append([]wt.Step{
		wt.Send("220 fake mail server"),
		wt.ExpectPrefix("EHLO "), wt.Send("250-fake", "250 SIZE 1000000"),
	}, steps...)
}

func TestFaultSMTP(t *testing.T) {
	mail := wt.ExpectPrefix("MAIL FROM:<me@example.org> SIZE=")
	rcpt := wt.Expect("RCPT TO:<you@example.org>")
	for _, tc := range []faultCase{
		{name: "greeting 554", script: []wt.Step{wt.Send("554 go away")}, kind: ErrStatus},
		{name: "greeting 421", script: []wt.Step{wt.Send("421 busy")}, kind: ErrStatus},
		{name: "garbage greeting", script: []wt.Step{wt.Send("+OK POP3 ready")}, kind: ErrProtocol},
		{name: "stall before the greeting", script: []wt.Step{wt.Stall()}, kind: ErrTimeout},
		{name: "reset after EHLO", script: []wt.Step{wt.Send("220 x"), wt.ExpectPrefix("EHLO"), wt.Reset()}, kind: ErrShortTransfer},
		{name: "endless EHLO reply", script: []wt.Step{wt.Send("220 x"), wt.ExpectPrefix("EHLO"), wt.SendRaw("250-"), endless(100 << 20)}, kind: ErrProtocol},
		{name: "MAIL 451", script: smtpFaultScript(mail, wt.Send("451 try later")), kind: ErrStatus},
		{name: "MAIL 550", script: smtpFaultScript(mail, wt.Send("550 no")), kind: ErrStatus},
		{name: "RCPT 550", script: smtpFaultScript(mail, wt.Send("250 ok"), rcpt, wt.Send("550 no such user"), wt.Expect("QUIT"), wt.Send("221 bye")), kind: ErrStatus},
		{name: "DATA 554", script: smtpFaultScript(mail, wt.Send("250 ok"), rcpt, wt.Send("250 ok"), wt.Expect("DATA"), wt.Send("554 no")), kind: ErrStatus},
		{name: "end of data 452", script: smtpFaultScript(mail, wt.Send("250 ok"), rcpt, wt.Send("250 ok"), wt.Expect("DATA"), wt.Send("354 go"),
			wt.Func(readData), wt.Send("452 out of space")), kind: ErrStatus},
		{name: "stall after the data", script: smtpFaultScript(mail, wt.Send("250 ok"), rcpt, wt.Send("250 ok"), wt.Expect("DATA"), wt.Send("354 go"),
			wt.Func(readData), wt.Stall()), kind: ErrTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wt.Start(t, tc.script...)
			f := &Fetcher{Getenv: noEnv(), Timeout: faultTimeout(tc.kind)}
			f.Mail.Server, f.Mail.From = srv.Addr(), "me@example.org"
			start := time.Now()
			_, err := f.Send(testCtx(t), mustParse(t, "mailto:you@example.org"), strings.NewReader("hello\n"))
			var fe *Error
			if !errors.As(err, &fe) || !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want an *Error of kind %v", err, tc.kind)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// readData reads a DATA block up to its "." line.
func readData(s *wt.Session) error {
	for {
		line, err := s.ReadLine()
		if err != nil || line == "." {
			return err
		}
	}
}

// connCounter counts the connections made to a free port: a refusal
// must make none.
func connCounter(t *testing.T) (string, *atomic.Int32) {
	addr, n := wt.Trap(t, "127.0.0.1:0")
	if addr == "" {
		t.Fatal("no port to count connections on")
	}
	return addr, n
}

// TestRefusedBeforeConnecting: what the URL or the message would smuggle
// into a protocol line, and what breaks RFC 5321 or RFC 5536, is refused
// before any connection is made.
func TestRefusedBeforeConnecting(t *testing.T) {
	addr, conns := connCounter(t)
	for _, tc := range []struct {
		url, msg string
		kind     error
	}{
		{"mailto:you@example.org?subject=x%0D%0ABcc:victim@example.org", "hi\n", ErrUnsafe},
		{"mailto:you@example.org?subject=x%0ABcc:victim@example.org", "hi\n", ErrUnsafe},
		{"mailto:you%0D%0ARCPT%20TO:x@example.org@example.org", "hi\n", ErrUnsafe},
		{"mailto:you@example.org?to=x%0D%0A@example.org", "hi\n", ErrUnsafe},
		{"mailto:you@example.org?x-h=a%00b", "hi\n", ErrUnsafe},
		{"mailto:you@exa_mple.org", "hi\n", ErrInvalidURL},                         // not an RFC 5321 domain
		{"mailto:you@example.org", "To: not an address <<\n\nhi\n", ErrInvalidURL}, // the header checked
		{"news:local.test%0D%0APOST", "From: a@b.c\nSubject: s\n\nx\n", ErrUnsafe},
		{"nntp://" + addr + "/local.test%0AQUIT", "From: a@b.c\nSubject: s\n\nx\n", ErrUnsafe},
		{"news:local.test", "Subject: no From\n\nx\n", ErrBadMessage}, // RFC 5536 3.1
		{"news:local.test", "From: a@b.c\nSubject: s\nDate: yesterday\n\nx\n", ErrBadMessage},
		{"news:local.test", "From: a@b.c\nSubject: s\nNewsgroups: local.general\n\nx\n", ErrBadMessage},     // not the URL's group
		{"news:local.test", "From: a@b.c\nSubject: s\n\n" + strings.Repeat("x", 999) + "\n", ErrBadMessage}, // RFC 5322 2.1.1
		{"mailto:you@example.org", strings.Repeat("x", 999) + "\n", ErrBadMessage},
		{"news:first@test.invalid", "From: a@b.c\nSubject: s\n\nx\n", ErrUnsupportedScheme}, // posted to a group only
	} {
		f := &Fetcher{Getenv: noEnv()}
		f.Mail.Server, f.Mail.From, f.NNTP.Server = addr, "me@example.org", addr
		_, err := f.Send(testCtx(t), mustParse(t, tc.url), strings.NewReader(tc.msg))
		if !errors.Is(err, tc.kind) {
			t.Errorf("send %s: %v, want %v", tc.url, err, tc.kind)
		}
	}
	for _, s := range []string{"news:local.test%0D%0AQUIT", "news:a%00b@example.org", "nntp://" + addr + "/g%0D%0A/1"} {
		f := &Fetcher{Getenv: noEnv()}
		f.NNTP.Server = addr
		if _, err := f.Fetch(testCtx(t), mustParse(t, s)); !errors.Is(err, ErrUnsafe) {
			t.Errorf("get %s: %v, want ErrUnsafe", s, err)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("%d connections made", n)
	}
	// Without a server: a clear error, no guess.
	f := &Fetcher{Getenv: noEnv()}
	if _, err := f.Fetch(testCtx(t), mustParse(t, "news:local.test")); err == nil || !strings.Contains(err.Error(), "--nntp") {
		t.Errorf("news: without a server: %v", err)
	}
	f.Mail.From = "me@example.org"
	if _, err := f.Send(testCtx(t), mustParse(t, "mailto:you@example.org"), strings.NewReader("x")); err == nil || !strings.Contains(err.Error(), "--smtp") {
		t.Errorf("mailto without a server: %v", err)
	}
	if _, err := f.Fetch(testCtx(t), mustParse(t, "mailto:you@example.org")); err == nil || !strings.Contains(err.Error(), "urlkit send") {
		t.Errorf("get mailto: %v", err)
	}
}

func nntpEnv(t *testing.T) map[string]string {
	return wt.ServerEnv(t, "NNTP_PORT", "NNTP_USER", "NNTP_PASS", "NNTP_INNCONF", "NNTP_BIN")
}

// TestRealPostReadBack posts through Send and reads the article back
// through urlkit and through INN's own tools.
func TestRealPostReadBack(t *testing.T) {
	e := nntpEnv(t)
	server := "127.0.0.1:" + e["NNTP_PORT"]
	id := "<readback." + time.Now().Format("150405.000000") + "@example.org>"
	article := "From: Ann <ann@example.org>\nSubject: read back\nMessage-ID: " + id + "\n\nfirst\n.dot\nlast\n"
	f := &Fetcher{Getenv: noEnv()}
	f.NNTP.Server = server
	sent, err := f.Send(testCtx(t), mustParse(t, "news:local.post"), strings.NewReader(article))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sent.Reply, "240") {
		t.Errorf("reply %q", sent.Reply)
	}
	var got []byte
	for range 50 { // innd files the article asynchronously
		resp, err := f.Fetch(testCtx(t), mustParse(t, "news:"+strings.Trim(id, "<>")))
		if err == nil {
			got, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range []string{"Newsgroups: local.post\n", "Message-ID: " + id + "\n", "\nDate: ", "\n\nfirst\n.dot\nlast\n"} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("article lacks %q:\n%s", want, got)
		}
	}
	// INN's own view: grephistory gives the storage token, sm the article.
	env := append(os.Environ(), "INNCONF="+e["NNTP_INNCONF"])
	cmd := exec.Command(filepath.Join(e["NNTP_BIN"], "grephistory"), id)
	cmd.Env = env
	tok, err := cmd.Output()
	if err != nil {
		t.Fatalf("grephistory: %v", err)
	}
	cmd = exec.Command(filepath.Join(e["NNTP_BIN"], "sm"), strings.TrimSpace(string(tok)))
	cmd.Env = env
	stored, err := cmd.Output()
	if err != nil {
		t.Fatalf("sm: %v", err)
	}
	if !bytes.Equal(stored, got) {
		t.Errorf("urlkit read\n%q\nINN stored\n%q", got, stored)
	}
}

// TestRealNNTPListingClosedEarly: a listing closed after its first line
// is read to its end, and the session ends with QUIT, without error.
func TestRealNNTPListingClosedEarly(t *testing.T) {
	e := nntpEnv(t)
	var trace bytes.Buffer
	f := &Fetcher{Getenv: noEnv(), Trace: &trace}
	f.NNTP.Server, f.NNTP.Dialer.OverviewBatch = "127.0.0.1:"+e["NNTP_PORT"], 1
	resp, err := f.Fetch(testCtx(t), mustParse(t, "news:local.test"))
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 10)
	if _, err := resp.Body.Read(line); err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatalf("Close: %v\n%s", err, trace.String())
	}
	if !strings.Contains(trace.String(), "> QUIT") {
		t.Errorf("no QUIT:\n%s", trace.String())
	}
}

// TestRealNNTPLoginSecret: a wrong password fails as access denied and
// appears in neither the error nor the trace.
func TestRealNNTPLoginSecret(t *testing.T) {
	e := nntpEnv(t)
	const pass = "wrong-Pa55word"
	var trace bytes.Buffer
	f := &Fetcher{Getenv: noEnv(), Trace: &trace}
	_, err := f.Fetch(testCtx(t), mustParse(t, "nntp://"+e["NNTP_USER"]+":"+pass+"@127.0.0.1:"+e["NNTP_PORT"]+"/local.test"))
	if !errors.Is(err, ErrAccessDenied) {
		t.Errorf("err = %v, want ErrAccessDenied", err)
	}
	if strings.Contains(err.Error(), pass) || strings.Contains(trace.String(), pass) {
		t.Errorf("the password leaked: %v\n%s", err, trace.String())
	}
	f = &Fetcher{Getenv: noEnv(), Trace: &trace}
	f.NNTP.User, f.NNTP.Password = e["NNTP_USER"], e["NNTP_PASS"]
	f.NNTP.Server = "127.0.0.1:" + e["NNTP_PORT"]
	resp, err := f.Fetch(testCtx(t), mustParse(t, "news:local.test"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if strings.Contains(trace.String(), "PASS "+e["NNTP_PASS"]) {
		t.Errorf("the password is in the trace")
	}
}

// TestRealMailDelivered reads the delivered files: envelope and every
// header.
func TestRealMailDelivered(t *testing.T) {
	e := wt.ServerEnv(t, "SMTP_PORT", "SMTP_MAILDIR")
	f := &Fetcher{Getenv: noEnv()}
	f.Mail.Server, f.Mail.From = "127.0.0.1:"+e["SMTP_PORT"], "Sender <sender@example.org>"
	f.Mail.From = "sender@example.org"
	subject := "delivered " + time.Now().Format("150405.000000")
	u := "mailto:a@example.org,b@example.org?cc=c@example.org&subject=" + strings.ReplaceAll(subject, " ", "%20") + "&In-Reply-To=%3Cx@example.org%3E"
	if _, err := f.Send(testCtx(t), mustParse(t, u), strings.NewReader("line one\n.line two\n")); err != nil {
		t.Fatal(err)
	}
	msg := findDelivered(t, e["SMTP_MAILDIR"], subject)
	for _, want := range []string{
		"From: <sender@example.org>\n", "To: <a@example.org>, <b@example.org>\n", "Cc: <c@example.org>\n",
		"Subject: " + subject + "\n", "In-Reply-To: <x@example.org>\n", "\nDate: ", "\nMessage-ID: <",
		"X-MailFrom: sender@example.org\n", "X-RcptTo: a@example.org, b@example.org, c@example.org\n",
		"\n\nline one\n.line two\n",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("delivered message lacks %q:\n%s", want, msg)
		}
	}
}

func findDelivered(t *testing.T, maildir, subject string) string {
	t.Helper()
	for range 50 {
		files, _ := filepath.Glob(filepath.Join(maildir, "new", "*"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err == nil && bytes.Contains(b, []byte(subject)) {
				return strings.ReplaceAll(string(b), "\r\n", "\n")
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no message %q in %s", subject, maildir)
	return ""
}

// TestRealMailEximPartial: Exim refuses reject-* recipients at RCPT: the
// others get the message and the error names the refused one.
func TestRealMailEximPartial(t *testing.T) {
	e := wt.ServerEnv(t, "EXIM_PORT", "EXIM_MAILDIR", "EXIM_CA")
	f := &Fetcher{Getenv: noEnv()}
	f.Mail.Server, f.Mail.From = "127.0.0.1:"+e["EXIM_PORT"], "sender@example.org"
	_, err := f.Send(testCtx(t), mustParse(t, "mailto:ok@example.org,reject-me@example.org?subject=partial"), strings.NewReader("x\n"))
	if !errors.Is(err, ErrStatus) || !strings.Contains(err.Error(), "reject-me@example.org") {
		t.Errorf("err = %v, want the refused recipient named", err)
	}
}

// TestRealMIDCID finds a message in a Maildir and an mbox, a part of it,
// and a news article by its message-id.
func TestRealMIDCID(t *testing.T) {
	dir := t.TempDir()
	maildir := filepath.Join(dir, "Maildir")
	for _, d := range []string{"cur", "new", "tmp"} {
		if err := os.MkdirAll(filepath.Join(maildir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	msg := "From: a@example.org\nMessage-ID: <m1@example.org>\nMIME-Version: 1.0\nContent-Type: multipart/related; boundary=XX\n\n" +
		"--XX\nContent-Type: text/plain\n\nthe text\n--XX\nContent-Type: text/plain\nContent-ID: <part1@example.org>\nContent-Transfer-Encoding: base64\n\naGVsbG8gcGFydA==\n--XX--\n"
	if err := os.WriteFile(filepath.Join(maildir, "new", "1.eml"), []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	mbox := filepath.Join(dir, "mbox")
	if err := os.WriteFile(mbox, []byte("From a@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <m2@example.org>\n\nin the mbox\n>From quoted\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{Getenv: noEnv()}
	f.Mail.Mailboxes = []string{maildir, mbox}
	f.Mail.Message = filepath.Join(maildir, "new", "1.eml")
	for url, want := range map[string]string{
		"mid:m1@example.org":                   "the text",
		"mid:m2@example.org":                   "in the mbox\nFrom quoted\n",
		"mid:m1@example.org/part1@example.org": "hello part",
		"cid:part1@example.org":                "hello part",
	} {
		resp, err := f.Fetch(testCtx(t), mustParse(t, url))
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: %q, want %q", url, b, want)
		}
	}
	if _, err := f.Fetch(testCtx(t), mustParse(t, "mid:none@example.org")); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing mid: %v", err)
	}
	if _, err := f.Fetch(testCtx(t), mustParse(t, "cid:none@example.org")); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing cid: %v", err)
	}
	// Not in the mailboxes: the news article of that message-id.
	e := nntpEnv(t)
	f.NNTP.Server = "127.0.0.1:" + e["NNTP_PORT"]
	resp, err := f.Fetch(testCtx(t), mustParse(t, "mid:first@test.invalid"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "Subject: First test article") {
		t.Errorf("mid: as a news article: %q", b)
	}
}

// FuzzSplitMessage: reading a message from standard input never fails
// or loses the body: without a header the input is the body as it is;
// with one, the body is what follows the first empty line.
func FuzzSplitMessage(f *testing.F) {
	for _, s := range []string{"", "body only\n", "Subject: s\n\nbody\n", "Subject: s\r\n folded\r\n\r\nx", "no colon\n\nx", ": empty name\n\nx", "A: b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields, body := splitMessage([]byte(s))
		if fields == nil {
			if string(body) != s {
				t.Fatalf("no header, body %q, want the input", body)
			}
			return
		}
		norm := strings.ReplaceAll(s, "\r\n", "\n")
		if !strings.HasSuffix(norm, "\n\n"+string(body)) {
			t.Fatalf("body %q is not what follows the header of %q", body, s)
		}
		for _, f := range fields {
			if f.Name == "" || strings.ContainsAny(f.Name, " \t\n") {
				t.Fatalf("field name %q", f.Name)
			}
		}
	})
}
