package ftp

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wire"
)

func TestReadReply(t *testing.T) {
	tests := []struct {
		name  string
		input string
		code  int
		msg   string
		err   error
	}{
		{"single", "220 ProFTPD Server ready\r\n", 220, "ProFTPD Server ready", nil},
		{"bare code (RFC 959 allows no text)", "200\r\n", 200, "", nil},
		{"LF only", "200 ok\n", 200, "ok", nil},
		{"empty text", "200 \r\n", 200, "", nil},
		// RFC 959 section 4.2: multi-line, middle lines free-form.
		{"multi", "211-Features:\r\n EPSV\r\n SIZE\r\n211 End\r\n", 211, "Features:\n EPSV\n SIZE\nEnd", nil},
		{"multi, repeated code prefix", "230-Welcome\r\n230-to the server\r\n230 Login ok\r\n", 230, "Welcome\nto the server\nLogin ok", nil},
		{"multi, other code inside", "220-hello\r\n221 not the end\r\n220 end\r\n", 220, "hello\n221 not the end\nend", nil},
		{"multi, bare final code", "220-hello\r\n220\r\n", 220, "hello\n", nil},
		{"multi, line starting with digits", "214-help\r\n123 abc\r\n214 ok\r\n", 214, "help\n123 abc\nok", nil},
		{"garbage", "hello\r\n", 0, "", ErrMalformedReply},
		{"code out of range", "600 what\r\n", 0, "", ErrMalformedReply},
		{"code 0xx", "099 what\r\n", 0, "", ErrMalformedReply},
		{"two digits", "20 ok\r\n", 0, "", ErrMalformedReply},
		{"no separator", "200ok\r\n", 0, "", ErrMalformedReply},
		{"letter in code", "2O0 ok\r\n", 0, "", ErrMalformedReply},
		{"empty", "", 0, "", io.ErrUnexpectedEOF},
		{"closed mid-line", "220 hel", 0, "", io.ErrUnexpectedEOF},
		{"closed mid multi-line", "220-hello\r\n", 0, "", io.ErrUnexpectedEOF},
		{"too many lines", "220-a\r\n" + strings.Repeat("x\r\n", 10) + "220 b\r\n", 0, "", ErrReplyTooLong},
		{"line too long", "220 " + strings.Repeat("y", 100) + "\r\n", 0, "", ErrLineTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := readReply(wire.NewLineReader(strings.NewReader(tt.input), 64), 10)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil || r.code != tt.code || r.msg != tt.msg {
				t.Fatalf("got %d %q, %v; want %d %q", r.code, r.msg, err, tt.code, tt.msg)
			}
		})
	}
}

func TestFormatReplyRoundTrip(t *testing.T) {
	for _, r := range []reply{{200, "ok"}, {211, "Features:\n EPSV\nEnd"}, {220, "a\n220-b\n"}, {150, ""}} {
		got, err := readReply(wire.NewLineReader(strings.NewReader(formatReply(r)+"\r\n"), 0), 100)
		if err != nil || got != r {
			t.Errorf("round trip of %+v: %+v, %v", r, got, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		msg  string
		want int64
	}{
		{"Opening BINARY mode data connection for /pub/64k.bin (65536 bytes)", 65536},
		{"Opening ASCII mode data connection for x (26 bytes)", 26},
		{"Opening data connection (0 bytes)", 0},
		{"Here comes the file.", -1},
		{"Opening for (weird) name (12 bytes)", 12},
		{"Opening (12 octets)", -1},
		{"Opening (-5 bytes)", -1},
		{"Opening (99999999999999999999 bytes)", -1},
		{"(", -1},
	}
	for _, tt := range tests {
		if got := parseSize(tt.msg); got != tt.want {
			t.Errorf("parseSize(%q) = %d, want %d", tt.msg, got, tt.want)
		}
	}
}

func TestParsePWD(t *testing.T) {
	tests := []struct {
		msg, want string
		ok        bool
	}{
		{`"/" is the current directory`, "/", true},
		{`"/home/tester" is current directory.`, "/home/tester", true},
		{`"/a ""quoted"" dir" created`, `/a "quoted" dir`, true},
		{`"/sub dir"`, "/sub dir", true},
		{`MKD: "/x`, "", false},
		{`no quotes`, "", false},
	}
	for _, tt := range tests {
		got, err := parsePWD(tt.msg)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("parsePWD(%q) = %q, %v", tt.msg, got, err)
		}
	}
}

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"PASS secret":    "PASS xxxxx",
		"pass secret":    "pass xxxxx",
		"ACCT acme":      "ACCT xxxxx",
		"PASS":           "PASS xxxxx",
		"USER anonymous": "USER anonymous",
		"PAS":            "PAS",
		"CWD /pass":      "CWD /pass",
	} {
		if got := maskSecrets(in); got != want {
			t.Errorf("maskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}
