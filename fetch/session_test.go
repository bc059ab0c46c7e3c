package fetch

// Sessions: faults per session type (wiretest scripts: what telnetd,
// rlogind and Hercules do not do on demand), the ends of a session
// (--max-time, the server closing), and what reaches Out.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

func sessionURL(t *testing.T, s string) *urlkit.URL {
	t.Helper()
	u, err := urlkit.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return &u
}

func TestSessionFaults(t *testing.T) {
	for _, tc := range []struct {
		name, scheme string
		script       []wt.Step
		kind         error
	}{
		{"telnet: a subnegotiation without end (bounded)", "telnet", []wt.Step{wt.SendRaw("\xff\xfa\x18" + strings.Repeat("x", 4096))}, ErrProtocol},
		{"telnet: IAC followed by a byte that is no command", "telnet", []wt.Step{wt.SendRaw("hello\xff\x07")}, ErrProtocol},
		{"telnet: a reset in the middle", "telnet", []wt.Step{wt.SendRaw("login: "), wt.Pause(200 * time.Millisecond), wt.Reset()}, ErrShortTransfer},
		{"rlogin: refused with a message", "rlogin", []wt.Step{wt.Func(readHandshake), wt.SendRaw("\x01Permission denied.\n"), wt.Close()}, ErrAccessDenied},
		{"rlogin: closed during the handshake", "rlogin", []wt.Step{wt.Func(readHandshake), wt.Close()}, ErrAccessDenied},
		{"tn3270: data before TN3270 was negotiated", "tn3270", []wt.Step{wt.SendRaw("hello\xff\xef")}, ErrProtocol},
		{"tn3270: a record the screen cannot take", "tn3270", []wt.Step{tn3270Negotiation(), wt.SendRaw("\xf5\xc2\x11\xff\xff\xff\xff\xff\xef")}, ErrProtocol},
		{"tn3270: the host says nothing", "tn3270", []wt.Step{wt.Stall()}, ErrTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wt.Start(t, tc.script...)
			f := &Fetcher{Timeout: 2 * time.Second}
			var out bytes.Buffer
			done := make(chan error, 1)
			go func() {
				done <- f.Session(testCtx(t), sessionURL(t, tc.scheme+"://guest@"+srv.Addr()+"/"), &Terminal{Out: &out, In: blockingReader{}, LocalUser: "me"})
			}()
			select {
			case err := <-done:
				if !errors.Is(err, tc.kind) {
					t.Fatalf("Session: %v, want %v", err, tc.kind)
				}
				var fe *Error
				if !errors.As(err, &fe) {
					t.Fatalf("not an *Error: %T", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the session did not end")
			}
		})
	}
}

// readHandshake reads rlogin's four NUL-terminated fields (the first one
// empty).
func readHandshake(s *wt.Session) error {
	nuls := 0
	var b [1]byte
	for nuls < 4 {
		if _, err := io.ReadFull(s.Conn, b[:]); err != nil {
			return err
		}
		if b[0] == 0 {
			nuls++
		}
	}
	return nil
}

// tn3270Negotiation plays the host's side of RFC 1576's negotiation.
func tn3270Negotiation() wt.Step {
	return wt.SendRaw("\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0\xff\xfd\x19\xff\xfb\x19\xff\xfd\x00\xff\xfb\x00")
}

// blockingReader is a user who types nothing and never closes the input.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

func TestSessionMaxTimeIsAnEnd(t *testing.T) {
	srv := wt.Start(t, wt.SendRaw("welcome\r\n"), wt.Stall())
	f := &Fetcher{MaxTime: 500 * time.Millisecond}
	var out bytes.Buffer
	start := time.Now()
	err := f.Session(testCtx(t), sessionURL(t, "telnet://"+srv.Addr()+"/"), &Terminal{Out: &out, In: blockingReader{}})
	if err != nil {
		t.Fatalf("Session: %v, want a normal end", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the session took %v", d)
	}
	if !strings.Contains(out.String(), "welcome") {
		t.Errorf("out: %q", out.String())
	}
}

// Over pipes, a server's escape sequences are shown, not obeyed.
func TestSessionEscapesControlBytes(t *testing.T) {
	for _, raw := range []bool{false, true} {
		srv := wt.Start(t, wt.SendRaw("\x1b]0;owned\x07\x1b[2Jtext\r\nmore \xc3"), wt.SendRaw("\xa9\r\n"), wt.Close())
		var out bytes.Buffer
		err := new(Fetcher).Session(testCtx(t), sessionURL(t, "telnet://"+srv.Addr()+"/"), &Terminal{Out: &out, In: blockingReader{}, Raw: raw})
		if err != nil {
			t.Fatal(err)
		}
		want := `\x1b]0;owned\x07\x1b[2Jtext` + "\r\nmore é\r\n"
		if raw {
			want = "\x1b]0;owned\x07\x1b[2Jtext\r\nmore é\r\n"
		}
		if out.String() != want {
			t.Errorf("raw %v: out %q, want %q", raw, out.String(), want)
		}
	}
}

// A server that echoes the password (typed by Login), even in two
// pieces: the session's output shows it masked, escaped or raw.
func TestSessionHidesEchoedPassword(t *testing.T) {
	for _, raw := range []bool{false, true} {
		srv := wt.Start(t, wt.SendRaw("Password: S3cr"), wt.Pause(50*time.Millisecond), wt.SendRaw("3tPW\r\nok\r\n"), wt.Close())
		var out bytes.Buffer
		err := new(Fetcher).Session(testCtx(t), sessionURL(t, "telnet://u:S3cr3tPW@"+srv.Addr()+"/"), &Terminal{Out: &out, In: blockingReader{}, Raw: raw})
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != "Password: xxxxx\r\nok\r\n" {
			t.Errorf("raw %v: out %q", raw, out.String())
		}
	}
}

// The checks come before the connection: an unsafe user name, a blocked
// port, a scheme that is no session.
func TestSessionRefusedBeforeConnecting(t *testing.T) {
	for _, tc := range []struct {
		url  string
		kind error
	}{
		{"telnet://a%0D%0Aecho@127.0.0.1:1/", ErrUnsafe},
		{"rlogin://a%00b@127.0.0.1:1/", ErrUnsafe},
		{"tn3270://u:p%0A@127.0.0.1:1/", ErrUnsafe},
		{"telnet://127.0.0.1:25/", ErrBlockedPort},
		{"ftp://127.0.0.1:1/", ErrUnsupportedScheme},
	} {
		err := new(Fetcher).Session(context.Background(), sessionURL(t, tc.url), nil)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.url, err, tc.kind)
		}
		if err != nil && strings.Contains(err.Error(), "connect") && !errors.Is(err, ErrUnsupportedScheme) {
			t.Errorf("%s: a connection was tried: %v", tc.url, err)
		}
	}
}
