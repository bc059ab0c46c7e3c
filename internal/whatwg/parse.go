package whatwg

import (
	"slices"
	"strconv"
	"strings"
)

// ValidationError is one of the Standard's validation errors: its name
// as the Standard gives it ("invalid-URL-unit", "host-missing", ...) and
// the byte offset in the input where it was found.
type ValidationError struct {
	Name   string
	Offset int
}

// Error is the parser's failure: the validation error that made the
// input no URL.
type Error struct {
	ValidationError
}

func (e *Error) Error() string {
	return "offset " + strconv.Itoa(e.Offset) + ": " + e.Name + " (URL Standard: failure)"
}

// parser holds one run of the basic URL parser over the input in, which
// has lost its leading and trailing C0 controls and spaces and its tabs
// and newlines already.
type parser struct {
	in      string
	b       builder
	u       URL
	base    *URL
	special bool
	file    bool
	defPort int
	// override is set by the setters (the Standard's state override): "?"
	// and "#" then end no path, and the host state stops after its host.
	override bool
	collect  bool
	errs     []ValidationError
	failed   *Error
}

// Parse runs the basic URL parser on input, against base when base is
// not nil.
func Parse(input string, base *URL) (URL, error) {
	var p parser
	p.init(prepare(input))
	p.base = base
	p.run()
	if p.failed != nil {
		return URL{}, p.failed
	}
	p.u.Href = p.b.String()
	return p.u, nil
}

// Check is Parse listing the validation errors met on the way (the first
// maxErrors of them), sorted by their offsets in input; the URL is as
// Parse returns it (a failure is the error, and in the list too).
func Check(input string, base *URL) (URL, []ValidationError, error) {
	var p parser
	in := prepare(input)
	p.init(in)
	p.base = base
	p.collect = true
	// The trimmed and removed characters are errors at their own offsets.
	lead := leading(input)
	tail := len(input) - trailing(input, lead)
	for i := 0; i < len(input); i++ {
		c := input[i]
		if c == '\t' || c == '\n' || c == '\r' || c <= ' ' && (i < lead || i >= tail) {
			p.verr("invalid-URL-unit", i)
		}
	}
	pre := len(p.errs)
	p.run()
	// Offsets in the prepared text map back to the input: shifted by
	// the leading run, and past each removed tab or newline.
	var kept []int // kept[k]: the input's offset of the prepared text's byte k
	if len(in) != tail-lead {
		kept = make([]int, 0, len(in)+1)
		for i := lead; i < tail; i++ {
			if c := input[i]; c != '\t' && c != '\n' && c != '\r' {
				kept = append(kept, i)
			}
		}
		kept = append(kept, tail)
	}
	orig := func(off int) int {
		if kept == nil {
			return lead + off
		}
		return kept[min(off, len(kept)-1)]
	}
	for k := pre; k < len(p.errs); k++ {
		p.errs[k].Offset = orig(p.errs[k].Offset)
	}
	slices.SortStableFunc(p.errs, func(a, b ValidationError) int { return a.Offset - b.Offset })
	if p.failed != nil {
		p.failed.Offset = orig(p.failed.Offset)
		return URL{}, p.errs, p.failed
	}
	p.u.Href = p.b.String()
	return p.u, p.errs, nil
}

// maxErrors bounds Check's list: a megabyte of "%" is not a million
// errors.
const maxErrors = 1000

func leading(s string) int {
	i := 0
	for i < len(s) && s[i] <= ' ' {
		i++
	}
	return i
}

// trailing is the length of s's trailing C0 controls and spaces, after
// its leading ones (lead bytes).
func trailing(s string, lead int) int {
	i := 0
	for i < len(s)-lead && s[len(s)-1-i] <= ' ' {
		i++
	}
	return i
}

// prepare removes the leading and trailing C0 controls and spaces and
// every tab and newline: a substring of s unless s holds a tab or newline.
func prepare(s string) string {
	if len(s) > 0 && s[0] > ' ' && s[len(s)-1] > ' ' {
		return removeTabNL(s)
	}
	lo, hi := 0, len(s)
	for lo < hi && s[lo] <= ' ' {
		lo++
	}
	for hi > lo && s[hi-1] <= ' ' {
		hi--
	}
	s = s[lo:hi]
	return removeTabNL(s)
}

// removeTabNL removes every ASCII tab and newline.
func removeTabNL(s string) string {
	if !hasControl(s) {
		return s
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\n' || c == '\r' {
			var b strings.Builder
			b.Grow(len(s))
			for j := 0; j < len(s); j++ {
				if c := s[j]; c != '\t' && c != '\n' && c != '\r' {
					b.WriteByte(c)
				}
			}
			return b.String()
		}
	}
	return s
}

// hasControl reports whether s has a byte below 0x0E (which tab, LF and
// CR are), eight bytes a round: (x - 0x0E...) & ^x & 0x80... has a
// byte's top bit set exactly when that byte is below 0x0E.
func hasControl(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; len(s) >= 8; s = s[8:] {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if (x-ones*0x0E)&^x&highs != 0 {
			return true
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x0E {
			return true
		}
	}
	return false
}

func (p *parser) init(in string) {
	p.in = in
	p.b.in = in
	p.u.queryStart, p.u.fragStart, p.u.port = -1, -1, -1
}

// verr records a validation error at offset off of p.in.
func (p *parser) verr(name string, off int) {
	if p.collect && len(p.errs) < maxErrors {
		p.errs = append(p.errs, ValidationError{name, off})
	}
}

// fail records the failure; the caller returns.
func (p *parser) fail(name string, off int) {
	if p.failed == nil {
		p.failed = &Error{ValidationError{name, off}}
		if p.collect {
			p.errs = append(p.errs, ValidationError{name, off})
		}
	}
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isSchemeChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.'
}

// schemeEnd returns the index of the ":" that ends a scheme at the start
// of s, or -1.
func schemeEnd(s string) int {
	if len(s) == 0 || !isAlpha(s[0]) {
		return -1
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			return i
		}
		if !isSchemeChar(c) {
			return -1
		}
	}
	return -1
}

// lowerScheme reports whether the scheme s is in lower case already,
// testing the common ones first.
func lowerScheme(s string) bool {
	switch s {
	case "https", "http", "file":
		return true
	}
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return false
		}
	}
	return true
}

func (p *parser) setScheme(scheme string) {
	p.special, p.defPort = special(scheme)
	p.file = scheme == "file"
}

func (p *parser) run() {
	in := p.in
	i := schemeEnd(in)
	if i < 0 {
		p.noScheme()
		return
	}
	if lowerScheme(in[:i]) {
		p.b.writeString(in[:i])
	} else {
		p.b.writeLower(in[:i])
	}
	p.u.schemeEnd = i
	scheme := p.b.slice(0, i)
	p.b.writeByte(':')
	p.emptyAuthority()
	p.setScheme(scheme)
	i++
	switch {
	case p.file:
		if p.base == nil || p.base.Scheme() != "file" {
			p.base = nil
		}
		if !strings.HasPrefix(in[i:], "//") {
			p.verr("special-scheme-missing-following-solidus", i)
		}
		p.fileState(i)
	case p.special:
		if p.base != nil && p.base.Scheme() == scheme {
			if strings.HasPrefix(in[i:], "//") {
				p.authority(p.skipSlashes(i + 2))
			} else {
				p.relative(i)
			}
			return
		}
		if !strings.HasPrefix(in[i:], "//") {
			p.verr("special-scheme-missing-following-solidus", i)
		}
		p.authority(p.skipSlashes(i))
	case i < len(in) && in[i] == '/':
		if i+1 < len(in) && in[i+1] == '/' {
			p.authority(i + 2)
			return
		}
		p.u.pathStart = p.b.len()
		p.tail(p.path(i + 1))
	default:
		p.opaquePath(i)
	}
}

// skipSlashes is the special authority ignore slashes state.
func (p *parser) skipSlashes(i int) int {
	for i < len(p.in) && (p.in[i] == '/' || p.in[i] == '\\') {
		if p.in[i] == '\\' {
			p.verr("invalid-reverse-solidus", i)
		}
		i++
	}
	return i
}

// emptyAuthority sets the offsets of a URL without credentials, host
// or port, after the scheme's ":".
func (p *parser) emptyAuthority() {
	at := p.u.schemeEnd + 1
	p.u.userEnd, p.u.passEnd, p.u.hostStart, p.u.hostEnd = at, at, at, at
}

func (p *parser) noScheme() {
	in, base := p.in, p.base
	if base == nil || base.opaque && (len(in) == 0 || in[0] != '#') {
		p.fail("missing-scheme-non-relative-URL", 0)
		return
	}
	if base.opaque {
		p.b.writeString(base.Href[:base.fragEnd()])
		p.u = *base
		p.u.fragStart = -1
		p.fragment(1)
		return
	}
	scheme := base.Scheme()
	p.b.writeString(base.Href[:base.schemeEnd+1])
	p.u.schemeEnd = base.schemeEnd
	p.emptyAuthority()
	p.setScheme(scheme)
	if p.file {
		p.fileState(0)
		return
	}
	p.relative(0)
}

// relative is the relative state: the input is resolved against base,
// whose scheme the output has.
func (p *parser) relative(i int) {
	in, base := p.in, p.base
	if i < len(in) && (in[i] == '/' || p.special && in[i] == '\\') {
		if in[i] == '\\' {
			p.verr("invalid-reverse-solidus", i)
		}
		i++
		if p.special && i < len(in) && (in[i] == '/' || in[i] == '\\') {
			p.authority(p.skipSlashes(i))
			return
		}
		if i < len(in) && in[i] == '/' {
			p.authority(i + 1)
			return
		}
		p.copyAuthority()
		p.u.pathStart = p.b.len()
		p.tail(p.path(i))
		return
	}
	p.copyAuthority()
	p.u.pathStart = p.b.len()
	p.b.writeString(base.Pathname())
	switch {
	case i == len(in):
		p.endPath()
		p.baseQuery()
	case in[i] == '?':
		p.tail(i)
	case in[i] == '#':
		p.endPath()
		p.baseQuery()
		p.fragment(i + 1)
	default:
		p.shorten()
		p.tail(p.path(i))
	}
}

// copyAuthority writes base's credentials, host and port: the output,
// up to the scheme, is base's own, so the offsets are base's.
func (p *parser) copyAuthority() {
	base := p.base
	p.b.writeString(base.Href[base.schemeEnd+1 : base.portEnd()])
	p.u.hasHost, p.u.port = base.hasHost, base.port
	p.u.userEnd, p.u.passEnd, p.u.hostStart, p.u.hostEnd = base.userEnd, base.passEnd, base.hostStart, base.hostEnd
}

// baseQuery writes base's query, if any.
func (p *parser) baseQuery() {
	if p.base.queryStart >= 0 {
		p.u.queryStart = p.b.len()
		p.b.writeString(p.base.Href[p.base.queryStart:p.base.fragEnd()])
	}
}

// authority is the authority state from offset i: credentials, host and
// port up to the path.
func (p *parser) authority(i int) {
	in := p.in
	stop := kSlash | kQuestion | kHash
	if p.special {
		stop |= kBackslash
	}
	t := &cls
	j, at, acc := i, -1, uint16(0)
	for rest := in[i:]; len(rest) >= 8; rest = rest[8:] {
		k := (t[rest[0]] | t[rest[1]]) | (t[rest[2]] | t[rest[3]]) | ((t[rest[4]] | t[rest[5]]) | (t[rest[6]] | t[rest[7]]))
		if k&stop != 0 {
			break
		}
		acc |= k
		j += 8
	}
	for ; j < len(in); j++ {
		k := t[in[j]]
		if k&stop != 0 {
			break
		}
		acc |= k
	}
	if acc&kAt != 0 {
		at = i + strings.LastIndexByte(in[i:j], '@')
	}
	p.b.writeString("//")
	p.u.hasHost = true
	start := p.b.len()
	p.u.userEnd, p.u.passEnd = start, start
	if acc&(kAt|kColon|kBracket|kHostSlow|kForbidden) == 0 && p.special && i < j {
		// The common case: a domain of plain ASCII, no credentials, no
		// port.
		p.u.hostStart = start
		h := in[i:j]
		if endsInNumber(h) {
			if !p.host(h, i, false) {
				return
			}
		} else if acc&kUpper != 0 {
			p.b.writeLower(h)
		} else {
			p.b.writeString(h)
		}
		p.u.hostEnd = p.b.len()
		p.pathStart(j)
		return
	}
	from := i
	if at >= 0 {
		p.verr("invalid-credentials", i)
		user, pass, _ := strings.Cut(in[i:at], ":")
		if user != "" || pass != "" {
			encodeTo(&p.b, user, setUserinfo)
			p.u.userEnd = p.b.len()
			p.u.passEnd = p.u.userEnd
			if pass != "" {
				p.b.writeByte(':')
				encodeTo(&p.b, pass, setUserinfo)
				p.u.passEnd = p.b.len()
			}
			p.b.writeByte('@')
		}
		from = at + 1
		if from == j {
			p.fail("host-missing", from)
			return
		}
	}
	if !p.hostAndPort(from, j) {
		return
	}
	p.pathStart(j)
}

// hostAndPort is the host state (and port state) over in[i:j].
func (p *parser) hostAndPort(i, j int) bool {
	in := p.in
	k, brackets := i, false
	for ; k < j; k++ {
		c := in[k]
		if c == ':' && !brackets {
			break
		}
		if c == '[' {
			brackets = true
		} else if c == ']' {
			brackets = false
		}
	}
	if k == i && (k < j || p.special) {
		p.fail("host-missing", i)
		return false
	}
	p.u.hostStart = p.b.len()
	if !p.host(in[i:k], i, !p.special) {
		return false
	}
	p.u.hostEnd = p.b.len()
	if k < j {
		return p.port(k+1, j)
	}
	return true
}

// port is the port state over in[i:j].
func (p *parser) port(i, j int) bool {
	in := p.in
	n, k := 0, i
	for ; k < j && isDigit(in[k]); k++ {
		if n <= 65535 {
			n = n*10 + int(in[k]-'0')
		}
	}
	if k < j {
		p.fail("port-invalid", k)
		return false
	}
	if i == j {
		return true
	}
	if n > 65535 {
		p.fail("port-out-of-range", i)
		return false
	}
	if n == p.defPort {
		return true
	}
	p.u.port = int32(n)
	p.b.writeByte(':')
	if in[i] != '0' || j-i == 1 {
		p.b.writeString(in[i:j])
	} else {
		var d [8]byte
		p.b.writeBytes(strconv.AppendInt(d[:0], int64(n), 10))
	}
	return true
}

// pathStart is the path start state at offset i.
func (p *parser) pathStart(i int) {
	in := p.in
	p.u.pathStart = p.b.len()
	if p.special {
		if i < len(in) && (in[i] == '/' || in[i] == '\\') {
			if in[i] == '\\' {
				p.verr("invalid-reverse-solidus", i)
			}
			i++
		}
		p.tail(p.path(i))
		return
	}
	if i < len(in) && in[i] == '/' {
		i++
	} else if i == len(in) || in[i] == '?' || in[i] == '#' {
		p.tail(i)
		return
	}
	p.tail(p.path(i))
}

// path is the path state from offset i, appending segments to the path
// the output ends with; it returns where the path ends.
func (p *parser) path(i int) int {
	in := p.in
	stop := kSlash
	if p.special {
		stop |= kBackslash
	}
	if !p.override {
		stop |= kQuestion | kHash
	}
	t := &cls
	if !p.override {
		// A path without dot segments, a byte to encode or a "\" in a
		// special URL is written as it is, in one piece.
		j, acc := i, uint16(0)
		for rest := in[i:]; len(rest) >= 8; rest = rest[8:] {
			k := (t[rest[0]] | t[rest[1]]) | (t[rest[2]] | t[rest[3]]) | ((t[rest[4]] | t[rest[5]]) | (t[rest[6]] | t[rest[7]]))
			if k&(kQuestion|kHash) != 0 {
				break
			}
			acc |= k
			j += 8
		}
		for ; j < len(in); j++ {
			k := t[in[j]]
			if k&(kQuestion|kHash) != 0 {
				break
			}
			acc |= k
		}
		slow := acc&kEncPath != 0 || p.special && acc&kBackslash != 0 ||
			acc&kDot != 0 && dotSegment(in[i:j]) ||
			acc&kPercent != 0 && strings.Contains(in[i:j], "%2") ||
			p.file && p.b.len() == p.u.pathStart && j-i >= 2 && (in[i+1] == ':' || in[i+1] == '|')
		if !slow {
			p.b.writeByte('/')
			p.b.writeString(in[i:j])
			return j
		}
	}
	for {
		j, acc := i, uint16(0)
		for ; j < len(in); j++ {
			k := t[in[j]]
			if k&stop != 0 {
				break
			}
			acc |= k
		}
		enc := acc&kEncPath != 0
		seg := in[i:j]
		if enc && p.collect {
			p.unitErrors(i, j)
		}
		slash := j < len(in) && (in[j] == '/' || in[j] == '\\' && p.special)
		if slash && in[j] == '\\' {
			p.verr("invalid-reverse-solidus", j)
		}
		switch {
		case isDoubleDot(seg):
			p.shorten()
			if !slash {
				p.b.writeByte('/')
			}
		case isSingleDot(seg):
			if !slash {
				p.b.writeByte('/')
			}
		case p.file && p.b.len() == p.u.pathStart && isDriveLetter(seg):
			p.b.writeByte('/')
			p.b.writeByte(seg[0])
			p.b.writeByte(':')
		default:
			p.b.writeByte('/')
			if enc {
				encodeTo(&p.b, seg, setPath)
			} else {
				p.b.writeString(seg)
			}
		}
		if !slash {
			return j
		}
		i = j + 1
	}
}

// unitErrors reports the invalid-URL-unit errors of in[i:j].
func (p *parser) unitErrors(i, j int) {
	for k := i; k < j; k++ {
		c := p.in[k]
		if c == '%' {
			if k+2 >= len(p.in) || !isHex(p.in[k+1]) || !isHex(p.in[k+2]) {
				p.verr("invalid-URL-unit", k)
			}
		} else if c < 0x80 && encodeSets[c]&setC0 != 0 || c == ' ' || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}' {
			p.verr("invalid-URL-unit", k)
		}
	}
}

// dotSegment reports whether a segment of the path s (without its
// first "/") starts with ".": it may be "." or "..".
func dotSegment(s string) bool {
	for i := strings.IndexByte(s, '.'); i >= 0; {
		if i == 0 || s[i-1] == '/' || s[i-1] == '\\' {
			return true
		}
		k := strings.IndexByte(s[i+1:], '.')
		if k < 0 {
			return false
		}
		i += 1 + k
	}
	return false
}

func isSingleDot(s string) bool {
	return s == "." || len(s) == 3 && s[0] == '%' && s[1] == '2' && s[2]|0x20 == 'e'
}

func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return s[0] == '.' && isSingleDot(s[1:]) || s[3] == '.' && isSingleDot(s[:3])
	case 6:
		return isSingleDot(s[:3]) && isSingleDot(s[3:])
	}
	return false
}

// isDriveLetter reports whether s is a Windows drive letter ("c:" or
// "c|").
func isDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// startsWithDriveLetter is the Standard's "starts with a Windows drive
// letter".
func startsWithDriveLetter(s string) bool {
	if len(s) < 2 || !isDriveLetter(s[:2]) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// shorten removes the path's last segment, unless the URL is a file URL
// whose path is one normalized Windows drive letter.
func (p *parser) shorten() {
	start, end := p.u.pathStart, p.b.len()
	if end == start {
		return
	}
	if p.file && end-start == 3 && isAlpha(p.b.at(start+1)) && p.b.at(start+2) == ':' {
		return
	}
	p.b.truncate(p.b.lastIndexByte(start, '/'))
}

// endPath writes "/." before a path starting with "//" in a URL without
// a host, which would read as a host otherwise.
func (p *parser) endPath() {
	s := p.u.pathStart
	if !p.u.hasHost && !p.u.opaque && p.b.len()-s > 1 && p.b.at(s) == '/' && p.b.at(s+1) == '/' {
		p.b.insert(s, "/.")
		p.u.pathStart += 2
		p.u.dotSlash = true
	}
}

// tail ends the path and reads the query and fragment from offset i.
func (p *parser) tail(i int) {
	p.endPath()
	if i < len(p.in) && p.in[i] == '?' {
		i = p.query(i + 1)
	}
	if i < len(p.in) && p.in[i] == '#' {
		p.fragment(i + 1)
	}
}

// opaquePath is the opaque path state from offset i.
func (p *parser) opaquePath(i int) {
	in := p.in
	p.u.opaque = true
	p.u.pathStart = p.b.len()
	j := i
	for j < len(in) && in[j] != '?' && in[j] != '#' {
		j++
	}
	if p.collect {
		p.unitErrors(i, j)
	}
	if j < len(in) && j > i && in[j-1] == ' ' {
		encodeTo(&p.b, in[i:j-1], setC0)
		p.b.writeString("%20")
	} else {
		encodeTo(&p.b, in[i:j], setC0)
	}
	p.tail(j)
}

// query is the query state from offset i; it returns where it ends.
func (p *parser) query(i int) int {
	in := p.in
	p.u.queryStart = p.b.len()
	p.b.writeByte('?')
	j := len(in)
	if !p.override {
		if k := strings.IndexByte(in[i:], '#'); k >= 0 {
			j = i + k
		}
	}
	if p.collect {
		p.unitErrors(i, j)
	}
	set := setQuery
	if p.special {
		set = setSpecialQuery
	}
	encodeTo(&p.b, in[i:j], set)
	return j
}

// fragment is the fragment state from offset i.
func (p *parser) fragment(i int) {
	p.u.fragStart = p.b.len()
	p.b.writeByte('#')
	if p.collect {
		p.unitErrors(i, len(p.in))
	}
	encodeTo(&p.b, p.in[i:], setFragment)
}

// fileState is the file state from offset i (after "file:", or at the
// start of a relative input against a file base).
func (p *parser) fileState(i int) {
	in, base := p.in, p.base
	p.u.hasHost = true
	if i < len(in) && (in[i] == '/' || in[i] == '\\') {
		if in[i] == '\\' {
			p.verr("invalid-reverse-solidus", i)
		}
		i++
		if i < len(in) && (in[i] == '/' || in[i] == '\\') {
			if in[i] == '\\' {
				p.verr("invalid-reverse-solidus", i)
			}
			p.fileHost(i + 1)
			return
		}
		p.b.writeString("//")
		p.u.userEnd, p.u.passEnd, p.u.hostStart = p.b.len(), p.b.len(), p.b.len()
		if base != nil {
			p.b.writeString(base.Hostname())
		}
		p.u.hostEnd = p.b.len()
		p.u.pathStart = p.b.len()
		if base != nil && !startsWithDriveLetter(in[i:]) {
			bp := base.Pathname()
			if len(bp) >= 3 && isAlpha(bp[1]) && bp[2] == ':' && (len(bp) == 3 || bp[3] == '/') {
				p.b.writeString(bp[:3])
			}
		}
		p.tail(p.path(i))
		return
	}
	p.b.writeString("//")
	p.u.userEnd, p.u.passEnd, p.u.hostStart = p.b.len(), p.b.len(), p.b.len()
	if base == nil {
		p.u.hostEnd = p.b.len()
		p.u.pathStart = p.b.len()
		p.tail(p.path(i))
		return
	}
	p.b.writeString(base.Hostname())
	p.u.hostEnd = p.b.len()
	p.u.pathStart = p.b.len()
	p.b.writeString(base.Pathname())
	switch {
	case i == len(in):
		p.endPath()
		p.baseQuery()
	case in[i] == '?':
		p.tail(i)
	case in[i] == '#':
		p.endPath()
		p.baseQuery()
		p.fragment(i + 1)
	default:
		if !startsWithDriveLetter(in[i:]) {
			p.shorten()
		} else {
			p.verr("file-invalid-Windows-drive-letter", i)
			p.b.truncate(p.u.pathStart)
		}
		p.tail(p.path(i))
	}
}

// fileHost is the file host state from offset i.
func (p *parser) fileHost(i int) {
	in := p.in
	t := &cls
	j, acc := i, uint16(0)
	for ; j < len(in); j++ {
		k := t[in[j]]
		if k&(kSlash|kBackslash|kQuestion|kHash) != 0 {
			break
		}
		acc |= k
	}
	p.b.writeString("//")
	p.u.userEnd, p.u.passEnd, p.u.hostStart = p.b.len(), p.b.len(), p.b.len()
	if acc&(kColon|kBracket|kHostSlow|kForbidden|kAt) == 0 && j-i != 9 && !endsInNumber(in[i:j]) && !p.override {
		// A plain ASCII domain, not localhost.
		if acc&kUpper != 0 {
			p.b.writeLower(in[i:j])
		} else {
			p.b.writeString(in[i:j])
		}
		p.u.hostEnd = p.b.len()
		p.pathStart(j)
		return
	}
	if !p.override && isDriveLetter(in[i:j]) {
		p.verr("file-invalid-Windows-drive-letter-host", i)
		p.u.hostEnd = p.b.len()
		p.u.pathStart = p.b.len()
		p.tail(p.path(i))
		return
	}
	if i < j {
		if !p.host(in[i:j], i, false) {
			return
		}
		if p.b.len()-p.u.hostStart == 9 && p.b.slice(p.u.hostStart, p.b.len()) == "localhost" {
			p.b.truncate(p.u.hostStart)
		}
	}
	p.u.hostEnd = p.b.len()
	if p.override {
		return
	}
	p.pathStart(j)
}
