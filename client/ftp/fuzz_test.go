package ftp

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wire"
)

// FuzzReadReply: no panic, bounded, and a parsed reply survives
// formatReply -> readReply unchanged.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		"220 ProFTPD Server (url-test proftpd) [127.0.0.1]\r\n",
		"211-Features:\r\n EPSV\r\n SIZE\r\n211 End\r\n",
		"230-Welcome\r\n230-more\r\n230 ok\r\n",
		"200\r\n", "hello\r\n", "220-x\r\n220", "5\x00\x00 x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := readReply(wire.NewLineReader(strings.NewReader(s), 256), 50)
		if err != nil {
			return
		}
		if r.code < 100 || r.code > 599 {
			t.Fatalf("code %d", r.code)
		}
		again, err := readReply(wire.NewLineReader(strings.NewReader(formatReply(r)+"\r\n"), 1<<20), 1<<20)
		if err != nil || again != r {
			t.Fatalf("round trip: %+v -> %q -> %+v, %v", r, formatReply(r), again, err)
		}
	})
}

// FuzzParsePassive: the PASV and EPSV parsers never panic and return
// plausible values.
func FuzzParsePassive(f *testing.F) {
	for _, s := range []string{
		"Entering Passive Mode (127,0,0,1,117,70).",
		"Entering Extended Passive Mode (|||30070|)",
		"(1,2,3,4,5,6,7)", "(|||", "=1,2,3,4,5,6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, _, err := parsePASV(s); err == nil && !a.Is4() {
			t.Fatalf("PASV %q gave %v", s, a)
		}
		if p, err := parseEPSV(s); err == nil && p == 0 {
			t.Fatalf("EPSV %q gave port 0", s)
		}
		parseSize(s)
		parsePWD(s)
	})
}
