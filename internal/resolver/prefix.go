package resolver

import (
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
)

// StartsWithScheme reports whether s starts with "scheme:": only then is a
// leading "URL:" the appendix's prefix rather than a scheme named URL (so
// that the canonical form of "<URL:URL:x>", "URL:x", reads back the same).
func StartsWithScheme(s string) bool {
	i := 0
	for i < len(s) && cc.Is(s[i], cc.SchemeChar) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':' && cc.Is(s[0], cc.Alpha)
}

// ReadsAsPrefix reports whether the text of a URL, s, starts with "url:"
// and then "scheme:": a URL whose scheme is url and whose path starts
// with "scheme:" (with no authority) cannot be written as it is, for
// "url:http://h/" reads as RFC 1738's "URL:" prefix before an http URL.
// Parsing never gives such a URL; Normalize, which decodes "%68ttp:"
// (RFC 3986 6.2.2.2), and the rules of resolution, which build a path,
// could, so they write the path's first byte as its escape
// (EscapeFirst): "url:%68ttp://h/" is the same URL and reads back as it.
func ReadsAsPrefix(s string) bool {
	return len(s) > 4 && s[0]|0x20 == 'u' && HasPrefixFold(s, "URL:") && StartsWithScheme(s[4:])
}

// EscapePrefix returns s with the first byte of its path written as its
// escape when s reads as a "URL:" prefix (ReadsAsPrefix), else s.
func EscapePrefix(s string) string {
	if ReadsAsPrefix(s) {
		return s[:4] + EscapeFirst(s[4:])
	}
	return s
}

// PathReadsAsPrefix is ReadsAsPrefix for a URL's components.
func PathReadsAsPrefix(scheme string, hasAuthority bool, path string) bool {
	return len(scheme) == 3 && !hasAuthority && HasPrefixFold(scheme, "url") && StartsWithScheme(path)
}

// EscapeFirst writes the first byte of s, a letter, as its escape.
func EscapeFirst(s string) string {
	return "%" + string(cc.UpperHex[s[0]>>4]) + string(cc.UpperHex[s[0]&15]) + s[1:]
}

// HasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
func HasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
