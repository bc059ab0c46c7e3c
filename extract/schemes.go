package extract

import urlscheme "github.com/urlkit/urlkit/scheme"

// lookupScheme reports whether name (any case) is a scheme of the
// specifications, and whether it uses the common Internet scheme syntax
// ("scheme://host...", RFC 1738 3.1), so that a bare "http:" without "//"
// in running text is not taken for a URL. The schemes are package
// scheme's table (RFC 1738 section 3, RFC 1630, the drafts' reserved and
// historical names, https), and the experimental "x-" prefix of
// draft-ietf-uri-url-03.
func lookupScheme(name []byte) (known, ip bool) {
	var low [16]byte
	if len(name) > len(low) {
		return false, false
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	if ip, ok := specSchemes[string(low[:len(name)])]; ok { // no allocation: a map index by string(bytes)
		return true, ip
	}
	if len(name) > 2 && low[0] == 'x' && low[1] == '-' {
		return true, false
	}
	return false, false
}

// specSchemes maps each scheme name of package scheme to whether it is
// IP-based.
var specSchemes = func() map[string]bool {
	m := make(map[string]bool)
	for _, in := range urlscheme.List() {
		m[in.Name] = in.IPBased
	}
	return m
}()
