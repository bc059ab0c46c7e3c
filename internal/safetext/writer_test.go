package safetext

import (
	"bytes"
	"testing"
)

// FuzzVisibleWriter: the escaping does not depend
// on how the output is cut into writes, and lets no control byte through
// but LF, TAB and a CR before LF.
func FuzzVisibleWriter(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\x1b[2J", "caf\xc3\xa9", "\xc3", "x\r", "\r\r\n", "\xe2\x80\xae", "\xff\xfe"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var whole, parts bytes.Buffer
		w := NewVisibleWriter(&whole)
		w.Write([]byte(s))
		w.Flush()
		if cut < 0 {
			cut = -cut
		}
		if len(s) > 0 {
			cut %= len(s) + 1
		} else {
			cut = 0
		}
		p := NewVisibleWriter(&parts)
		p.Write([]byte(s[:cut]))
		p.Write([]byte(s[cut:]))
		p.Flush()
		if whole.String() != parts.String() {
			t.Fatalf("%q cut at %d: %q, whole %q", s, cut, parts.String(), whole.String())
		}
		out := whole.String()
		for i := 0; i < len(out); i++ {
			c := out[i]
			if c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && i+1 < len(out) && out[i+1] == '\n') || c == 0x7f {
				t.Fatalf("%q: control byte %#x in %q", s, c, out)
			}
		}
	})
}

// FuzzRedactStream: a RedactStream's output does not depend on how the
// text is cut into writes: it is Redact of the whole.
func FuzzRedactStream(f *testing.F) {
	for _, s := range []string{"", "pw S3cr3tPW end", "S3cr3tPWS3cr3tPW", "S3cr", "hunter22 S3cr3tP"} {
		f.Add(s, 4)
	}
	var r Redactor
	r.Add("S3cr3tPW", "hunter22", "S3cr%33tPW")
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(s) + 1
		var b bytes.Buffer
		w := r.StreamWriter(&b)
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Flush()
		if want := r.Redact(s); b.String() != want {
			t.Fatalf("%q cut at %d: %q, want %q", s, cut, b.String(), want)
		}
	})
}
