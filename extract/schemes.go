package extract

// lookupScheme reports whether name (any case) is a scheme of the
// specifications, and whether it uses the common Internet scheme syntax
// ("scheme://host...", RFC 1738 3.1), so that a bare "http:" without "//"
// in running text is not taken for a URL.
//
// The list: RFC 1738 section 3 (ftp, http, gopher, mailto, news, nntp,
// telnet, wais, file, prospero), RFC 1630 (mid, cid, urn, rlogin,
// tn3270), draft-ietf-uri-url-03 (afs) and the schemes draft-ietf-uri-url-06
// reserves (nfs, mailserver, z39.50r and z39.50s), https, and the
// experimental "x-" prefix of draft-03 ("Experimental prefixes ... must
// start with the characters x-"). Package scheme's Known table can take
// its place once it exists.
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
	switch string(low[:len(name)]) {
	case "ftp", "http", "https", "gopher", "nntp", "telnet", "wais", "file", "prospero",
		"rlogin", "tn3270", "afs", "nfs", "z39.50r", "z39.50s":
		return true, true
	case "mailto", "news", "mid", "cid", "urn", "mailserver":
		return true, false
	}
	if len(name) > 2 && low[0] == 'x' && low[1] == '-' {
		return true, false
	}
	return false, false
}
