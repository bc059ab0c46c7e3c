package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// forged is server text that tries to act on the terminal: an OSC 8
// hyperlink, a screen clear, a C1 CSI, and a line break forging a second
// "urlkit:" message.
const forged = "\x1b]8;;http://evil/\x07click\x1b]8;;\x07 \x1b[2J\u009b2J\r\nurlkit: \"ftp://fake\": all fine"

// checkSafe fails when out holds a control byte other than LF, or a line
// that the server forged.
func checkSafe(t *testing.T, what, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
		t.Errorf("%s holds control bytes: %q", what, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, `urlkit: "ftp://fake"`) {
			t.Errorf("%s has a forged line: %q", what, out)
		}
	}
}

// TestUntrustedReplyText: a server's reply text reaches standard error
// escaped, in the error message and in the trace.
func TestUntrustedReplyText(t *testing.T) {
	srv := wt.Start(t, wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"),
		wt.Expect("PASS a@b.c"), wt.SendRaw("530 "+forged+"\r\n"), wt.Stall())
	code, _, stderr := runCLI(t, "", false, "get", "--trace", "--email", "a@b.c", "ftp://"+srv.Addr()+"/f")
	if code != exitLogin || !strings.Contains(stderr, `\x1b]8;;http://evil/\x07click`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	checkSafe(t, "standard error", stderr)
}

// TestUntrustedRender: --render shows a menu's display strings, URLs
// and text with their escape sequences neutralised.
func TestUntrustedRender(t *testing.T) {
	menu := "1\x1b[2JDir " + strings.ReplaceAll(forged, "\r\n", " ") + "\t/d\th\t70\r\n" +
		"i\x1b]0;title\x07info\t\terror.host\t1\r\n" +
		"hURL:http://x/\x1b[5m\tURL:http://x/\x1b[5m\th\t70\r\n.\r\n"
	srv := wt.Start(t, wt.Expect(""), wt.SendRaw(menu), wt.Close())
	code, stdout, stderr := runCLI(t, "", false, "get", "--render", "gopher://"+srv.Addr()+"/1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkSafe(t, "rendered menu", stdout)
	if !strings.Contains(stdout, `\x1b[2JDir`) || !strings.Contains(stdout, `\x1b]0;title\x07info`) {
		t.Errorf("rendered menu:\n%s", stdout)
	}
	text := "line one\r\n\x1b[31mred\x1b[0m\r\n" + strings.ReplaceAll(forged, "\r\n", " ") + "\r\n.\r\n"
	srv = wt.Start(t, wt.Expect("/t"), wt.SendRaw(text), wt.Close())
	code, stdout, stderr = runCLI(t, "", false, "get", "--render", "gopher://"+srv.Addr()+"/0/t")
	if code != exitOK {
		t.Fatalf("text: exit %d: %s", code, stderr)
	}
	checkSafe(t, "rendered text", stdout)
	if !strings.HasPrefix(stdout, "line one\n\\x1b[31mred") {
		t.Errorf("rendered text:\n%q", stdout)
	}
}

// TestUntrustedInput: control bytes of an input line (a URL is a kind of
// untrusted text too) are escaped in messages.
func TestUntrustedInput(t *testing.T) {
	for _, args := range [][]string{{"check"}, {"parse"}, {"get"}, {"explain"}, {"normalize"}} {
		_, _, stderr := runCLI(t, "http://h/a\x1b]0;x\x07b\rurlkit: \"ftp://fake\": ok\n", false, args...)
		checkSafe(t, strings.Join(args, " ")+" standard error", stderr)
	}
}

// TestUntrustedBodyOnTerminal: a body written to a terminal has its
// control bytes escaped, binary data is refused (curl's rule: exit 23),
// and --raw, a pipe or -o FILE get the bytes unchanged.
func TestUntrustedBodyOnTerminal(t *testing.T) {
	dir := t.TempDir()
	text := "line one\r\n" + forged + "\n"
	binary := "GIF89a\x00\x01\x1b[2J"
	for name, body := range map[string]string{"text": text, "binary": binary} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	get := func(tty bool, args ...string) (int, string, string) {
		t.Helper()
		st, out, errOut := TestStreams("")
		st.OutTTY = tty
		code := run(context.Background(), append([]string{"get", "-q"}, args...), st)
		return code, out.String(), errOut.String()
	}
	code, stdout, stderr := get(true, "file://"+dir+"/text")
	if code != exitOK || !strings.HasPrefix(stdout, "line one\r\n\\x1b]8;;http://evil/\\x07click") {
		t.Errorf("text: exit %d, %q: %s", code, stdout, stderr)
	}
	// Data may hold any line; no control byte but a CR before LF.
	if strings.ContainsAny(strings.ReplaceAll(stdout, "\r\n", "\n"), "\x1b\x07\r\u009b") {
		t.Errorf("text on a terminal holds control bytes: %q", stdout)
	}
	code, stdout, stderr = get(true, "file://"+dir+"/binary")
	if code != exitWrite || stdout != "" || !strings.Contains(stderr, "binary data not shown on the terminal: use -o FILE, or --raw") {
		t.Errorf("binary: exit %d, %q: %s", code, stdout, stderr)
	}
	for _, c := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"--raw", true, []string{"--raw"}},
		{"a pipe", false, nil},
	} {
		for name, body := range map[string]string{"text": text, "binary": binary} {
			code, stdout, stderr := get(c.tty, append(c.args, "file://"+dir+"/"+name)...)
			if code != exitOK || stdout != body {
				t.Errorf("%s, %s: exit %d, %q: %s", c.name, name, code, stdout, stderr)
			}
		}
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := get(true, "-o", out, "file://"+dir+"/binary"); code != exitOK {
		t.Errorf("-o: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != binary {
		t.Errorf("-o: %q", b)
	}
}

// TestUntrustedExcessAfterResponse: bytes a server sends after a whole
// HTTP response made net/http log a line of its own on standard error
// ("Unsolicited response received on idle HTTP channel ..."), unredacted
// and not urlkit's; the process (main and all) now prints nothing.
func TestUntrustedExcessAfterResponse(t *testing.T) {
	srv := wt.Start(t, httpHead(), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello\x1b]0;pwn\x07 EXTRA"), wt.Stall())
	out := filepath.Join(t.TempDir(), "out")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd, stderr := urlkitProcess(t, null, "get", "-o", out, "http://"+srv.Addr()+"/f")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "hello" || stderr.Len() != 0 {
		t.Errorf("file %q, stderr %q", b, stderr)
	}
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{ writes int }

func (w *fullWriter) Write(p []byte) (int, error) {
	w.writes++
	return 0, syscall.ENOSPC
}

// TestWriteErrorStops: a command whose standard output fails (a full
// disk) says so once, exits with get's status for it (23), and stops
// reading its input instead of running on to its end.
func TestWriteErrorStops(t *testing.T) {
	lines := strings.Repeat("http://a.example/x\n", 200000)
	for _, args := range [][]string{
		{"normalize"}, {"normalize", "-j", "2"}, {"parse"}, {"parse", "--json"}, {"check", "-v"},
		{"resolve", "http://a/"}, {"relative", "http://a/"}, {"equal"}, {"escape"}, {"unescape"},
		{"extract"}, {"edit", "-f", "-"}, {"explain", "http://a/"}, {"--version"}, {"help"}, {"normalize", "-h"}, {"get", "-h"},
	} {
		in := lines
		switch args[0] {
		case "equal":
			in = strings.ReplaceAll(lines, "\n", "\thttp://a.example/x\n")
		case "extract":
			in = strings.Repeat(lines, 8) // beyond the parts read ahead
		}
		st, _, errOut := TestStreams(in)
		full := &fullWriter{}
		st.Out = full
		reader := &countingReader{r: st.In}
		st.In = reader
		code := run(context.Background(), args, st)
		if code != exitWrite || errOut.String() != "urlkit: writing standard output: no space left on device\n" {
			t.Errorf("%v: exit %d: %q", args, code, errOut.String())
		}
		if reader.n > len(in)/2 {
			t.Errorf("%v: read %d of %d bytes after the first write failed (%d writes)", args, reader.n, len(in), full.writes)
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
