package gopher

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseHeader(t *testing.T) {
	tests := []struct {
		line   string
		length int64
		isErr  bool
		ok     bool
	}{
		{"+20", 20, false, true},
		{"+0", 0, false, true},
		{"+4096", 4096, false, true},
		{"+-1", LengthDot, false, true},
		{"+-2", LengthClose, false, true},
		{"--1", LengthDot, true, true},
		{"--2", LengthClose, true, true},
		{"-35", 35, true, true},
		{"+20 ", 20, false, true},
		{"+-3", 0, false, false},
		{"--3", 0, false, false},
		{"+", 0, false, false},
		{"-", 0, false, false},
		{"++5", 0, false, false},
		{"+ 5", 0, false, false},
		{"+5x", 0, false, false},
		{"+99999999999999999999", 0, false, false},
		{"Hello from gophernicus.", 0, false, false},
		{"0hello\t/hello.txt\t127.0.0.1\t7070", 0, false, false},
		{"", 0, false, false},
	}
	for _, tt := range tests {
		length, isErr, ok := parseHeader(tt.line)
		if length != tt.length || isErr != tt.isErr || ok != tt.ok {
			t.Errorf("parseHeader(%q) = %d, %v, %v; want %d, %v, %v", tt.line, length, isErr, ok, tt.length, tt.isErr, tt.ok)
		}
	}
}

func TestParsePlusError(t *testing.T) {
	tests := []struct {
		body string
		want PlusError
	}{
		// pygopherd's answer to a missing selector.
		{"1 Test Admin <admin@example.invalid>\r\n'/nonexist' does not exist (no handler found)\r\n",
			PlusError{1, "Test Admin <admin@example.invalid>", "'/nonexist' does not exist (no handler found)"}},
		{"2 admin\r\nbusy\r\n.\r\n", PlusError{2, "admin", "busy"}},
		{"3 admin\r\n1Moved\t/new\thost\t70\r\n", PlusError{3, "admin", "1Moved\t/new\thost\t70"}},
		{"3\r\n", PlusError{3, "", ""}},
		{"no code here\r\nsecond line", PlusError{0, "", "no code here\nsecond line"}},
		{"", PlusError{}},
		{".\r\n", PlusError{}},
	}
	for _, tt := range tests {
		if got := parsePlusError(tt.body); *got != tt.want {
			t.Errorf("parsePlusError(%q) = %#v, want %#v", tt.body, *got, tt.want)
		}
	}
	e := &PlusError{1, "x", "gone"}
	if got := e.Error(); got != "gopher: server error 1 (item is not available): gone" {
		t.Errorf("Error() = %q", got)
	}
}

// pygopherd's answer to "/form.txt\t!", verbatim.
const pygopherdAttrs = "+INFO: 0form.txt\t/form.txt\t127.0.0.1\t7070\t+\r\n" +
	"+ADMIN:\r\n Admin: Test Admin <admin@example.invalid>\r\n Mod-Date: Sat Nov 21 23:20:33 2026 <20261121232033>\r\n" +
	"+VIEWS:\r\n text/plain: <0k>\r\n" +
	"+ASK:\r\n Ask: What is your name?\r\n Choose: Colour?\tred\tgreen\tblue\r\n"

func TestParseAttributes(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Block
		err   error
	}{
		{"pygopherd", pygopherdAttrs, []Block{
			{Name: "INFO", Value: "0form.txt\t/form.txt\t127.0.0.1\t7070\t+"},
			{Name: "ADMIN", Lines: []string{"Admin: Test Admin <admin@example.invalid>", "Mod-Date: Sat Nov 21 23:20:33 2026 <20261121232033>"}},
			{Name: "VIEWS", Lines: []string{"text/plain: <0k>"}},
			{Name: "ASK", Lines: []string{"Ask: What is your name?", "Choose: Colour?\tred\tgreen\tblue"}},
		}, nil},
		{"dot terminated, LF only", "+INFO: 1x\t/x\th\t70\n+ABSTRACT:\n An abstract.\n.\n+JUNK:\n", []Block{
			{Name: "INFO", Value: "1x\t/x\th\t70"},
			{Name: "ABSTRACT", Lines: []string{"An abstract."}},
		}, nil},
		{"continuation without space tolerated", "+ABSTRACT:\nno space\n  two spaces\n", []Block{
			{Name: "ABSTRACT", Lines: []string{"no space", " two spaces"}},
		}, nil},
		{"name without colon", "+VIEWS\n text/plain\n", []Block{{Name: "VIEWS", Lines: []string{"text/plain"}}}, nil},
		{"leading blank line", "\r\n+INFO: x\r\n", []Block{{Name: "INFO", Value: "x"}}, nil},
		{"empty", "", nil, nil},
		{"text before the first block", "Hello from gophernicus.\r\n", nil, ErrMalformedAttributes},
		{"empty name", "+: x\r\n", nil, ErrMalformedAttributes},
		{"line too long", "+INFO: " + strings.Repeat("x", DefaultMaxLine) + "\r\n", nil, ErrLineTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAttributes(strings.NewReader(tt.input))
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestParseAttributesMaxLines(t *testing.T) {
	input := "+ABSTRACT:\r\n" + strings.Repeat(" x\r\n", 100)
	_, err := parseAttributes(lineReader(input), 50)
	if !errors.Is(err, ErrMalformedAttributes) {
		t.Errorf("err = %v", err)
	}
}

func TestBlockString(t *testing.T) {
	blocks, err := ParseAttributes(strings.NewReader(pygopherdAttrs))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.String())
	}
	if b.String() != pygopherdAttrs {
		t.Errorf("re-rendered:\n%q\nwant\n%q", b.String(), pygopherdAttrs)
	}
}

func TestBlockItemAndQuestions(t *testing.T) {
	blocks, _ := ParseAttributes(strings.NewReader(pygopherdAttrs))
	it, err := blocks[0].Item()
	if err != nil || it.Selector != "/form.txt" || it.Type != TypeText || !it.IsPlus() {
		t.Errorf("INFO item = %#v, %v", it, err)
	}
	got := blocks[3].Questions()
	want := []Question{
		{Kind: "Ask", Prompt: "What is your name?"},
		{Kind: "Choose", Prompt: "Colour?", Defaults: []string{"red", "green", "blue"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Questions() = %#v", got)
	}
}

func TestRequestLine(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		sel          string
		search, plus *string
		want         string
		bad          int // offset of the unsafe byte, -1 if none
	}{
		{"", nil, nil, "", -1},
		{"/hello.txt", nil, nil, "/hello.txt", -1},
		{"/map/search", s("foo bar"), nil, "/map/search\tfoo bar", -1},
		{"/hello.txt", nil, s("+"), "/hello.txt\t+", -1},
		{"/map/search", s("foo"), s("+"), "/map/search\tfoo\t+", -1},
		{"/x", s(""), nil, "/x\t", -1},
		{"/docs/sub dir/", nil, nil, "/docs/sub dir/", -1},
		{"/a\tb", nil, nil, "", 2},
		{"/a\r\n/b", nil, nil, "", 2},
		{"/a\x00", nil, nil, "", 2},
		{"/s", s("x\ty"), nil, "", 1},
		{"/s", s("x\ny"), nil, "", 1},
		{"/s", nil, s("+\t1"), "", 1},
	}
	for _, tt := range tests {
		got, err := requestLine(tt.sel, tt.search, tt.plus)
		if tt.bad >= 0 {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Offset != tt.bad || !errors.Is(err, ErrUnsafeArg) {
				t.Errorf("requestLine(%q) err = %v, want ArgError at %d", tt.sel, err, tt.bad)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("requestLine(%q) = %q, %v; want %q", tt.sel, got, err, tt.want)
		}
	}
}

func TestAskRequest(t *testing.T) {
	got, err := askRequest("/form.txt", []string{"Joe", "red", ".hidden", "", "a\tb"})
	want := "/form.txt\t+\t1\r\n+-1\r\nJoe\r\nred\r\n..hidden\r\n\r\na\tb\r\n.\r\n"
	if err != nil || got != want {
		t.Errorf("askRequest = %q, %v\nwant %q", got, err, want)
	}
	for _, v := range []string{"x\r\n.\r\nQUIT", "x\ny", "x\x00"} {
		if _, err := askRequest("/form.txt", []string{"ok", v}); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("value %q: err = %v", v, err)
		}
	}
	if _, err := askRequest("/form\t.txt", nil); !errors.Is(err, ErrUnsafeArg) {
		t.Errorf("selector with TAB: err = %v", err)
	}
}
