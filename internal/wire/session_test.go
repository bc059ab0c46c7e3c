package wire

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
)

var (
	errBusy   = errors.New("x: busy")
	errClosed = errors.New("x: closed")
)

func newSession(t *testing.T) (*Session, *bufio.Reader) {
	client, server := net.Pipe()
	t.Cleanup(func() { client.Close(); server.Close() })
	return &Session{Name: "x", ErrBusy: errBusy, ErrClosed: errClosed, Conn: client, W: bufio.NewWriter(client)}, bufio.NewReader(server)
}

func TestSessionSendAndBegin(t *testing.T) {
	s, r := newSession(t)
	release, err := s.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	go s.Send(t.Context(), "NOOP", "NOOP")
	if line, err := r.ReadString('\n'); line != "NOOP\r\n" || err != nil {
		t.Errorf("server read %q, %v", line, err)
	}
	release()
	s.Busy = true
	if _, err := s.Begin(t.Context()); err != errBusy {
		t.Errorf("Begin while busy: %v", err)
	}
	s.Busy = false
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Begin(ctx); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "x: ") {
		t.Errorf("Begin with a done context: %v", err)
	}
	if s.Broken() != nil {
		t.Errorf("broken by a refused Begin: %v", s.Broken())
	}
}

// A failure breaks the session: the connection is closed, the error
// names the operation once, and every later command gets ErrClosed with
// the first cause.
func TestSessionFail(t *testing.T) {
	s, _ := newSession(t)
	err := s.Fail(t.Context(), "GROUP", errors.New("x: garbage"))
	if err.Error() != "x: GROUP: garbage" {
		t.Errorf("Fail = %q", err)
	}
	var oe *OpError
	if !errors.As(err, &oe) || oe.Op != "GROUP" {
		t.Errorf("Fail = %#v", err)
	}
	s.Break(errors.New("second cause"))
	if _, err := s.Begin(t.Context()); !errors.Is(err, errClosed) || !strings.Contains(err.Error(), "garbage") {
		t.Errorf("Begin after Fail: %v", err)
	}
	if _, err := s.Conn.(net.Conn).Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("connection still open: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close after Fail: %v", err)
	}
	if err := s.Quit(t.Context(), func() error { t.Error("quit ran on a broken session"); return nil }); err != nil {
		t.Errorf("Quit of a broken session: %v", err)
	}
}

func TestSessionQuit(t *testing.T) {
	s, _ := newSession(t)
	s.Busy = true
	if err := s.Quit(t.Context(), func() error { t.Error("quit ran while busy"); return nil }); err != errBusy {
		t.Errorf("Quit while busy: %v", err)
	}
	if s.Broken() != nil {
		t.Error("Quit while busy broke the session")
	}
	s.Busy = false
	refused := errors.New("x: QUIT: 500 what")
	if err := s.Quit(t.Context(), func() error { return refused }); err != refused {
		t.Errorf("Quit = %v", err)
	}
	if _, err := s.Begin(t.Context()); err != errClosed {
		t.Errorf("after Quit: %v", err)
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		line string
		code int
		sep  byte
		text string
		ok   bool
	}{
		{"200 ready", 200, ' ', "ready", true},
		{"250-SIZE 1000", 250, '-', "SIZE 1000", true},
		{"221", 221, ' ', "", true},
		{"101 ", 101, ' ', "", true},
		{"600 x", 0, 0, "", false},
		{"099 x", 0, 0, "", false},
		{"2x0 x", 0, 0, "", false},
		{"200x", 0, 0, "", false},
		{"20", 0, 0, "", false},
	}
	for _, tt := range tests {
		code, sep, text, ok := ParseStatus(tt.line)
		if code != tt.code || sep != tt.sep || text != tt.text || ok != tt.ok {
			t.Errorf("ParseStatus(%q) = %d %q %q %v", tt.line, code, sep, text, ok)
		}
	}
}

// FuzzParseStatus: an accepted line has a code of 100 to 599 and is
// rebuilt from its parts.
func FuzzParseStatus(f *testing.F) {
	for _, s := range []string{"200 ready", "250-a", "221", "600 x", "2000", "1a3 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		code, sep, text, ok := ParseStatus(line)
		if !ok {
			return
		}
		if code < 100 || code > 599 {
			t.Fatalf("%q: code %d", line, code)
		}
		again := strconv.Itoa(code) + string(sep) + text
		if again != line && again != line+" " {
			t.Fatalf("%q -> %d %q %q -> %q", line, code, sep, text, again)
		}
	})
}

func TestSanitizeAndClip(t *testing.T) {
	if got := Sanitize("250-a\n250 \x1b[2Jb\x7f", true); got != "250-a\n250 ?[2Jb?" {
		t.Errorf("Sanitize keeping LF = %q", got)
	}
	if got := Sanitize("a\nb\r", false); got != "a?b?" {
		t.Errorf("Sanitize = %q", got)
	}
	if s := "plain text"; Sanitize(s, false) != s {
		t.Error("clean text changed")
	}
	long := strings.Repeat("x", 100) + "\x1b"
	if got := Clip(long); got != strings.Repeat("x", 80)+"..." {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("a\nb"); got != "a?b" {
		t.Errorf("Clip = %q", got)
	}
}
