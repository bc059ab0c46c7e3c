package wire

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadLine(t *testing.T) {
	type step struct {
		line string
		err  error
	}
	tests := []struct {
		name  string
		input string
		max   int
		bufsz int // bufio size; 0 = default
		want  []step
	}{
		{"crlf", "a\r\nb\r\n", 10, 0, []step{{"a", nil}, {"b", nil}, {"", io.EOF}}},
		{"bare LF (pygopherd gophermaps, sloppy servers)", "a\nb\n", 10, 0, []step{{"a", nil}, {"b", nil}, {"", io.EOF}}},
		{"only one CR removed", "a\r\r\n", 10, 0, []step{{"a\r", nil}}},
		{"lone CR kept", "a\rb\n", 10, 0, []step{{"a\rb", nil}}},
		{"empty lines", "\r\n\n", 10, 0, []step{{"", nil}, {"", nil}, {"", io.EOF}}},
		{"final line without ending", "a\nbc", 10, 0, []step{{"a", nil}, {"bc", io.ErrUnexpectedEOF}}},
		{"exactly max", "abcd\r\n", 4, 0, []step{{"abcd", nil}, {"", io.EOF}}},
		{"max+1", "abcde\r\n", 4, 0, []step{{"", ErrLineTooLong}}},
		{"exactly max, tiny buffer, CRLF split", "abcdefghijklmnop\r\n", 16, 16, []step{{"abcdefghijklmnop", nil}}},
		{"over max, tiny buffer", strings.Repeat("x", 100) + "\n", 40, 16, []step{{"", ErrLineTooLong}}},
		{"over max at EOF", "abcdef", 4, 0, []step{{"", ErrLineTooLong}}},
		{"default max", strings.Repeat("y", DefaultMaxLine) + "\n" + strings.Repeat("y", DefaultMaxLine+1) + "\n", 0, 0,
			[]step{{strings.Repeat("y", DefaultMaxLine), nil}, {"", ErrLineTooLong}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tt.input)
			if tt.bufsz > 0 {
				r = bufio.NewReaderSize(iotest.OneByteReader(r), tt.bufsz)
			}
			lr := NewLineReader(r, tt.max)
			for i, w := range tt.want {
				got, err := lr.ReadLine()
				if got != w.line || !errors.Is(err, w.err) || (w.err == nil) != (err == nil) {
					t.Fatalf("step %d: ReadLine() = %q, %v; want %q, %v", i, got, err, w.line, w.err)
				}
			}
		})
	}
}

func TestReadLineBoundsMemory(t *testing.T) {
	// An endless line must fail after about Max bytes, not after reading
	// everything: the reader below never ends.
	lr := NewLineReader(endless{}, 1000)
	if _, err := lr.ReadLine(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v, want ErrLineTooLong", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'z'
	}
	return len(p), nil
}

func TestReadLineTooLongMessage(t *testing.T) {
	_, err := NewLineReader(strings.NewReader("abcdef\n"), 4).ReadLine()
	if got, want := err.Error(), "line too long (limit 4 bytes)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
