package urlkit

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/registry"
	"github.com/urlkit/urlkit/internal/safetext"
)

// Parse parses s as an absolute URL in the RFC1738 mode. It does not
// allocate when s is valid: the components of the result are substrings
// of s. A "URL:" prefix before the scheme is removed (RFC 1738 appendix);
// ParseMode also says so.
func Parse(s string) (URL, error) {
	u, _, err := parse(s, RFC1738, false)
	return u, err
}

// ParseMode parses s as an absolute URL in the given mode (in the RFC3986
// mode, as a URI-reference: relative references are accepted too), the
// one way to parse with a mode. It returns the first error found (Check
// returns them all) and the warnings: in the Lenient mode each repair (the
// first 1,000 of them, and then one warning that counts the rest), the
// result being the repaired, canonical URL; in every mode a "URL:" prefix
// removed. Valid input without warnings costs no allocation.
func ParseMode(s string, m Mode) (URL, []Warning, error) { return parse(s, m, m == RFC3986) }

// ParseReference is ParseMode for a URL or a relative reference (RFC
// 1630's partial form, RFC 3986's relative-ref) in any mode.
func ParseReference(s string, m Mode) (URL, []Warning, error) { return parse(s, m, true) }

// parse tries parseFast, the one pass for the commonest valid URLs, and
// else parseFull, unless the pass stopped on an error it knows
// (stoppedError).
func parse(s string, m Mode, ref bool) (u URL, warnings []Warning, err error) {
	if m > Lenient {
		// The WHATWG mode is not the RFC modes' parser: checked here, the
		// other modes pay no more than the range check they had.
		if m == WHATWG {
			return parseWHATWG(s)
		}
		return URL{}, nil, unknownMode("parse", s, m)
	}
	end := parseFast(&u, s, m, ref)
	if end == len(s) {
		return u, nil, nil
	}
	if e := stoppedError(&u, s, m, ref, end); e != nil {
		return URL{}, nil, e
	}
	u = URL{}
	return parseFull(s, m, ref)
}

// stoppedError returns the parser's error for s in the strict mode m
// when parseFast stopped at offset end inside the path, the query or the
// fragment (u as it left it), or nil when the parser (or, in the Lenient
// mode, the repairs) must decide. The pass has read every byte before
// end as the parser reads it, and checked the scheme, the authority and
// a file URL's "/" before; so when the byte at end is outside the mode's
// class for its component, the parser's first error is the one its
// component check reports there (fastAgrees checks that). A byte inside
// the class, which only a scheme's grammar refuses (HTTP's search,
// file's fpath), is left to the parser.
func stoppedError(u *URL, s string, m Mode, ref bool, end int) *Error {
	if end < 0 || m == Lenient {
		return nil
	}
	i := 0 // the component: 0 path, 1 query, 2 fragment
	if u.HasFragment {
		i = 2
	} else if u.HasQuery {
		i = 1
	}
	c := s[end]
	if compTable[c]&(compPath<<i<<(3*m)) != 0 {
		return nil
	}
	what := [3]string{"path", queryNames[m], "fragment"}[i]
	var p parser
	p.s, p.mode, p.ref, p.op = s, m, ref, "parse"
	if c == '%' {
		p.fail(end, ErrBadEscape, badEscapeRule)
	} else {
		p.fail(end, ErrInvalidChar, p.charRule(c, what))
	}
	return p.first
}

// parseFull runs the pass before the parser (prepare) when the input may
// need it, then the parser once, in the strict grammar of m, over the text
// the pass left.
func parseFull(s string, m Mode, ref bool) (u URL, warnings []Warning, err error) {
	if m == Lenient || len(s) > 4 && s[0]|0x20 == 'u' {
		return parsePrepared(s, m, ref)
	}
	// Fields set one by one and the URL parsed into the result: a
	// composite literal here would be built in a temporary and copied.
	var p parser
	p.s, p.mode, p.ref, p.op = s, m, ref, "parse"
	p.parse(&u)
	if p.first != nil {
		return URL{}, nil, p.first
	}
	u.written = s
	return u, nil, nil
}

// parsePrepared is parse for an input the pass before the parser may
// change: its errors name offsets in s.
func parsePrepared(s string, m Mode, ref bool) (u URL, warnings []Warning, err error) {
	text, pre, err := prepare(s, m)
	if err != nil {
		return URL{}, pre.warningList(), err
	}
	var p parser
	p.s, p.mode, p.ref, p.op = text, m.grammar(), ref, "parse"
	p.parse(&u)
	if p.first != nil {
		e := p.first
		pre.locate(s, e)
		return URL{}, pre.warningList(), e
	}
	u.written = text
	return u, pre.warningList(), nil
}

// Check reports every problem of s as an absolute URL in the given mode (a
// URI-reference in the RFC3986 mode), sorted by offset. An empty list means
// s is valid, exactly when ParseMode(s, m) succeeds; the first error of the
// list is the one ParseMode returns.
func Check(s string, m Mode) ErrorList { return check(s, m, m == RFC3986) }

// CheckLimit is Check keeping at most limit errors (limit > 0), those
// Check would list first, and returning as well how many errors there
// are in all: a line of a megabyte of "%" costs limit errors, not a
// million.
func CheckLimit(s string, m Mode, limit int) (ErrorList, int) {
	return checkLimit(s, m, m == RFC3986, max(limit, 1))
}

func check(s string, m Mode, ref bool) ErrorList {
	l, _ := checkLimit(s, m, ref, 0)
	return l
}

// checkLimit is check keeping at most limit errors, or all when limit is
// 0, and returns the total count.
func checkLimit(s string, m Mode, ref bool, limit int) (ErrorList, int) {
	if m > Lenient {
		if m == WHATWG {
			if _, _, err := parseWHATWG(s); err != nil {
				e := err.(*Error)
				e.Op = "check"
				return ErrorList{e}, 1
			}
			return nil, 0
		}
		return ErrorList{unknownMode("check", s, m)}, 1
	}
	text, pre, err := prepare(s, m)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Op = "check"
		}
		return asList(err), 1
	}
	p := parser{s: text, mode: m.grammar(), ref: ref, collect: true, op: "check", limit: limit, highest: -1}
	var u URL
	p.parse(&u)
	slices.SortStableFunc(p.errs, func(a, b *Error) int { return a.Offset - b.Offset })
	for _, e := range p.errs {
		pre.locate(s, e)
	}
	return p.errs, len(p.errs) + p.dropped
}

// unknownMode is the error of a Mode outside the four (a conversion from
// an integer): the tables indexed by the mode have no row for it.
func unknownMode(op, s string, m Mode) *Error {
	return &Error{Op: op, Input: safetext.RedactURL(s), Offset: 0, Err: ErrUnknownMode, Rule: m.String() + " is none of the modes rfc1738, rfc1630, rfc3986, lenient and whatwg"}
}

func asList(err error) ErrorList {
	switch e := err.(type) {
	case nil:
		return nil
	case ErrorList:
		return e
	case *Error:
		return ErrorList{e}
	}
	return ErrorList{{Op: "check", Err: err, Rule: err.Error()}}
}

// parser holds the state of one parse. It lives on the stack; it allocates
// only to record errors.
type parser struct {
	s       string
	mode    Mode
	ref     bool // relative references allowed
	collect bool // keep going after an error (Check)
	// lowestOnly, with collect, keeps only the error at the lowest offset:
	// a parse that stops at the first error sets both when a scheme's own
	// grammar applies (see parse)
	lowestOnly bool
	op         string
	errs       ErrorList // every error, when collecting
	// limit, when collecting, bounds errs to the limit errors at the
	// lowest offsets (0: no bound); dropped counts the others
	limit, dropped int
	highest        int // index in errs of the next to drop, or -1
	// redacted is s with its password hidden, computed on the first
	// error, and pwAt:pwEnd the password's span in s (-1, -1: none)
	redacted    string
	redactedSet bool
	pwAt, pwEnd int
	pwReported  map[int]bool // offsets in the password with an error listed
	first       *Error       // the first error found
	// offsets of the components in s, valid when the component is present
	userAt, passAt, hostAt, portAt, pathAt, queryAt, fragAt int
	schemeEnd                                               int              // offset of the ':' after the scheme, or -1
	grammar                                                 bool             // a scheme-specific grammar applies
	sch                                                     *registry.Scheme // the registry row of a scheme with an RFC 1738 grammar, or nil
	afterLiteral                                            int              // offset of a byte wrongly following "]", or 0
}

// stop reports whether parsing must end: an error was found and the caller
// wants only the first.
func (p *parser) stop() bool { return p.first != nil && !p.collect }

// wants reports whether fail would record an error at offset off, so
// that a check can skip building a message nobody keeps: Parse, past the
// first error of a URL with a scheme grammar, keeps only lower ones.
func (p *parser) wants(off int) bool {
	return !(p.lowestOnly && p.first != nil && off >= p.first.Offset)
}

// fail records an error at offset off. The input is redacted here, on the
// error path, so valid input never pays for it.
func (p *parser) fail(off int, cause error, rule string) {
	if !p.wants(off) {
		return
	}
	if !p.redactedSet { // once, however many errors
		p.redacted, p.pwAt, p.pwEnd = safetext.RedactURLSpan(p.s)
		p.redactedSet = true
	}
	if off >= p.pwAt && off < p.pwEnd {
		// A byte of the hidden password, read as another component: a
		// raw "/", "?" or "#" in the password ended the authority
		// early. The message names no byte of it.
		rule = passwordCharRule
	}
	if rule == passwordCharRule {
		// Two rules broken at one byte of a password read the same:
		// the error is listed once.
		if p.pwReported[off] {
			return
		}
		if p.pwReported == nil {
			p.pwReported = map[int]bool{}
		}
		p.pwReported[off] = true
	}
	drop := -1 // the index in errs of the error e replaces
	if p.collect && p.limit > 0 && len(p.errs) >= p.limit {
		p.dropped++
		// Out goes the last found of those at the highest offset, so
		// that what stays is what the sorted full list starts with.
		if p.highest < 0 {
			p.highest = 0
			for i, k := range p.errs {
				if k.Offset >= p.errs[p.highest].Offset {
					p.highest = i
				}
			}
		}
		if drop = p.highest; off >= p.errs[drop].Offset {
			return
		}
		p.highest = -1 // found again at the next error past the limit
	}
	e := &Error{Op: p.op, Input: p.redacted, Offset: off, Err: cause, Rule: rule}
	if p.first == nil || p.lowestOnly {
		p.first = e
	}
	if p.collect && !p.lowestOnly {
		if drop >= 0 {
			p.errs = slices.Delete(p.errs, drop, drop+1)
		}
		p.errs = append(p.errs, e)
	}
}

func (p *parser) parse(u *URL) {
	s := p.s
	p.schemeEnd = -1
	i := p.scheme(u)
	if i < 0 {
		return
	}
	m := p.mode
	if m > RFC3986 {
		m = RFC3986 // never (the parser sees strict modes only); it tells the compiler the shifts and indexes below are in range
	}
	// The checks run in the order of the input, so that the first error
	// found is the one at the lowest offset; only a scheme's own grammar,
	// which runs last, can break that order. So when one applies, a parse
	// that wants the first error goes on past it, keeping the error at the
	// lowest offset, the one Check lists first (no error so far: the
	// scheme was valid).
	var sch *registry.Scheme
	if p.mode == RFC1738 {
		sch = schemeSyntax1738(u)
		p.sch = sch
		p.grammar = sch != nil && sch.Production != registry.Generic
		if p.grammar && !p.collect {
			p.collect, p.lowestOnly = true, true
		}
	}
	hasAuthority := len(s)-i >= 2 && s[i] == '/' && s[i+1] == '/'
	if sch != nil && sch.IP && !hasAuthority {
		p.fail(i, ErrSchemeSyntax, sch.Name+" URLs use the common Internet scheme syntax: \"//\" must follow \""+sch.Name+":\" (RFC 1738 3.1)")
		if p.stop() {
			return
		}
	}
	if hasAuthority {
		u.HasAuthority = true
		i = p.authority(u, i+2)
		if p.stop() {
			return
		}
	} else if p.mode == RFC3986 && p.schemeEnd < 0 {
		p.noScheme(i)
		if p.stop() {
			return
		}
	}
	p.pathAt = i
	i = p.component(i, compPath<<(3*m), "path")
	u.Path = s[p.pathAt:i]
	if p.stop() {
		return
	}
	if i < len(s) && s[i] == '?' {
		if sch != nil && sch.IP && hasAuthority && u.Path == "" {
			p.fail(i, ErrSchemeSyntax, "'/' must separate the host from the url-path before '?' (RFC 1738 3.1)")
			if p.stop() {
				return
			}
		}
		u.HasQuery, p.queryAt = true, i+1
		i = p.component(i+1, compQuery<<(3*m), queryNames[m])
		u.Query = s[p.queryAt:i]
		if p.stop() {
			return
		}
	}
	if i < len(s) {
		u.HasFragment, p.fragAt = true, i+1
		p.component(i+1, compFragment<<(3*m), "fragment")
		u.Fragment = s[i+1:]
		if p.stop() {
			return
		}
	}
	if p.grammar {
		p.schemeGrammar(u, sch)
	}
}

var queryNames = [3]string{"url-path", "search", "query"}

// Component classes: for each of the three strict modes, which bytes may
// appear unencoded in the path, the query and the fragment. The path never
// holds "?" or "#" and the query never "#": those end the component.
const (
	compPath uint32 = 1 << iota
	compQuery
	compFragment
)

// compTable[c] has bit comp<<(3*mode) when c may appear in that component.
var compTable = func() (t [256]uint32) {
	masks := [3][3]cc.Class{
		RFC1738: {cc.Xchar, cc.Xchar, cc.Xchar},
		RFC1630: {cc.Path1630, cc.Search1630, cc.Xalpha1630},
		RFC3986: {cc.PChar3986 | cc.Query3986, cc.Query3986, cc.Query3986},
	}
	for c := 0; c < 256; c++ {
		for m := range masks {
			for k, mask := range masks[m] {
				if !cc.Is(byte(c), mask) || c == '#' || k == 0 && c == '?' {
					continue
				}
				t[c] |= 1 << (3*m + k)
			}
		}
		switch {
		case '0' <= c && c <= '9':
			t[c] |= hostname1738 | digits
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '-':
			t[c] |= hostname1738
		case c == '.':
			t[c] |= hostname1738 | dot
		}
		if cc.Is(byte(c), cc.Xchar) {
			if c != ';' && c != '?' && c != '#' {
				t[c] |= fpath1738
			}
			if c != ';' && c != '#' {
				t[c] |= fquery1738
			}
			if c != '/' && c != '?' && c != '#' {
				t[c] |= search1738
			}
		}
		if strings.IndexByte("/?#@:[]%", byte(c)) >= 0 {
			continue
		}
		for bit, mask := range map[uint32]cc.Class{
			auth1738:        cc.User1738,
			authGeneric1738: cc.Xchar,
			auth1630:        cc.Xpalpha1630,
			auth3986:        cc.Userinfo3986,
		} {
			if cc.Is(byte(c), mask) {
				t[c] |= bit
			}
		}
	}
	return t
}()

// component scans the component that starts at i, checking every byte
// against bit, and returns the offset of the delimiter that ends it ("?"
// or "#", whichever the component does not allow), or len(s).
func (p *parser) component(i int, bit uint32, what string) int {
	s := p.s
	for i < len(s) {
		if i = span(s, i, bit); i == len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '#' && what != "fragment", c == '?' && what == "path":
			return i
		case c == '%':
			if i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
				i += 3
				continue
			}
			p.fail(i, ErrBadEscape, badEscapeRule)
		default:
			p.fail(i, ErrInvalidChar, p.charRule(c, what))
		}
		if p.stop() {
			return len(s)
		}
		i++
	}
	return i
}

// classes8 returns the component classes that all of the first eight
// bytes of r are in. They are ANDed in pairs: a loop's exit that tests
// the result waits on three ANDs, not seven.
func classes8(r string) uint32 {
	t := &compTable
	return (t[r[0]] & t[r[1]]) & (t[r[2]] & t[r[3]]) & ((t[r[4]] & t[r[5]]) & (t[r[6]] & t[r[7]]))
}

// span returns the offset of the first byte at or after i that is not in
// the component class bit. It is the parser's inner loop.
func span(s string, i int, bit uint32) int {
	t := &compTable
	// Eight bytes a round, their classes ANDed: most components are long
	// runs of allowed bytes, and this takes a third of the cycles of the
	// byte loop (measured with perf on the isaacs data set). The loop
	// shortens rest, whose length then proves every index in range.
	rest := s[i:]
	for len(rest) >= 8 && classes8(rest)&bit != 0 {
		rest = rest[8:]
	}
	if len(rest) < 8 && len(s) >= 8 {
		// Fewer than eight bytes left: the last eight, read again in
		// one round, usually settle them (a component often runs to
		// the end of the URL).
		if classes8(s[len(s)-8:])&bit != 0 {
			return len(s)
		}
	}
	// The byte that stops the run is in the next eight: four at once,
	// then one at a time.
	if len(rest) >= 4 && t[rest[0]]&t[rest[1]]&t[rest[2]]&t[rest[3]]&bit != 0 {
		rest = rest[4:]
	}
	for len(rest) > 0 && t[rest[0]]&bit != 0 {
		rest = rest[1:]
	}
	return len(s) - len(rest)
}

const badEscapeRule = "'%' must be followed by two hex digits (RFC 1630 reserves other uses); encode a literal '%' as %25"

// scheme splits off the scheme and returns the offset after its ":", 0 for
// a relative reference, or -1 after an error that ends the parse.
func (p *parser) scheme(u *URL) int {
	s := p.s
	i := 0
	for i < len(s) && cc.Is(s[i], cc.SchemeChar) {
		i++
	}
	if i > 0 && i < len(s) && s[i] == ':' && (p.mode == RFC1738 || cc.Is(s[0], cc.Alpha) && (p.mode != RFC1630 || strings.IndexByte(s[:i], '+') < 0)) {
		u.Scheme = s[:i]
		p.schemeEnd = i
		return i + 1
	}
	return p.schemeSlow(u)
}

// schemeSlow is scheme for the inputs the fast path does not settle: no
// scheme, or a scheme with characters its mode does not allow.
func (p *parser) schemeSlow(u *URL) int {
	s := p.s
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if i == 0 {
				if p.ref && p.mode == RFC3986 {
					return 0 // a relative path starting with ':'; check3986 reports it
				}
				p.fail(0, ErrMissingScheme, "missing scheme before ':' (a URL starts with a scheme name, RFC 1738 2.1)")
				if !p.collect {
					return -1
				}
				p.schemeEnd = 0
				return 1
			}
			u.Scheme = s[:i]
			p.schemeEnd = i
			p.checkScheme(u.Scheme)
			if p.stop() {
				return -1
			}
			return i + 1
		case '/', '?', '#':
			i = len(s)
		}
	}
	if p.ref {
		return 0
	}
	p.fail(0, ErrMissingScheme, "missing scheme: a URL starts with a scheme name and ':' (RFC 1738 2.1)")
	if !p.collect {
		return -1
	}
	return 0
}

func (p *parser) checkScheme(name string) {
	switch p.mode {
	case RFC1738:
		for i := 0; i < len(name); i++ {
			if !cc.Is(name[i], cc.SchemeChar) {
				p.fail(i, ErrBadScheme, describe(name[i])+" is not allowed in a scheme name (lowalpha, digit, '+', '-', '.'; RFC 1738 2.1)")
				if p.stop() {
					return
				}
			}
		}
	case RFC3986:
		for i := 0; i < len(name); i++ {
			c := name[i]
			if i == 0 && !cc.Is(c, cc.Alpha) {
				p.fail(0, ErrBadScheme, "a scheme must start with a letter, not "+describe(c)+" (RFC 3986 3.1)")
			} else if !cc.Is(c, cc.SchemeChar) {
				p.fail(i, ErrBadScheme, describe(c)+" is not allowed in a scheme (ALPHA *( ALPHA / DIGIT / '+' / '-' / '.' ), RFC 3986 3.1)")
			} else {
				continue
			}
			if p.stop() {
				return
			}
		}
	case RFC1630:
		if !cc.Is(name[0], cc.Alpha) {
			p.fail(0, ErrBadScheme, "a scheme must start with a letter, not "+describe(name[0])+" (RFC 1630 ialpha)")
			if p.stop() {
				return
			}
		}
		p.scan(1, name[1:], cc.Xalpha1630, "scheme")
	}
}

// authority splits the authority that starts at i (after "//"), checks it,
// and returns the offset where the path starts. One pass finds the
// delimiters and whether every byte is one the mode allows somewhere in an
// authority; only when one is not do the per-part checks run, to say which
// rule it breaks.
func (p *parser) authority(u *URL, i int) int {
	s := p.s
	bit := authBits[p.mode]
	if p.mode == RFC1738 && (p.sch == nil || !p.sch.IP) {
		bit = authGeneric1738
	}
	at, colon, literal := -1, -1, false
	bad := false
	j := i
scan:
	for ; j < len(s); j++ {
		j = span(s, j, bit)
		if j == len(s) {
			break
		}
		switch c := s[j]; c {
		case '/', '#':
			break scan
		case '?':
			// RFC 1738 allows an unencoded "?" in the user and password;
			// the authority then ends at the "/" after the "@".
			if p.mode != RFC1738 || at >= 0 {
				break scan
			}
			end := len(s)
			if k := strings.IndexAny(s[j:], "/#"); k >= 0 {
				end = j + k
			}
			if strings.IndexByte(s[j:end], '@') < 0 {
				break scan
			}
		case '@':
			if at >= 0 || literal {
				// a second "@", or a "[" the user part must encode (the
				// skip to "]" may have crossed a "/" that ends the authority)
				bad = true
			}
			at, colon, literal = j, -1, false
		case ':':
			if colon < 0 {
				colon = j
			}
		case '[':
			hostStart := i
			if at >= 0 {
				hostStart = at + 1
			}
			if j != hostStart || p.mode == RFC1738 || p.mode == RFC1630 {
				bad = true
				continue
			}
			k := strings.IndexByte(s[j:], ']')
			if k < 0 {
				bad = true
				continue
			}
			j += k
			literal = true
		case '%':
			if j+2 < len(s) && cc.IsHex(s[j+1]) && cc.IsHex(s[j+2]) {
				j += 2
				continue
			}
			bad = true
		default:
			bad = true
		}
	}
	ae := j
	h := i
	if at >= 0 {
		u.HasUser = true
		p.userAt = i
		if c := strings.IndexByte(s[i:at], ':'); c >= 0 {
			u.User = s[i : i+c]
			u.HasPassword, u.Password = true, s[i+c+1:at]
			p.passAt = i + c + 1
		} else {
			u.User = s[i:at]
		}
		h = at + 1
	}
	p.hostAt = h
	hostEnd := ae
	if literal {
		hostEnd = h + strings.IndexByte(s[h:ae], ']') + 1
		if hostEnd < ae && s[hostEnd] != ':' {
			p.afterLiteral = hostEnd
		}
		colon = -1
		if hostEnd < ae && s[hostEnd] == ':' {
			colon = hostEnd
		}
	} else if colon >= 0 {
		hostEnd = colon
	}
	u.Host = s[h:hostEnd]
	if colon >= 0 {
		u.HasPort, u.Port = true, s[colon+1:ae]
		p.portAt = colon + 1
	}
	switch p.mode {
	case RFC1738:
		p.authority1738(u, bad)
	case RFC1630:
		if bad {
			p.authority1630(u)
		} else {
			p.port(u, true)
		}
	default:
		p.authority3986(u, bad)
	}
	return ae
}

// Authority classes: bytes that may appear somewhere in an authority
// (userinfo or host) in each mode, delimiters excluded.
const (
	auth1738 uint32 = 1 << (9 + iota)
	authGeneric1738
	auth1630
	auth3986
)

var authBits = [3]uint32{RFC1738: auth1738, RFC1630: auth1630, RFC3986: auth3986}

// Host classes for validHostname1738.
const (
	hostname1738 uint32 = 1 << (13 + iota) // letters, digits, '-', '.'
	digits                                 // 0-9
	dot                                    // '.'
)

// Classes of the scheme productions parseFast folds into its one pass
// (RFC 1738 section 5): a file URL's path and query without ";"
// (fsegment), and an HTTP search without "/" and "?" (search).
const (
	fpath1738 uint32 = 1 << (16 + iota)
	fquery1738
	search1738
)

// scan checks that every byte of v (which starts at offset off) is in mask
// or part of a valid %XX escape.
func (p *parser) scan(off int, v string, mask cc.Class, what string) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if cc.Is(c, mask) {
			continue
		}
		if c == '%' {
			if i+2 < len(v) && cc.IsHex(v[i+1]) && cc.IsHex(v[i+2]) {
				i += 2
				continue
			}
			p.fail(off+i, ErrBadEscape, badEscapeRule)
		} else {
			p.fail(off+i, ErrInvalidChar, p.charRule(c, what))
		}
		if p.stop() {
			return
		}
	}
}

// passwordCharRule is the message of an error in a password, which names
// no byte of it: the input shown with the error hides the password.
const passwordCharRule = "the password contains a character that must be encoded"

// charRule explains why c may not appear unencoded in the component what.
func (p *parser) charRule(c byte, what string) string {
	if what == "password" {
		return passwordCharRule
	}
	cls := cc.Of(c)
	switch {
	case c == ' ':
		return "space is unsafe and must be encoded as %20"
	case c >= 0x80 || cls&cc.Control != 0:
		return ruleTables().control[c]
	}
	switch p.mode {
	case RFC1738:
		if cls&cc.Unsafe != 0 {
			return ruleTables().unsafe1738[c]
		}
		return describe(c) + " is reserved and must be encoded as " + encoded(c) + " in the " + what
	case RFC1630:
		if cls&cc.National != 0 {
			return "national character " + describe(c) + " may not appear in a URI (RFC 1630); encode it as " + encoded(c)
		}
		if c == '<' || c == '>' {
			return describe(c) + " is punctuation and may not appear in a URI (RFC 1630); encode it as " + encoded(c)
		}
		return describe(c) + " is reserved and must be encoded as " + encoded(c) + " in the " + what
	default:
		if t := ruleTables().rfc3986[what]; t != nil {
			return t[c]
		}
		return rule3986(c, what)
	}
}

func rule3986(c byte, what string) string {
	return describe(c) + " is not allowed in the " + what + " (RFC 3986); encode it as " + encoded(c)
}

// ruleTables holds the messages of the commonest character errors, built
// on the first error, so that reporting one costs no string building:
// checking a file of URLs with many invalid lines stays fast.
var ruleTables = sync.OnceValue(func() *charRules {
	t := &charRules{rfc3986: make(map[string]*[256]string)}
	for _, what := range []string{"path", "query", "fragment", "host", "userinfo"} {
		t.rfc3986[what] = new([256]string)
	}
	for i := range 256 {
		c := byte(i)
		switch {
		case c >= 0x80:
			t.control[c] = "non-ASCII byte 0x" + hexByte(c) + " must be encoded as " + encoded(c)
		case cc.Is(c, cc.Control):
			t.control[c] = "control character 0x" + hexByte(c) + " must be encoded as " + encoded(c)
		case cc.Is(c, cc.Unsafe):
			t.unsafe1738[c] = describe(c) + " is unsafe and must be encoded as " + encoded(c)
		}
		for what, tab := range t.rfc3986 {
			tab[c] = rule3986(c, what)
		}
	}
	return t
})

type charRules struct {
	control    [256]string             // controls and non-ASCII bytes, every mode
	unsafe1738 [256]string             // RFC 1738 unsafe characters
	rfc3986    map[string]*[256]string // RFC 3986, by component
}

// port checks a port: digits (at least one when required) and at most
// 65535. The BNFs say only "digits"; the bound is TCP's.
func (p *parser) port(u *URL, required bool) {
	if !u.HasPort {
		return
	}
	v, off := u.Port, p.portAt
	if v == "" {
		if required {
			p.fail(off, ErrBadPort, "empty port after ':' (RFC 1738 port = digits)")
		}
		return
	}
	n := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			p.fail(off+i, ErrBadPort, describe(c)+" in the port: a port is decimal digits")
			return
		}
		if n = n*10 + int(c-'0'); n > 65535 {
			p.fail(off, ErrBadPort, "port "+v+" is out of range (0 to 65535)")
			return
		}
	}
}

// schemeSyntax1738 returns the registry row of u's scheme when RFC 1738
// gives it a grammar, or nil for a scheme it handles with the generic
// rules.
func schemeSyntax1738(u *URL) *registry.Scheme {
	if u.Scheme == "" {
		return nil
	}
	if sch := lookupScheme(u.Scheme); sch != nil && sch.Grammar1738 {
		return sch
	}
	return nil
}

// authority1738 checks the authority: RFC 1738 3.1's common Internet
// scheme syntax for the schemes that use it, *xchar for the others
// (genericurl = scheme ":" schemepart, schemepart = *xchar).
func (p *parser) authority1738(u *URL, bad bool) {
	sch := p.sch
	if sch == nil || !sch.IP {
		if !bad {
			return
		}
		if u.HasUser {
			p.scan(p.userAt, u.User, cc.Xchar, "user name")
			if u.HasPassword {
				p.scan(p.passAt, u.Password, cc.Xchar, "password")
			}
		}
		p.scan(p.hostAt, u.Host, cc.Xchar, "host")
		if u.HasPort {
			p.scan(p.portAt, u.Port, cc.Xchar, "port")
		}
		return
	}
	name := sch.Name
	if u.HasUser {
		if !sch.Login {
			p.fail(p.userAt, ErrSchemeSyntax, "a user name or password is not allowed in "+name+" URLs (RFC 1738 section 5, "+name+"url)")
			if p.stop() {
				return
			}
		}
		if bad {
			p.scan(p.userAt, u.User, cc.User1738, "user name")
			if u.HasPassword {
				p.scan(p.passAt, u.Password, cc.User1738, "password")
			}
		}
		if p.stop() {
			return
		}
		p.loginDelimiters(u)
		if p.stop() {
			return
		}
	}
	p.hostname1738(u.Host, p.hostAt, sch.EmptyHost, false)
	if p.stop() {
		return
	}
	if sch.HostOnly && u.HasPort {
		p.fail(p.portAt-1, ErrSchemeSyntax, "a "+name+" URL names a host, not host:port: it takes no port (RFC 1738 section 5, "+name+"url)")
		return
	}
	p.port(u, true)
}

// loginDelimiters reports a ":" or "@" written unencoded in the user
// name or password: RFC 1738 3.1 requires ":", "@" and "/" to be encoded
// there ("/" already ends the authority). The generic scan lets them
// pass, since they delimit the authority.
func (p *parser) loginDelimiters(u *URL) {
	if i := strings.IndexByte(u.User, '@'); i >= 0 {
		p.fail(p.userAt+i, ErrInvalidChar, "'@' must be encoded as %40 in a user name (RFC 1738 3.1)")
		if p.stop() {
			return
		}
	}
	if !u.HasPassword {
		return
	}
	for i := 0; i < len(u.Password); i++ {
		if c := u.Password[i]; c == ':' || c == '@' {
			p.fail(p.passAt+i, ErrInvalidChar, passwordCharRule) // RFC 1738 3.1; the byte is not named
			if p.stop() {
				return
			}
		}
	}
}

// hostname1738 checks host = hostname | hostnumber (RFC 1738 section 5):
//
//	hostname   = *[ domainlabel "." ] toplabel
//	domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
//	toplabel   = alpha | alpha *[ alphadigit | "-" ] alphadigit
//	hostnumber = digits "." digits "." digits "." digits
func (p *parser) hostname1738(h string, off int, emptyOK, inPath bool) {
	if !validHostname1738(h) {
		p.hostname1738Detailed(h, off, emptyOK, inPath)
	}
}

// hostname1738Detailed reports every way h breaks the hostname and
// hostnumber productions. inPath: h lies in the path, whose unsafe and
// control bytes the generic rules have reported already.
func (p *parser) hostname1738Detailed(h string, off int, emptyOK, inPath bool) {
	if h == "" {
		if !emptyOK {
			p.fail(off, ErrBadHost, "empty host (RFC 1738 3.1: a host name or number is required)")
		}
		return
	}
	numeric := true
	for i := 0; i < len(h); i++ {
		if c := h[i]; c != '.' && (c < '0' || c > '9') {
			numeric = false
			break
		}
	}
	if numeric {
		groups, n := 0, 0
		for i := 0; i <= len(h); i++ {
			if i < len(h) && h[i] != '.' {
				n++
				continue
			}
			if n == 0 {
				p.fail(off+i, ErrBadHost, "empty group in host number (RFC 1738 hostnumber = digits \".\" digits \".\" digits \".\" digits)")
				return
			}
			groups, n = groups+1, 0
		}
		if groups != 4 {
			p.fail(off, ErrBadHost, fmt.Sprintf("host number has %d groups, not 4 (RFC 1738 hostnumber = digits \".\" digits \".\" digits \".\" digits)", groups))
		}
		return
	}
	// Characters first, then the shape of the labels, so that errors come
	// in the order of the input.
	badChars := false
	for i := 0; i < len(h); i++ {
		c := h[i]
		if cc.Is(c, cc.Alpha|cc.Digit) || c == '-' || c == '.' {
			continue
		}
		badChars = true
		if c == '%' {
			p.fail(off+i, ErrBadHost, "escapes are not allowed in a hostname (RFC 1738 hostname)")
		} else if cc.Is(c, cc.Unsafe|cc.Control) {
			if !inPath {
				p.fail(off+i, ErrInvalidChar, p.charRule(c, "host"))
			}
		} else {
			p.fail(off+i, ErrBadHost, describe(c)+" is not allowed in a hostname (letters, digits and '-'; RFC 1738 hostname)")
		}
		if p.stop() {
			return
		}
	}
	if badChars {
		return
	}
	start := 0
	for i := 0; i <= len(h); i++ {
		if i < len(h) && h[i] != '.' {
			continue
		}
		label := h[start:i]
		switch {
		case label == "":
			if i == len(h) {
				p.fail(off+i-1, ErrBadHost, "a hostname may not end with '.' (RFC 1738 hostname)")
			} else {
				p.fail(off+i, ErrBadHost, "empty label in hostname (RFC 1738 hostname)")
			}
		case label[0] == '-':
			p.fail(off+start, ErrBadHost, "a hostname label may not start with '-' (RFC 1738 domainlabel)")
		case label[len(label)-1] == '-':
			p.fail(off+i-1, ErrBadHost, "a hostname label may not end with '-' (RFC 1738 domainlabel)")
		case i == len(h) && !cc.Is(label[0], cc.Alpha):
			p.fail(off+start, ErrBadHost, "the last label of a hostname must start with a letter (RFC 1738 toplabel); "+h+" is neither a hostname nor a host number")
		}
		if p.stop() {
			return
		}
		start = i + 1
	}
}

// validHostname1738 is the one-pass test of hostname1738 for the common,
// valid case; hostname1738 explains a failure in detail.
func validHostname1738(h string) bool {
	return hostnameShape1738(h, hostname1738)
}

// hostnameShape1738 is validHostname1738 for an h made of letters,
// digits, '-' and '.' only: no label empty or starting or ending with
// '-', and a last label that starts with a letter, or else four labels
// of digits (a hostnumber). With a class bit, it also checks, in the same
// rounds, that every byte of h is in that class.
func hostnameShape1738(h string, bit uint32) bool {
	if h == "" {
		return false
	}
	// '-' (0x2d) and '.' (0x2e) are the only bytes below '/' here. Of two
	// in a row, only "--" is allowed ("xn--"); the start counts as a '.'.
	// Eight bytes a round (labelMarks); prevD and prevDot carry the marks
	// of the byte before the round.
	t := &compTable
	class := ^uint32(0)
	prevD, prevDot := uint64(0x80), uint64(0x80)
	i := 0
	for ; len(h)-i >= 8; i += 8 {
		r := h[i : i+8]
		class &= classes8(r)
		d, dots, ok := labelMarks(cc.Word(r), prevD, prevDot)
		if !ok {
			return false
		}
		prevD, prevDot = d>>56, dots>>56
	}
	lastDot := -1 // where the last '.' is, when a round found it
	if i < len(h) && i >= 8 {
		// The rest in one more round over the last eight bytes: their
		// first is before i, so every pair with a byte past i is inside
		// the round (those before i are checked again). A byte loop here
		// mispredicted its exit on almost every host.
		r := h[len(h)-8:]
		class &= classes8(r)
		d, dots, ok := labelMarks(cc.Word(r), 0, 0)
		if !ok {
			return false
		}
		prevD, prevDot, i = d>>56, dots>>56, len(h)
		if dots != 0 {
			lastDot = len(h) - 8 + (63-bits.LeadingZeros64(dots))>>3
		}
	}
	wasD, wasDot := prevD != 0, prevDot != 0
	for ; i < len(h); i++ {
		c := h[i]
		class &= t[c]
		isD, isDot := c <= '.', c == '.'
		if isD && wasDot || isDot && wasD {
			return false
		}
		wasD, wasDot = isD, isDot
	}
	if wasD || bit != 0 && class&bit == 0 {
		return false // an empty last label, or one ending with '-'; a byte out of the class
	}
	if lastDot < 0 {
		lastDot = strings.LastIndexByte(h, '.')
	}
	if h[lastDot+1] > '9' {
		return true // the toplabel starts with a letter
	}
	return span(h, 0, digits|dot) == len(h) && strings.Count(h, ".") == 3
}

// labelMarks marks, in each byte's top bit, the '-' and '.' of the eight
// hostname bytes of w (d: (b|0x80)-0x2f borrows from no other byte and
// keeps its top bit exactly when b >= '/') and the '.' alone (dots: the
// even one of the two). ok is false when two marked bytes are in a row
// other than "--", prevD and prevDot being the marks of the byte before.
func labelMarks(w, prevD, prevDot uint64) (d, dots uint64, ok bool) {
	const top = 0x8080808080808080
	d = ^((w | top) - 0x2f2f2f2f2f2f2f2f) & top
	dots = d &^ (w << 7)
	return d, dots, d&(dots<<8|prevDot)|dots&(d<<8|prevD) == 0
}

// authority1630 checks the authority against RFC 1630's generic BNF:
// xpalpha characters, and a port of digits.
func (p *parser) authority1630(u *URL) {
	if u.HasUser {
		p.scan(p.userAt, u.User, cc.Xpalpha1630, "user name")
		if u.HasPassword {
			p.scan(p.passAt, u.Password, cc.Xpalpha1630, "password")
		}
		if p.stop() {
			return
		}
	}
	p.scan(p.hostAt, u.Host, cc.Xpalpha1630, "host")
	if p.stop() {
		return
	}
	p.port(u, true)
}

// authority3986 checks RFC 3986's authority = [ userinfo "@" ] host [ ":" port ].
func (p *parser) authority3986(u *URL, bad bool) {
	if bad && u.HasUser {
		p.scan(p.userAt, u.User, cc.Userinfo3986, "userinfo")
		if u.HasPassword {
			p.scan(p.passAt, u.Password, cc.Userinfo3986, "password")
		}
		if p.stop() {
			return
		}
	}
	if strings.HasPrefix(u.Host, "[") {
		p.ipLiteral(u.Host, p.hostAt)
		if p.afterLiteral > 0 && !p.stop() {
			p.fail(p.afterLiteral, ErrBadHost, describe(p.s[p.afterLiteral])+" after an IP literal: only ':' and a port may follow ']'")
		}
	} else if bad {
		p.scan(p.hostAt, u.Host, cc.RegName3986, "host")
	}
	if p.stop() {
		return
	}
	p.port(u, false)
}

// noScheme applies RFC 3986 4.2 to a relative reference without an
// authority whose path starts at i: its first segment may not contain ":".
func (p *parser) noScheme(i int) {
	s := p.s
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '/', '?', '#':
			return
		case ':':
			p.fail(j, ErrInvalidChar, "':' in the first segment of a relative path must be encoded as %3A: it would read as a scheme (RFC 3986 4.2)")
			return
		}
	}
}
