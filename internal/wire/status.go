package wire

// ParseStatus splits the status line of a text protocol (FTP, NNTP,
// SMTP: RFC 959 section 4.2, RFC 3977 section 3.2, RFC 5321 section 4.2):
// three digits, the first 1 to 5, then a space, a hyphen (another line of
// the reply follows) or the end of the line, then the text. A bare "ddd"
// gives sep ' ' and no text. ok is false for any other line; the
// protocols narrow it further (SMTP has no 1yz code, NNTP no hyphen).
func ParseStatus(line string) (code int, sep byte, text string, ok bool) {
	if len(line) < 3 || line[0] < '1' || line[0] > '5' || !isDigit(line[1]) || !isDigit(line[2]) {
		return 0, 0, "", false
	}
	code = int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	if len(line) == 3 {
		return code, ' ', "", true
	}
	switch line[3] {
	case ' ', '-':
		return code, line[3], line[4:], true
	}
	return 0, 0, "", false
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// Sanitize returns s with every control byte (and DEL) replaced by '?',
// or s itself when it holds none, so reply text quoted in an error cannot
// drive a terminal. keepLF keeps LF, which joins the lines of a
// multi-line reply.
func Sanitize(s string, keepLF bool) string {
	unsafe := func(c byte) bool { return (c < 0x20 && (c != '\n' || !keepLF)) || c == 0x7f }
	for i := 0; i < len(s); i++ {
		if unsafe(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if unsafe(b[j]) {
					b[j] = '?'
				}
			}
			return string(b)
		}
	}
	return s
}

// clipLen is how much of a bad line an error quotes.
const clipLen = 80

// Clip shortens s to 80 bytes, marked with "...", and sanitizes it (LF
// too): a bad line quoted in an error message.
func Clip(s string) string {
	if len(s) > clipLen {
		s = s[:clipLen] + "..."
	}
	return Sanitize(s, false)
}
