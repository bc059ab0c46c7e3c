package rlogin

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzReadAck: any server answer is an acknowledgement, a bounded and
// escaped refusal message, or an I/O error; never a panic, and the
// message never holds raw control bytes.
func FuzzReadAck(f *testing.F) {
	for _, s := range []string{"\x00", "\x01Permission denied.\n", "\x01", "", "Hello\r\n", "\x01\x1b[2J\xff\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		msg, err := readAck(bufio.NewReader(bytes.NewReader(in)))
		switch {
		case err == nil:
			if len(in) == 0 || in[0] != 0 || msg != "" {
				t.Fatalf("%q acknowledged", in)
			}
		case errors.Is(err, errRefusal):
			if len(msg) > 4*maxRefusal+8 || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r >= 0x7f }) {
				t.Fatalf("message %q", msg)
			}
		}
	})
}

// FuzzHandshake: accepted names round-trip through the NUL-separated
// handshake.
func FuzzHandshake(f *testing.F) {
	f.Add("alice", "bob", "xterm", 38400)
	f.Add("", "", "", 0)
	f.Fuzz(func(t *testing.T, local, remote, term string, speed int) {
		b, err := Handshake(local, remote, term, speed)
		if err != nil {
			return
		}
		fields := strings.Split(string(b), "\x00")
		if len(fields) != 5 || fields[0] != "" || fields[1] != local || fields[2] != remote || !strings.HasPrefix(fields[3], term+"/") || fields[4] != "" {
			t.Fatalf("%q", b)
		}
	})
}
