package normalize

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/resolve"
)

// Normalize returns u brought to the canonical encoding level that RFC
// 1630 asks for before two URLs are compared ("Before two URIs can be
// compared, it is therefore necessary to bring them to the same encoding
// level"), with the rules of RFC 1738 2.2:
//
//   - An escape of a character that needs no escaping (alphanumerics and
//     $-_.+!*'(), RFC 1738's unreserved characters) is decoded: %2D is
//     "-". In the query and the fragment %2B stays escaped: RFC 1630
//     reserves a bare "+" in a query for a space, and its fragmentid
//     (xalphas) has no "+". In the path, escaped dots that would form a
//     complete "." or ".." element stay escaped (as %2E), since RFC 1630
//     reserves those elements for the hierarchy.
//   - Reserved characters ; / ? : @ = & are never decoded nor encoded:
//     "%2F" stays "%2F", which is not "/" (RFC 1630, example 2).
//   - Characters that must be encoded are: the unsafe characters (space <
//     > " # % { } | \ ^ ~ [ ] and the backquote), controls and octets
//     80-FF, anywhere but in the host. A "%" that starts no escape is
//     itself written %25.
//   - Hex digits are upper-cased (%2f is %2F).
//   - The scheme and the host are lower-cased (escapes in the host keep
//     upper-case hex digits).
//   - A port equal to the scheme's default (DefaultPort) is dropped, and
//     so is an empty port; other ports lose their leading zeros.
//
// And the scheme rules the specifications define:
//
//   - For the schemes of RFC 1738's common Internet scheme syntax (ftp,
//     http, gopher, nntp, telnet, wais, file, prospero) and https, an
//     empty url-path is written with its "/" ("//" login [ "/" urlpath ]:
//     the "/" before an empty url-path is optional, RFC 1738 3.1, 3.3
//     "http://host" is "http://host/", 3.8 telnet's final "/").
//   - gopher: an empty gopher path is item type 1 with an empty selector
//     (RFC 1738 3.4): "gopher://host/" is "gopher://host/1".
//   - ftp: the type code of ";type=" is lower-cased (RFC 1738 3.2.2
//     allows A, I, D in either case).
//   - file: the host "localhost" is the empty host (RFC 1738 3.10).
//   - mailto: the domain of each address is lower-cased, not the local
//     part (RFC 3986 6.2.3; RFC 822 3.4.7: a domain is case-insensitive).
//
// A user name or password that is empty stays apart from one that is
// absent (RFC 1738 3.1: ftp://@host.com/ is not ftp://host.com/). In the
// RFC1738 and RFC1630 modes dot segments are not removed: RFCs 1738 and
// 1630 give them meaning only in relative references.
//
// In the RFC3986 and Lenient modes, the URL is an RFC 3986 URI and is
// brought to RFC 3986 6.2.2's form instead: the escapes of RFC 3986's
// unreserved characters (ALPHA DIGIT - . _ ~) are decoded and no others,
// "~" stays unencoded, and the dot segments of an absolute URI's path are
// removed (6.2.2.3). So "eXAMPLE://a/./b/../b/%63/%7bfoo%7d" is
// "example://a/b/c/%7Bfoo%7D", 6.2.2's example. An IPv6 literal is
// written in RFC 5952's text form: "[2001:DB8:0:0:0:0:0:1]" is
// "[2001:db8::1]".
//
// Normalize returns the fields of u unchanged, and allocates nothing,
// when they are already canonical.
//
// A Normalizer adds optional normalizations (Flags) for
// crawlers: a sorted query, no fragment, no tracking parameters, no
// "www.", ...
func Normalize(u *urlkit.URL, m urlkit.Mode) urlkit.URL { return normalize(u, m, nil) }

// Explain is Normalize that also reports each rule that changed
// something, with the text before and after.
func Explain(u *urlkit.URL, m urlkit.Mode) (urlkit.URL, []resolve.RuleStep) {
	return Normalizer{Mode: m}.Explain(u)
}

func normalize(u *urlkit.URL, m urlkit.Mode, t *trace) urlkit.URL {
	std := m == urlkit.RFC3986 || m == urlkit.Lenient // the Lenient mode's repaired text is RFC 3986's
	if std && canonicalWeb(u) {
		return *u
	}
	return normalizeRules(u, m, std, t)
}

// canonicalWeb reports whether u has the shape of most URLs found in
// text and is in RFC 3986 6.2.2's form as it is: a lower-case http or
// https URL with a host and a path, no userinfo, port or IP literal, and
// nothing in its host, path, query or fragment that a rule below
// changes (an escape, a byte to encode, an upper-case host letter, a dot
// segment). Such a URL is returned as it is without visiting each rule:
// they were two thirds of the time of normalizing it (FuzzCanonicalWeb
// holds the two to the same result).
func canonicalWeb(u *urlkit.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" || !u.HasAuthority || u.HasUser || u.HasPort ||
		u.Path == "" || u.Host != "" && u.Host[0] == '[' {
		return false
	}
	rest := &stops[1]
	return nextStop(u.Host, 0, &hostStops) == len(u.Host) &&
		nextStop(u.Path, 0, rest) == len(u.Path) && !resolver.HasDotSegment(u.Path) &&
		(!u.HasQuery || nextStop(u.Query, 0, rest) == len(u.Query)) &&
		(!u.HasFragment || nextStop(u.Fragment, 0, rest) == len(u.Fragment))
}

// normalizeRules is normalize by its rules, one after the other.
func normalizeRules(u *urlkit.URL, m urlkit.Mode, std bool, t *trace) urlkit.URL {
	v := *u
	if s := cc.LowerASCII(v.Scheme); s != v.Scheme {
		t.schemeLowered(v.Scheme, s)
		v.Scheme = s
	}
	name := v.Scheme
	if v.HasUser {
		v.User = normComponent(v.User, normUser, std, t)
	}
	if v.HasPassword {
		v.Password = normComponent(v.Password, normPassword, std, t)
	}
	if v.HasAuthority {
		v.Host = normHost(v.Host, std, t)
		if std {
			if h := rfc5952(v.Host); h != v.Host {
				t.ipv6Written(v.Host, h)
				v.Host = h
			}
		}
		if name == "file" && v.Host == "localhost" {
			v.Host = ""
			t.localhostIsEmpty()
		}
		normPort(&v, t)
	}
	v.Path = normPath(v.Path, std, t)
	if std && v.Scheme != "" && resolver.HasDotSegment(v.Path) {
		v.Path = removeDots(v.Path, v.HasAuthority, t)
	}
	if v.HasQuery {
		v.Query = normComponent(v.Query, normQuery, std, t)
	}
	if v.HasFragment {
		v.Fragment = normComponent(v.Fragment, normFragment, std, t)
	}
	// The scheme rules.
	if v.HasAuthority && v.Path == "" && resolver.HierarchicalScheme(name) {
		v.Path = "/"
		t.emptyURLPathSlash()
	}
	if name == "gopher" && v.HasAuthority && v.Path == "/" && !v.HasQuery {
		v.Path = "/1"
		t.emptyGopherPath()
	}
	if name == "mailto" && !v.HasAuthority {
		v.Path = mailtoDomains(v.Path, t)
	}
	if name == "ftp" {
		// ";type=" is matched without regard to case, as the parser and the
		// FTP view do (RFC 1738 section 5 uses RFC 822's notation).
		if i := strings.LastIndexByte(v.Path, ';'); i >= 0 && i+7 == len(v.Path) && strings.EqualFold(";type=", v.Path[i:i+6]) {
			lit, c := v.Path[i:i+6], v.Path[i+6]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if lit != ";type=" || c != v.Path[i+6] {
				t.ftpTypeWritten(v.Path[i:], c)
				v.Path = v.Path[:i] + ";type=" + string(c)
			}
		}
	}
	if resolver.PathReadsAsPrefix(v.Scheme, v.HasAuthority, v.Path) {
		t.engine().PrefixEscapeWritten(v.Path)
		v.Path = resolver.EscapeFirst(v.Path)
	}
	return v
}

// removeDots is RFC 3986 6.2.2.3: the dot segments of an absolute URI's
// path are removed as 5.2.4 says, and "/." is written before a path that
// would then start with "//" without an authority (RFC 3986 3.3).
func removeDots(path string, hasAuthority bool, t *trace) string {
	clean := string(resolver.RemoveDotSegments([]byte(path), t.engine(), "RFC 3986 6.2.2.3"))
	if !hasAuthority && strings.HasPrefix(clean, "//") {
		clean = "/." + clean
		t.engine().SlashDotWritten()
	}
	return clean
}

// mailtoDomains lower-cases the domain of each address of a mailto path
// (RFC 1738 3.5: an RFC 822 addr-spec; RFC 6068 allows a list separated
// by ","): the domain is case-insensitive (RFC 822 3.4.7, RFC 3986
// 6.2.3), the local part is not. The domain is what follows the last "@"
// of an address; escapes keep their upper-case hex digits.
func mailtoDomains(path string, t *trace) string {
	var b []byte
	start := 0
	for i := 0; i <= len(path); i++ {
		if i < len(path) && path[i] != ',' {
			continue
		}
		addr := path[start:i]
		if at := strings.LastIndexByte(addr, '@'); at >= 0 {
			for j := start + at + 1; j < i; j++ {
				c := path[j]
				if c == '%' {
					j += 2
					continue
				}
				if 'A' <= c && c <= 'Z' {
					if b == nil {
						b = []byte(path)
					}
					b[j] = c + 'a' - 'A'
				}
			}
		}
		start = i + 1
	}
	if b == nil {
		return path
	}
	out := string(b)
	t.mailDomainLowered(path, out)
	return out
}

// part names a component of a URL for normComponent.
type part uint8

const (
	normUser part = iota
	normPassword
	normHostPart
	normPathPart
	normQuery
	normFragment
)

var partNames = [...]string{"user", "password", "host", "path", "query", "fragment"}

// decodable reports whether the escape of c is decoded in component k:
// RFC 1738's unreserved characters, except "+" in the query (RFC 1630:
// a "+" there is a space) and in the fragment (RFC 1630's fragmentid is
// xalphas, which have no "+").
func decodable(c byte, k part, std bool) bool {
	if std {
		return cc.Is(c, cc.Alpha|cc.Digit) || c == '-' || c == '.' || c == '_' || c == '~'
	}
	return cc.Is(c, cc.Unreserved) && !(c == '+' && (k == normQuery || k == normFragment))
}

// mustEncode reports whether c must be encoded in component k: the
// unsafe characters, controls and octets 80-FF (RFC 1738 2.2). The host
// is left alone: its grammar has no escapes to add (and an IP literal
// keeps its brackets).
func mustEncode(c byte, k part, std bool) bool {
	return k != normHostPart && c != '%' && cc.Is(c, cc.Unsafe|cc.Control) && !(std && c == '~')
}

// normComponent brings the escapes of s, a component of kind k, to the
// canonical level. It returns s itself when nothing changes.
func normComponent(s string, k part, std bool, t *trace) string {
	i := firstChange(s, k, std)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]):
			d := cc.Unhex(s[i+1])<<4 | cc.Unhex(s[i+2])
			esc := s[i : i+3]
			i += 2
			if decodable(d, k, std) {
				b.WriteByte(d)
				t.escapeDecoded(esc, d)
				continue
			}
			b.WriteString(cc.Escaped(d))
			if esc != cc.Escaped(d) {
				t.escapeUpperCased(esc, d)
			}
		case c == '%' || mustEncode(c, k, std):
			b.WriteString(cc.Escaped(c))
			t.byteEncoded(c)
		default:
			b.WriteByte(c)
		}
	}
	t.componentDone(k, std)
	return b.String()
}

// firstChange returns the offset of the first byte of s that
// normComponent changes, or -1.
func firstChange(s string, k part, std bool) int {
	stop := &stops[0]
	switch {
	case k == normHostPart:
		stop = &stops[2]
	case std:
		stop = &stops[1]
	}
	for i := 0; ; i++ {
		if i = nextStop(s, i, stop); i == len(s) {
			return -1
		}
		if s[i] != '%' {
			return i // mustEncode
		}
		if i+2 >= len(s) || !cc.IsHex(s[i+1]) || !cc.IsHex(s[i+2]) {
			return i
		}
		d := cc.Unhex(s[i+1])<<4 | cc.Unhex(s[i+2])
		if decodable(d, k, std) || s[i:i+3] != cc.Escaped(d) {
			return i
		}
		i += 2
	}
}

// nextStop returns the offset of the first byte of s from i on that stop
// marks, or len(s): eight bytes a round while none is marked (one branch
// for eight lookups), then a byte at a time.
func nextStop(s string, i int, stop *[256]uint8) int {
	for ; len(s)-i >= 8; i += 8 {
		w := s[i : i+8]
		if stop[w[0]]|stop[w[1]]|stop[w[2]]|stop[w[3]]|stop[w[4]]|stop[w[5]]|stop[w[6]]|stop[w[7]] != 0 {
			break
		}
	}
	for i < len(s) && stop[s[i]] == 0 {
		i++
	}
	return i
}

// stops are the bytes firstChange looks at (an escape, or a byte
// mustEncode names), for the components but the host in the RFC 1738
// modes [0] and the RFC 3986 ones [1], and for the host [2]; hostStops
// adds the upper-case letters normHost lowers. A table a byte: the
// calls and tests per byte were most of the time of normalizing a URL
// with nothing to change.
var stops, hostStops = func() (s [3][256]uint8, h [256]uint8) {
	one := func(stop bool) uint8 {
		if stop {
			return 1
		}
		return 0
	}
	for c := range 256 {
		b := byte(c)
		s[0][c] = one(b == '%' || mustEncode(b, normPathPart, false))
		s[1][c] = one(b == '%' || mustEncode(b, normPathPart, true))
		s[2][c] = one(b == '%' || mustEncode(b, normHostPart, false))
		h[c] = one(s[2][c] == 1 || 'A' <= b && b <= 'Z')
	}
	return s, h
}()

// normPath is normComponent for a path, with RFC 1630's reservation of
// "." and ".." as path elements: an escaped dot that would make one stays
// escaped.
func normPath(p string, std bool, t *trace) string {
	if std || !strings.Contains(p, "%2E") && !strings.Contains(p, "%2e") {
		return normComponent(p, normPathPart, std, t)
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		ns := normComponent(seg, normPathPart, std, nil)
		if (ns == "." || ns == "..") && ns != seg {
			ns = strings.Repeat("%2E", len(ns))
			if ns != seg {
				t.reservedDotElement(seg, ns)
			}
		} else if ns != seg {
			ns = normComponent(seg, normPathPart, std, t)
		}
		segs[i] = ns
	}
	out := strings.Join(segs, "/")
	if out == p {
		return p
	}
	return out
}

// normHost normalizes the escapes of a host and lower-cases it.
func normHost(h string, std bool, t *trace) string {
	if nextStop(h, 0, &hostStops) == len(h) {
		return h // most hosts: lower case, no escapes
	}
	n := normComponent(h, normHostPart, std, t)
	lower := n
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c == '%' {
			i += 2 // an escape keeps its upper-case hex digits
			continue
		}
		if 'A' <= c && c <= 'Z' {
			b := []byte(n)
			for j := i; j < len(b); j++ {
				if b[j] == '%' {
					j += 2
					continue
				}
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			lower = string(b)
			break
		}
	}
	if lower != n {
		t.hostLowered(n, lower)
	}
	return lower
}

// normPort drops an empty port and the scheme's default port, and the
// leading zeros of the others.
func normPort(v *urlkit.URL, t *trace) {
	if !v.HasPort {
		return
	}
	if v.Port == "" {
		v.HasPort = false
		t.emptyPortDropped()
		return
	}
	n := 0
	for i := 0; i < len(v.Port); i++ {
		c := v.Port[i]
		if c < '0' || c > '9' || n > 65535 {
			return // not a port: left as written
		}
		n = n*10 + int(c-'0')
	}
	if d := urlkit.DefaultPort(v.Scheme); d > 0 && n == d {
		t.defaultPortDropped(v.Port, v.Scheme)
		v.HasPort, v.Port = false, ""
		return
	}
	if len(v.Port) > 1 && v.Port[0] == '0' { // only leading zeros change it (and Itoa allocates)
		s := strconv.Itoa(n)
		t.portWritten(v.Port, s)
		v.Port = s
	}
}
