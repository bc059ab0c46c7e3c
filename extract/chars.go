package extract

import cc "github.com/urlkit/urlkit/internal/charclass"

// Byte classes of the scanner. They are text-level classes (where a URL
// ends in running text), not grammar classes, so they live here rather
// than in internal/charclass; they are derived from charclass's generated
// table once, at start-up.
const (
	// delim ends a bare URL: space and the other ASCII whitespace and
	// control characters, and the characters that delimit URLs in text
	// (RFC 1738 2.2: "<" and ">" delimit URLs in free text, '"' in other
	// systems), plus the backquote that plain-text quoting pairs with "'".
	delim uint8 = 1 << iota
	// scheme is a scheme character (RFC 1738 2.1: letters, digits, "+",
	// ".", "-").
	scheme
	// schemeSep separates the words of a compound scheme-character run
	// ("e.g.http"): ".", "+" and "-".
	schemeSep
	// letter is an ASCII letter.
	letter
	// alnum is an ASCII letter or digit.
	alnum
	// bodyStart may follow "scheme:" at the start of a bare URL's scheme
	// specific part: letters, digits, "/", "%", "[" and every byte from
	// 0x80 up (raw non-ASCII text that the lenient parser encodes).
	bodyStart
	// space is ASCII whitespace: the whitespace a wrapper ignores.
	space
	// bareSpecial marks the bytes that scanBare and trimEnd must look
	// at: delim, the brackets "()[]{}", "'" and every byte from 0x80 up.
	// The others, most of a URL, are skipped in a tight loop.
	bareSpecial
)

var class = func() (t [256]uint8) {
	for i := range t {
		b := byte(i)
		var c uint8
		if b < 0x80 && cc.Is(b, cc.Control) || b == ' ' || b == '"' || b == '<' || b == '>' || b == '`' {
			c |= delim
		}
		if cc.Is(b, cc.SchemeChar) {
			c |= scheme
		}
		if b == '.' || b == '+' || b == '-' {
			c |= schemeSep
		}
		if cc.Is(b, cc.Alpha) {
			c |= letter
		}
		if cc.Is(b, cc.Alpha|cc.Digit) {
			c |= alnum
		}
		// "*": news:* (RFC 1738 3.6); a known scheme still has to qualify.
		if cc.Is(b, cc.Alpha|cc.Digit) || b == '/' || b == '%' || b == '[' || b == '*' || b >= 0x80 {
			c |= bodyStart
		}
		if b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v' {
			c |= space
		}
		if c&delim != 0 || b == '(' || b == ')' || b == '[' || b == ']' || b == '{' || b == '}' || b == '\'' || b >= 0x80 {
			c |= bareSpecial
		}
		t[i] = c
	}
	return t
}()

func is(b byte, c uint8) bool { return class[b]&c != 0 }

// beforeColon holds the bytes that may come between a wrapper's '<' and
// its first ':': whitespace (Unicode spaces are bytes from 0x80 up), the
// quotation marks of a quoted message ('>'), and scheme characters.
// 1 for those, 0 for the others: four bytes are tested at once.
var beforeColon = func() (t [256]uint8) {
	for i := range t {
		if b := byte(i); is(b, space|scheme) || b == '>' || b >= 0x80 {
			t[i] = 1
		}
	}
	return t
}()
