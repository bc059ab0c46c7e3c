package telnet

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// parseAll runs the parser over in, chunk bytes at a time (0: all at
// once), and returns the data and a description of the events.
func parseAll(p *parser, in []byte, chunk int) (data []byte, events []string, err error) {
	in = bytes.Clone(in)
	if chunk <= 0 {
		chunk = len(in) + 1
	}
	for len(in) > 0 {
		piece := in[:min(chunk, len(in))]
		in = in[len(piece):]
		for len(piece) > 0 {
			d, ev, n, err := p.parse(piece)
			data = append(data, d...)
			if err != nil {
				return data, events, err
			}
			switch ev.kind {
			case evCommand:
				events = append(events, CommandName(ev.cmd))
			case evOption:
				events = append(events, CommandName(ev.cmd)+" "+OptionName(ev.opt))
			case evSubneg:
				events = append(events, "SB "+OptionName(ev.opt)+" "+quote(ev.data))
			}
			piece = piece[n:]
		}
	}
	return data, events, nil
}

func TestParser(t *testing.T) {
	tests := []struct {
		name, in string
		binary   bool
		data     string
		events   string
		err      string
	}{
		{"plain", "hello\r\nworld", false, "hello\r\nworld", "", ""},
		{"IAC IAC", "a\xff\xffb", false, "a\xffb", "", ""},
		{"CR NUL", "a\r\x00b\r\n", false, "a\rb\r\n", "", ""},
		{"CR NUL binary", "a\r\x00b", true, "a\r\x00b", "", ""},
		{"CR CR NUL", "\r\r\x00x", false, "\r\rx", "", ""},
		{"NUL alone stays", "a\x00b", false, "a\x00b", "", ""},
		{"negotiation", "\xff\xfd\x18\xff\xfb\x01x", false, "x", "DO TERMINAL-TYPE|WILL ECHO", ""},
		{"commands", "a\xff\xf1b\xff\xf2c\xff\xefd\xff\xf9", false, "abcd", "NOP|DM|EOR|GA", ""},
		{"subneg", "\xff\xfa\x18\x01\xff\xf0z", false, "z", `SB TERMINAL-TYPE "\x01"`, ""},
		{"subneg IAC IAC", "\xff\xfa\x1f\x00\xff\xff\x00\x18\xff\xf0", false, "", `SB NAWS "\x00\xff\x00\x18"`, ""},
		{"stray SE", "a\xff\xf0b", false, "ab", "", ""},
		{"IAC CR in data", "\r\xff\xf1\n", false, "\r\n", "NOP", ""},
		{"not a command", "ab\xff\x05", false, "ab", "", "telnet: byte 3: IAC followed by 0x05"},
		{"IAC in subneg", "\xff\xfa\x18xx\xff\xf1", false, "", "", "telnet: byte 6: IAC NOP inside the subnegotiation of TERMINAL-TYPE"},
		{"subneg too long", "\xff\xfa\x18" + strings.Repeat("x", 17), false, "", "", "telnet: byte 19: subnegotiation of TERMINAL-TYPE longer than the limit of 16 bytes"},
	}
	for _, tt := range tests {
		for _, chunk := range []int{0, 1, 2, 3} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, chunk), func(t *testing.T) {
				p := newParser(16)
				p.binary = tt.binary
				data, events, err := parseAll(p, []byte(tt.in), chunk)
				if tt.err != "" {
					if err == nil || !strings.HasPrefix(err.Error(), tt.err) || !errors.Is(err, ErrProtocol) {
						t.Fatalf("err = %v, want %q...", err, tt.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if string(data) != tt.data || strings.Join(events, "|") != tt.events {
					t.Errorf("data %q events %q, want %q %q", data, events, tt.data, tt.events)
				}
			})
		}
	}
}

func TestParserSynch(t *testing.T) {
	p := newParser(0)
	p.synch = true
	d, ev, n, err := p.parse([]byte("drop\xff\xffme\xff\xf4\xff\xf2keep"))
	if err != nil || len(d) != 0 || ev.cmd != IP {
		t.Fatalf("%q %v %d %v", d, ev, n, err)
	}
}

func TestAppendData(t *testing.T) {
	tests := []struct {
		in     string
		binary bool
		want   string
	}{
		{"a\nb", false, "a\r\nb"},
		{"a\r\nb", false, "a\r\nb"},
		{"a\rb\r", false, "a\r\x00b\r\x00"},
		{"\xff", false, "\xff\xff"},
		{"a\nb\r\xff", true, "a\nb\r\xff\xff"},
	}
	for _, tt := range tests {
		if got := string(AppendData(nil, []byte(tt.in), tt.binary)); got != tt.want {
			t.Errorf("AppendData(%q, %v) = %q, want %q", tt.in, tt.binary, got, tt.want)
		}
	}
	if got := string(AppendNAWS(nil, 255, 70000)); got != "\xff\xfa\x1f\x00\xff\xff\xff\xff\xff\xff\xff\xf0" {
		t.Errorf("AppendNAWS = %q", got)
	}
}

// The Q method of RFC 1143: answers are never answered, repeated
// requests for a settled option get no reply.
func TestQMethod(t *testing.T) {
	var s side
	if r, on := s.recvYes(true); r != sendYes || !on {
		t.Fatalf("first WILL: %v %v", r, on)
	}
	if r, _ := s.recvYes(true); r != sendNothing {
		t.Fatalf("repeated WILL answered: %v", r)
	}
	if r, off := s.recvNo(); r != sendNo || !off {
		t.Fatalf("WONT: %v %v", r, off)
	}
	if r, _ := s.recvNo(); r != sendNothing {
		t.Fatalf("repeated WONT answered")
	}
	// We ask, the peer's WILL is its answer: no reply to it.
	if s.ask(true) != sendYes || s.state != qWantYes {
		t.Fatal("ask")
	}
	if r, on := s.recvYes(true); r != sendNothing || !on {
		t.Fatalf("answer to our DO: %v %v", r, on)
	}
	// Ask to disable, change our mind before the answer: the queue bit.
	s.ask(false)
	s.ask(true)
	if r, _ := s.recvNo(); r != sendYes || s.state != qWantYes {
		t.Fatalf("queued opposite: %v %v", r, s.state)
	}
	var refused side
	if r, on := refused.recvYes(false); r != sendNo || on || refused.state != qNo {
		t.Fatalf("refusal: %v %v", r, on)
	}
}

func TestParseCommand(t *testing.T) {
	for in, want := range map[string]Command{"": CmdContinue, "q": CmdQuit, "close": CmdQuit, "send brk": CmdBreak,
		"send break": CmdBreak, "send ip": CmdInterrupt, "s ao": CmdAbortOutput, "send AYT": CmdAreYouThere, "send e": CmdSendEscape} {
		if got, err := ParseCommand(in); err != nil || got != want {
			t.Errorf("ParseCommand(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"send", "send b", "frob", "send x y"} {
		if _, err := ParseCommand(in); err == nil {
			t.Errorf("ParseCommand(%q) accepted", in)
		}
	}
}

func TestParserAllocs(t *testing.T) {
	p := newParser(0)
	in := []byte("hello\r\x00\xff\xff\xff\xfa\x18\x01\xff\xf0world\xff\xfb\x01")
	buf := make([]byte, len(in))
	allocs := testing.AllocsPerRun(100, func() {
		copy(buf, in)
		rest := buf
		for len(rest) > 0 {
			_, _, n, _ := p.parse(rest)
			rest = rest[n:]
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per parse", allocs)
	}
}

func quote(b []byte) string { return fmt.Sprintf("%q", b) }

func BenchmarkParse(b *testing.B) {
	// A screenful of text with the odd command, as telnetd sends it.
	in := bytes.Repeat([]byte("some output line of text\r\n\xff\xf9"), 64)
	buf := make([]byte, len(in))
	p := newParser(0)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, in)
		for rest := buf; len(rest) > 0; {
			_, _, n, _ := p.parse(rest)
			rest = rest[n:]
		}
	}
}
