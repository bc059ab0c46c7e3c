package extract

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/registry"
)

// wrapped examines the '<' at the buffer position t: a "<URL:...>" or
// "<scheme:...>" wrapper (RFC 1738 appendix, draft-ietf-uri-url-03
// "Wrappers for URIs in plain text").
func (s *Scanner) wrapped(t int) bool {
	s.pos = t + 1
	buf := s.buf[:s.end]
	if t+1 < len(buf) {
		// Most '<' of markup ("</p>", "<!--", "<=") are decided here: a
		// wrapper's text starts with "URL:" or a scheme, or whitespace.
		if c := buf[t+1]; c < utf8.RuneSelf && !is(c, letter|space) {
			return false
		}
	}
	limit := min(len(buf), t+s.max) // the '>' comes before limit
	// The quotation depth of the wrapper's line is computed only when it
	// can matter: most '<' start no wrapper ("<timbl@info.cern.ch>").
	depth := -1
	quoted := func() int {
		if depth < 0 {
			lo := max(t-keepBehind, 0)
			depth = quoteDepth(buf[lo:t], s.abs(lo) == s.cfg.Offset)
		}
		return depth
	}
	gap := func(i int) int {
		j := skipGap(buf[:limit], i, 0)
		if bytes.IndexByte(buf[i:j], '\n') >= 0 && quoted() > 0 {
			j = skipGap(buf[:limit], i, depth)
		}
		return j
	}
	j := gap(t + 1)
	prefixAt := j
	explicit := hasPrefixFold(buf[j:limit], "URL:")
	if explicit {
		j = gap(j + 4)
	}
	urlAt := j
	if !explicit && !looksLikeURL(buf[j:limit]) {
		return false // "<timbl@info.cern.ch>", "<p>", "a < b"
	}
	quoted()
	// The wrapper ends at the first '>' that is not a quotation mark; a
	// '<' or a blank line before it, or no '>' within the limit, leaves
	// it open. The search stops at the next '<', so that text full of
	// "<http:" costs linear time.
	scope := buf[t+1 : limit]
	lt := bytes.IndexByte(scope, '<')
	if lt >= 0 {
		scope = scope[:lt]
	}
	gt, _, blank := closeWrapper(scope, depth)
	why := ""
	switch {
	case blank:
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
	clean, quotes, spaces := wrapperText(span, depth)
	cuts := mergeCuts(quotes, spaces)
	from := shift(urlAt-t, cuts) // the URL's first byte in clean
	u, ws, err := confirm(string(clean), from)
	hy := hyphenBreaks(clean, from)
	var alt urlkit.URL
	var altWs []urlkit.Warning
	altErr := err
	if len(hy) > 0 {
		alt, altWs, altErr = confirm(without(clean, hy), from)
	}
	toSpan := func(o int) int { return unshift(o, cuts) }
	altToSpan := func(o int) int { return unshift(unshift(o, hy), cuts) }
	// Like a bare URL, a wrapped one needs more than "scheme:" and slashes.
	if err == nil && !hasBody([]byte(u.SchemeSpecificPart())) && !whole(&u) {
		err = errNoBody
	}
	if altErr == nil && !hasBody([]byte(alt.SchemeSpecificPart())) && !whole(&alt) {
		altErr = errNoBody
	}
	// The parser removes the wrapper and the prefix: not repairs.
	drop := []int{0}
	if explicit {
		drop = append(drop, prefixAt-t)
	}
	switch {
	case err == errNoBody && altErr != nil:
		s.consume(end) // "<http://>": nothing to report
		return false
	case err == nil:
		s.emit(&u, t, urlAt, end)
		s.item.Repairs = s.repairs(ws, t, toSpan, drop...)
		if len(hy) > 0 && altErr == nil {
			if a := alt.String(); a != s.item.URL {
				s.item.Alternative = a
			}
		}
	case altErr == nil:
		// Only the reading without the hyphens parses.
		s.emit(&alt, t, urlAt, end)
		s.item.Repairs = s.repairs(altWs, t, altToSpan, drop...)
	default:
		if ue, ok := err.(*urlkit.Error); ok && len(cuts) > 0 {
			e := *ue
			e.Offset = toSpan(e.Offset)
			err = &e
		}
		s.parseFailed(t, end, true, err)
		s.consume(end)
		return false
	}
	if len(cuts) > 0 {
		s.item.Repairs = s.cutRepairs(span, t, quotes, spaces, s.item.Repairs)
	}
	s.item.Wrapped, s.item.Prefixed = true, explicit
	s.consume(end)
	return true
}

// quoteDepth returns how many '>' quotation marks of a quoted message
// ("> ", "> > ", ">> ") start the line that ends with before, the text
// before a '<'; 0 when the line does not start in before, unless before
// starts the input (whole). A before of keepBehind bytes, all a Scanner
// keeps, counts as not starting the line even then: a Scanner over a
// longer text, of which this one's is a part, cannot see the '\n' just
// before it.
func quoteDepth(before []byte, whole bool) int {
	ls := bytes.LastIndexByte(before, '\n') + 1
	if ls == 0 && (!whole || len(before) >= keepBehind) {
		return 0
	}
	d := 0
	for i := ls; i < len(before) && before[i] == '>'; {
		d++
		i++
		for i < len(before) && (before[i] == ' ' || before[i] == '\t') {
			i++
		}
	}
	return d
}

// skipBlanks skips, from i, whitespace other than '\n': ASCII blanks and
// Unicode spaces (the no-break spaces of text that went through HTML).
func skipBlanks(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		switch {
		case c == '\n':
			return i
		case is(c, space):
			i++
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[i:])
			if n == 1 || !unicode.IsSpace(r) {
				return i
			}
			i += n
		default:
			return i
		}
	}
	return i
}

// skipGap skips, from i, whitespace and, at the start of each line, the
// quotation marks of a quoted message of the given depth.
func skipGap(b []byte, i, depth int) int {
	for {
		i = skipBlanks(b, i)
		if i >= len(b) || b[i] != '\n' {
			return i
		}
		i = skipQuote(b, i+1, depth)
	}
}

// skipQuote skips, at the start of a line (i), blanks and exactly depth
// quotation marks with their blanks; it returns i when they are not
// there.
func skipQuote(b []byte, i, depth int) int {
	if depth == 0 {
		return i
	}
	j := i
	for n := 0; n < depth; n++ {
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j >= len(b) || b[j] != '>' {
			return i
		}
		j++
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return j
}

// closeWrapper finds, in the text after '<', the closing '>': the first
// '>' that is not a quotation mark at the start of a line (when the
// wrapper's line is quoted to the given depth). It returns the quotation
// marks skipped, as cuts of b, and reports a blank line met first (only
// whitespace, or only the quotation marks, between two line breaks): a
// wrapper does not span paragraphs.
func closeWrapper(b []byte, depth int) (gt int, quotes []cut, blank bool) {
	for i := 0; ; {
		lineEnd := len(b)
		nl := bytes.IndexByte(b[i:], '\n')
		if nl >= 0 {
			lineEnd = i + nl
		}
		if k := bytes.IndexByte(b[i:lineEnd], '>'); k >= 0 {
			return i + k, quotes, false
		}
		if nl < 0 {
			return -1, quotes, false
		}
		j := lineEnd + 1
		if q := skipQuote(b, j, depth); q > j {
			first := j + bytes.IndexByte(b[j:q], '>')
			quotes = append(quotes, cut{first, q - first})
			j = q
		}
		if k := skipBlanks(b, j); k < len(b) && b[k] == '\n' {
			return -1, nil, true
		}
		i = j
	}
}

// wrapperText returns a closed wrapper's span as the lenient parser is to
// see it: without the quotation marks at the starts of its lines and
// without its Unicode spaces, which are whitespace too; and where each
// was.
func wrapperText(span []byte, depth int) (clean []byte, quotes, spaces []cut) {
	_, quotes, _ = closeWrapper(span[1:], depth)
	for i := range quotes {
		quotes[i].at++
	}
	for i := 1; i < len(span); {
		if span[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(span[i:])
		if n > 1 && unicode.IsSpace(r) {
			spaces = append(spaces, cut{i, n})
		}
		i += n
	}
	if len(quotes)+len(spaces) == 0 {
		return span, nil, nil
	}
	return []byte(without(span, mergeCuts(quotes, spaces))), quotes, spaces
}

// A cut is a run of bytes removed from a text: at, in the text's
// coordinates, n bytes long.
type cut struct{ at, n int }

// mergeCuts merges two sorted lists of cuts that do not overlap.
func mergeCuts(a, b []cut) []cut {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	m := make([]cut, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].at < b[0].at {
			m, a = append(m, a[0]), a[1:]
		} else {
			m, b = append(m, b[0]), b[1:]
		}
	}
	return append(append(m, a...), b...)
}

// shift maps an offset in a text to the text without the cuts
// (ascending); an offset inside a cut maps to where the cut was.
func shift(o int, cuts []cut) int {
	d := 0
	for _, c := range cuts {
		if c.at >= o {
			break
		}
		d += min(c.n, o-c.at)
	}
	return o - d
}

// cutRepairs adds to rs, in offset order, a repair for each run of
// quotation marks, and for each run of whitespace holding Unicode spaces,
// removed from the span at the buffer position t.
func (s *Scanner) cutRepairs(span []byte, t int, quotes, spaces []cut, rs []Repair) []Repair {
	add := func(at int, msg string) {
		rep := Repair{Offset: s.abs(t + at), Message: msg}
		k := len(rs)
		for k > 0 && rs[k-1].Offset > rep.Offset {
			k--
		}
		rs = append(rs[:k], append([]Repair{rep}, rs[k:]...)...)
	}
	for _, q := range quotes {
		add(q.at, "quotation marks of a quoted message removed from the start of a line inside <...>")
	}
	for i := 0; i < len(spaces); {
		c := spaces[i]
		r, _ := utf8.DecodeRune(span[c.at:])
		// The run goes on over ASCII whitespace and further Unicode spaces.
		j := i + 1
		for j < len(spaces) && onlySpace(span[spaces[j-1].at+spaces[j-1].n:spaces[j].at]) {
			j++
		}
		add(c.at, fmt.Sprintf("%s (U+%04X) inside <...> removed (RFC 1738 appendix: whitespace is ignored when extracting the URL)", spaceName(r), r))
		i = j
	}
	return rs
}

func onlySpace(b []byte) bool {
	for _, c := range b {
		if !is(c, space) {
			return false
		}
	}
	return true
}

func spaceName(r rune) string {
	switch r {
	case 0xA0:
		return "no-break space"
	case 0x3000:
		return "ideographic space"
	}
	return "space character"
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

// hyphenBreaks returns the positions, from from on, of the hyphens that
// end a line inside the wrapper span: "-" followed by optional blanks and
// a line break (RFC 1738 appendix).
func hyphenBreaks(span []byte, from int) []cut {
	var hy []cut
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
		if j >= from && span[j] == '-' && (len(hy) == 0 || hy[len(hy)-1].at != j) {
			hy = append(hy, cut{j, 1})
		}
		i = nl + 1
	}
	return hy
}

// without returns text without the cuts (ascending).
func without(text []byte, cuts []cut) string {
	b := make([]byte, 0, len(text))
	last := 0
	for _, c := range cuts {
		b = append(b, text[last:c.at]...)
		last = c.at + c.n
	}
	return string(append(b, text[last:]...))
}

// unshift maps an offset in a text without the cuts (ascending) back to
// the text.
func unshift(o int, cuts []cut) int {
	for _, c := range cuts {
		if o < c.at {
			break
		}
		o += c.n
	}
	return o
}

// whole reports a URL whose scheme gives its punctuation-only part a
// meaning (news:*: all groups, RFC 1738 3.6).
func whole(u *urlkit.URL) bool {
	s := u.String()
	return s != "" && registry.TrimFloor(s) == len(s)
}
