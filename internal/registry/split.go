package registry

// The splitters cut a scheme's url-path (RFC 1738 3.1: the text after
// the "/" that follows the host, "?" included) into its parts, as byte
// offsets into that text. They decode nothing and allocate nothing: the
// root's strict check runs them on every parse, and package scheme's
// views decode the parts they delimit and add the url-path's own offset,
// so that the check, the view, its safety concerns and its access plan
// all read one split.

// FTPPath is an ftp url-path split (RFC 1738 3.2.2):
//
//	<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
type FTPPath struct {
	// NameAt is where the name starts (after the last "/" before End).
	NameAt int
	// End is where the segments end: TypeAt, or the length of the path.
	End int
	// TypeAt is the offset of the ";" of the final ";type=" (matched
	// without regard to case, with no "/" after it), or -1. The type code
	// is path[TypeAt+6:].
	TypeAt int
	// Semicolon is the offset of the first ";" before End, which the
	// ftpurl production does not allow unencoded, or -1.
	Semicolon int
}

// SplitFTP splits an ftp url-path.
func SplitFTP(path string) FTPPath {
	f := FTPPath{End: len(path), TypeAt: -1, Semicolon: -1}
	for i := 0; i < len(path); i++ {
		if path[i] != ';' {
			continue
		}
		if isTypeSuffix(path[i:]) {
			f.TypeAt, f.End = i, i
			break
		}
		if f.Semicolon < 0 {
			f.Semicolon = i
		}
	}
	f.NameAt = 0
	for i := f.End - 1; i >= 0; i-- {
		if path[i] == '/' {
			f.NameAt = i + 1
			break
		}
	}
	return f
}

// isTypeSuffix reports whether s starts with ";type=" (any case) and
// holds no "/".
func isTypeSuffix(s string) bool {
	if len(s) < 6 {
		return false
	}
	const lit = ";type="
	for i := 0; i < 6; i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	for i := 6; i < len(s); i++ {
		if s[i] == '/' {
			return false
		}
	}
	return true
}

// NextSegment returns the segment of an FTP url-path that starts at
// offset at (a directory, then finally the name) and where the next one
// starts; last reports the name. Start with at = 0.
func (f FTPPath) NextSegment(path string, at int) (start, end, next int, last bool) {
	if at >= f.NameAt {
		return f.NameAt, f.End, f.End, true
	}
	for i := at; i < f.NameAt; i++ {
		if path[i] == '/' {
			return at, i, i + 1, false
		}
	}
	return at, f.NameAt - 1, f.NameAt, false
}

// GopherPath is a gopher url-path split (RFC 1738 3.4):
//
//	<gophertype><selector>%09<search>%09<gopher+_string>
//
// An empty path has no type (the client reads type 1, the top menu).
type GopherPath struct {
	// TypeEnd is where the type ends: 0 for an empty path, 1 after a
	// character, 3 after an escape.
	TypeEnd int
	// SelectorEnd is the offset of the first "%09" (or the length).
	SelectorEnd int
	// SearchAt and SearchEnd delimit the search: after the first "%09",
	// up to the second "%09" or the end; -1 when there is no first "%09".
	SearchAt, SearchEnd int
	// PlusAt is where the Gopher+ string starts, after the second "%09";
	// -1 when there is none. It runs to the end of the path.
	PlusAt int
}

// SplitGopher splits a gopher url-path.
func SplitGopher(path string) GopherPath {
	g := GopherPath{SelectorEnd: len(path), SearchAt: -1, SearchEnd: -1, PlusAt: -1}
	if path == "" {
		return g
	}
	g.TypeEnd = 1
	if isEscape(path, 0) {
		g.TypeEnd = 3
	}
	tab := indexTab(path, g.TypeEnd)
	if tab < 0 {
		return g
	}
	g.SelectorEnd, g.SearchAt, g.SearchEnd = tab, tab+3, len(path)
	if tab2 := indexTab(path, tab+3); tab2 >= 0 {
		g.SearchEnd, g.PlusAt = tab2, tab2+3
	}
	return g
}

// indexTab returns the offset of the first "%09" at or after i, skipping
// other escapes whole, or -1.
func indexTab(s string, i int) int {
	for ; i < len(s); i++ {
		if isEscape(s, i) {
			if s[i+1] == '0' && s[i+2] == '9' {
				return i
			}
			i += 2
		}
	}
	return -1
}

func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// TrimFloor returns how much of a URL found in prose must stay when the
// sentence punctuation after it is trimmed (extract): a scheme whose
// production gives a final "*", "!", "?", "$" or "+" a meaning keeps it.
// news:* names all groups (RFC 1738 3.6), and the first byte of a
// Gopher+ string ("!", "?", "$", "+") is the request itself (RFC 1738
// 3.4; draft-ietf-uri-url-03's gopher+ example ends in "%09%09!"). It
// returns 0 when nothing must stay.
func TrimFloor(u string) int {
	colon := -1
	for i := 0; i < len(u) && i <= 9; i++ {
		if u[i] == ':' {
			colon = i
			break
		}
	}
	if colon <= 0 {
		return 0
	}
	r := Lookup(u[:colon])
	if r == nil {
		return 0
	}
	rest := u[colon+1:]
	switch r.Production {
	case News:
		if rest != "" && rest[0] == '*' {
			return colon + 2
		}
	case Gopher:
		if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
			return 0
		}
		slash := -1
		for i := 2; i < len(rest); i++ {
			if rest[i] == '/' {
				slash = i
				break
			}
		}
		if slash < 0 {
			return 0
		}
		at := colon + 1 + slash + 1
		if g := SplitGopher(u[at:]); g.PlusAt >= 0 && at+g.PlusAt < len(u) {
			return at + g.PlusAt + 1
		}
	}
	return 0
}
