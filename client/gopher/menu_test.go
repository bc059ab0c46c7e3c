package gopher

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func menuTypes(t *testing.T, input string, maxLine int) (string, error) {
	t.Helper()
	m := NewMenuReader(strings.NewReader(input), maxLine)
	var types []string
	for m.Next() {
		it := m.Item()
		types = append(types, string(rune(it.Type))+it.Display)
	}
	return strings.Join(types, ","), m.Err()
}

func TestMenuReader(t *testing.T) {
	tests := []struct {
		name, input, want string
		max               int
		err               error
	}{
		{"terminated (RFC 1436, gophernicus)", "0a\tb\th\t1\r\n1c\td\th\t1\r\n.\r\n", "0a,1c", 0, nil},
		{"EOF without dot (pygopherd)", "0a\tb\th\t1\r\n1c\td\th\t1\r\n", "0a,1c", 0, nil},
		{"LF only", "0a\tb\th\t1\n1c\td\th\t1\n.\n", "0a,1c", 0, nil},
		{"last line without line end", "0a\tb\th\t1\r\n1c\td\th\t1", "0a,1c", 0, nil},
		{"blank lines skipped", "\r\n0a\tb\th\t1\r\n\r\n", "0a", 0, nil},
		{"content after dot ignored", "0a\tb\th\t1\r\n.\r\n0junk\tx\th\t1\r\n", "0a", 0, nil},
		{"empty menu", ".\r\n", "", 0, nil},
		{"empty input", "", "", 0, nil},
		{"dot-like display stays", "0.hidden\tb\th\t1\r\n", "0.hidden", 0, nil},
		{"line too long", "0a\tb\th\t1\r\n0" + strings.Repeat("x", 100) + "\r\n0c\td\th\t1\r\n", "0a", 50, ErrLineTooLong},
		{"garbage line", "0a\tb\th\t1\r\n\tno type\r\n", "0a", 0, ErrMalformedItem},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := menuTypes(t, tt.input, tt.max)
			if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Errorf("got %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestMenuReaderReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("0a\tb\th\t1\r\n0c\t"), iotest.ErrReader(io.ErrClosedPipe))
	m := NewMenuReader(r, 0)
	if !m.Next() || m.Item().Display != "a" {
		t.Fatal("first item missing")
	}
	if m.Next() {
		t.Fatalf("partial line before an error returned: %#v", m.Item())
	}
	if !errors.Is(m.Err(), io.ErrClosedPipe) {
		t.Errorf("Err = %v", m.Err())
	}
	if m.Next() {
		t.Error("Next after the end")
	}
}

func TestTextReader(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"terminated", "line one\r\nline two\r\n.\r\n", "line one\nline two\n"},
		{"EOF without dot (pygopherd, gophernicus)", "Hello from gopher.\r\n", "Hello from gopher.\n"},
		{"no final line end", "abc", "abc"},
		{"dot-stuffed", "..leading dot\r\n.\r\n", ".leading dot\n"},
		{"stops at dot", "a\r\n.\r\nafter\r\n", "a\n"},
		{"LF only with dot", "a\n.\nb\n", "a\n"},
		{"empty", "", ""},
		{"only dot", ".\r\n", ""},
		{"binary-ish bytes survive", "\x01\x02\r\n", "\x01\x02\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := io.ReadAll(NewTextReader(r))
				if err != nil || string(got) != tt.want {
					t.Errorf("got %q, %v; want %q", got, err, tt.want)
				}
			}
		})
	}
}

func TestLineTail(t *testing.T) {
	for _, tc := range []struct {
		chunks []string
		want   bool
	}{
		{[]string{".\r\n"}, true}, {[]string{".\n"}, true}, {[]string{"."}, true},
		{[]string{"a\r\n", ".", "\r", "\n"}, true}, {[]string{"a\n.\n"}, true},
		{[]string{"a.\r\n"}, false}, {[]string{"a\r\n..\r\n"}, false}, {[]string{""}, false},
		{[]string{"a\r\n.\r\nb"}, false}, {[]string{"long line\r\n", ".\r\n"}, true},
		{[]string{"x", "\n", "."}, true}, {[]string{"\r\n.\r\n\r\n"}, false},
	} {
		var lt lineTail
		for _, c := range tc.chunks {
			lt.add([]byte(c))
		}
		if got := lt.terminated(); got != tc.want {
			t.Errorf("%q: terminated = %v, want %v", tc.chunks, got, tc.want)
		}
	}
}
