package urlkit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/internal/safetext"
	"golang.org/x/net/idna"
)

// The Lenient mode's repairs. ParseMode(s, Lenient) runs them before the
// parser (prepare): it removes surrounding whitespace, a "<...>" or
// "<URL:...>" wrapper and a "URL:" prefix (RFC 1738 appendix), drops the
// line breaks and tabs that wrapping adds (inside a wrapper, every
// whitespace character, as the appendix says), encodes spaces, raw
// non-ASCII bytes, national and other unsafe characters, and a "%" not
// followed by two hex digits, and converts an internationalized host name
// to its IDNA A-label. A host is never encoded: a repair that would make
// it no name, address or IDNA name is an error. Each repair is reported
// as a Warning with the offset in the input. The repaired URL must then be
// a valid RFC 3986 URI; its errors are reported with offsets in the input.
//
// The canonical form keeps what RFC 3986 allows unencoded, "~" included,
// so that modern URLs stay as they are written; Normalize and the RFC 1738
// check say where RFC 1738 would encode more.

// prepared says how the text the parser reads maps back to the input:
// the pass before the parser (prepare) may have removed a "URL:" prefix
// (text is the input from shift on) or, in the Lenient mode, repaired the
// input (repaired: the offset in the input of each byte of text is found
// again, by repairOffsets, only for an error to locate).
type prepared struct {
	shift    int
	repaired bool
	warnings []Warning
}

// prepare is the pass that runs before the parser, never inside it. In
// the Lenient mode it repairs s (repairer.run); in the strict modes it
// removes the "URL:" prefix that RFC 1738's appendix writes before a
// scheme, with a warning, and leaves everything else to the parser. It
// returns the text to parse; pre is nil when that is s itself, so that
// valid input costs one prefix test.
func prepare(s string, m Mode) (text string, pre *prepared, err error) {
	if m == Lenient {
		if !needsRepair(s) {
			return s, nil, nil
		}
		// Room for a few escapes, so that the text seldom grows. The
		// offsets of its bytes in s are not kept: an int a byte was most
		// of the garbage of parsing text with repairs, and they serve
		// only to locate an error.
		r := repairer{in: s, out: make([]byte, 0, len(s)+16)}
		text, err := r.run()
		if r.unlisted > 0 {
			r.warnings = append(r.warnings, Warning{Offset: r.unlistedAt,
				Message: fmt.Sprintf("and %d more repairs, not listed (the first %d are)", r.unlisted, maxRepairWarnings)})
		}
		return text, &prepared{repaired: true, warnings: r.warnings}, err
	}
	if len(s) < 5 || s[0]|0x20 != 'u' || !resolver.HasPrefixFold(s, "URL:") {
		return s, nil, nil
	}
	pre = &prepared{}
	for resolver.HasPrefixFold(s[pre.shift:], "URL:") && resolver.StartsWithScheme(s[pre.shift+4:]) {
		pre.warnings = append(pre.warnings, Warning{Offset: pre.shift, Message: urlPrefixRemoved})
		pre.shift += 4
	}
	if pre.shift == 0 {
		return s, nil, nil
	}
	return s[pre.shift:], pre, nil
}

const urlPrefixRemoved = "\"URL:\" prefix removed (RFC 1738 appendix)"

// locate turns the parser's error e about the prepared text into one
// about the input s: its offset in s and s, redacted, as the input.
func (pre *prepared) locate(s string, e *Error) {
	if pre == nil {
		return
	}
	e.Input = safetext.RedactURL(s)
	var from []int
	if pre.repaired {
		from = repairOffsets(s)
	}
	switch {
	case from == nil:
		e.Offset += pre.shift
	case e.Offset >= 0 && e.Offset < len(from):
		e.Offset = from[e.Offset]
		e.Rule += " (after lenient repairs)"
	default:
		e.Offset = len(s)
		e.Rule += " (after lenient repairs)"
	}
}

// warningList returns the warnings of the pass, none for a nil pass.
func (pre *prepared) warningList() []Warning {
	if pre == nil {
		return nil
	}
	return pre.warnings
}

// needsRepair reports whether s holds anything the lenient parser changes.
func needsRepair(s string) bool {
	if s == "" {
		return false
	}
	if isSpace(s[0]) || isSpace(s[len(s)-1]) || s[0] == '<' || resolver.HasPrefixFold(s, "URL:") {
		return true
	}
	hash, at := false, false
	closeAt := -1 // the "]" of an IP literal host
	for i := 0; i < len(s); i++ {
		switch repairClass[s[i]] {
		case repairNever:
			continue
		case repairAlways:
			return true
		}
		switch s[i] {
		case '[':
			// The brackets of an IP literal are the host's own (RFC 3986
			// 3.2.2); anywhere else they are encoded.
			if closeAt = ipLiteralClose(s, i); closeAt < 0 {
				return true
			}
		case ']':
			if i != closeAt {
				return true
			}
		case '@':
			if at {
				return true // perhaps an "@" inside a userinfo
			}
			at = true
		case '%':
			if i+2 >= len(s) || !cc.IsHex(s[i+1]) || !cc.IsHex(s[i+2]) {
				return true
			}
		case '#':
			if hash {
				return true
			}
			hash = true
		}
	}
	return false
}

// ipLiteralClose returns the offset of the "]" that closes the "[" at
// s[i] when that "[" starts the host, right after "//" (and a userinfo)
// at the start of s or after its scheme, and the "]" ends it; else -1.
func ipLiteralClose(s string, i int) int {
	auth := strings.LastIndex(s[:i], "//")
	if auth < 0 || auth > 0 && (strings.IndexByte(s, ':') != auth-1 || !resolver.StartsWithScheme(s[:auth])) {
		return -1
	}
	between := s[auth+2 : i]
	if strings.ContainsAny(between, "/?#[]") || between != "" && between[len(between)-1] != '@' {
		return -1
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 || strings.ContainsAny(s[i+1:i+end], "/?#[@%") {
		return -1 // not in the authority, or a zone or escape for the repairs
	}
	end += i
	if end+1 < len(s) && strings.IndexByte(":/?#", s[end+1]) < 0 {
		return -1
	}
	// An "@" after it in the authority ends a userinfo that the "[" is
	// part of ("http://[::1]:@h/"): the host is after that "@".
	rest := s[end+1:]
	if k := strings.IndexAny(rest, "/?#"); k >= 0 {
		rest = rest[:k]
	}
	if strings.IndexByte(rest, '@') >= 0 {
		return -1
	}
	return end
}

// Classes of repairClass.
const (
	repairNever   = iota // a byte the lenient parser never changes
	repairAlways         // a byte it always encodes or drops
	repairContext        // '@', '%', '#', '[' and ']': it depends on where they are
)

// repairClass tells needsRepair, with one load per byte, what the
// repairer would do with each byte.
var repairClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}", byte(c)) >= 0:
			t[c] = repairAlways
		case c == '@' || c == '%' || c == '#' || c == '[' || c == ']':
			t[c] = repairContext
		}
	}
	return t
}()

// squeeze returns the start of s (up to 64 bytes of it) without the
// whitespace the repairs drop (whitespaceRun); a run they keep, whose
// spaces they encode, is one space.
func squeeze(s string, wrapped bool) string {
	var b []byte
	for i := 0; i < len(s) && len(b) < 64; i++ {
		if !isSpace(s[i]) {
			b = append(b, s[i])
			continue
		}
		end, drop := whitespaceRun(s, i, len(s), wrapped)
		if !drop {
			b = append(b, ' ')
		}
		i = end - 1
	}
	return string(b)
}

// whitespaceRun returns where the run of whitespace at s[i] ends, and
// whether the repairs drop all of it (whitespace): inside a wrapper, a
// run holding a line break (the spaces around it too), a run without a
// space.
func whitespaceRun(s string, i, hi int, wrapped bool) (end int, drop bool) {
	lineBreak, space := false, false
	for i < hi && isSpace(s[i]) {
		lineBreak = lineBreak || s[i] == '\n' || s[i] == '\r'
		space = space || s[i] == ' '
		i++
	}
	return i, wrapped || lineBreak || !space
}

// urlPrefixEnd returns the offset after the "URL:" that s[lo:hi] starts
// with once the repairs drop their whitespace ("UR\nL:"), or -1.
func urlPrefixEnd(s string, lo, hi int, wrapped bool) int {
	i := lo
	for k := 0; k < 4; k++ {
		if end, drop := whitespaceRun(s, i, hi, wrapped); k > 0 && drop {
			i = end
		}
		if i >= hi || s[i] != "URL:"[k] && s[i] != "url:"[k] {
			return -1
		}
		i++
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// repairOffsets repairs s again, keeping the offset in s of each byte of
// the repaired text; nil when nothing is left (locate then reads offsets
// as they are).
func repairOffsets(s string) []int {
	n := len(s) + 16
	r := repairer{in: s, out: make([]byte, 0, n), from: make([]int, 0, n), track: true}
	r.run()
	if len(r.from) == 0 {
		return nil
	}
	return r.from
}

// repairer builds the canonical form of a lenient input.
type repairer struct {
	in       string
	out      []byte
	from     []int // with track, from[j] is the offset in in of out[j]
	track    bool
	warnings []Warning
	// unlisted repairs past maxRepairWarnings, the first at unlistedAt
	unlisted, unlistedAt int
	// pwAt:pwEnd is the password's span in in, found on the first message
	pwAt, pwEnd int
	pwSet       bool
}

// maxRepairWarnings bounds the warnings of one lenient parse: a line of a
// megabyte of spaces has a repair per space, and its warnings took 80 MB
// and more time than the repairs. One more warning counts the rest.
const maxRepairWarnings = 1000

func (r *repairer) warn(off int, format string, args ...any) {
	if len(r.warnings) >= maxRepairWarnings {
		if r.unlisted == 0 {
			r.unlistedAt = off
		}
		r.unlisted++
		return
	}
	msg := passwordRepaired
	if !r.inPassword(off) {
		msg = fmt.Sprintf(format, args...)
	}
	r.warnings = append(r.warnings, Warning{Offset: off, Message: msg})
}

// passwordRepaired is the warning of a repair in the password, which
// names no byte of it: the input shown with it hides the password.
const passwordRepaired = "the password repaired: a character in it encoded or removed"

// inPassword reports whether off is in the input's password.
func (r *repairer) inPassword(off int) bool {
	if !r.pwSet {
		r.pwAt, r.pwEnd = safetext.PasswordSpan(r.in)
		r.pwSet = true
	}
	return off >= r.pwAt && off < r.pwEnd
}

func (r *repairer) emit(off int, c byte) {
	r.out = append(r.out, c)
	if r.track {
		r.from = append(r.from, off)
	}
}

func (r *repairer) emitEscaped(off int, c byte) {
	r.out = append(r.out, '%', cc.UpperHex[c>>4], cc.UpperHex[c&15])
	if r.track {
		r.from = append(r.from, off, off, off)
	}
}

func (r *repairer) run() (string, error) {
	s := r.in
	lo, hi := 0, len(s)
	// Like WHATWG, trim every C0 control and space at both ends.
	trim := func() {
		for lo < hi && s[lo] <= ' ' {
			lo++
		}
		for hi > lo && s[hi-1] <= ' ' {
			hi--
		}
	}
	trim()
	if lo > 0 {
		r.warn(0, "leading whitespace and control characters removed")
	}
	// A UTF-8 byte order mark, which editors write at the start of a
	// file (and so of its first line), is no part of a URL.
	if strings.HasPrefix(s[lo:hi], "\ufeff") {
		r.warn(lo, "byte order mark (U+FEFF) removed")
		lo += len("\ufeff")
		at := lo
		trim()
		if lo > at {
			r.warn(at, "leading whitespace and control characters removed")
		}
	}
	if hi < len(s) {
		r.warn(hi, "trailing whitespace and control characters removed")
	}
	wrapped := false
	if hi-lo >= 2 && s[lo] == '<' && s[hi-1] == '>' {
		r.warn(lo, "<...> wrapper removed (RFC 1738 appendix)")
		lo, hi, wrapped = lo+1, hi-1, true
		trim()
	}
	// Every "URL:" prefix that stands before a scheme goes (the canonical
	// form of "URL:URL:news:x" is "news:x", which reads back the same);
	// the prefix and the scheme are looked for as the repairs will leave
	// them, without the whitespace they drop.
	for {
		end := urlPrefixEnd(s, lo, hi, wrapped)
		if end < 0 || !resolver.StartsWithScheme(squeeze(strings.TrimLeft(s[end:hi], " \t\r\n"), wrapped)) {
			break
		}
		r.warn(lo, urlPrefixRemoved)
		lo = end
		trim()
	}
	userLo, hostLo, hostHi := r.hostSpan(lo, hi)
	hash := false
	for i := lo; i < hi; {
		c := s[i]
		if c == '@' && userLo >= 0 && i >= userLo && i < hostLo-1 {
			// Only the last "@" of the authority ends the userinfo.
			r.warn(i, "'@' inside the userinfo encoded as %%40")
			r.emitEscaped(i, c)
			i++
			continue
		}
		if i == hostLo && hostHi > hostLo {
			if err := r.host(hostLo, hostHi, wrapped); err != nil {
				return "", err
			}
			i = hostHi
			continue
		}
		switch {
		case isSpace(c):
			i = r.whitespace(i, hi, wrapped)
			continue
		case c == '%':
			if i+2 < hi && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
				r.emit(i, c)
			} else {
				r.warn(i, "'%%' not followed by two hex digits encoded as %%25")
				r.emitEscaped(i, c)
			}
		case c == '#' && !hash:
			hash = true
			r.emit(i, c)
		case c >= 0x80:
			_, n := utf8.DecodeRuneInString(s[i:hi])
			if n < 1 {
				n = 1
			}
			var enc strings.Builder
			for k := 0; k < n; k++ {
				r.emitEscaped(i+k, s[i+k])
				enc.WriteString(encoded(s[i+k]))
			}
			r.warn(i, "non-ASCII character %q encoded as %s", s[i:i+n], enc.String())
			i += n
			continue
		case c < ' ' || c == 0x7f:
			r.warn(i, "control character 0x%02X encoded as %s", c, encoded(c))
			r.emitEscaped(i, c)
		case c == '#' || c == '[' || c == ']' || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			r.warn(i, "%s is unsafe here; encoded as %s", describe(c), encoded(c))
			r.emitEscaped(i, c)
		default:
			r.emit(i, c)
		}
		i++
	}
	return string(r.out), nil
}

// whitespace handles the run of whitespace that starts at i and returns
// where it ends. Inside a wrapper the whole run is dropped (RFC 1738
// appendix); elsewhere a run holding a line break is dropped as wrapping
// whitespace, tabs are dropped and spaces are encoded.
func (r *repairer) whitespace(i, hi int, wrapped bool) int {
	s := r.in
	j := i
	lineBreak := false
	for j < hi && isSpace(s[j]) {
		lineBreak = lineBreak || s[j] == '\n' || s[j] == '\r'
		j++
	}
	switch {
	case wrapped:
		r.warn(i, "whitespace inside <...> removed (RFC 1738 appendix: it is ignored when extracting the URL)")
	case lineBreak:
		r.warn(i, "line break and the whitespace around it removed (added by line wrapping)")
	default:
		spaces := false
		for k := i; k < j; k++ {
			if s[k] == ' ' {
				r.emitEscaped(k, ' ')
				spaces = true
			}
		}
		if spaces {
			r.warn(i, "space encoded as %%20")
		} else {
			r.warn(i, "tab removed")
		}
	}
	return j
}

// hostWhitespace drops the run of whitespace at i in a host when it is
// line wrapping (inside a wrapper, or holding a line break) or tabs, and
// returns where it ends; it returns 0 for a run holding a space, which no
// repair can make part of a host name.
func (r *repairer) hostWhitespace(i, hi int, wrapped bool) int {
	s := r.in
	j, lineBreak, space := i, false, false
	for j < hi && isSpace(s[j]) {
		lineBreak = lineBreak || s[j] == '\n' || s[j] == '\r'
		space = space || s[j] != '\t'
		j++
	}
	if space && !wrapped && !lineBreak {
		return 0
	}
	return r.whitespace(i, hi, wrapped)
}

// hostError is the error for a host the repairs cannot make valid.
func (r *repairer) hostError(off int, what string) error {
	if r.inPassword(off) {
		what = "a character" // of a password read as the host: not named
	}
	return &Error{Op: "parse", Input: safetext.RedactURL(r.in), Offset: off, Err: ErrBadHost,
		Rule: what + ": a host is a name, an address or an internationalized (IDNA) name, and encoding it would make none of these (RFC 1738 3.1, RFC 3986 3.2.2)"}
}

// hostSpan finds the userinfo start and the host of a "scheme://" or "//"
// input in s[lo:hi]; it returns -1 for each part there is not.
func (r *repairer) hostSpan(lo, hi int) (user, hostLo, hostHi int) {
	s := r.in
	i := lo
	for i < hi && cc.Is(s[i], cc.SchemeChar) {
		i++
	}
	if i < hi && s[i] == ':' && i > lo {
		i++
	} else {
		i = lo
	}
	if !strings.HasPrefix(s[i:hi], "//") {
		return -1, -1, -1
	}
	a := i + 2
	e := hi
	if k := strings.IndexAny(s[a:hi], "/?#"); k >= 0 {
		e = a + k
	}
	h, user := a, -1
	if at := strings.LastIndexByte(s[a:e], '@'); at >= 0 {
		h, user = a+at+1, a
	}
	if h < e && s[h] == '[' {
		if k := strings.IndexByte(s[h:e], ']'); k >= 0 {
			return user, h, h + k + 1
		}
		return user, h, e
	}
	if k := strings.IndexByte(s[h:e], ':'); k >= 0 {
		return user, h, h + k
	}
	return user, h, e
}

// host emits the host s[lo:hi], converting a non-ASCII name to its IDNA
// A-label and keeping the brackets of an IP literal. Line-wrapping
// whitespace is dropped, as everywhere; any other repair would yield a
// host that is no name, no address and no IDNA name ("a%20b"), so a
// space, an unsafe or control character or a stray "%" in the host is an
// error rather than a repair.
func (r *repairer) host(lo, hi int, wrapped bool) error {
	s := r.in
	mark := len(r.out)
	ascii := true
	for i := lo; i < hi; i++ {
		c := s[i]
		switch {
		case isSpace(c):
			if j := r.hostWhitespace(i, hi, wrapped); j > 0 {
				i = j - 1
				continue
			}
			return r.hostError(i, describe(c)+" in the host")
		case c >= 0x80:
			ascii = false
		case c == '%' && !(i+2 < hi && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2])):
			return r.hostError(i, "'%' not followed by two hex digits in the host")
		case strings.IndexByte("\"<>\\^`{|}", c) >= 0 || c < ' ' || c == 0x7f:
			return r.hostError(i, describe(c)+" in the host")
		default:
			r.emit(i, c)
		}
	}
	if ascii {
		return nil
	}
	h := strings.Map(func(r rune) rune {
		if r < 0x80 && isSpace(byte(r)) {
			return -1
		}
		return r
	}, s[lo:hi])
	a, err := idna.Lookup.ToASCII(h)
	if err != nil {
		rule := "internationalized host name is not valid IDNA"
		if !r.inPassword(lo) { // IDNA's message quotes the label
			rule += ": " + err.Error()
		}
		return &Error{Op: "parse", Input: safetext.RedactURL(s), Offset: lo, Err: ErrBadHost, Rule: rule}
	}
	r.warn(lo, "internationalized host name %q converted to its IDNA A-label %s", h, a)
	r.out = r.out[:mark]
	if r.track {
		r.from = r.from[:mark]
	}
	for i := 0; i < len(a); i++ {
		r.emit(lo, a[i])
	}
	return nil
}
