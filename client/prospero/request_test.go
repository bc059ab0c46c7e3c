package prospero

import (
	"errors"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":         "''",
		"AFTP/pub": "'AFTP/pub'",
		"it's":     "'it''s'",
		"''":       "''''''",
		"a b\tc":   "'a b\tc'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRequestsRefuse(t *testing.T) {
	var c Client
	tests := []struct {
		name string
		err  error
		fn   func() ([]byte, error)
	}{
		{"LF in hsoname", ErrUnsafeArg, func() ([]byte, error) { return c.ListRequest("a\nb", nil, nil) }},
		{"NUL in component", ErrUnsafeArg, func() ([]byte, error) { return c.ListRequest("a", []string{"x\x00"}, nil) }},
		{"CR in object", ErrUnsafeArg, func() ([]byte, error) { return c.ObjectInfoRequest("a\r", "CONTENTS") }},
		{"long hsoname", ErrNameTooLong, func() ([]byte, error) { return c.ListRequest(strings.Repeat("x", MaxName+1), nil, nil) }},
		{"long component", ErrNameTooLong, func() ([]byte, error) {
			return c.ListRequest("AFTP", []string{strings.Repeat("y", 3000)}, nil)
		}},
	}
	for _, tt := range tests {
		if _, err := tt.fn(); !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
		}
	}
	for _, attr := range []string{"", "A B", "A+B", "A'", "X)"} {
		if _, err := c.ObjectInfoRequest("a", attr); err == nil {
			t.Errorf("attribute %q accepted", attr)
		}
	}
	if _, err := (&Client{User: "bad user"}).ListRequest("a", nil, nil); err == nil {
		t.Error("user with a space accepted")
	}
}

func TestParseReplyErrors(t *testing.T) {
	for _, tt := range []struct {
		msg       string
		line, off int
	}{
		{"LINK L FILE 'x\n", 1, 12},
		{"NONE-FOUND\nLINK L FILE\n", 2, 0},
		{"ERROR x\nATTRIBUTE OBJECT\n", 2, 0},
		{"NONE-FOUND\nA\x00\n", 2, 1},
	} {
		_, err := ParseReply([]byte(tt.msg))
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrMalformed) || pe.Line != tt.line || pe.Offset != tt.off {
			t.Errorf("%q: %v, want line %d byte %d", tt.msg, err, tt.line, tt.off)
		}
	}
}

func TestParseReplyFailure(t *testing.T) {
	r, err := ParseReply([]byte("FAILURE NOT-FOUND FILE 'the \x1b[31m file'\nWARNING OUT-OF-DATE soon\n"))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := r.Err().(*Failure)
	if !ok || f.Code != "NOT-FOUND" || f.Text != "FILE the \x1b[31m file" || len(r.Warnings) != 1 {
		t.Fatalf("%+v", r)
	}
	if msg := f.Error(); strings.ContainsRune(msg, 0x1b) {
		t.Errorf("escape byte in %q", msg)
	}
}
