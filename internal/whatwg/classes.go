package whatwg

// Byte classes for the parser's loops, one table lookup a byte: the
// delimiters each state stops at, and the properties a host is checked
// for, so that a run of ordinary bytes is read by one loop.
const (
	kSlash     uint16 = 1 << iota // "/"
	kBackslash                    // "\", a "/" in special URLs
	kQuestion                     // "?"
	kHash                         // "#"
	kAt                           // "@"
	kColon                        // ":"
	kBracket                      // "[" or "]"
	kUpper                        // "A" to "Z"
	kHostSlow                     // "%" or a non-ASCII byte: domain to ASCII's full steps
	kForbidden                    // a forbidden domain code point
	kTabNL                        // tab, LF, CR: removed from the input
	kEncPath                      // in the path percent-encode set
	kDot                          // ".", which may start a dot segment
	kPercent                      // "%", which may start "%2e"
)

var cls = func() (t [256]uint16) {
	for c := range 256 {
		b := byte(c)
		var k uint16
		switch b {
		case '/':
			k |= kSlash
		case '\\':
			k |= kBackslash
		case '?':
			k |= kQuestion
		case '#':
			k |= kHash
		case '@':
			k |= kAt
		case ':':
			k |= kColon
		case '[', ']':
			k |= kBracket
		case '\t', '\n', '\r':
			k |= kTabNL
		case '.':
			k |= kDot
		case '%':
			k |= kPercent
		}
		if 'A' <= b && b <= 'Z' {
			k |= kUpper
		}
		if b == '%' || b >= 0x80 {
			k |= kHostSlow
		}
		if b < 0x80 && forbiddenDomain(b) {
			k |= kForbidden
		}
		if encodeSets[b]&setPath != 0 {
			k |= kEncPath
		}
		t[c] = k
	}
	return t
}()

// hasClass reports whether a byte of s has a class in mask, reading eight
// bytes a round.
func hasClass(s string, mask uint16) bool {
	t := &cls
	for len(s) >= 8 {
		if (t[s[0]]|t[s[1]]|t[s[2]]|t[s[3]]|t[s[4]]|t[s[5]]|t[s[6]]|t[s[7]])&mask != 0 {
			return true
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if t[s[i]]&mask != 0 {
			return true
		}
	}
	return false
}

// anyEncoded is hasClass for a percent-encode set.
func anyEncoded(s string, set uint8) bool {
	t := &encodeSets
	for len(s) >= 8 {
		if (t[s[0]]|t[s[1]]|t[s[2]]|t[s[3]]|t[s[4]]|t[s[5]]|t[s[6]]|t[s[7]])&set != 0 {
			return true
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if t[s[i]]&set != 0 {
			return true
		}
	}
	return false
}
