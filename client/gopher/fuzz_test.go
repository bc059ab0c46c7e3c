package gopher

import (
	"bufio"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseItem: no panic; ParseItem(it.String()) == it for every parsed
// item; and String gives the line back exactly for four- or five-field
// lines without line-end bytes inside the fields.
func FuzzParseItem(f *testing.F) {
	for _, s := range []string{
		"0hello\t/hello.txt\t127.0.0.1\t7070\t+\r\n",
		"iTest gophernicus server\t\tnull.host\t1\r\n",
		"1Application\t/ask_script\tlocalhost\t70\t?",
		"iJust text", "0a\tb\tc\t70\t+\textra", "\t", "", "\r\n", "i\r\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		it, err := ParseItem(line)
		if err != nil {
			return
		}
		again, err := ParseItem(it.String())
		if err != nil || again != it {
			t.Fatalf("%q -> %#v -> %q -> %#v, %v", line, it, it.String(), again, err)
		}
		trimmed := strings.TrimRight(line, "\r\n")
		if n := strings.Count(trimmed, "\t"); (n == 3 || (n == 4 && it.Plus != "")) && it.String() != trimmed {
			t.Fatalf("String() = %q, want %q", it.String(), trimmed)
		}
	})
}

// FuzzParseAttributes: no panic, and the blocks survive Block.String ->
// ParseAttributes unchanged.
func FuzzParseAttributes(f *testing.F) {
	f.Add(pygopherdAttrs)
	for _, s := range []string{
		"+INFO: 1x\t/x\th\t70\n+ABSTRACT:\n An abstract.\n.\n",
		"+VIEWS\n text/plain\n", "+: x", "x", "+A:\n.\n+B:", "\r\n+A:  b\r\n\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		blocks, err := ParseAttributes(strings.NewReader(input))
		if err != nil {
			return
		}
		var b strings.Builder
		for _, bl := range blocks {
			b.WriteString(bl.String())
			bl.Questions()
			bl.Item()
		}
		again, err := ParseAttributes(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("re-parse of %q: %v", b.String(), err)
		}
		if len(blocks) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(normalize(blocks), normalize(again)) {
			t.Fatalf("%q\n-> %#v\n-> %q\n-> %#v", input, blocks, b.String(), again)
		}
	})
}

// normalize makes nil and empty Lines equal.
func normalize(bs []Block) []Block {
	out := make([]Block, len(bs))
	for i, b := range bs {
		if len(b.Lines) == 0 {
			b.Lines = nil
		}
		out[i] = b
	}
	return out
}

// FuzzMenuAndText: the menu and text readers never panic on any input.
func FuzzMenuAndText(f *testing.F) {
	f.Add("0a\tb\th\t1\r\n.\r\n")
	f.Add("..x\r\n.\r\n")
	f.Add("+-1\r\n")
	f.Fuzz(func(t *testing.T, input string) {
		m := NewMenuReader(strings.NewReader(input), 64)
		for m.Next() {
			m.Item()
		}
		var buf [7]byte
		tr := NewTextReader(strings.NewReader(input))
		for {
			if _, err := tr.Read(buf[:]); err != nil {
				break
			}
		}
		parseHeader(input)
		parsePlusError(input)
	})
}

// FuzzLineTail: the "." line detector, fed the input in chunks of any
// size, agrees with a check of the whole string.
func FuzzLineTail(f *testing.F) {
	f.Add("a\r\n.\r\n", uint8(2))
	f.Add(".", uint8(0))
	f.Add("x\n..\n", uint8(1))
	f.Fuzz(func(t *testing.T, s string, chunk uint8) {
		var lt lineTail
		step := int(chunk%7) + 1
		for i := 0; i < len(s); i += step {
			lt.add([]byte(s[i:min(i+step, len(s))]))
		}
		want := false
		for _, end := range []string{".", ".\n", ".\r\n"} {
			if s == end || strings.HasSuffix(s, "\n"+end) {
				want = true
			}
		}
		if got := lt.terminated(); got != want || lt.n != int64(len(s)) {
			t.Fatalf("%q in chunks of %d: terminated = %v (n %d), want %v", s, step, got, lt.n, want)
		}
	})
}

// FuzzReadResponse: any bytes as the answer to a Gopher+ request. No
// panic; a body read to its end without error holds exactly the "+N"
// bytes of its header, or ends with the "." line of a "+-1" header.
func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{
		"+5\r\nhello", "+10\r\nshort", "+-1\r\nline\r\n.\r\n", "+-1\r\nno dot\r\n", "+-2\r\nx",
		"--1\r\n1 admin\r\nnot here\r\n.\r\n", "-3\r\n2 x", "plain text\r\n", "+", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		r := &Response{c: &Client{}, ctx: context.Background(), Length: LengthClose}
		r.br = bufio.NewReader(strings.NewReader(input))
		r.body = r.br
		if err := r.readHeader(); err != nil {
			return
		}
		b, err := io.ReadAll(r)
		if err != nil {
			if !errors.Is(err, ErrShortTransfer) {
				t.Fatalf("%q: error %v does not match ErrShortTransfer", input, err)
			}
			return
		}
		switch {
		case r.Plus && r.Length >= 0 && int64(len(b)) != r.Length:
			t.Fatalf("%q: read %d bytes of a +%d body without error", input, len(b), r.Length)
		case r.Plus && r.Length == LengthDot && !r.Terminated():
			t.Fatalf("%q: a +-1 body without its dot read without error", input)
		case r.BytesRead() != int64(len(b)):
			t.Fatalf("%q: BytesRead %d, read %d", input, r.BytesRead(), len(b))
		}
	})
}
