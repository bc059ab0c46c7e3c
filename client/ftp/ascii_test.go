package ftp

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestASCIIReader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one\r\ntwo\r\n", "one\ntwo\n"},
		{"no newline", "no newline"},
		{"bare\nLF\n", "bare\nLF\n"}, // servers that do not convert
		{"lone\rCR", "lone\rCR"},
		{"CR at end\r", "CR at end\r"},
		{"\r\r\n", "\r\n"},
		{"\r\n\r\n", "\n\n"},
		{"", ""},
	}
	for _, tt := range tests {
		for name, r := range map[string]io.Reader{
			"whole":    strings.NewReader(tt.in),
			"bytewise": iotest.OneByteReader(strings.NewReader(tt.in)),
			"halves":   iotest.HalfReader(strings.NewReader(tt.in)),
		} {
			got, err := io.ReadAll(newASCIIReader(r))
			if err != nil || string(got) != tt.want {
				t.Errorf("%s %q: got %q, %v; want %q", name, tt.in, got, err, tt.want)
			}
		}
	}
	if err := iotest.TestReader(newASCIIReader(strings.NewReader("a\r\nb\rc\r\n")), []byte("a\nb\rc\n")); err != nil {
		t.Error(err)
	}
}

func TestASCIIReaderError(t *testing.T) {
	r := newASCIIReader(io.MultiReader(strings.NewReader("ab\r\n"), iotest.ErrReader(io.ErrClosedPipe)))
	got, err := io.ReadAll(r)
	if string(got) != "ab\n" || err != io.ErrClosedPipe {
		t.Errorf("got %q, %v", got, err)
	}
}
