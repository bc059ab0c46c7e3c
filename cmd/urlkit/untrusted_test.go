package main

import (
	"strings"
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
