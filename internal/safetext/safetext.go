// Package safetext makes text safe to show: bytes that came from a
// network or from a URL are escaped so that no control sequence reaches a
// terminal (Visible), and known secrets are replaced wherever they appear
// (Redactor). Every message, trace line and rendered text that urlkit
// prints goes through these two, and only these two.
package safetext

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Visible returns s with every byte that could act on a terminal shown
// escaped in Go's notation: C0 controls and DEL (\n, \r, \t, \x1b, ...),
// C1 controls (U+0080 to U+009F, which some terminals read as CSI or
// OSC), the bidirectional overrides and isolates (U+202A-U+202E,
// U+2066-U+2069, which make text display in another order than it is
// stored) and invalid UTF-8 bytes (\xff). A backslash is not escaped: the
// result is for people, not for parsing. Printable text, non-ASCII
// letters included, is kept; s itself is returned when nothing needs
// escaping.
func Visible(s string) string { return visible(s, false) }

// VisibleText is Visible for multi-line text: it keeps LF and TAB (and a
// CR right before LF) as they are and escapes the rest the same way.
func VisibleText(s string) string { return visible(s, true) }

func visible(s string, multiline bool) string {
	i := firstUnsafe(s, multiline)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unsafe(s, i, r, n, multiline) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		writeEscape(&b, s, i, r, n)
		i += n
	}
	return b.String()
}

// firstUnsafe returns the offset of the first byte to escape, or -1.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(s, i, r, n, multiline) {
			return i
		}
		i += n
	}
	return -1
}

func unsafe(s string, i int, r rune, n int, multiline bool) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true // invalid UTF-8
	case multiline && (r == '\n' || r == '\t'):
		return false
	case multiline && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// EscapeBytes returns s with every byte outside printable ASCII
// Go-escaped, byte by byte (\xNN, never \uNNNN for a UTF-8 sequence), and
// "\\" and "\"" escaped, as strconv.Quote escapes ASCII: the form of a
// protocol trace's line (internal/wire), which shows every byte of a
// binary protocol as it was sent.
func EscapeBytes(s string) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '"':
			b = append(b, '\\', c)
		case c >= 0x20 && c < 0x7f:
			b = append(b, c)
		default:
			if j := strings.IndexByte("\a\b\f\n\r\t\v", c); j >= 0 {
				b = append(b, '\\', "abfnrtv"[j])
			} else {
				b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			}
		}
	}
	return string(b)
}

func writeEscape(b *strings.Builder, s string, i int, r rune, n int) {
	const hex = "0123456789abcdef"
	switch {
	case r == utf8.RuneError && n == 1:
		c := s[i]
		b.WriteString(`\x`)
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case r < 0x80:
		b.WriteString(`\x`)
		b.WriteByte(hex[r>>4])
		b.WriteByte(hex[r&15])
	default:
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&15])
		}
	}
}

// Mask is what a Redactor puts in place of a secret, the same mark the
// URL package uses for a redacted password.
const Mask = "xxxxx"

// A Redactor replaces known secrets in text. Secrets of 4 bytes or more
// are replaced wherever they occur; shorter ones only where they stand
// as a word of their own (not next to a letter or digit), so that a
// two-letter password echoed in a server's reply is hidden without every
// "a" of a message becoming xxxxx. The zero Redactor hides nothing; a
// Redactor may be used concurrently.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string
	have    map[string]struct{} // the secrets, to add each once
}

// Add makes r hide each non-empty secret from now on.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	add := func(s string) {
		if s == "" || s == Mask {
			return
		}
		if _, ok := r.have[s]; ok {
			return
		}
		if r.have == nil {
			r.have = map[string]struct{}{}
		}
		// A copy: s may be part of a buffer its caller reuses (the
		// batches of the streaming commands).
		s = strings.Clone(s)
		r.have[s] = struct{}{}
		r.secrets = append(r.secrets, s)
	}
	for _, s := range secrets {
		add(s)
		if escapedDiffers(s) {
			// The text to redact may have been escaped first, as a
			// trace's line or a server's reply in a message is: a secret
			// with a control, a non-ASCII or a quoting byte is hidden in
			// those forms too.
			add(Visible(s))
			add(EscapeBytes(s))
		}
	}
	// Longest first, so that a secret containing another is hidden whole.
	for i := 1; i < len(r.secrets); i++ {
		for j := i; j > 0 && len(r.secrets[j]) > len(r.secrets[j-1]); j-- {
			r.secrets[j], r.secrets[j-1] = r.secrets[j-1], r.secrets[j]
		}
	}
}

// escapedDiffers reports whether Visible or EscapeBytes would change s:
// whether it holds a byte outside printable ASCII, '"' or '\\'.
func escapedDiffers(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// AddURLPasswords adds the passwords of the URLs written in s (see
// URLPasswords).
func (r *Redactor) AddURLPasswords(s string) {
	// A password needs an "@": most lines have none, and this test is
	// most of their cost.
	if strings.IndexByte(s, '@') < 0 {
		return
	}
	r.Add(URLPasswords(s)...)
}

// Redact returns s with every secret replaced by Mask.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, sec := range r.secrets {
		s = replaceSecret(s, sec)
	}
	return s
}

func replaceSecret(s, sec string) string {
	if len(sec) >= 4 {
		return strings.ReplaceAll(s, sec, Mask)
	}
	var b strings.Builder
	rest := s
	changed := false
	for {
		i := strings.Index(rest, sec)
		if i < 0 {
			break
		}
		end := i + len(sec)
		if (i == 0 || !isWordByte(rest[i-1])) && (end == len(rest) || !isWordByte(rest[end])) {
			b.WriteString(rest[:i])
			b.WriteString(Mask)
			changed = true
		} else {
			b.WriteString(rest[:end])
		}
		rest = rest[end:]
	}
	if !changed {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Writer returns a writer that redacts each Write's text before passing
// it to w. Each Write is redacted on its own: writers of messages and
// traces write whole lines.
func (r *Redactor) Writer(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return &redactWriter{w: w, r: r}
}

// StreamWriter returns a writer that redacts text arriving in pieces (a
// session's output, read as the network delivers it): the end of each
// write that could begin a secret is held back until the next write
// shows whether it does, or until Flush.
func (r *Redactor) StreamWriter(w io.Writer) *RedactStream {
	return &RedactStream{w: w, r: r}
}

// RedactStream is the writer StreamWriter returns.
type RedactStream struct {
	w    io.Writer
	r    *Redactor
	hold string
}

// Write writes p with the secrets replaced, except for the bytes it
// holds back.
func (s *RedactStream) Write(p []byte) (int, error) {
	text := s.r.Redact(s.hold + string(p))
	keep := s.r.pendingPrefix(text)
	s.hold = text[len(text)-keep:]
	if _, err := io.WriteString(s.w, text[:len(text)-keep]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what was held back: the stream ended there.
func (s *RedactStream) Flush() error {
	if s.hold == "" {
		return nil
	}
	_, err := io.WriteString(s.w, s.hold)
	s.hold = ""
	return err
}

// pendingPrefix returns the length of the longest end of text that is
// the start of a secret, not the whole of it.
func (r *Redactor) pendingPrefix(text string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	longest := 0
	for _, sec := range r.secrets {
		for k := min(len(sec)-1, len(text)); k > longest; k-- {
			if strings.HasSuffix(text, sec[:k]) {
				longest = k
				break
			}
		}
	}
	return longest
}

type redactWriter struct {
	w io.Writer
	r *Redactor
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	s := rw.r.Redact(string(p))
	if _, err := io.WriteString(rw.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// URLPasswords returns the passwords of the URLs written anywhere in s,
// as written and percent-decoded (and, for one with a raw "/", "?" or
// "#", its part before that), found as PasswordSpan finds them, so that
// an invalid URL is covered too: after each "://" of each word of s (a
// word may be KEY=URL), or in a word without one, at its start; and in
// all of s read as one URL, when it has white space.
func URLPasswords(s string) []string {
	var out []string
	var w string // the word being read
	add := func(lo, hi int) {
		if lo < 0 || lo == hi || slices.Contains(out, w[lo:hi]) {
			return
		}
		pass := w[lo:hi]
		out = append(out, pass)
		if d, ok := unescape(pass); ok && d != pass {
			out = append(out, d)
		}
		// A raw "/", "?" or "#" ends the authority for a parser, which
		// may then quote what came before as a port or a host.
		if k := strings.IndexAny(pass, "/?#"); k > 0 {
			out = append(out, pass[:k])
		}
	}
	if strings.ContainsAny(s, " \t\r\n") {
		// s may be one URL with a raw space in its password, which the
		// words below would cut in two: PasswordSpan reads it whole.
		w = s
		add(PasswordSpan(s))
	}
	for len(s) > 0 {
		n := strings.IndexAny(s, " \t\r\n")
		if n < 0 {
			n = len(s)
		}
		w = s[:n]
		s = s[min(n+1, len(s)):]
		if strings.IndexByte(w, '@') < 0 {
			continue
		}
		if !strings.Contains(w, "://") {
			add(PasswordSpan(w)) // "//..." or a slip for "://"
		}
		for i := 0; ; { // each URL of the word (a gateway's, an archive's)
			j := strings.Index(w[i:], "://")
			if j < 0 {
				break
			}
			i += j + 3
			add(passwordAfter(w, i))
		}
	}
	return out
}

// RedactURL returns s, the text of a URL valid or not, with its password
// (PasswordSpan) replaced by Mask.
func RedactURL(s string) string {
	r, _, _ := RedactURLSpan(s)
	return r
}

// RedactURLSpan is RedactURL that also returns the span of the password
// it hid (PasswordSpan), for a caller that must know where it was.
func RedactURLSpan(s string) (redacted string, lo, hi int) {
	lo, hi = PasswordSpan(s)
	if lo < 0 {
		return s, lo, hi
	}
	return s[:lo] + Mask + s[hi:], lo, hi
}

// PasswordSpan returns the byte range of the password in s, the text of
// a URL, valid or not, or -1, -1. It errs on the side of hiding. The
// userinfo starts after the first "://" (and any more slashes), after
// "scheme:" and slashes or backslashes (a slip for "://"), or after a
// leading "//". It runs to the last "@" of the authority, and the
// password from the userinfo's first ":" (a password may hold a raw
// "@"). Where the authority, cut at "/", "\\", "?" or "#", has no "@", a
// password written with a raw "/", "?" or "#" (invalid, so it is in an
// error message) is still found, up to the last "@" of s, white space
// included (a password written with a raw space is invalid too), unless
// the ":" is in a path or starts a port ("h:8080/a@b").
func PasswordSpan(s string) (lo, hi int) {
	if strings.IndexByte(s, '@') < 0 {
		return -1, -1 // no userinfo anywhere (the common case of an error): one search
	}
	switch i := strings.Index(s, "://"); {
	case i >= 0:
		return passwordAfter(s, i+3)
	case strings.HasPrefix(s, "//"):
		return passwordAfter(s, 2)
	}
	if at := slipStart(s); at > 0 {
		return passwordAfter(s, at)
	}
	return -1, -1
}

// slipStart returns where the authority of "scheme:/..." or
// "scheme:\\..." starts, or -1.
func slipStart(s string) int {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || colon+1 >= len(s) || s[colon+1] != '/' && s[colon+1] != '\\' || strings.HasPrefix(s[colon+1:], "//") {
		return -1 // not a slip; "://" is read as itself
	}
	for i := 0; i < colon; i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
			return -1
		}
	}
	return colon + 1
}

// passwordAfter is PasswordSpan for the authority that starts at start,
// after any slashes or backslashes there.
func passwordAfter(s string, start int) (lo, hi int) {
	for start < len(s) && (s[start] == '/' || s[start] == '\\') {
		start++
	}
	end := len(s)
	if j := strings.IndexAny(s[start:], "/\\?# \t\r\n"); j >= 0 {
		end = start + j
	}
	if lo, hi := userinfoPassword(s, start, end); lo >= 0 {
		// The parser reads white space and "\\" in the authority as
		// invalid bytes of it, not its end: its password runs to the
		// last "@" before "/", "?" or "#", and so does the hidden one.
		if k := strings.IndexAny(s[end:], "/?#"); k != 0 {
			whole := len(s)
			if k > 0 {
				whole = end + k
			}
			if _, h := userinfoPassword(s, start, whole); h > hi {
				hi = h
			}
		}
		return lo, hi
	}
	// White space too is part of the attempt: "ftp://u:my pass@h/" is one
	// URL, quoted whole in its error message.
	lo, hi = userinfoPassword(s, start, len(s))
	if lo < 0 || strings.ContainsAny(s[start:lo], "/\\?#") {
		return -1, -1 // the ":" is in a path
	}
	if k := strings.IndexAny(s[lo:hi], "/\\?#"); k > 0 && strings.Trim(s[lo:lo+k], "0123456789") == "" {
		return -1, -1 // a port, then a path
	}
	return lo, hi
}

// userinfoPassword finds "user:password@" in s[start:end]: the password
// runs from the first ":" to the last "@".
func userinfoPassword(s string, start, end int) (int, int) {
	at := strings.LastIndexByte(s[start:end], '@')
	if at < 0 {
		return -1, -1
	}
	at += start
	colon := strings.IndexByte(s[start:at], ':')
	if colon < 0 {
		return -1, -1
	}
	return start + colon + 1, at
}

// unescape decodes %XX escapes; ok is false for a malformed one.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
			return "", false
		}
		b = append(b, byte(unhex(s[i+1])<<4|unhex(s[i+2])))
		i += 2
	}
	return string(b), true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// RuneStart returns i, or the start of the UTF-8 sequence byte i of s
// falls inside, so that s can be cut there between characters.
func RuneStart(s string, i int) int {
	for k := 0; k < utf8.UTFMax && i > 0 && i < len(s) && !utf8.RuneStart(s[i]); k++ {
		i--
	}
	return i
}

// Clip shortens s, when it is longer than 2*n bytes, to its first and
// last n bytes (cut between characters) around a count of the bytes left
// out: a line of a server's quoted in a message.
func Clip(s string, n int) string {
	if len(s) <= 2*n {
		return s
	}
	head, tail := RuneStart(s, n), RuneStart(s, len(s)-n)
	return s[:head] + "...(" + strconv.Itoa(tail-head) + " bytes)..." + s[tail:]
}
