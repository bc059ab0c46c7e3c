package extract

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/urlkit/urlkit"
)

// wrapped examines the '<' at the buffer position t: a "<URL:...>" or
// "<scheme:...>" wrapper (RFC 1738 appendix, draft-ietf-uri-url-03
// "Wrappers for URIs in plain text").
func (s *Scanner) wrapped(t int) bool {
	s.pos = t + 1
	buf := s.buf[:s.end]
	limit := min(len(buf), t+s.max) // the '>' comes before limit
	j := t + 1
	for j < limit && is(buf[j], space) {
		j++
	}
	prefixAt := j
	explicit := hasPrefixFold(buf[j:limit], "URL:")
	if explicit {
		j += 4
		for j < limit && is(buf[j], space) {
			j++
		}
	}
	urlAt := j
	if !explicit && !looksLikeURL(buf[j:limit]) {
		return false // "<timbl@info.cern.ch>", "<p>", "a < b"
	}
	// The wrapper ends at the first '>'; a '<' or a blank line before it,
	// or no '>' within the limit, leaves it open. Each search stops at
	// the next '<', so that text full of "<http:" costs linear time.
	scope := buf[t+1 : limit]
	lt := bytes.IndexByte(scope, '<')
	if lt >= 0 {
		scope = scope[:lt]
	}
	gt := bytes.IndexByte(scope, '>')
	if gt >= 0 {
		scope = scope[:gt]
	}
	why := ""
	switch {
	case blankLine(scope) >= 0:
		why = "blank line before the closing '>'"
	case gt >= 0:
	case lt >= 0:
		why = "'<' before the closing '>'"
	case s.eof && len(buf) < t+s.max:
		why = "no '>' before the end of the input"
	default:
		why = "no '>' within " + strconv.Itoa(s.max) + " bytes"
	}
	if why != "" {
		// The text may still hold a URL: the search resumes after '<', so
		// the bare scan finds it (up to the first whitespace).
		s.problem(t, t, limit, true, fmt.Errorf("%w: %s", ErrUnclosed, why))
		return false
	}
	end := t + 1 + gt + 1
	span := buf[t:end]
	text := string(span)
	u, ws, err := confirm(text, urlAt-t)
	// The parser removes the wrapper, the prefix and every whitespace
	// character inside; its notes on the first two are not repairs.
	drop := func(w urlkit.Warning) bool {
		return w.Offset == 0 || explicit && w.Offset == prefixAt-t
	}
	hy := hyphenBreaks(span, urlAt-t)
	var alt urlkit.URL
	var altWs []urlkit.Warning
	altErr := err
	if len(hy) > 0 {
		alt, altWs, altErr = confirm(without(span, hy), urlAt-t)
	}
	// Like a bare URL, a wrapped one needs more than "scheme:" and slashes.
	if err == nil && !hasBody([]byte(u.SchemeSpecificPart())) {
		err = errNoBody
	}
	if altErr == nil && !hasBody([]byte(alt.SchemeSpecificPart())) {
		altErr = errNoBody
	}
	switch {
	case err == errNoBody && altErr != nil:
		s.consume(end) // "<http://>": nothing to report
		return false
	case err == nil:
		s.emit(u, t, urlAt, end)
		s.item.Repairs = s.repairs(ws, t, nil, drop)
		if len(hy) > 0 && altErr == nil {
			if a := alt.String(); a != s.item.URL {
				s.item.Alternative = a
			}
		}
	case altErr == nil:
		// Only the reading without the hyphens parses.
		s.emit(alt, t, urlAt, end)
		s.item.Repairs = s.repairs(altWs, t, func(o int) int { return unshift(o, hy) }, drop)
	default:
		s.parseFailed(t, end, true, err)
		s.consume(end)
		return false
	}
	s.item.Wrapped, s.item.Prefixed = true, explicit
	s.consume(end)
	return true
}

// errNoBody marks a wrapped URL that is only "scheme:" and slashes.
var errNoBody = errors.New("no scheme-specific part")

// looksLikeURL reports whether the text after "<" starts, whitespace
// removed, with a scheme that qualifies as in running text (a known
// scheme, or "name://host").
func looksLikeURL(b []byte) bool {
	// Fast path: a scheme name and ':' with no whitespace up to three
	// bytes after it. "<timbl@info.cern.ch>" ends here at '@'.
	if len(b) == 0 || !is(b[0], letter) {
		return false
	}
	k := 1
	for k < len(b) && k < lookback && is(b[k], scheme) {
		k++
	}
	if k < len(b) && b[k] != ':' && !is(b[k], space) {
		return false
	}
	if k+4 <= len(b) && b[k] == ':' && !is(b[k+1], space) && !is(b[k+2], space) && !is(b[k+3], space) {
		return qualifies(b[:k], b[k+1:])
	}
	// Whitespace inside the scheme or just after it ("<ftp:\n //host/>"):
	// read the scheme and three bytes after it with the whitespace
	// removed, stopping at the first byte that cannot be in a scheme.
	var head [lookback + 4]byte
	n, colon := 0, -1
scan:
	for _, c := range b {
		switch {
		case is(c, space):
			continue
		case c == '>' || c == '<':
			break scan
		case colon < 0 && c == ':':
			colon = n
			continue
		case colon < 0 && (n == lookback || !is(c, scheme)):
			break scan
		}
		head[n] = c
		n++
		if colon >= 0 && n == colon+3 {
			break
		}
	}
	if colon <= 0 || !is(head[0], letter) {
		return false
	}
	return qualifies(head[:colon], head[colon:n])
}

// blankLine returns the position in b of the first line break followed by
// only whitespace and another line break, or -1: a wrapper does not span
// paragraphs.
func blankLine(b []byte) int {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '\n')
		if k < 0 {
			return -1
		}
		j := i + k + 1
		for j < len(b) && b[j] != '\n' && is(b[j], space) {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			return i + k
		}
		i = i + k + 1
	}
}

// hyphenBreaks returns the positions, from from on, of the hyphens that
// end a line inside the wrapper span: "-" followed by optional blanks and
// a line break (RFC 1738 appendix).
func hyphenBreaks(span []byte, from int) []int {
	var hy []int
	for i := from; i < len(span); {
		k := bytes.IndexByte(span[i:], '\n')
		if k < 0 {
			break
		}
		nl := i + k
		j := nl - 1
		for j >= from && span[j] != '\n' && is(span[j], space) {
			j--
		}
		if j >= from && span[j] == '-' && (len(hy) == 0 || hy[len(hy)-1] != j) {
			hy = append(hy, j)
		}
		i = nl + 1
	}
	return hy
}

// without returns span without the bytes at the positions hy (ascending).
func without(span []byte, hy []int) string {
	b := make([]byte, 0, len(span)-len(hy))
	last := 0
	for _, h := range hy {
		b = append(b, span[last:h]...)
		last = h + 1
	}
	return string(append(b, span[last:]...))
}

// unshift maps an offset in without(span, hy) back to span.
func unshift(o int, hy []int) int {
	for _, h := range hy {
		if o < h {
			break
		}
		o++
	}
	return o
}
