package fetch

// Secrets never printed: the trace and every error pass through the
// fetch's one redactor (the URL's password, a gateway's, what was typed
// at a secret prompt), and the server's bytes are made visible-safe.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// TestTraceAskPassword: the answer to a Gopher+ AskP question (echo off)
// is masked in the trace of the submission (it was "> S3cr3tPW").
func TestTraceAskPassword(t *testing.T) {
	// Two connections (the attributes, then the submission): a small
	// server of its own, as wiretest plays one connection.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	submitted := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "+-2\r\n+INFO: 0form\t/form\th\t70\t+\r\n+ASK:\r\n Ask: Your name?\r\n AskP: Your password?\r\n.\r\n")
		c.Close()
		if c, err = ln.Accept(); err != nil {
			return
		}
		r := bufio.NewReader(c)
		var got strings.Builder
		for {
			line, err := r.ReadString('\n')
			got.WriteString(line)
			if err != nil || line == ".\r\n" {
				break
			}
		}
		submitted <- got.String()
		io.WriteString(c, "+5\r\nthank")
		c.Close()
	}()
	var trace strings.Builder
	f := &Fetcher{Getenv: noEnv(), Trace: &trace, Prompt: func(ctx context.Context, p Prompt) (string, error) {
		if p.Secret {
			return "S3cr3tPW", nil
		}
		return "Joe", nil
	}}
	b, err := fetchAll(t, f, "gopher://"+ln.Addr().String()+"/0/form%09%09?")
	if err != nil || string(b) != "thank" {
		t.Fatalf("%q, %v", b, err)
	}
	if s := <-submitted; !strings.Contains(s, "Joe\r\nS3cr3tPW\r\n") {
		t.Errorf("submitted %q", s)
	}
	if strings.Contains(trace.String(), "S3cr3tPW") || !strings.Contains(trace.String(), "> Joe") || !strings.Contains(trace.String(), "> xxxxx") {
		t.Errorf("trace:\n%s", trace.String())
	}
}

// TestShortPasswordEchoed: a server that quotes a short password in its
// reply (below the old 4-byte threshold) has it masked in the error.
func TestShortPasswordEchoed(t *testing.T) {
	srv := wt.Start(t, wt.Send("220 fake"), wt.Expect("USER joe"), wt.Send("331 password"),
		wt.Expect("PASS pw"), wt.Send("530 Login incorrect for joe with pw\x1b]0;owned\x07"), wt.Expect("QUIT"), wt.Send("221 bye"))
	var trace strings.Builder
	_, err := (&Fetcher{Getenv: noEnv(), Trace: &trace}).Get(testCtx(t), "ftp://joe:pw@"+srv.Addr()+"/f")
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	if strings.Contains(msg, " pw") || strings.Contains(msg, "\x1b") || !strings.Contains(msg, `with xxxxx\x1b]0;owned\x07`) {
		t.Errorf("message %q", msg)
	}
	if strings.Contains(trace.String(), " pw") || strings.Contains(trace.String(), "\x1b") {
		t.Errorf("trace:\n%s", trace.String())
	}
}

// TestTraceLocationCredentials: a Location header naming a URL with a
// password is masked in the trace.
func TestTraceLocationCredentials(t *testing.T) {
	srv := wt.Start(t, httpRequest(), wt.SendRaw("HTTP/1.1 302 Found\r\nLocation: http://other:L0cSecret@127.0.0.1:1/x\r\nContent-Length: 0\r\n\r\n"), wt.Close())
	var trace strings.Builder
	_, err := (&Fetcher{Getenv: noEnv(), Trace: &trace}).Get(testCtx(t), "http://"+srv.Addr()+"/r")
	if err == nil {
		t.Fatal("the redirect to a blocked port was followed")
	}
	out := trace.String() + err.Error()
	if strings.Contains(out, "L0cSecret") || strings.Contains(out, "\x1b") || !strings.Contains(trace.String(), "Location: http://other:xxxxx@127.0.0.1:1/x") {
		t.Errorf("trace and error:\n%s", out)
	}
}

// TestGatewayPasswordWithAt: a gateway password holding a raw "@" is
// hidden whole (the redaction cut at the first "@").
func TestGatewayPasswordWithAt(t *testing.T) {
	for _, gw := range []string{
		"gopher=ftp://gwuser:S3@cr3t@proxy.example:3128/",
		"gopher=http://gwuser:S3@cr3t@proxy.example:31x8/", // url.Parse fails: the fallback
		"gopher=gwuser:S3@cr3t@proxy example",
	} {
		_, _, err := ParseGateway(gw)
		if err == nil || strings.Contains(err.Error(), "cr3t") || strings.Contains(err.Error(), "S3@") {
			t.Errorf("%s: err = %v", gw, err)
		}
	}
}

// TestReplyTextSafe: text a server sends (an FTP reply with ESC, OSC and
// a line break forging a second message) reaches an error message
// escaped.
func TestReplyTextSafe(t *testing.T) {
	srv := wt.Start(t, wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"),
		wt.Expect("PASS a@b.c"), wt.Send("530-\x1b]8;;http://evil/\x07click\x1b]8;;\x07 \x1b[2J\u009b2J"), wt.Send("urlkit: \"ftp://fake\": ok"), wt.Send("530 end"),
		wt.Expect("QUIT"), wt.Send("221 bye"))
	f := &Fetcher{Getenv: noEnv()}
	f.FTP.Email = "a@b.c"
	_, err := f.Get(testCtx(t), "ftp://"+srv.Addr()+"/f.bin")
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	if msg := err.Error(); strings.ContainsAny(msg, "\x1b\x07\r\n\u009b") || !strings.Contains(msg, `\x1b]8;;http://evil/\x07click`) {
		t.Errorf("message %q", msg)
	}
}

// fetchAll fetches url with f and reads the body to the end.
func fetchAll(t *testing.T, f *Fetcher, url string) ([]byte, error) {
	resp, err := f.Get(testCtx(t), url)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	return b, err
}

// TestRedirectDropsGatewayLogin: a path gateway's login, which goes in an
// Authorization header, is not sent on to a redirect's target on another
// port of the same host (net/http keeps such a header for any port of the
// host name); it is sent again to the gateway's own origin. No redirect
// carries a Referer.
func TestRedirectDropsGatewayLogin(t *testing.T) {
	ok := wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	other := wt.Start(t, httpRequest(), ok, wt.Close())
	gw := wt.Start(t,
		httpRequest(), wt.SendRaw("HTTP/1.1 302 Found\r\nLocation: /same-origin\r\nContent-Length: 0\r\n\r\n"),
		httpRequest(), wt.SendRaw("HTTP/1.1 302 Found\r\nLocation: http://"+other.Addr()+"/stolen\r\nContent-Length: 0\r\n\r\n"),
		wt.Close())
	f := &Fetcher{Getenv: env(map[string]string{"WWW_gopher_GATEWAY": "http://gwuser:gwsecret@" + gw.Addr()})}
	body, err := fetchAll(t, f, "gopher://example.org/0foo")
	if err != nil || string(body) != "ok" {
		t.Fatalf("%q, %v", body, err)
	}
	auth := "Authorization: Basic " + basicToken("gwuser", "gwsecret")
	sent, sentOn := strings.Join(gw.Received(), "\n"), strings.Join(other.Received(), "\n")
	if strings.Count(sent, auth) != 2 {
		t.Errorf("the gateway did not get its login twice:\n%s", sent)
	}
	if strings.Contains(sentOn, "Authorization") || strings.Contains(sent+sentOn, "Referer") {
		t.Errorf("sent to the gateway:\n%s\nsent to the redirect's target:\n%s", sent, sentOn)
	}

	// A proxy gateway (gopher_proxy): its login goes as
	// Proxy-Authorization, set by hand, which net/http keeps too.
	other = wt.Start(t, httpRequest(), ok, wt.Close())
	gw = wt.Start(t, httpRequest(), wt.SendRaw("HTTP/1.1 302 Found\r\nLocation: http://"+other.Addr()+"/stolen\r\nContent-Length: 0\r\n\r\n"), wt.Close())
	f = &Fetcher{Getenv: env(map[string]string{"gopher_proxy": "http://gwuser:gwsecret@" + gw.Addr()})}
	if body, err := fetchAll(t, f, "gopher://example.org/0foo"); err != nil || string(body) != "ok" {
		t.Fatalf("proxy gateway: %q, %v", body, err)
	}
	sent, sentOn = strings.Join(gw.Received(), "\n"), strings.Join(other.Received(), "\n")
	if !strings.Contains(sent, "Proxy-Authorization: Basic "+basicToken("gwuser", "gwsecret")) || strings.Contains(sentOn, "Authorization") {
		t.Errorf("proxy gateway: sent to the gateway:\n%s\nsent to the redirect's target:\n%s", sent, sentOn)
	}
}

// TestTraceHidesEscapedPassword: a password with a TAB or a non-ASCII
// byte, echoed in a server's reply, is hidden in the trace, which shows
// those bytes escaped (\t, \xc3\xa4), and in the error.
func TestTraceHidesEscapedPassword(t *testing.T) {
	const pass = "p\u00e4ss\tw\"0rd"
	srv := wt.Start(t, wt.Send("220 fake"), wt.Expect("USER u"), wt.Send("331 pw"),
		wt.Expect("PASS "+pass), wt.Send("530 wrong password "+pass), wt.Expect("QUIT"), wt.Send("221 bye"))
	var trace strings.Builder
	f := &Fetcher{Getenv: noEnv(), Trace: &trace}
	_, err := f.Get(testCtx(t), "ftp://u:"+url.PathEscape(pass)+"@"+srv.Addr()+"/f.bin")
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	out := trace.String() + "\n" + err.Error()
	if strings.Contains(out, "ss\\tw") || strings.Contains(out, "\\xc3\\xa4") || strings.Contains(out, "w\\\"0") || !strings.Contains(out, "< 530 wrong password xxxxx") {
		t.Errorf("trace and error:\n%s", out)
	}
}
