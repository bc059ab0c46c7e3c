package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                         "plain text",
		"héllo wörld ✓":                      "héllo wörld ✓",
		"\x1b[31mred\x1b[0m":                 `\x1b[31mred\x1b[0m`,
		"\x1b]0;pwned\x07":                   `\x1b]0;pwned\x07`, // OSC set title
		"\x1b]52;c;Zm9v\x1b\\":               `\x1b]52;c;Zm9v\x1b\`,
		"550 no\nurlkit: \"ftp://fake\": ok": `550 no\nurlkit: "ftp://fake": ok`,
		"a\rb\tc\x00d\x7f":                   `a\rb\tc\x00d\x7f`,
		"\u009b31m":                          `\u009b31m`, // C1 CSI
		"abc\u202edcba":                      `abc\u202edcba`,
		"bad \xff\xfe utf8":                  `bad \xff\xfe utf8`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVisibleText(t *testing.T) {
	in := "line 1\r\nline\t2\n\x1b[2Jcleared\rover"
	want := "line 1\r\nline\t2\n\\x1b[2Jcleared\\rover"
	if got := VisibleText(in); got != want {
		t.Errorf("VisibleText = %q, want %q", got, want)
	}
}

// FuzzVisible: the result never holds a byte a terminal acts on, and
// clean text is returned unchanged.
func FuzzVisible(f *testing.F) {
	f.Add("\x1b]0;x\x07\n\u009b\xff")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Visible(s), VisibleText(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q", s)
			}
			for _, r := range out {
				if r == '\n' || r == '\t' || r == '\r' {
					continue
				}
				if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Fatalf("%q kept %U", s, r)
				}
			}
		}
		if out := Visible(s); strings.ContainsAny(out, "\r\n") {
			t.Fatalf("Visible(%q) kept a line break", s)
		}
		if firstUnsafe(s, false) < 0 && Visible(s) != s {
			t.Fatalf("clean %q changed", s)
		}
	})
}

func TestRedactor(t *testing.T) {
	var r Redactor
	if got := r.Redact("nothing to hide"); got != "nothing to hide" {
		t.Errorf("zero Redactor changed text: %q", got)
	}
	r.Add("S3cr3tPW", "pw")
	for in, want := range map[string]string{
		"PASS S3cr3tPW":                      "PASS xxxxx",
		"530 Login incorrect for pw.":        "530 Login incorrect for xxxxx.",
		"password pwd upw pw":                "password pwd upw xxxxx",
		"pw":                                 "xxxxx",
		"a S3cr3tPWS3cr3tPW b":               "a xxxxxxxxxx b",
		"ftp://u:S3cr3tPW@h/ and pw@h, (pw)": "ftp://u:xxxxx@h/ and xxxxx@h, (xxxxx)",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var nilR *Redactor
	if nilR.Redact("x") != "x" {
		t.Error("nil Redactor changed text")
	}
}

func TestURLPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:S3cr3tPW@h/x":                       "S3cr3tPW",
		"gopher=ftp://gwuser:p@ss@proxy:3128/":       "p@ss",
		"--gateway=ftp=http://gw:S3@cr@t@h":          "S3@cr@t",
		"ftp://u:p%40ss@h/":                          "p%40ss|p@ss",
		"see http://a:one@h/ and ftp://b:two@h2/x y": "one|two",
		"http://h/a@b":                               "",
		"ftp://user@h/":                              "",
		"http://h:8080/x@y":                          "",
	} {
		if got := strings.Join(URLPasswords(in), "|"); got != want {
			t.Errorf("URLPasswords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	var r Redactor
	var b strings.Builder
	w := r.Writer(&b)
	r.Add("S3cr3tPW") // added after the writer was made: still hidden
	w.Write([]byte("> S3cr3tPW\n"))
	if b.String() != "> xxxxx\n" {
		t.Errorf("got %q", b.String())
	}
}
