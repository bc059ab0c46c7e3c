package smtp

// Integration tests against the real servers started by
// scripts/servers/start-smtp.sh (aiosmtpd: SMTP_*) and
// start-smtp-exim.sh (Exim: EXIM_*). Each test reads the delivered
// Maildir file and checks the envelope and every header field. Without
// the env vars they skip, or fail with URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 30*time.Second) }

// dial connects with d (nil: the zero Dialer), failing the test on an
// error, and closes the connection when the test ends.
func dial(t *testing.T, addr string, d *Dialer) *Conn {
	t.Helper()
	if d == nil {
		d = &Dialer{}
	}
	return wiretest.Open(t, func(ctx context.Context) (*Conn, error) { return d.Dial(ctx, addr) })
}

// delivered waits for the Maildir files holding msgid (one per message
// for aiosmtpd, one per recipient for Exim) and returns their contents.
func delivered(t *testing.T, maildir, msgid string, want int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var found []string
		files, _ := filepath.Glob(filepath.Join(maildir, "new", "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err == nil && bytes.Contains(b, []byte(msgid)) {
				found = append(found, string(b))
			}
		}
		if len(found) >= want || time.Now().After(deadline) {
			if len(found) != want {
				t.Fatalf("%d files with %s in %s, want %d", len(found), msgid, maildir, want)
			}
			return found
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// headerLines splits a message's header into its fields, each with its
// continuation lines, line ends normalized to LF.
func headerLines(msg string) (fields []string, body string) {
	msg = strings.ReplaceAll(msg, "\r\n", "\n")
	head, body, _ := strings.Cut(msg, "\n\n")
	for _, l := range strings.Split(head, "\n") {
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(fields) > 0 {
			fields[len(fields)-1] += "\n" + l
			continue
		}
		fields = append(fields, l)
	}
	return fields, body
}

const testBody = "Hello.\n.a line starting with a dot\n..two dots\n.\nlast line\n"

func buildTest(t *testing.T, from string, to, cc []string) ([]byte, string) {
	t.Helper()
	fields := []Field{
		{"From", "Tëst Sender <" + from + ">"},
		{"To", strings.Join(to, ", ")},
		{"Subject", "Grüße from the smtp test " + fmt.Sprint(time.Now().UnixNano())},
		{"X-Urlkit-Test", "header value kept as is"},
	}
	if len(cc) > 0 {
		fields = append(fields, Field{"Cc", strings.Join(cc, ", ")})
	}
	fields = append(fields, Field{"Bcc", "hidden@example.org"})
	msg, err := BuildMessage(fields, []byte(testBody), MessageOptions{Domain: "test.invalid"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	return msg, m.Header.Get("Message-Id")
}

func TestRealSendAiosmtpd(t *testing.T) {
	env := wiretest.ServerEnv(t, "SMTP_PORT", "SMTP_MAILDIR")
	var trace wiretest.Buffer
	c := dial(t, "127.0.0.1:"+env["SMTP_PORT"], &Dialer{Trace: &trace, LocalName: "client.test.invalid"})
	ctx := testCtx(t)
	from := "sender@example.org"
	to := []string{"one@example.org", "two@example.net"}
	cc := []string{"three@example.com"}
	msg, id := buildTest(t, from, to, cc)
	rcpts := append(append(slices.Clone(to), cc...), "hidden@example.org")
	if err := c.Send(ctx, from, rcpts, msg); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(ctx); err != nil {
		t.Error(err)
	}
	files := delivered(t, env["SMTP_MAILDIR"], id, 1)
	got, body := headerLines(files[0])
	want, wantBody := headerLines(string(msg))
	// aiosmtpd adds the envelope as three fields after ours.
	envelope := []string{
		"X-Peer: ('127.0.0.1', ",
		"X-MailFrom: " + from,
		"X-RcptTo: " + strings.Join(rcpts, ", "),
	}
	if len(got) != len(want)+len(envelope) {
		t.Fatalf("delivered header:\n%s\nwant ours:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, e := range envelope {
		if g := got[len(want)+i]; !strings.HasPrefix(g, e) || (i > 0 && g != e) {
			t.Errorf("envelope field %d = %q, want %q", i, g, e)
		}
	}
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("header fields:\n%s\nwant:\n%s", strings.Join(got[:len(want)], "\n"), strings.Join(want, "\n"))
	}
	if body != wantBody || body != testBody {
		t.Errorf("body = %q, want %q", body, testBody)
	}
	for _, f := range got {
		if strings.HasPrefix(strings.ToLower(f), "bcc:") {
			t.Errorf("Bcc in the delivered message: %q", f)
		}
	}
	// the wire: EHLO, envelope, dot-stuffed data
	tr := trace.String()
	for _, w := range []string{"> EHLO client.test.invalid\n", "> MAIL FROM:<sender@example.org>\n",
		"> RCPT TO:<one@example.org>\n", "> RCPT TO:<hidden@example.org>\n", "> DATA\n", "< 354 ",
		"> ..a line starting with a dot\n", "> ...two dots\n", "> ..\n", "> .\n", "> QUIT\n", "< 221 "} {
		if !strings.Contains(tr, w) {
			t.Errorf("trace lacks %q:\n%s", w, tr)
		}
	}
	if ok, _ := c.Extension("8BITMIME"); !ok {
		t.Error("aiosmtpd's 8BITMIME not seen")
	}
}

func eximEnv(t *testing.T) map[string]string {
	return wiretest.ServerEnv(t, "EXIM_PORT", "EXIM_MAILDIR", "EXIM_CA", "EXIM_USER", "EXIM_PASS", "EXIM_LOG")
}

// Exim refuses reject-* with 550 and defers defer-* with 451 at RCPT: the
// message goes to the others, and each refusal is reported.
func TestRealSendEximPartial(t *testing.T) {
	env := eximEnv(t)
	var trace wiretest.Buffer
	c := dial(t, "127.0.0.1:"+env["EXIM_PORT"], &Dialer{Trace: &trace})
	ctx := testCtx(t)
	from := "sender@example.org"
	msg, id := buildTest(t, from, []string{"ok@example.org"}, []string{"reject-me@example.org", "defer-me@example.org"})
	err := c.Send(ctx, from, []string{"ok@example.org", "reject-me@example.org", "defer-me@example.org", "also-ok@example.net"}, msg)
	var re *RecipientsError
	if !errors.As(err, &re) || !re.Delivered || len(re.Failed) != 2 {
		t.Fatalf("err = %v, want a partial *RecipientsError", err)
	}
	if f := re.Failed[0]; f.Addr != "reject-me@example.org" || f.Code != 550 || f.Temporary() {
		t.Errorf("first refusal %+v", f)
	}
	if f := re.Failed[1]; f.Addr != "defer-me@example.org" || f.Code != 451 || !f.Temporary() {
		t.Errorf("second refusal %+v", f)
	}
	// SIZE is advertised, so MAIL carries the size
	crlf := strings.ReplaceAll(strings.ReplaceAll(string(msg), "\r\n", "\n"), "\n", "\r\n")
	if !strings.Contains(trace.String(), fmt.Sprintf("> MAIL FROM:<%s> SIZE=%d\n", from, len(crlf))) {
		t.Errorf("no SIZE in MAIL:\n%s", trace.String())
	}
	files := delivered(t, env["EXIM_MAILDIR"], id, 2) // one file per accepted recipient
	want, wantBody := headerLines(string(msg))
	var envTo []string
	for _, f := range files {
		got, body := headerLines(f)
		// Exim adds Return-path, Envelope-to, Delivery-date and Received
		// in front of ours, and changes nothing of ours.
		if len(got) != len(want)+4 {
			t.Fatalf("delivered header:\n%s", strings.Join(got, "\n"))
		}
		if got[0] != "Return-path: <"+from+">" || !strings.HasPrefix(got[2], "Delivery-date: ") || !strings.HasPrefix(got[3], "Received: from [127.0.0.1]") {
			t.Errorf("Exim's fields: %q", got[:4])
		}
		envTo = append(envTo, strings.TrimPrefix(got[1], "Envelope-to: "))
		if !slices.Equal(got[4:], want) {
			t.Errorf("header fields:\n%s\nwant:\n%s", strings.Join(got[4:], "\n"), strings.Join(want, "\n"))
		}
		if body != wantBody {
			t.Errorf("body = %q", body)
		}
	}
	slices.Sort(envTo)
	if !slices.Equal(envTo, []string{"also-ok@example.net", "ok@example.org"}) {
		t.Errorf("Envelope-to: %q", envTo)
	}
	// Exim's log shows the envelope sender and the refusals
	if lg, err := os.ReadFile(env["EXIM_LOG"]); err != nil || !bytes.Contains(lg, []byte("<= "+from)) ||
		!bytes.Contains(lg, []byte("rejected RCPT <reject-me@example.org>")) {
		t.Errorf("Exim log: %v\n%s", err, lg)
	}

	// every recipient refused: nothing sent, the transaction reset
	err = c.Send(ctx, from, []string{"reject-a@example.org", "reject-b@example.org"}, msg)
	if !errors.As(err, &re) || re.Delivered || len(re.Failed) != 2 {
		t.Fatalf("err = %v, want an undelivered *RecipientsError", err)
	}
	if !strings.HasSuffix(trace.String(), "> RSET\n< 250 Reset OK\n") {
		t.Errorf("no RSET after refusals:\n%s", trace.String())
	}
	// too large for the advertised SIZE: refused before MAIL
	before := trace.String()
	big := append(slices.Clone(msg), bytes.Repeat([]byte("x"), 11<<20)...)
	if err := c.Send(ctx, from, []string{"ok@example.org"}, big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big message: %v", err)
	}
	if trace.String() != before {
		t.Error("something was sent for a message over SIZE")
	}
	if err := c.Noop(ctx); err != nil {
		t.Error(err)
	}
}

func eximTLS(t *testing.T, env map[string]string) *tls.Config {
	pem, err := os.ReadFile(env["EXIM_CA"])
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &tls.Config{RootCAs: pool}
}

func TestRealStartTLSAuth(t *testing.T) {
	env := eximEnv(t)
	addr := "127.0.0.1:" + env["EXIM_PORT"]
	ctx := testCtx(t)

	// in clear: AUTH is not even offered by Exim, and refused by the client
	var clear wiretest.Buffer
	c := dial(t, addr, &Dialer{Trace: &clear})
	if c.TLS() {
		t.Error("TLS without StartTLS")
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		t.Error("Exim does not offer STARTTLS")
	}
	before := clear.String()
	if err := c.Auth(ctx, env["EXIM_USER"], env["EXIM_PASS"]); !errors.Is(err, ErrAuthNeedsTLS) {
		t.Errorf("AUTH in clear: %v", err)
	}
	if clear.String() != before {
		t.Error("AUTH sent in clear")
	}

	var trace wiretest.Buffer
	d := &Dialer{StartTLS: true, TLSConfig: eximTLS(t, env), Trace: &trace}
	c = dial(t, addr, d)
	if !c.TLS() {
		t.Fatal("no TLS after STARTTLS")
	}
	if ok, mechs := c.Extension("AUTH"); !ok || !strings.Contains(mechs, "PLAIN") {
		t.Fatalf("AUTH after STARTTLS: %v %q", ok, mechs)
	}
	if err := c.Auth(ctx, env["EXIM_USER"], env["EXIM_PASS"]); err != nil {
		t.Fatal(err)
	}
	from := "tls-sender@example.org"
	msg, id := buildTest(t, from, []string{"tls-rcpt@example.org"}, nil)
	if err := c.Send(ctx, from, []string{"tls-rcpt@example.org"}, msg); err != nil {
		t.Fatal(err)
	}
	c.Quit(ctx)
	f := delivered(t, env["EXIM_MAILDIR"], id, 1)[0]
	if !strings.Contains(f, "with esmtpsa ") || !strings.Contains(f, "(Exim") {
		t.Errorf("Received does not show an authenticated TLS submission:\n%s", f)
	}
	tr := trace.String()
	if strings.Contains(tr, env["EXIM_PASS"]) || !strings.Contains(tr, "> AUTH PLAIN xxxxx\n< 235 ") {
		t.Errorf("trace:\n%s", tr)
	}
	if strings.Count(tr, "> EHLO localhost\n") != 2 || !strings.Contains(tr, "> STARTTLS\n< 220 ") {
		t.Errorf("want EHLO, STARTTLS, EHLO:\n%s", tr)
	}

	c = dial(t, addr, d)
	err := c.Auth(ctx, env["EXIM_USER"], "wrong-Pa55")
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != 535 || strings.Contains(err.Error(), "wrong-Pa55") {
		t.Errorf("wrong password: %v", err)
	}

	// an untrusted certificate fails the handshake
	if _, err := (&Dialer{StartTLS: true}).Dial(ctx, addr); err == nil {
		t.Error("self-signed certificate accepted without RootCAs")
	}
}

// aiosmtpd does not offer STARTTLS: asked for, it is an error, never a
// silent session in clear.
func TestRealNoStartTLS(t *testing.T) {
	env := wiretest.ServerEnv(t, "SMTP_PORT")
	_, err := (&Dialer{StartTLS: true}).Dial(testCtx(t), "127.0.0.1:"+env["SMTP_PORT"])
	if !errors.Is(err, ErrNoStartTLS) {
		t.Errorf("err = %v, want ErrNoStartTLS", err)
	}
}

func TestRealUnsafeAddresses(t *testing.T) {
	env := wiretest.ServerEnv(t, "SMTP_PORT")
	var trace wiretest.Buffer
	c := dial(t, "127.0.0.1:"+env["SMTP_PORT"], &Dialer{Trace: &trace})
	ctx := testCtx(t)
	before := trace.String()
	for _, a := range []string{"a@b.c>\r\nRCPT TO:<victim@x.y", "a@b\n.c", "a\x00@b.c"} {
		if err := c.Send(ctx, "s@example.org", []string{a}, []byte("x\n")); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("%q: %v, want ErrUnsafeArg", a, err)
		}
		if err := c.Send(ctx, a, []string{"r@example.org"}, []byte("x\n")); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("from %q: %v, want ErrUnsafeArg", a, err)
		}
	}
	for _, a := range []string{"a b@c.d", "@c.d", "a@", "a@-b.c", "a..b@c.d", "<a@b.c>", "a@[1.2.3]"} {
		if err := c.Rcpt(ctx, a); !errors.Is(err, ErrBadAddress) {
			t.Errorf("%q: %v, want ErrBadAddress", a, err)
		}
	}
	if trace.String() != before {
		t.Errorf("sent:\n%s", strings.TrimPrefix(trace.String(), before))
	}
}
