package smtp

import (
	"bytes"
	"errors"
	"net/mail"
	"strings"
	"testing"
	"time"
)

func TestCheckAddress(t *testing.T) {
	ok := []string{
		"user@example.org", "first.last@sub.example.co.uk", "a+tag@example.org", "x@localhost",
		"!#$%&'*+-/=?^_`{|}~@example.org", `"quoted local"@example.org`, `"a\"b"@example.org`,
		"u@[127.0.0.1]", "u@[IPv6:::1]", "u@xn--bcher-kva.example", strings.Repeat("a", 64) + "@example.org",
	}
	for _, a := range ok {
		if err := CheckAddress(a); err != nil {
			t.Errorf("%q: %v", a, err)
		}
	}
	bad := []struct {
		addr   string
		offset int
		rule   string
	}{
		{"", 0, `no "@"`},
		{"user", 4, `no "@"`},
		{"@example.org", 0, "empty local part"},
		{"user@", 5, "empty domain"},
		{"a b@example.org", 1, "atext"},
		{".a@example.org", 0, "empty atom"},
		{"a..b@example.org", 2, "empty atom"},
		{"a@b@example.org", 1, "atext"},
		{"a@exa_mple.org", 5, "domain"},
		{"a@-example.org", 2, "hyphen"},
		{"a@example..org", 10, "empty label"},
		{"a@[1.2.3.999]", 3, "IPv4"},
		{"a@[IPv6:zz]", 3, "IPv6"},
		{"a@[1.2.3.4", 9, `"]"`},
		{`"open@example.org`, 5, "unterminated"},
		{"a\r\n@example.org", 1, "CR, LF or NUL"},
		{"a@example.org\x00", 13, "CR, LF or NUL"},
		{"é@example.org", 0, "atext"},
		{strings.Repeat("a", 65) + "@example.org", 64, "64 octets"},
		{"a@" + strings.Repeat("b", 256), 254, "256 octets"},
	}
	for _, tt := range bad {
		err := CheckAddress(tt.addr)
		var ae *AddressError
		if !errors.As(err, &ae) || !errors.Is(err, ErrBadAddress) {
			t.Errorf("%q: %v, want *AddressError", tt.addr, err)
			continue
		}
		if ae.Offset != tt.offset || !strings.Contains(ae.Rule, tt.rule) {
			t.Errorf("%q: offset %d rule %q, want %d and %q", tt.addr, ae.Offset, ae.Rule, tt.offset, tt.rule)
		}
		if strings.Contains(tt.rule, "CR, LF") != errors.Is(err, ErrUnsafeArg) {
			t.Errorf("%q: ErrUnsafeArg match wrong", tt.addr)
		}
	}
}

func TestBuildMessage(t *testing.T) {
	now := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	msg, err := BuildMessage([]Field{
		{"From", "Zoë <zoe@example.org>"}, {"To", "a@example.net, B <b@example.net>"},
		{"Subject", "plain"}, {"Keywords", "naïve"}, {"Bcc", "secret@example.com"},
	}, []byte("body\n"), MessageOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	from, _ := m.Header.AddressList("From")
	if len(from) != 1 || from[0].Name != "Zoë" || from[0].Address != "zoe@example.org" {
		t.Errorf("From = %v", from)
	}
	if got := m.Header.Get("Date"); got != "Mon, 02 Nov 2026 12:00:00 +0000" {
		t.Errorf("Date = %q", got)
	}
	if id := m.Header.Get("Message-Id"); !strings.HasSuffix(id, "@example.org>") {
		t.Errorf("Message-ID = %q (want the From domain)", id)
	}
	if m.Header.Get("Bcc") != "" || bytes.Contains(msg, []byte("secret")) {
		t.Error("Bcc kept in the message")
	}
	if got := m.Header.Get("Keywords"); got != "=?utf-8?q?na=C3=AFve?=" {
		t.Errorf("Keywords = %q", got)
	}
	if !bytes.HasSuffix(msg, []byte("\r\n\r\nbody\n")) {
		t.Errorf("message %q", msg)
	}

	for _, tt := range []struct {
		fields []Field
		rule   string
		unsafe bool
	}{
		{[]Field{{"From", "a@example.org"}, {"Subject", "x\r\nBcc: victim@example.com"}}, "header injection", true},
		{[]Field{{"From", "a@example.org"}, {"Subject", "x\nBcc: v@example.com"}}, "header injection", true},
		{[]Field{{"From", "a@example.org"}, {"Sub\rject", "x"}}, "CR, LF or NUL", true},
		{[]Field{{"From", "a@example.org"}, {"X Bad", "x"}}, "printable US-ASCII", false},
		{[]Field{{"From", "a@example.org"}, {"", "x"}}, "empty field name", false},
		{[]Field{{"To", "a@example.org"}}, "missing", false},
		{[]Field{{"From", "not an address"}}, "address list", false},
		{[]Field{{"From", "a@example.org"}, {"To", "x@exa_mple.org"}}, "domain", false},
		{[]Field{{"From", "a@example.org"}, {"Date", "yesterday"}}, "date-time", false},
		{[]Field{{"From", "a@example.org"}, {"Subject", "a"}, {"subject", "b"}}, "twice", false},
		{[]Field{{"From", "a@example.org"}, {"Subject", strings.Repeat("x", 1000)}}, "998", false},
	} {
		_, err := BuildMessage(tt.fields, nil, MessageOptions{})
		var he *HeaderError
		if !errors.As(err, &he) || !errors.Is(err, ErrBadHeader) || !strings.Contains(err.Error(), tt.rule) {
			t.Errorf("%v: %v, want a *HeaderError with %q", tt.fields, err, tt.rule)
			continue
		}
		if errors.Is(err, ErrUnsafeArg) != tt.unsafe {
			t.Errorf("%v: ErrUnsafeArg match = %v", tt.fields, !tt.unsafe)
		}
	}
}

func TestDataWriter(t *testing.T) {
	// through the writer alone, with a pipe-less Conn: CRLF, dot-stuffing, bare CR
	for in, want := range map[string]string{
		"a\nb\n":         "a\r\nb\r\n.\r\n",
		"a\r\nb":         "a\r\nb\r\n.\r\n",
		".x\n..y\n.\n":   "..x\r\n...y\r\n..\r\n.\r\n",
		"a\rb\n":         "a\r\nb\r\n.\r\n",
		"":               ".\r\n",
		"end with CR\r":  "end with CR\r\n.\r\n",
		"x\n.":           "x\r\n..\r\n.\r\n",
		"\n.\n":          "\r\n..\r\n.\r\n",
		"a\r\r\nb\n":     "a\r\n\r\nb\r\n.\r\n",
		"dot mid.line\n": "dot mid.line\r\n.\r\n",
	} {
		if got := stuffed(t, in); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

// TestQuotedLocalPart: an address net/mail gives unquoted goes back in
// its quotes for the check (RFC 6068 6.2's "not@me"@example.org), and a
// message with one is built.
func TestQuotedLocalPart(t *testing.T) {
	for in, want := range map[string]string{
		"a.b@example.org":    "a.b@example.org",
		"not@me@example.org": `"not@me"@example.org`,
		"John Q@example.org": `"John Q"@example.org`,
		`a"b\c@example.org`:  `"a\"b\\c"@example.org`,
		".lead@example.org":  `".lead"@example.org`,
		"noat":               "noat",
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted(%q) = %q, want %q", in, got, want)
		}
	}
	msg, err := BuildMessage([]Field{{"From", `"John Q"@example.org`}, {"To", `"not@me"@example.org`}}, []byte("hi\r\n"), MessageOptions{})
	if err != nil || !strings.Contains(string(msg), `To: <"not@me"@example.org>`) {
		t.Errorf("%q, %v", msg, err)
	}
}
