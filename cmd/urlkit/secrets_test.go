package main

import (
	"context"
	"encoding/base64"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/safetext"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// secret is the known password of the secrets matrix.
const secret = "S3cr3tPW"

// runCLI runs one urlkit command line with stdin and returns the exit
// status and both outputs.
func runCLI(t *testing.T, stdin string, tty bool, args ...string) (int, string, string) {
	t.Helper()
	st, out, errOut := TestStreams(stdin)
	st.ErrTTY = tty
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := run(ctx, args, st)
	return code, out.String(), errOut.String()
}

// closedPort returns a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestSecretsMatrix runs URLs holding a known password through every
// command and every error path, and checks that the password appears
// nowhere in what urlkit prints: standard error always, standard output
// too except where the output is the URL itself, as asked (parse's
// components, normalize, resolve: CLI.md's contract).
func TestSecretsMatrix(t *testing.T) {
	refused := closedPort(t)
	bad := "ftp://user:" + secret + "@host/a b{"
	good := "ftp://user:" + secret + "@" + refused + "/pub/f.txt"
	stall := func() string {
		return "ftp://user:" + secret + "@" + wt.Start(t, wt.Send("220 fake"), wt.Expect("USER user"), wt.Stall()).Addr() + "/f"
	}
	echo := func() string {
		return "ftp://user:" + secret + "@" + wt.Start(t, wt.Send("220 fake"), wt.Expect("USER user"), wt.Send("331 pw"),
			wt.Expect("PASS "+secret), wt.Send("530 wrong password "+secret), wt.Expect("QUIT"), wt.Send("221 bye")).Addr() + "/f"
	}
	// An HTTP server that echoes the Authorization header back, in its
	// status line and a header: the base64 there is the password too.
	basicEcho := func() string {
		return "http://user:" + secret + "@" + wt.Start(t, wt.Func(func(s *wt.Session) error {
			auth := ""
			for {
				l, err := s.ReadLine()
				if err != nil || l == "" {
					break
				}
				if v, ok := strings.CutPrefix(l, "Authorization: "); ok {
					auth = v
				}
			}
			_, err := s.Conn.Write([]byte("HTTP/1.1 401 Unauthorized for " + auth + "\r\nX-Echo: " + auth + "\r\nContent-Length: 0\r\n\r\n"))
			return err
		}), wt.Close()).Addr() + "/f"
	}
	progressive := func() string {
		body := strings.Repeat("p", 4096)
		return "http://user:" + secret + "@" + wt.Start(t, wt.Func(func(s *wt.Session) error {
			for {
				if l, err := s.ReadLine(); err != nil || l == "" {
					return err
				}
			}
		}), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 8192\r\n\r\n"+body), wt.Pause(900*time.Millisecond), wt.SendRaw(body), wt.Close()).Addr() + "/" + secret + "/big.bin"
	}
	out := filepath.Join(t.TempDir(), "out")
	type row struct {
		name      string
		stdin     string
		tty       bool
		args      []string
		urlOutput bool   // standard output is the URL (or its parts) by contract
		pw        string // the password to look for, when not secret
	}
	rows := []row{
		{name: "parse", args: []string{"parse", good}, urlOutput: true},
		{name: "parse --json", args: []string{"parse", "--json", good}, urlOutput: true},
		{name: "parse bad", args: []string{"parse", bad}, urlOutput: true},
		{name: "parse bad stdin", stdin: bad + "\n", args: []string{"parse"}, urlOutput: true},
		{name: "check", args: []string{"check", good}},
		{name: "check -v", args: []string{"check", "-v", good}},
		{name: "check bad", args: []string{"check", "--all", bad}},
		{name: "check bad stdin", stdin: bad + "\n" + good + "\n", args: []string{"check", "-v"}},
		{name: "normalize", args: []string{"normalize", good}, urlOutput: true},
		{name: "normalize bad", args: []string{"normalize", bad}},
		{name: "resolve", args: []string{"resolve", good, "../x"}, urlOutput: true},
		{name: "resolve bad", args: []string{"resolve", bad, "x"}},
		{name: "explain", args: []string{"explain", good}},
		{name: "explain port 25", args: []string{"explain", "ftp://user:" + secret + "@h:25/a%0D%0Ab"}},
		{name: "explain bad", args: []string{"explain", bad}},
		{name: "get bad URL", args: []string{"get", bad}},
		{name: "get refused", args: []string{"get", "--trace", good}},
		{name: "get timeout", args: []string{"get", "--trace", "--timeout", "300ms", stall()}},
		{name: "get password echoed", args: []string{"get", "--trace", echo()}},
		{name: "get progress bar", tty: true, args: []string{"get", "--trace", "-o", out, progressive()}},
		{name: "get blocked port", args: []string{"get", "ftp://user:" + secret + "@127.0.0.1:25/f"}},
		{name: "get unsafe", args: []string{"get", "ftp://user:" + secret + "@127.0.0.1/a%0D%0Ab"}},
		{name: "get -o second stdin URL", stdin: good + "\n" + "ftp://other:" + secret + "@" + refused + "/x\n", args: []string{"get", "-o", out}},
		{name: "get bad --gateway", args: []string{"get", "--gateway", "gopher=ftp://gwuser:" + secret + "@proxy:3128", "gopher://h/"}},
		{name: "get bad --gateway with @", args: []string{"get", "--gateway=gopher=ftp://gwuser:" + secret + "@x@proxy:3128/", "gopher://h/"}},
		{name: "get bad --gateway without scheme", args: []string{"get", "--gateway", "gopher=gwuser:" + secret + "@x@proxy 3128", "gopher://h/"}},
		{name: "get gateway refused", args: []string{"get", "--trace", "--gateway", "gopher=http://gwuser:" + secret + "@" + refused, "gopher://h/"}},
		{name: "get password with raw @", args: []string{"get", "ftp://user:" + secret + "@x@" + refused + "/f"}},
		{name: "edit bad port", args: []string{"edit", "--url", "http://u:" + secret + "@h:99999/a"}},
		{name: "edit bad stdin", stdin: "http://u:" + secret + "@h:99999/a\n", args: []string{"edit", "-f", "-"}},
		{name: "edit get password", args: []string{"edit", "--url", "http://u:" + secret + "@h/a", "--get", "{host}"}},
		// Invalid URLs whose password a parser cuts short or a slip hides:
		// a raw "/" in it, "scheme:/" or "scheme:\\" for "://", a third
		// slash, and news://, which no 1738 mode reads as a message-id.
		{name: "get bad --gateway with /", args: []string{"get", "--gateway", "gopher=http://u:" + secret + "/x@g/", "gopher://h/"}},
		{name: "edit --verify with /", args: []string{"edit", "--verify", "--url", "ftp://u:" + secret + "/x@h/"}},
		{name: "check scheme:/", args: []string{"check", "ftp:/u:" + secret + "@h/"}},
		{name: "check scheme:\\", args: []string{"check", `ftp:\\u:` + secret + `@h\x`}},
		{name: "check lenient ///", args: []string{"check", "--mode", "lenient", "http:///u:" + secret + "@h/ x"}},
		{name: "explain lenient news://", args: []string{"explain", "--mode", "lenient", "news://u:" + secret + "@h/g"}},
		// A password written with a raw space or tab: invalid, so quoted
		// in the error, whole.
		{name: "check space", args: []string{"check", "ftp://user:S3cr 3tPW@h/"}, pw: "S3cr 3tPW"},
		{name: "check tab stdin", stdin: "ftp://user:S3cr\t3tPW@h/\n", args: []string{"check", "-v"}, pw: "S3cr\t3tPW"},
		{name: "get space", args: []string{"get", "ftp://user:S3cr 3tPW@" + refused + "/f"}, pw: "S3cr 3tPW"},
		{name: "explain space", args: []string{"explain", "http://user:S3cr 3tPW@h/"}, pw: "S3cr 3tPW"},
		{name: "resolve space", args: []string{"resolve", "ftp://user:S3cr 3tPW@h/", "x"}, pw: "S3cr 3tPW"},
		{name: "edit space", args: []string{"edit", "--url", "ftp://user:S3cr 3tPW@h/", "--set", "port=1"}, pw: "S3cr 3tPW"},
		{name: "get Basic authorization echoed", args: []string{"get", "--trace", basicEcho()}, pw: base64.StdEncoding.EncodeToString([]byte("user:" + secret))},
		{name: "unknown command", args: []string{"gett", good}},
		{name: "bad flag", args: []string{"get", "--nope", good}},
	}
	if env := os.Getenv("FTP_PORT"); env != "" || os.Getenv(wt.RequireServersVar) == "1" {
		e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS", "HTTP_PORT")
		ftp := "127.0.0.1:" + e["FTP_PORT"]
		rows = append(rows,
			row{name: "get failed login (ProFTPD)", args: []string{"get", "--trace", "ftp://" + e["FTP_USER"] + ":" + secret + "@" + ftp + "/home.txt"}},
			row{name: "get 550 (ProFTPD)", args: []string{"get", "--trace", "ftp://" + e["FTP_USER"] + ":" + e["FTP_PASS"] + "@" + ftp + "/no-such-file.txt"}},
			row{name: "get ok (ProFTPD)", args: []string{"get", "--trace", "-o", out, "ftp://" + e["FTP_USER"] + ":" + e["FTP_PASS"] + "@" + ftp + "/home.txt"}},
			row{name: "get 404 (nginx)", args: []string{"get", "--trace", "http://user:" + secret + "@127.0.0.1:" + e["HTTP_PORT"] + "/no-such-file"}},
		)
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, stdout, stderr := runCLI(t, r.stdin, r.tty, r.args...)
			pw := secret
			if r.pw != "" {
				pw = r.pw
			}
			for _, a := range r.args {
				if strings.Contains(a, "@127.0.0.1:") && !strings.Contains(a, secret) && strings.HasPrefix(a, "ftp://") {
					// the real server's own password
					pw = a[strings.Index(a, ":")+3:]
					pw = pw[strings.Index(pw, ":")+1 : strings.Index(pw, "@")]
				}
			}
			t.Logf("stdout %q\nstderr %q", clip(stdout), clip(stderr))
			shown := safetext.Visible(pw) // as a message shows it: a tab as \t
			if strings.Contains(stderr, pw) || strings.Contains(stderr, shown) {
				t.Errorf("standard error shows the password:\n%s", stderr)
			}
			if !r.urlOutput && (strings.Contains(stdout, pw) || strings.Contains(stdout, shown)) {
				t.Errorf("standard output shows the password:\n%s", stdout)
			}
			if strings.Contains(stderr, "\x1b") && !r.tty {
				t.Errorf("escape sequence on standard error: %q", stderr)
			}
		})
	}
}
