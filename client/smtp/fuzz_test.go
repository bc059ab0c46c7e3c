package smtp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/mail"
	"net/textproto"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wire"
)

// stuffed runs in through the DATA writer of a Conn whose output goes to
// a buffer and whose server says "250 ok", and returns the bytes sent.
func stuffed(t testing.TB, in string) string {
	var out bytes.Buffer
	c := &Conn{d: Dialer{MaxReplyLines: 10}, sess: wire.Session{W: bufio.NewWriter(&out)},
		lr: wire.NewLineReader(strings.NewReader("250 ok\r\n"), 100)}
	w := &dataWriter{c: c, release: func() {}, bol: true}
	if _, err := io.WriteString(w, in); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// FuzzDataWriter: what the DATA writer sends is a well-formed data block
// (CRLF only, ended by "."), and the standard library's DotReader reads
// back the input with its line ends normalized.
func FuzzDataWriter(f *testing.F) {
	for _, s := range []string{"a\nb\n", ".\n", "..\r\n.", "a\rb", "\r", "\r\n", "", "x\n.\n.\n", "\r\r\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := stuffed(t, s)
		if !strings.HasSuffix(out, ".\r\n") {
			t.Fatalf("%q: block %q not ended", s, out)
		}
		body := strings.ReplaceAll(out, "\r\n", "")
		if strings.ContainsAny(body, "\r\n") {
			t.Fatalf("%q: bare CR or LF on the wire: %q", s, out)
		}
		if dotless := strings.TrimSuffix(out, ".\r\n"); int64(len(dotless)-strings.Count("\r\n"+dotless, "\r\n.")) != wireSize([]byte(s)) {
			t.Fatalf("%q: wireSize %d, sent %q", s, wireSize([]byte(s)), out)
		}
		back, err := io.ReadAll(textproto.NewReader(bufio.NewReader(strings.NewReader(out))).DotReader())
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if string(back) != want {
			t.Fatalf("%q -> %q -> %q, want %q", s, out, back, want)
		}
	})
}

// FuzzReadReply: no panic, bounded; a parsed reply survives formatReply.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		"220 localhost Python SMTP 1.4.3\r\n", "250-test.invalid Hello\r\n250-SIZE 10485760\r\n250 HELP\r\n",
		"250-a\r\n251 b\r\n", "354\r\n", "hello\r\n", "550-x\r\n550", "199 x\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := readReply(wire.NewLineReader(strings.NewReader(s), 256), 20)
		if err != nil {
			return
		}
		if r.code < 200 || r.code > 599 {
			t.Fatalf("code %d", r.code)
		}
		again, err := readReply(wire.NewLineReader(strings.NewReader(formatReply(r)+"\r\n"), 1<<20), 1<<20)
		if err != nil || again != r {
			t.Fatalf("round trip %+v -> %q -> %+v, %v", r, formatReply(r), again, err)
		}
		parseExtensions(r.msg)
	})
}

// FuzzCheckAddress: no panic; an accepted address has no CR, LF, NUL or
// space outside quotes, and net/mail reads it back as the same address.
func FuzzCheckAddress(f *testing.F) {
	for _, s := range []string{"a@b.c", `"x y"@b.c`, "u@[127.0.0.1]", "a@b\r\n", "@", "a@-b", "u@[IPv6:::1]",
		"u@[IPv6:fe80::1%> ]", // a zone is no part of an address literal: it held "> "
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckAddress(s) != nil {
			return
		}
		if strings.ContainsAny(s, "\r\n\x00") {
			t.Fatalf("accepted %q", s)
		}
		if s[0] != '"' && strings.ContainsAny(s, " \t<>") {
			t.Fatalf("accepted %q", s)
		}
		if s[0] != '"' && !strings.Contains(s, "[") {
			a, err := mail.ParseAddress("<" + s + ">")
			if err != nil || a.Address != s {
				t.Fatalf("net/mail reads %q as %v, %v", s, a, err)
			}
		}
	})
}

// FuzzBuildMessage: a value never adds a field (header injection), and
// an accepted message parses with net/mail.
func FuzzBuildMessage(f *testing.F) {
	f.Add("Subject", "hello", "a@b.c")
	f.Add("Subject", "x\r\nBcc: v@x.y", "a@b.c")
	f.Add("X-A", "ünïcode", "Zoë <z@b.c>")
	f.Fuzz(func(t *testing.T, name, value, from string) {
		msg, err := BuildMessage([]Field{{"From", from}, {name, value}}, []byte("body\n"), MessageOptions{Domain: "example.org"})
		if err != nil {
			var he *HeaderError
			if !errors.As(err, &he) {
				t.Fatalf("error %v is not a *HeaderError", err)
			}
			return
		}
		m, err := mail.ReadMessage(bytes.NewReader(msg))
		if err != nil {
			t.Fatalf("%q does not parse: %v", msg, err)
		}
		// From, the field, Date, Message-ID: nothing more (Bcc: nothing at all)
		n := 0
		for _, vs := range m.Header {
			n += len(vs)
		}
		want := 4
		if strings.EqualFold(name, "bcc") {
			want = 3
		}
		if strings.EqualFold(name, "from") || strings.EqualFold(name, "date") || strings.EqualFold(name, "message-id") {
			want = 3
		}
		if n != want {
			t.Fatalf("%d fields in %q", n, msg)
		}
	})
}
