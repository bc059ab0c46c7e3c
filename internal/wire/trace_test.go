package wire

import (
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

func TestTracer(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	var out strings.Builder
	tr := &Tracer{W: &out, Mask: func(line string) string {
		if strings.HasPrefix(line, "PASS ") {
			return "PASS ****"
		}
		return line
	}}
	c := tr.Conn(a)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the peer
		defer wg.Done()
		buf := make([]byte, 100)
		io.ReadFull(b, buf[:len("USER joe\r\nPASS s3cret\r\n")])
		b.Write([]byte("230 ok\r\n331 x\r\n"))
		b.Write([]byte("220 tab\there\x00 and partial"))
		b.Close()
	}()
	c.Write([]byte("USER joe\r\nPASS s3"))
	c.Write([]byte("cret\r\n"))
	io.ReadAll(c)
	wg.Wait()
	c.Close()
	want := "> USER joe\n> PASS ****\n< 230 ok\n< 331 x\n< 220 tab\\there\\x00 and partial\n"
	if out.String() != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", out.String(), want)
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Error("password in transcript")
	}
}

func TestTracerLimit(t *testing.T) {
	a, b := net.Pipe()
	var out strings.Builder
	c := (&Tracer{W: &out, Limit: 10}).Conn(a)
	go func() {
		b.Write([]byte("line1\nline2\nline3\nline4\n"))
		b.Close()
	}()
	data, _ := io.ReadAll(c)
	c.Close()
	if len(data) != 24 {
		t.Fatalf("traced conn delivered %d bytes, want all 24", len(data))
	}
	want := "< line1\n< line\n< [trace limit of 10 bytes reached]\n"
	if out.String() != want {
		t.Errorf("transcript %q, want %q", out.String(), want)
	}
}

func TestTracerNil(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	var tr *Tracer
	if tr.Conn(a) != a {
		t.Error("nil Tracer wrapped the conn")
	}
	if (&Tracer{}).Conn(a) != a {
		t.Error("Tracer without W wrapped the conn")
	}
}

// Bytes are escaped one by one, the same way for every sequence above
// 0x7e (valid UTF-8 or not), so a transcript shows the bytes sent; ASCII
// escapes match strconv.Quote.
func TestPrintableBytes(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                    "plain",
		"tab\there \"q\" \\":       `tab\there \"q\" \\`,
		"\xc8\x85\x99":             `\xc8\x85\x99`, // "ȅ" in UTF-8, EBCDIC "He" in a 3270 record
		"\xff\xfd\x18\x00\x7f\x1b": `\xff\xfd\x18\x00\x7f\x1b`,
		"\a\b\f\r\v":               `\a\b\f\r\v`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTraceMaskReceived(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	var out bytes.Buffer
	tr := &Tracer{W: &out, Mask: func(l string) string { return strings.ReplaceAll(l, "secret", "***") }, MaskReceived: true}
	c := tr.Conn(a)
	go func() {
		buf := make([]byte, 64)
		n, _ := b.Read(buf)
		b.Write(buf[:n]) // echo
	}()
	c.Write([]byte("secret\n"))
	buf := make([]byte, 64)
	c.Read(buf)
	c.Close()
	if got := out.String(); got != "> ***\n< ***\n" {
		t.Errorf("trace %q", got)
	}
}

// TestSecretsMask: a secret added is masked wherever it appears in a
// line, an empty one is not (it would mask between every byte).
func TestSecretsMask(t *testing.T) {
	var s Secrets
	if got := s.Mask("hunter2"); got != "hunter2" {
		t.Errorf("nothing added: %q", got)
	}
	s.Add("")
	s.Add("hunter2")
	if got, want := s.Mask("hunter2\r\nxhunter2"), Mask+"\r\nx"+Mask; got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
}
