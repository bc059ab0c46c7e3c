package extract

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/urlkit/urlkit/internal/registry"
)

// bare examines the ':' at the buffer position t: the end of a scheme
// name in running text, or of a "URL:" prefix.
func (s *Scanner) bare(t int) bool {
	s.pos = t + 1
	buf := s.buf[:s.end]
	if t+1 >= len(buf) || !is(buf[t+1], bodyStart) {
		return false // "Note: ...", "12: ...": the common case, decided here
	}
	// Look back over the scheme characters, no further than lookback bytes
	// and never into the previous candidate.
	lim := max(t-lookback, int(s.mark-s.base), 0)
	i := t
	for i > lim && is(buf[i-1], scheme) {
		i--
	}
	if i == t {
		return false
	}
	// A run as long as the look back may start earlier: its start is
	// unknown, so only a scheme after a separator inside it can count.
	cut := i == t-lookback && s.abs(i) > s.mark && is(buf[i-1], scheme)
	after := buf[t+1:]
	k, inner := chooseScheme(buf[i:t], cut, after)
	if k < 0 {
		return false
	}
	matchAt := i + k // the match, "URL:" prefix included
	urlAt, colon := matchAt, t
	if inner > 0 { // "URL:scheme:...": the URL starts after the prefix
		urlAt, colon = t+1, t+1+inner
	}
	quoted := s.abs(matchAt) > s.cfg.Offset && buf[matchAt-1] == '\''
	e, long := s.scanBare(urlAt, quoted)
	if long {
		s.problem(urlAt, matchAt, min(e, len(buf)), false, fmt.Errorf("%w: no delimiter within %d bytes", ErrTooLong, s.max))
		s.pos = e
		s.skip = true
		return false
	}
	// An unrepaired URL (most) is its own canonical form. Until Item is
	// called (copies), it is parsed where it lies in the buffer and lent
	// (Scanner.lent): a caller that only writes URLs out (AppendURL)
	// then costs no string. A repaired or rejected one is parsed again
	// from a copy, so that what outlives the buffer (the repaired URL,
	// the error) holds none of it. With copies, one string: the sentence
	// punctuation trimmed off its end stays unused behind it. Copying
	// each URL, even into blocks shared by many, made extract 31% slower
	// (DESIGN.md, "The two zero-copy views left").
	text := unsafe.String(&buf[urlAt], e-urlAt)
	if s.copies {
		text = string(buf[urlAt:e])
	}
	n := keep(text, buf[urlAt:e], colon-urlAt)
	if n == 0 {
		return false // "http://", "mailto:..."
	}
	text, e = text[:n], urlAt+n
	u, ws, err := confirm(text, 0)
	if (err != nil || len(ws) > 0) && !s.copies {
		u, ws, err = confirm(strings.Clone(text), 0)
	}
	if err != nil {
		s.parseFailed(urlAt, e, false, err)
		s.consume(e)
		return false
	}
	if len(ws) == 0 {
		// Nothing repaired: the parser's round trip gives text back.
		s.emitString(&u, text, matchAt, urlAt, e)
		if !s.copies {
			s.lent = lentURL | lentParsed
		}
	} else {
		s.emit(&u, matchAt, urlAt, e)
	}
	s.item.Prefixed = inner > 0
	s.item.Repairs = s.repairs(ws, urlAt, nil)
	s.consume(e)
	return true
}

// keep returns how much of the bare URL u (text is u as a string) is the
// URL, or 0 when no URL is left ("http://", "mailto:..."): without the
// sentence punctuation at its end (trimEnd), unless the scheme gives it a
// meaning (news:*, a Gopher+ string: registry.TrimFloor), and with a
// body after the scheme's ':' at colon.
func keep(text string, u []byte, colon int) int {
	if len(u) <= colon+1 {
		return 0
	}
	n := trimEnd(u)
	if n == len(u) && hasBody(u[colon+1:]) {
		return n // most URLs: they end in a letter, a digit or "/"
	}
	floor := registry.TrimFloor(text)
	n = max(n, floor)
	if n <= colon+1 || !hasBody(u[colon+1:n]) && floor < n {
		return 0
	}
	return n
}

// chooseScheme picks the scheme in run, the scheme characters before a
// ':' that after follows. It tries the whole run, then each part after a
// ".", "+" or "-" (so "e.g.http://h" gives "http://h", while "svn+ssh://h"
// stays whole), and returns the offset of the scheme in run, or -1. A
// "URL" part followed by "scheme:" is the "URL:" prefix; then inner is the
// length of that scheme.
func chooseScheme(run []byte, cut bool, after []byte) (k, inner int) {
	for k := 0; k < len(run); k++ {
		if k == 0 && cut || k > 0 && !is(run[k-1], schemeSep) || !is(run[k], letter) {
			continue
		}
		w := run[k:]
		if len(w) == 3 && hasPrefixFold(w, "URL") {
			if n := prefixed(after); n > 0 {
				return k, n
			}
			continue
		}
		if qualifies(w, after) {
			return k, 0
		}
	}
	return -1, 0
}

// qualifies reports whether the scheme name w followed by ':' and after
// starts a URL in running text: a known scheme (with "//" when it uses
// the common Internet scheme syntax), or any other scheme name without a
// "." followed by "//" and an authority ("cvs://:pserver:anoncvs@host:/").
func qualifies(w, after []byte) bool {
	if len(after) == 0 || !is(after[0], bodyStart) {
		return false
	}
	known, ip := lookupScheme(w)
	if known {
		return !ip || len(after) >= 2 && after[0] == '/' && after[1] == '/'
	}
	if len(w) < 2 || bytes.IndexByte(w, '.') >= 0 {
		return false
	}
	return len(after) >= 3 && after[0] == '/' && after[1] == '/' &&
		(is(after[2], bodyStart) && after[2] != '/' || after[2] == ':' || after[2] == '@')
}

// prefixed returns the length of the scheme that starts after, followed
// by ':' and the start of a scheme-specific part, or 0. After the "URL:"
// prefix every scheme name counts: the prefix says that a URL follows.
func prefixed(after []byte) int {
	if len(after) == 0 || !is(after[0], letter) {
		return 0
	}
	j := 1
	for j < len(after) && j < lookback && is(after[j], scheme) {
		j++
	}
	if j+1 < len(after) && after[j] == ':' && is(after[j+1], bodyStart) {
		return j
	}
	return 0
}

// scanBare finds the end of the bare URL that starts at the buffer
// position from: the first delimiter (whitespace, control characters,
// '"', '<', '>', '`', and "'" when the URL follows one), a ')', ']' or
// '}' that closes nothing opened in the URL, or a non-ASCII character
// that is not a letter, mark or digit (spaces, punctuation such as
// quotation marks, symbols). Bytes that are not UTF-8 belong to
// the URL: the lenient parser encodes them. long reports that no
// delimiter came within MaxLength bytes.
func (s *Scanner) scanBare(from int, quoted bool) (end int, long bool) {
	buf := s.buf[:s.end]
	limit := from + s.max // the last position a delimiter may be at
	stop := min(limit+1, len(buf))
	j := from
	var paren, bracket, brace int // open in the URL
	for j < stop {
		j = skipOrdinary(buf[:stop], j)
		if j == stop {
			break
		}
		c := buf[j]
		if c < utf8.RuneSelf {
			if class[c]&delim != 0 || c == '\'' && quoted {
				return j, false
			}
			switch c {
			case '(':
				paren++
			case '[':
				bracket++
			case '{':
				brace++
			case ')', ']', '}':
				// A closer that closes nothing opened in the URL ends
				// it: "(see http://h/a)", "[![b](http://h/b.svg)](...)".
				n := &paren
				if c == ']' {
					n = &bracket
				} else if c == '}' {
					n = &brace
				}
				if *n == 0 {
					return j, false
				}
				*n--
			}
			j++
			continue
		}
		r, n := utf8.DecodeRune(buf[j:])
		if n > 1 && !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r) {
			return j, false
		}
		j += n
	}
	if j > limit {
		return j, true
	}
	return len(buf), false
}

// skipOrdinary returns the position of the first byte in b from i on that
// scanBare must look at (bareSpecial), or len(b). Most of a URL is
// ordinary bytes: eight are tested at a time.
func skipOrdinary(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := b[i : i+8 : i+8]
		if (class[w[0]]|class[w[1]]|class[w[2]]|class[w[3]]|class[w[4]]|class[w[5]]|class[w[6]]|class[w[7]])&bareSpecial != 0 {
			break
		}
	}
	for i < len(b) && class[b[i]]&bareSpecial == 0 {
		i++
	}
	return i
}

// skipLong skips the rest of an overlong bare URL. It reports false when
// the buffer ends first.
func (s *Scanner) skipLong() bool {
	buf := s.buf[:s.end]
	stop := len(buf)
	if !s.eof {
		stop -= utf8.UTFMax // a split character must not hide a delimiter
	}
	j := s.pos
	for j < stop {
		c := buf[j]
		if c < utf8.RuneSelf {
			if class[c]&delim != 0 {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRune(buf[j:])
		if n > 1 && !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r) {
			break
		}
		j += n
	}
	if j < stop || s.eof {
		s.skip = false
		s.consume(min(j, len(buf)))
		return true
	}
	s.pos = max(s.pos, stop)
	return false
}

// trimEnd returns the length of u without the sentence punctuation that
// follows a URL in prose: ". , : ; ! ? ' * \\", and ")", "]" or "}" when it
// closes nothing opened inside the URL ("(see http://h/a_(b))" keeps one
// ")").
func trimEnd(u []byte) int {
	// Most URLs end in a letter, a digit or "/": when no closer ends
	// them, the counts below are not needed.
	n := len(u)
	for n > 0 && isSentencePunct(u[n-1]) {
		n--
	}
	if n == 0 || u[n-1] != ')' && u[n-1] != ']' && u[n-1] != '}' {
		return n
	}
	var paren, bracket, brace int // closers minus openers
	for i := 0; i < len(u); i++ {
		c := u[i]
		if class[c]&bareSpecial == 0 {
			continue
		}
		switch c {
		case '(':
			paren--
		case ')':
			paren++
		case '[':
			bracket--
		case ']':
			bracket++
		case '{':
			brace--
		case '}':
			brace++
		}
	}
	n = len(u)
	for n > 0 {
		switch c := u[n-1]; {
		case isSentencePunct(c):
		case c == ')' && paren > 0:
			paren--
		case c == ']' && bracket > 0:
			bracket--
		case c == '}' && brace > 0:
			brace--
		default:
			return n
		}
		n--
	}
	return n
}

// isSentencePunct reports whether c is punctuation that ends a sentence
// or clause rather than a URL: ". , : ; ! ? ' *", and a backslash, which
// escapes the quote that ends a string in JSON or C (an href in
// JSON-encoded HTML: "<a href=\"http://h/a\">").
func isSentencePunct(c byte) bool {
	return c == '.' || c == ',' || c == ':' || c == ';' || c == '!' || c == '?' || c == '\'' || c == '*' || c == '\\'
}

// hasBody reports whether a scheme-specific part holds a letter, a digit
// or a non-ASCII byte: "http://" and "x-a:/" alone are not URLs.
func hasBody(b []byte) bool {
	for _, c := range b {
		if is(c, alnum) || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}
