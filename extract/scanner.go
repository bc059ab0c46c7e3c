package extract

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/bufpool"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/safetext"
)

// DefaultMaxLength is the default limit on the length of one candidate:
// a wrapper from "<" to ">", or a bare URL.
const DefaultMaxLength = 8192

const (
	// lookback is the longest run of scheme characters before a ":" that
	// the scanner examines; schemes are short, and a bounded look back
	// keeps the result independent of how the input is read.
	lookback = 64
	// keepBehind is how much text before a trigger the buffer keeps.
	keepBehind = lookback + 8
	// slack is how much text beyond a candidate's limit the buffer holds,
	// so that a UTF-8 sequence at the limit decodes whole.
	slack = 8
	// chunk is the size of one read.
	chunk = 64 << 10
)

// Config configures extraction. The zero value finds wrapped, prefixed and
// bare URLs with a limit of DefaultMaxLength bytes per candidate and
// ignores problems.
type Config struct {
	// WrappedOnly turns bare detection off: only "<URL:...>" and "<...>"
	// wrappers are extracted.
	WrappedOnly bool
	// MaxLength bounds one candidate, and so the memory a Scanner uses
	// (about MaxLength + 64 KiB). A wrapper whose ">" is further away is
	// reported as unclosed, a longer bare URL as too long. 0 means
	// DefaultMaxLength.
	MaxLength int
	// Problem, if not nil, is called with every Problem found, in the
	// order of the input, from within Next.
	Problem func(Problem)
	// Offset and Line place the text read in a larger one, for scanning
	// a part of it (a part after a Cut, on another core): the offsets and
	// lines of Items and Problems count from there. The text read must
	// start a line, as columns count from its start. Line 0 means 1.
	Offset int64
	Line   int
}

// An Item is one URL found in the text.
type Item struct {
	// URL is the URL in canonical form: wrapper, "URL:" prefix and the
	// whitespace inside a wrapper removed, and the lenient parser's
	// repairs (encoding of spaces, non-ASCII and unsafe characters, IDNA
	// host names) applied.
	URL string
	// Parsed is URL parsed.
	Parsed urlkit.URL
	// Offset is the byte offset (0-based) in the input of the URL's first
	// byte: after "<" and "URL:" for a wrapped URL.
	Offset int64
	// Line and Column give the position of Offset: Line counts "\n"
	// (so CRLF and LF text agree), Column counts bytes from 1.
	Line, Column int
	// Start and End delimit everything that was matched, wrapper and
	// prefix included: the input's bytes [Start, End).
	Start, End int64
	// Wrapped reports a "<...>" wrapper; Prefixed a "URL:" prefix (inside
	// a wrapper or not).
	Wrapped, Prefixed bool
	// Repairs lists what the lenient parser changed, offsets in the input.
	// Removing the wrapper and the prefix is not listed; removing
	// whitespace inside a wrapper is.
	Repairs []Repair
	// Alternative is the other reading of the RFC 1738 hyphen rule (see
	// the package documentation): URL with every hyphen that ends a line
	// inside the wrapper removed. It is "" when the rule does not apply
	// or the other reading does not parse.
	Alternative string
}

// A Repair is one change the lenient parser made to a candidate.
type Repair struct {
	Offset  int64  // byte offset in the input
	Message string // what was changed
}

// A Scanner finds URLs in text read from an io.Reader, one at a time, in
// bounded memory. Call Next until it returns false, then Err:
//
//	s := extract.NewScanner(r)
//	for s.Next() {
//		fmt.Println(s.URL())
//	}
//	if err := s.Err(); err != nil { ... }
type Scanner struct {
	r      io.Reader
	cfg    Config
	max    int
	window int    // how far past a trigger a decision may look
	buf    []byte // buf[:end] holds the input from offset base
	base   int64
	pos    int   // where the search for the next trigger resumes
	end    int   // end of the data in buf
	mark   int64 // end of the last candidate consumed: look back stops there
	eof    bool  // no more data will be read (end of input or error)
	err    error
	// reference makes every ':' and '<' a trigger, decided by bare and
	// wrapped: the tests check that the results are the same.
	reference bool
	skip      bool // inside an overlong bare URL: skip to the next delimiter
	line      int
	lineAt    int64 // offset where line starts
	counted   int64 // newlines are counted up to here
	item      Item
	// lent tells which of item.URL and item.Parsed's components are
	// still the candidate's bytes in buf, valid until the next read: URL
	// and Item copy them out, AppendURL reads them in place.
	lent uint8
	// copies: Item has been called, so each URL is copied out of the
	// buffer as it is found (cloning a lent one costs more).
	copies bool
	done   bool // Next returned false; buf has gone to buffers
	// inPlace: buf is the caller's text, whole (NewBytesScanner); the
	// Scanner never reads, slides or keeps it.
	inPlace bool
}

// The bits of Scanner.lent.
const (
	lentURL uint8 = 1 << iota
	lentParsed
)

// NewScanner returns a Scanner reading r with the zero Config.
func NewScanner(r io.Reader) *Scanner { return (*Config)(nil).NewScanner(r) }

// NewScanner returns a Scanner reading r with the configuration c; a nil
// c is the zero Config.
func (c *Config) NewScanner(r io.Reader) *Scanner {
	s := &Scanner{r: r, line: 1}
	if c != nil {
		s.cfg = *c
		s.base, s.counted, s.lineAt, s.mark = c.Offset, c.Offset, c.Offset, c.Offset
		s.line = max(c.Line, 1)
	}
	s.max = s.cfg.maxLength()
	s.window = windowFor(s.max)
	return s
}

// NewBytesScanner returns a Scanner over text, which it reads in place,
// without copying it into a buffer of its own: text must not change
// while the Scanner is in use. A nil c is the zero Config.
func (c *Config) NewBytesScanner(text []byte) *Scanner {
	s := c.NewScanner(nil)
	s.buf, s.end, s.eof, s.inPlace = text, len(text), true, true
	return s
}

// maxLength is c's MaxLength, or its default.
func (c *Config) maxLength() int {
	if c == nil || c.MaxLength <= 0 {
		return DefaultMaxLength
	}
	return c.MaxLength
}

// windowFor returns how far past a trigger a decision may look, for
// candidates of at most maxLength bytes: a candidate ends by maxLength
// bytes after its start, the scheme after a "URL:" prefix by lookback+2
// bytes after the ':'.
func windowFor(maxLength int) int { return max(maxLength, lookback+2) + slack }

// Cut returns the length n of the longest start of text that ends a
// line after which a Scanner may start afresh, or 0 when there is none:
// scanning text[:n] and what follows apart, each part by a Scanner whose
// Config gives the Offset and Line where the part starts, finds the
// items and problems that one Scanner finds over the whole. That holds
// after a line whose last bytes, as far as a wrapper reaches (MaxLength
// and a few), hold no "<" that may start a wrapper: no decision about a
// candidate before it looks past it, and no candidate starts before it
// and ends after. A "<" may start a wrapper when whitespace, quotation
// marks and scheme characters (beforeColon) follow it up to a ":" or to
// the line's end; markup's "</p>", "<a href=" or "<!--" may not (a
// wrapper is found by looking back from its ":" over those bytes), and
// so does not keep a line of HTML from being a cut. text must start
// where a Scanner may start: at the start of the whole, or at a cut.
// Lines that end before from are not considered: a reader that reads on
// after a Cut of text[:from] returned 0 passes from, so that no byte is
// searched twice.
func (c *Config) Cut(text []byte, from int) int {
	reach := windowFor(c.maxLength()) + 1
	for n := len(text); ; {
		nl := bytes.LastIndexByte(text[:n], '\n')
		if nl < from {
			return 0
		}
		lo := max(0, nl+1-reach)
		// The search for a "<" stops at the one nearest to the line's
		// end that may start a wrapper, before which the next line to
		// try ends.
		lt := lastWrapperStart(text[lo:nl])
		if lt < 0 {
			return nl + 1
		}
		n = lo + lt
	}
}

// lastWrapperStart returns the position of the last "<" of line that may
// start a wrapper going on past line's end: the bytes after it are all
// beforeColon, or are up to a ":". -1 when there is none.
func lastWrapperStart(line []byte) int {
	for end := len(line); ; {
		lt := bytes.LastIndexByte(line[:end], '<')
		if lt < 0 {
			return -1
		}
		i := lt + 1
		for i < len(line) && beforeColon[line[i]] != 0 {
			i++
		}
		if i == len(line) || line[i] == ':' {
			return lt
		}
		end = lt
	}
}

// FindAll returns every URL in s, with the zero Config.
func FindAll(s string) []Item { return (*Config)(nil).FindAll(s) }

// FindAll returns every URL in text; a nil c is the zero Config.
func (c *Config) FindAll(text string) []Item {
	// Streaming the text through the Scanner's buffer costs less than
	// copying it whole: the buffer stays in the cache.
	sc := c.NewScanner(strings.NewReader(text))
	var items []Item
	for sc.Next() {
		items = append(items, sc.Item())
	}
	return items
}

// Item returns the URL found by the last call to Next.
func (s *Scanner) Item() Item {
	s.copies = true
	if s.lent&lentParsed != 0 {
		s.item.Parsed = s.item.Parsed.Clone()
		if s.lent&lentURL != 0 {
			s.item.URL = s.item.Parsed.String() // the clone's text, unrepaired
		}
		s.lent = 0
	}
	return s.item
}

// Parsed returns the URL found by the last call to Next, as the lenient
// parser read it: Item's Parsed without Item's copy. It may hold the
// Scanner's buffer, so it is valid only until the next call to Next; a
// caller that normalizes each URL and keeps a copy of the result parses
// each URL once.
func (s *Scanner) Parsed() *urlkit.URL { return &s.item.Parsed }

// URL returns the canonical URL found by the last call to Next.
func (s *Scanner) URL() string {
	if s.lent&lentURL != 0 {
		s.item.URL = strings.Clone(s.item.URL)
		s.lent &^= lentURL
	}
	return s.item.URL
}

// AppendURL appends the canonical URL found by the last call to Next to
// b and returns the extended buffer. Unlike URL it does not allocate:
// most URLs are appended from the input as read, with no string made
// for them.
func (s *Scanner) AppendURL(b []byte) []byte { return append(b, s.item.URL...) }

// Err returns the first error reading the input, other than io.EOF.
func (s *Scanner) Err() error { return s.err }

// Next finds the next URL, which Item and URL then return. It returns
// false at the end of the input or on a read error.
func (s *Scanner) Next() bool {
	if s.done {
		return false
	}
	if s.buf == nil {
		s.buf = buffers.Get(s.bufSize())[:s.bufSize()]
	}
	for {
		if s.skip && !s.skipLong() {
			if s.eof {
				break
			}
			s.more()
			continue
		}
		t, c := s.trigger()
		if t < 0 {
			if s.eof {
				break
			}
			s.more()
			continue
		}
		// No decision looks beyond t+window: have that much, or all there
		// is, before deciding anything, so that the result does not depend
		// on how the reader splits the input. The trigger stays the one
		// found (bytes read after it cannot move the first ':' or the '<'
		// before it): searching again after each read was quadratic in
		// small reads.
		for !s.eof && s.end < t+s.window {
			t -= s.fill(t)
		}
		var found bool
		if c == '<' {
			found = s.wrapped(t)
		} else {
			found = s.bare(t)
		}
		if found {
			return true
		}
	}
	s.item, s.lent = Item{}, 0
	// Nothing found holds on to the buffer now (Item and URL copy out
	// what they return): the next Scanner may have it.
	if !s.inPlace {
		buffers.Put(s.buf, s.bufSize())
	}
	s.buf, s.done = nil, true
	return false
}

// buffers keeps the buffers of Scanners that reached the end, for new
// ones: a program that scans many texts (extract -j reads a file as
// parts) would otherwise allocate and clear one each time.
var buffers bufpool.Pool

// bufSize is the size of the Scanner's buffer.
func (s *Scanner) bufSize() int { return keepBehind + s.window + chunk }

// trigger returns the position of the next byte at or after pos that may
// start a candidate, ':' or '<', or -1 with pos at the end of the buffer.
//
// Only the ':' are searched for. A wrapper's text up to its first ':' is
// whitespace, quotation marks and scheme characters ("<URL:", "< http:",
// "<ftp:\n> //": see wrapped), and its ':' comes within max bytes of the
// '<': so the one '<' that may start a wrapper before a ':' is found by
// looking back from it, over those bytes, and the many '<' of markup in
// between are never looked at. A ':' that bare would reject at once is
// passed over here too.
func (s *Scanner) trigger() (int, byte) {
	if s.reference {
		return s.referenceTrigger()
	}
	buf := s.buf[:s.end]
	for pos := s.pos; ; {
		colon := bytes.IndexByte(buf[pos:], ':')
		if colon < 0 {
			// The ':' of a '<' near the end may come with more input.
			if !s.eof {
				if t := s.wrapperStart(pos, len(buf)); t >= 0 {
					s.pos = t
					return t, '<'
				}
			}
			s.pos = len(buf)
			return -1, 0
		}
		colon += pos
		if t := s.wrapperStart(pos, colon); t >= 0 {
			// After wrapped, the text up to colon is searched again:
			// twice at most.
			s.pos = t
			return t, '<'
		}
		if !s.cfg.WrappedOnly && !s.passOverColon(colon) {
			s.pos = colon
			return colon, ':'
		}
		pos = colon + 1
	}
}

// referenceTrigger is trigger on the reference path: every '<' and ':'
// (but a ':' with WrappedOnly) is a trigger, for bare and wrapped to
// decide.
func (s *Scanner) referenceTrigger() (int, byte) {
	buf := s.buf[:s.end]
	for {
		colon, stop := bytes.IndexByte(buf[s.pos:], ':'), len(buf)
		if colon >= 0 {
			colon += s.pos
			stop = colon
		}
		if i := bytes.IndexByte(buf[s.pos:stop], '<'); i >= 0 {
			s.pos += i
			return s.pos, '<'
		}
		if colon < 0 {
			s.pos = len(buf)
			return -1, 0
		}
		s.pos = colon
		if !s.cfg.WrappedOnly {
			return colon, ':'
		}
		s.pos = colon + 1
	}
}

// wrapperStart returns the position of the '<' at or after pos that may
// start a wrapper whose first ':' is at the buffer position colon, or -1.
func (s *Scanner) wrapperStart(pos, colon int) int {
	lo := max(pos, colon-s.max+1)
	b := s.buf[lo:colon]
	j := len(b)
	for j >= 4 && beforeColon[b[j-1]]&beforeColon[b[j-2]]&beforeColon[b[j-3]]&beforeColon[b[j-4]] != 0 {
		j -= 4
	}
	for j > 0 && beforeColon[b[j-1]] != 0 {
		j--
	}
	if j > 0 && b[j-1] == '<' {
		return lo + j - 1
	}
	return -1
}

// passOverColon reports whether the ':' at the buffer position t starts
// no candidate, as bare decides first: a scheme-specific part must start
// after it, and a scheme character, not in the previous candidate, come
// before it. false leaves the decision to bare.
func (s *Scanner) passOverColon(t int) bool {
	buf := s.buf[:s.end]
	return t+1 < len(buf) && (!is(buf[t+1], bodyStart) || t == 0 || s.abs(t) <= s.mark || !is(buf[t-1], scheme))
}

// more makes room and reads, when everything buffered has been searched.
func (s *Scanner) more() {
	s.slide(s.end - keepBehind)
	s.read()
}

// fill keeps the text from keepBehind before t and reads, towards a
// buffer that holds window bytes from t; it returns how far the text
// moved back (t's new place is t minus that).
func (s *Scanner) fill(t int) int {
	from := max(t-keepBehind, 0)
	s.slide(from)
	s.read()
	return from
}

// slide discards the buffer before from.
func (s *Scanner) slide(from int) {
	if from <= 0 {
		return
	}
	s.countTo(s.base + int64(from))
	copy(s.buf, s.buf[from:s.end])
	s.end -= from
	s.pos = max(s.pos-from, 0)
	s.base += int64(from)
}

// read reads once into the free end of the buffer.
func (s *Scanner) read() {
	for tries := 0; s.end < len(s.buf); tries++ {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return
		}
		if n > 0 {
			return
		}
		if tries == 100 {
			s.eof, s.err = true, io.ErrNoProgress
			return
		}
	}
}

// countTo advances the line count to the offset off, which must be in the
// buffer.
func (s *Scanner) countTo(off int64) {
	if off <= s.counted {
		return
	}
	seg := s.buf[s.counted-s.base : off-s.base]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		s.line += n
		s.lineAt = s.counted + int64(lastNewline(seg)) + 1
	}
	s.counted = off
}

// lastNewline returns the position of the last '\n' in b, or -1. It tests
// eight bytes at a time (bytes.LastIndexByte goes one by one): a URL's
// line start is tens of bytes back.
func lastNewline(b []byte) int {
	i := len(b)
	for ; i >= 8; i -= 8 {
		// Exact marks: the highest one is the last '\n'.
		if nl := cc.WordEq(binary.LittleEndian.Uint64(b[i-8:]), '\n'); nl != 0 {
			return i - 8 + (63-bits.LeadingZeros64(nl))/8
		}
	}
	return bytes.LastIndexByte(b[:i], '\n')
}

// position returns the line and column of the offset off. Offsets are
// asked for in increasing order.
func (s *Scanner) position(off int64) (line, col int) {
	s.countTo(off)
	return s.line, int(off-s.lineAt) + 1
}

// abs converts a buffer position to an input offset.
func (s *Scanner) abs(i int) int64 { return s.base + int64(i) }

// consume marks the input up to the buffer position i as used by a
// candidate: the search resumes there and no later scheme starts before.
func (s *Scanner) consume(i int) {
	s.pos = i
	s.mark = s.abs(i)
}

// problem reports a problem at the buffer position at, in the candidate
// buf[start:end].
func (s *Scanner) problem(at, start, end int, wrapped bool, err error) {
	if s.cfg.Problem == nil {
		return
	}
	p := Problem{Offset: s.abs(at), Start: s.abs(start), Wrapped: wrapped, Err: err}
	p.Line, p.Column = s.position(p.Offset)
	p.Text = snippet(s.buf[start:end])
	s.cfg.Problem(p)
}

// parseFailed reports a candidate, buf[start:end], that the lenient parser
// rejected; the error's offset counts from start.
func (s *Scanner) parseFailed(start, end int, wrapped bool, err error) {
	if s.cfg.Problem == nil {
		return
	}
	at := start
	if ue, ok := err.(*urlkit.Error); ok {
		at += min(max(ue.Offset, 0), end-start)
	}
	s.problem(at, start, end, wrapped, err)
}

// emit sets the current item. start and end delimit the match, urlAt is
// the URL's first byte, all buffer positions.
func (s *Scanner) emit(u *urlkit.URL, start, urlAt, end int) {
	s.emitString(u, u.String(), start, urlAt, end)
}

// emitString is emit with the URL's string form already at hand. The item
// is written in place, every field: it is large (a URL in it), and a
// composite literal would be built aside and copied.
func (s *Scanner) emitString(u *urlkit.URL, url string, start, urlAt, end int) {
	it := &s.item
	s.lent = 0
	it.URL = url
	it.Parsed = *u
	it.Offset = s.abs(urlAt)
	it.Start = s.abs(start)
	it.End = s.abs(end)
	it.Wrapped, it.Prefixed = false, false
	it.Repairs = nil
	it.Alternative = ""
	it.Line, it.Column = s.position(it.Offset)
}

// repairs converts the parser's warnings on a candidate that starts at the
// buffer position start: mapOff maps their offsets to the candidate, and
// the warnings at the offsets in drop are left out.
func (s *Scanner) repairs(ws []urlkit.Warning, start int, mapOff func(int) int, drop ...int) []Repair {
	var rs []Repair
next:
	for _, w := range ws {
		off := w.Offset
		if mapOff != nil {
			off = mapOff(off)
		}
		for _, d := range drop {
			if off == d {
				continue next
			}
		}
		rs = append(rs, Repair{Offset: s.abs(start + off), Message: w.Message})
	}
	return rs
}

// confirm parses a candidate with the lenient parser. It also rejects the
// scheme name "URL", which the parser would accept after a first "URL:"
// ("<URL:URL:x>" gives "URL:x", which it then reads as a prefix): "URL:"
// is the appendix's prefix, not a scheme. schemeAt is the offset in text
// of the URL's first byte.
func confirm(text string, schemeAt int) (urlkit.URL, []urlkit.Warning, error) {
	u, ws, err := urlkit.ParseMode(text, urlkit.Lenient)
	if err == nil && len(u.Scheme) == 3 && hasPrefixFold([]byte(u.Scheme), "URL") {
		return urlkit.URL{}, ws, &urlkit.Error{Op: "parse", Input: safetext.RedactURL(text), Offset: schemeAt, Err: urlkit.ErrBadScheme,
			Rule: `"URL:" is the prefix of RFC 1738's appendix, not a scheme`}
	}
	return u, ws, err
}

// hasPrefixFold reports whether b starts with the upper-case ASCII prefix,
// ignoring case.
func hasPrefixFold(b []byte, upper string) bool {
	if len(b) < len(upper) {
		return false
	}
	for i := 0; i < len(upper); i++ {
		c := b[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}
