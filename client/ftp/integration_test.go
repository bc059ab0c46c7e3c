package ftp

// Integration tests against the real ProFTPD started by
// scripts/servers/start-ftp.sh (see scripts/with-servers.sh). Without
// FTP_PORT they skip, or fail with URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type ftpEnv struct {
	addr, user, pass string
	log              string // ProFTPD command log (FTP_LOG), may be empty
}

func realFTP(t *testing.T) ftpEnv {
	t.Helper()
	env := wiretest.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS")
	return ftpEnv{
		addr: "127.0.0.1:" + env["FTP_PORT"],
		user: env["FTP_USER"], pass: env["FTP_PASS"],
		log: os.Getenv("FTP_LOG"),
	}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

// dial connects to addr (the real server or a fake one) with d (nil: the
// zero Dialer), failing the test on an error, and closes the connection
// when the test ends.
func dial(t *testing.T, d *Dialer, addr string) *Conn {
	t.Helper()
	if d == nil {
		d = &Dialer{}
	}
	return wiretest.Open(t, func(ctx context.Context) (*Conn, error) { return d.Dial(ctx, addr) })
}

// login dials and logs in; user "" is anonymous.
func login(t *testing.T, d *Dialer, addr, user, pass string) *Conn {
	t.Helper()
	c := dial(t, d, addr)
	if err := c.Login(testCtx(t), user, pass); err != nil {
		t.Fatal(err)
	}
	return c
}

func retrString(t *testing.T, c *Conn, name string) string {
	t.Helper()
	body, err := c.Retr(testCtx(t), name)
	if err != nil {
		t.Fatalf("Retr(%q): %v", name, err)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("Retr(%q) read: %v", name, err)
	}
	if err := body.Close(); err != nil {
		t.Fatalf("Retr(%q) close: %v", name, err)
	}
	return string(b)
}

func pwd(t *testing.T, c *Conn) string {
	t.Helper()
	dir, err := c.Pwd(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func wantReply(t *testing.T, err error, code int) *ReplyError {
	t.Helper()
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("err = %v, want *ReplyError with code %d", err, code)
	}
	return re
}

// serverLog returns ProFTPD's command log, or skips the log check.
func serverLog(t *testing.T, e ftpEnv) string {
	t.Helper()
	if e.log == "" {
		return ""
	}
	b, err := os.ReadFile(e.log)
	if err != nil {
		t.Fatalf("FTP_LOG: %v", err)
	}
	return string(b)
}

func TestRealLoginAnonymous(t *testing.T) {
	e := realFTP(t)
	for _, user := range []string{"", "anonymous", "ftp"} {
		c := login(t, &Dialer{}, e.addr, user, "")
		if got := pwd(t, c); got != "/" {
			t.Errorf("user %q: PWD = %q, want / (the anonymous chroot)", user, got)
		}
		if got := retrString(t, c, "/pub/hello.txt"); got != "Hello from anonymous FTP.\n" {
			t.Errorf("user %q: hello.txt = %q", user, got)
		}
		if err := c.Quit(testCtx(t)); err != nil {
			t.Errorf("Quit: %v", err)
		}
	}
}

func TestRealLoginUser(t *testing.T) {
	e := realFTP(t)
	c := login(t, &Dialer{}, e.addr, e.user, e.pass)
	if got, want := pwd(t, c), "/home/"+e.user; got != want {
		t.Errorf("PWD = %q, want %q", got, want)
	}
	if got := retrString(t, c, "home.txt"); !strings.HasPrefix(got, "in the login directory") {
		t.Errorf("home.txt = %q", got)
	}
}

func TestRealLoginWrongPassword(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := dial(t, nil, e.addr)
	const bad = "wrong-Pa55word"
	err := c.Login(ctx, e.user, bad)
	re := wantReply(t, err, 530)
	if re.Cmd != "PASS" {
		t.Errorf("Cmd = %q, want PASS", re.Cmd)
	}
	if strings.Contains(err.Error(), bad) {
		t.Errorf("error %q contains the password", err)
	}
}

func TestRealTraceMasksPassword(t *testing.T) {
	e := realFTP(t)
	var trace bytes.Buffer
	c := login(t, &Dialer{Trace: &trace}, e.addr, e.user, e.pass)
	c.Quit(testCtx(t))
	tr := trace.String()
	if strings.Contains(tr, e.pass) {
		t.Errorf("trace contains the password:\n%s", tr)
	}
	for _, want := range []string{"> USER " + e.user + "\n", "> PASS xxxxx\n", "< 230 ", "> QUIT\n", "< 221 "} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%s", want, tr)
		}
	}
}

// RFC 1738 section 3.2.2: "/pub/x" from the login directory is "CWD pub",
// while "%2Fpub" is "CWD /pub". The login directory of the user is
// /home/tester inside its chroot, so the two differ.
func TestRealCwdAbsoluteVsRelative(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)

	c := login(t, &Dialer{}, e.addr, e.user, e.pass)
	if err := c.Cwd(ctx, "/pub"); err != nil {
		t.Fatalf("CWD /pub: %v", err)
	}
	if got := pwd(t, c); got != "/pub" {
		t.Errorf("after CWD /pub: PWD = %q", got)
	}
	if got := retrString(t, c, "root.txt"); !strings.HasPrefix(got, "top-level pub") {
		t.Errorf("root.txt = %q", got)
	}

	c2 := login(t, &Dialer{}, e.addr, e.user, e.pass)
	wantReply(t, c2.Cwd(ctx, "pub"), 550) // relative: /home/tester/pub does not exist
	if err := c2.Cwd(ctx, "docs"); err != nil {
		t.Fatalf("CWD docs: %v", err)
	}
	if got := pwd(t, c2); got != "/home/"+e.user+"/docs" {
		t.Errorf("after CWD docs: PWD = %q", got)
	}
	if got := retrString(t, c2, "readme.txt"); !strings.HasPrefix(got, "docs/readme of") {
		t.Errorf("readme.txt = %q", got)
	}
	// A name with a space is one argument, sent as is.
	c3 := login(t, &Dialer{}, e.addr, "", "")
	if err := c3.Cwd(ctx, "/pub/sub dir"); err != nil {
		t.Fatalf("CWD with a space: %v", err)
	}
	if got := retrString(t, c3, "nested file.txt"); got != "file with a space in its directory\n" {
		t.Errorf("nested file.txt = %q", got)
	}
}

// RFC 1738 section 3.2.2: an empty segment ("ftp://host//etc/motd") is
// "CWD" with a null argument. ProFTPD refuses it with 501; the client
// sends exactly "CWD", reports the reply, and stays usable.
func TestRealCwdNullArgument(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, e.user, e.pass)
	err := c.Cwd(ctx, "")
	re := wantReply(t, err, 501)
	if re.Cmd != "CWD" || re.Temporary() {
		t.Errorf("ReplyError = %+v", re)
	}
	if err := c.Noop(ctx); err != nil {
		t.Fatalf("connection unusable after the refusal: %v", err)
	}
	if got := pwd(t, c); got != "/home/"+e.user {
		t.Errorf("PWD after refused CWD = %q", got)
	}
	c.Quit(ctx)
	if log := serverLog(t, e); log != "" && !strings.Contains(log, e.user+` "CWD" 501`) {
		t.Errorf("server log lacks the bare CWD with 501:\n%s", log)
	}
}

func TestRealType(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, "", "")
	const text = "one\ntwo\n\nfour\n"
	// Default TYPE A: the server sends CRLF, Retr gives back LF.
	if got := retrString(t, c, "/pub/lines.txt"); got != text {
		t.Errorf("TYPE A (default) = %q, want %q", got, text)
	}
	if err := c.Type(ctx, "i"); err != nil {
		t.Fatal(err)
	}
	if got := retrString(t, c, "/pub/lines.txt"); got != text {
		t.Errorf("TYPE I = %q, want %q", got, text)
	}
	if err := c.Type(ctx, TypeASCII); err != nil {
		t.Fatal(err)
	}
	if got := retrString(t, c, "/pub/lines.txt"); got != text {
		t.Errorf("TYPE A = %q, want %q", got, text)
	}
	// ProFTPD quirk: SIZE is refused in ASCII mode.
	_, err := c.Size(ctx, "/pub/hello.txt")
	wantReply(t, err, 550)
	if err := c.Type(ctx, "E"); !errors.Is(err, ErrBadType) {
		t.Errorf("Type(E) = %v, want ErrBadType", err)
	}
	if log := serverLog(t, e); log != "" && strings.Contains(log, `"TYPE E"`) {
		t.Errorf("TYPE E reached the server")
	}
}

func TestRealRetrBinaryChecksum(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, "", "")
	if err := c.Type(ctx, TypeImage); err != nil {
		t.Fatal(err)
	}
	size, err := c.Size(ctx, "/pub/64k.bin")
	if err != nil || size != 65536 {
		t.Fatalf("Size = %d, %v; want 65536", size, err)
	}
	body, err := c.Retr(ctx, "/pub/64k.bin")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	n, err := io.Copy(h, body)
	if err != nil {
		t.Fatal(err)
	}
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(bytes.Repeat([]byte("x"), 65536))
	if n != 65536 || !bytes.Equal(h.Sum(nil), want[:]) {
		t.Errorf("got %d bytes, sha256 %x; want 65536, %x", n, h.Sum(nil), want)
	}
}

func TestRealRetrMissing(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, "", "")
	_, err := c.Retr(ctx, "/pub/no-such-file")
	wantReply(t, err, 550)
	if err := c.Noop(ctx); err != nil {
		t.Fatalf("unusable after 550: %v", err)
	}
}

// listAll returns a function that drains a listing: listAll(t)(c.Nlst(...)).
func listAll(t *testing.T) func(*Listing, error) []string {
	return func(l *Listing, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for l.Next() {
			lines = append(lines, l.Item())
		}
		if err := l.Err(); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		return lines
	}
}

func TestRealNlstList(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, "", "")

	root := listAll(t)(c.Nlst(ctx, ""))
	slices.Sort(root)
	if want := []string{"README", "empty", "pub"}; !slices.Equal(root, want) {
		t.Errorf("NLST = %q, want %q", root, want)
	}
	pub := listAll(t)(c.Nlst(ctx, "/pub"))
	for _, want := range []string{"/pub/hello.txt", "/pub/64k.bin", "/pub/sub dir", "/pub/100%.txt", "/pub/type;a.txt"} {
		if !slices.Contains(pub, want) {
			t.Errorf("NLST /pub = %q, lacks %q", pub, want)
		}
	}
	long := listAll(t)(c.List(ctx, "/pub"))
	found := false
	for _, l := range long {
		if strings.HasPrefix(l, "-rw-r--r--") && strings.HasSuffix(l, " 64k.bin") && strings.Contains(l, " 65536 ") {
			found = true
		}
	}
	if !found {
		t.Errorf("LIST /pub lacks an ls -l line for 64k.bin: %q", long)
	}
	if empty := listAll(t)(c.Nlst(ctx, "/empty")); len(empty) != 0 {
		t.Errorf("NLST /empty = %q", empty)
	}
	// ProFTPD answers a missing directory with 450, not 550.
	_, err := c.Nlst(ctx, "/no-such-dir")
	wantReply(t, err, 450)
	if err := c.Noop(ctx); err != nil {
		t.Fatal(err)
	}
}

// Every data-connection mode against the real server, checked in its log.
func TestRealPassiveAndActive(t *testing.T) {
	e := realFTP(t)
	modes := []struct {
		name string
		d    Dialer
		cmd  string
	}{
		{"EPSV", Dialer{}, "EPSV"},
		{"PASV", Dialer{DisableEPSV: true}, "PASV"},
		{"EPRT", Dialer{Active: true}, "EPRT |1|127.0.0.1|"},
		{"PORT", Dialer{Active: true, DisableEPSV: true}, "PORT 127,0,0,1,"},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			c := login(t, &m.d, e.addr, "", "")
			if err := c.Type(testCtx(t), TypeImage); err != nil {
				t.Fatal(err)
			}
			if got := retrString(t, c, "/pub/64k.bin"); len(got) != 65536 {
				t.Errorf("got %d bytes", len(got))
			}
			if got := listAll(t)(c.Nlst(testCtx(t), "/pub")); len(got) < 5 {
				t.Errorf("NLST: %q", got)
			}
			if err := c.Quit(testCtx(t)); err != nil {
				t.Error(err)
			}
			if log := serverLog(t, e); log != "" && !strings.Contains(log, `"`+m.cmd) {
				t.Errorf("server log has no %q", m.cmd)
			}
		})
	}
}

func TestRealBusyAndEarlyClose(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := login(t, &Dialer{}, e.addr, "", "")
	c.Type(ctx, TypeImage)
	body, err := c.Retr(ctx, "/pub/64k.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Cwd(ctx, "/pub"); !errors.Is(err, ErrBusy) {
		t.Errorf("Cwd during transfer = %v, want ErrBusy", err)
	}
	if _, err := io.ReadFull(body, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	if err := body.Close(); err != nil {
		t.Errorf("early Close = %v, want nil (426/226 both fine)", err)
	}
	if err := body.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if err := c.Noop(ctx); err != nil {
		t.Fatalf("unusable after early close: %v", err)
	}
	if err := c.Quit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Noop(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Noop after Quit = %v, want ErrClosed", err)
	}
}

// Injection attempts are refused before anything is sent: the marker must
// not appear in the server's command log, and the session stays usable.
func TestRealInjectionRefused(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	marker := fmt.Sprintf("INJECTED%d", time.Now().UnixNano())
	c := dial(t, nil, e.addr)
	check := func(what string, err error, offset int) {
		t.Helper()
		var ae *ArgError
		if !errors.Is(err, ErrUnsafeArg) || !errors.As(err, &ae) || ae.Offset != offset {
			t.Errorf("%s: err = %v, want ErrUnsafeArg at offset %d", what, err, offset)
		}
	}
	check("USER", c.Login(ctx, "anonymous\r\nMKD "+marker, "x"), 9)
	check("PASS", c.Login(ctx, "anonymous", "x\nMKD "+marker), 1)
	if err := c.Login(ctx, "", ""); err != nil {
		t.Fatal(err)
	}
	check("CWD", c.Cwd(ctx, "pub\r\nDELE "+marker), 3)
	_, err := c.Retr(ctx, "hello.txt\nRETR "+marker)
	check("RETR", err, 9)
	_, err = c.Nlst(ctx, "\x00"+marker)
	check("NLST", err, 0)
	_, err = c.List(ctx, "/pub\r")
	check("LIST", err, 4)
	_, err = c.Size(ctx, marker+"\n")
	check("SIZE", err, len(marker))
	if err := c.Noop(ctx); err != nil {
		t.Fatalf("connection unusable after refused arguments: %v", err)
	}
	c.Quit(ctx)
	if log := serverLog(t, e); strings.Contains(log, marker) {
		t.Errorf("the marker reached the server:\n%s", log)
	}
}

func TestRealBigFile(t *testing.T) {
	env := wiretest.ServerEnv(t, "FTP_PORT")
	path, size := os.Getenv("FTP_BIG_PATH"), os.Getenv("FTP_BIG_SIZE")
	if path == "" {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatal("FTP_BIG_PATH not set (start the FTP server with FTP_BIG=1)") // test.sh starts the servers with FTP_BIG=1
		}
		t.Skip("FTP_BIG_PATH not set (start the FTP server with FTP_BIG=1)")
	}
	ctx := testCtx(t)
	c := login(t, &Dialer{}, "127.0.0.1:"+env["FTP_PORT"], "", "")
	c.Type(ctx, TypeImage)
	start := time.Now()
	body, err := c.Retr(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, body)
	if err != nil {
		t.Fatal(err)
	}
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	if fmt.Sprint(n) != size {
		t.Errorf("got %d bytes, want %s", n, size)
	}
	t.Logf("%d bytes in %v (%.0f MB/s)", n, d, float64(n)/d.Seconds()/1e6)
}

// LoginFunc asks for the password only when the server requests one
// (RFC 1738 3.2.1), and LastReply shows the replies of a transfer.
func TestRealLoginFuncAndLastReply(t *testing.T) {
	e := realFTP(t)
	ctx := testCtx(t)
	c := dial(t, nil, e.addr)
	if code, _ := c.LastReply(); code != 220 {
		t.Errorf("LastReply after Dial: %d, want 220", code)
	}
	asked := 0
	err := c.LoginFunc(ctx, e.user, func(context.Context) (string, error) {
		asked++
		return e.pass, nil
	})
	if err != nil || asked != 1 {
		t.Fatalf("LoginFunc: %v, password asked %d times", err, asked)
	}
	if err := c.Type(ctx, TypeImage); err != nil {
		t.Fatal(err)
	}
	body, err := c.Retr(ctx, "home.txt")
	if err != nil {
		t.Fatal(err)
	}
	if code, msg := c.LastReply(); code != 150 || !strings.Contains(msg, "bytes)") {
		t.Errorf("LastReply after Retr: %d %q, want the 150 reply with the size", code, msg)
	}
	io.Copy(io.Discard, body)
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
	if code, _ := c.LastReply(); code != 226 {
		t.Errorf("LastReply after Close: %d, want 226", code)
	}

	// A failing password source: the error comes back, nothing is sent.
	c2 := dial(t, nil, e.addr)
	errNoTTY := errors.New("no terminal")
	if err := c2.LoginFunc(ctx, e.user, func(context.Context) (string, error) { return "", errNoTTY }); !errors.Is(err, errNoTTY) {
		t.Errorf("LoginFunc with failing prompt: %v", err)
	}
	if err := c2.LoginFunc(ctx, e.user, func(context.Context) (string, error) { return "x\r\nDELE y", nil }); !errors.Is(err, ErrUnsafeArg) {
		t.Errorf("LoginFunc with CR LF in the password: %v, want ErrUnsafeArg", err)
	}
}
