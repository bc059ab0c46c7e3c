package extract

import "github.com/urlkit/urlkit/internal/registry"

// lookupScheme reports whether name (any case) is a scheme of the
// specifications, and whether it uses the common Internet scheme syntax
// ("scheme://host...", RFC 1738 3.1), so that a bare "http:" without "//"
// in running text is not taken for a URL. The schemes are the registry's
// rows (RFC 1738 section 3, RFC 1630, the drafts' reserved and historical
// names, https), and the experimental "x-" prefix of
// draft-ietf-uri-url-03.
func lookupScheme(name []byte) (known, ip bool) {
	if len(name) > 16 { // longer than any registered name: no copy made
		return false, false
	}
	if r := registry.Lookup(string(name)); r != nil {
		return true, r.IP
	}
	if len(name) > 2 && name[0]|0x20 == 'x' && name[1] == '-' {
		return true, false
	}
	return false, false
}
