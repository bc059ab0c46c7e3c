package safetext

import (
	"io"
	"unicode/utf8"
)

// A VisibleWriter shows what is written to it with its control bytes
// escaped (VisibleText: LF and TAB kept, and a CR before an LF), for
// bytes from a network on their way to a terminal. It holds back an
// incomplete UTF-8 sequence or a final CR until the next write shows what
// it is, so the result does not depend on how the bytes are cut into
// writes; Flush writes what is held back.
type VisibleWriter struct {
	w    io.Writer
	hold []byte
}

// NewVisibleWriter returns a VisibleWriter writing to w.
func NewVisibleWriter(w io.Writer) *VisibleWriter { return &VisibleWriter{w: w} }

// Write writes p's visible form to the underlying writer, except for the
// bytes it holds back.
func (v *VisibleWriter) Write(p []byte) (int, error) {
	b := append(v.hold, p...)
	keep := 0
	if n := len(b); n > 0 && b[n-1] == '\r' {
		keep = 1
	} else {
		// an incomplete UTF-8 sequence at the end (at most 3 bytes)
		for i := 1; i <= 3 && i <= n; i++ {
			c := b[n-i]
			if c < 0x80 {
				break
			}
			if utf8.RuneStart(c) {
				if !utf8.FullRune(b[n-i:]) {
					keep = i
				}
				break
			}
		}
	}
	v.hold = append([]byte(nil), b[len(b)-keep:]...)
	if s := b[:len(b)-keep]; len(s) > 0 {
		if _, err := io.WriteString(v.w, VisibleText(string(s))); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what was held back: the stream ended there.
func (v *VisibleWriter) Flush() error {
	if len(v.hold) == 0 {
		return nil
	}
	_, err := io.WriteString(v.w, Visible(string(v.hold)))
	v.hold = nil
	return err
}
