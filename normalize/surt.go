package normalize

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
)

// SURT returns u's SURT key (Sort-friendly URI Reordering Transform), the
// key web archives sort their CDX indexes on: "http://www.Example.com/a/?b=2&a=1#f"
// is "com,example)/a?a=1&b=2". The host's labels are reversed and joined
// by commas, then ")" and the rest of the URL, so that the pages of a
// domain and its subdomains sort together.
//
// Before the transform the URL is canonicalized as internetarchive/surt
// and webarchive-commons (WaybackURLKeyMaker: GoogleURLCanonicalizer then
// IAURLCanonicalizer) do with their default options, so that the keys
// match the ones existing indexes hold:
//
//   - the fragment, the user and the password are dropped;
//   - host, path and query are unescaped repeatedly ("%2525" is "%"), then
//     escaped once: only controls, space, "#", "%", DEL and octets 80-FF
//     are written as %XX (so "%2F" in a path is "/", as theirs);
//   - the host: a non-ASCII name becomes IDNA A-labels, ".." is ".",
//     leading and trailing dots go, a numeric host in inet_aton form
//     ("3279880203", "017.0.0.1", "10.0.258") is written dotted-decimal,
//     the name is lower-cased and a leading "www." (or "www2.", any
//     "www" and digits) is removed;
//   - the port is dropped when it is http's 80 or https's 443 (theirs
//     knows no other default port), and written without leading zeros;
//   - the path of a URL with a host has its "." and ".." segments
//     resolved and its empty segments removed ("//a" is "/a"); every path
//     is lower-cased, loses an ASP.NET session id segment ("/(S(...))/x.aspx")
//     and its trailing "/" unless it is "/" alone;
//   - the query is lower-cased, loses session ids (jsessionid, phpsessid,
//     sid of 32 characters, ASPSESSIONIDxxxxxxxx, cfid+cftoken), has its
//     "&"-separated arguments sorted (by name, then value; "a" before
//     "a="), and an empty query is dropped with its "?".
//
// The key has no scheme (http and https pages share one key), no trailing
// comma after the host, and an IPv4 address reversed like a name
// ("1.2.3.4" is "4,3,2,1"): their defaults (with_scheme=False,
// trailing_comma=False, reverse_ipaddr=True). A URL without a host is
// written "scheme:" and its path and query ("mailto:a@example.com",
// "dns:archive.org"); a filedesc: URL is returned as it is.
//
// Not followed: their options that change the form (public_suffix,
// with_scheme, trailing_comma, SSURT) and their parser's repairs of text
// that is not a URL ("www.example.com" without scheme, "http://https://h",
// tabs and newlines inside): u is what urlkit parsed, in the mode it was
// parsed in (the Lenient mode repairs what it documents). An IPv6 literal
// is written without its brackets, as Python's surt does.
func SURT(u *urlkit.URL) string {
	scheme := cc.LowerASCII(u.Scheme)
	if scheme == "filedesc" {
		return u.String()
	}
	host := u.Host
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	if host != "" {
		host = surtHost(host)
	}
	path := unescapeAll(u.Path)
	if host != "" {
		path = surtPath(path)
	}
	path = cc.LowerASCII(surtKept.Escape(path))
	for _, re := range pathSessionIDs {
		if m := re.FindStringSubmatch(path); m != nil {
			path = m[1] + m[3]
		}
	}
	if len(path) > 1 && path[len(path)-1] == '/' {
		path = path[:len(path)-1]
	}
	query := ""
	if u.HasQuery && u.Query != "" {
		query = surtKept.Escape(unescapeAll(u.Query))
		for _, re := range querySessionIDs {
			if m := re.FindStringSubmatch(query); m != nil {
				query = m[1] + m[2]
			}
		}
		query = sortArgs(cc.LowerASCII(query))
	}

	var b strings.Builder
	b.Grow(len(host) + len(path) + len(query) + 16)
	if host == "" {
		b.WriteString(scheme)
		b.WriteByte(':')
	} else {
		labels := strings.Split(host, ".")
		for i := len(labels) - 1; i >= 0; i-- {
			b.WriteString(labels[i])
			if i > 0 {
				b.WriteByte(',')
			}
		}
		if port := surtPort(scheme, u.Port); port != "" {
			b.WriteByte(':')
			b.WriteString(port)
		}
		b.WriteByte(')')
	}
	b.WriteString(path)
	if query != "" {
		if path == "" {
			b.WriteByte('/')
		}
		b.WriteByte('?')
		b.WriteString(query)
	}
	return b.String()
}

// surtHost canonicalizes an unbracketed host as GoogleURLCanonicalizer
// and IAURLCanonicalizer do.
func surtHost(h string) string {
	h = unescapeAll(h)
	if !isASCII(h) {
		// Theirs drops the bytes that are not UTF-8 before IDNA, and
		// keeps the host as it was when IDNA refuses it.
		if a, err := idna.Lookup.ToASCII(strings.ToValidUTF8(h, "")); err == nil {
			h = a
		}
	}
	h = strings.Trim(strings.ReplaceAll(h, "..", "."), ".")
	if ip, ok := inetAton(h); ok {
		return ip
	}
	h = surtKept.Escape(cc.LowerASCII(h))
	// massageHost: "www", digits, then a dot.
	if strings.HasPrefix(h, "www") {
		i := 3
		for i < len(h) && h[i] >= '0' && h[i] <= '9' {
			i++
		}
		if i < len(h) && h[i] == '.' {
			h = h[i+1:]
		}
	}
	return h
}

// surtPort is the port as the key writes it: without leading zeros, and
// empty for http's 80 and https's 443.
func surtPort(scheme, port string) string {
	port = strings.TrimLeft(port, "0")
	if port == "" || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		return ""
	}
	return port
}

// surtPath resolves "." and ".." segments and removes empty ones, keeping
// a trailing "/", as GoogleURLCanonicalizer's normalizePath does (a ".."
// above the root is kept).
func surtPath(p string) string {
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")[1:]
	kept := segs[:0]
	for _, s := range segs {
		switch {
		case s == ".":
		case s == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, s := range kept {
		if i == len(kept)-1 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(s)
			b.WriteByte('/')
		}
	}
	return b.String()
}

// sortArgs sorts the "&"-separated arguments of q by name, then by value,
// an argument without "=" before one with it (alphaReorderQuery).
func sortArgs(q string) string {
	if len(q) <= 1 || !strings.Contains(q, "&") {
		return q
	}
	args := strings.Split(q, "&")
	slices.SortStableFunc(args, func(a, b string) int {
		an, av, aok := strings.Cut(a, "=")
		bn, bv, bok := strings.Cut(b, "=")
		switch {
		case an != bn:
			return strings.Compare(an, bn)
		case aok != bok && !aok:
			return -1
		case aok != bok:
			return 1
		}
		return strings.Compare(av, bv)
	})
	return strings.Join(args, "&")
}

// The session ids IAURLCanonicalizer removes (URLRegexTransformer), in
// its order: each match keeps groups 1 and 3 (path) or 1 and 2 (query).
var (
	pathSessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)$`),
		regexp.MustCompile(`(?i)^(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)$`),
	}
	querySessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*)(?:jsessionid=[0-9a-z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:phpsessid=[0-9a-z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:sid=[0-9a-z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:aspsessionid[a-z]{8}=[a-z]{24})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`),
	}
)

// unescapeAll decodes %XX escapes until none is left ("%2525" is "%"); a
// "%" that starts no escape stays.
func unescapeAll(s string) string {
	for strings.Contains(s, "%") {
		t := unescapeOnce(s)
		if t == s {
			break
		}
		s = t
	}
	return s
}

func unescapeOnce(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			b = append(b, cc.Unhex(s[i+1])<<4|cc.Unhex(s[i+2]))
			i += 2
			continue
		}
		if b != nil {
			b = append(b, s[i])
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// surtKept is what the SURT canonicalizers leave unescaped: every
// printable ASCII octet but "#" and "%" (their escapeOnce).
var surtKept = cc.NewByteSet(func(c byte) bool { return c > ' ' && c < 0x7f && c != '#' && c != '%' })

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// inetAton reads h as the IPv4 forms the canonicalizers accept: all
// digits (masked to 32 bits, as theirs does for numbers past 2^32), or
// one to four dot-separated parts in inet_aton's form, decimal or with a
// leading 0 octal, the last part filling the remaining bytes ("10.0.258"
// is 10.0.1.2).
func inetAton(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	allDigits := true
	for i := 0; i < len(h); i++ {
		if h[i] < '0' || h[i] > '9' {
			allDigits = false
			break
		}
	}
	if allDigits {
		// Only the low 32 bits count, so reading the last digits modulo
		// 2^32 suffices and cannot overflow.
		var v uint64
		for i := 0; i < len(h); i++ {
			v = (v*10 + uint64(h[i]-'0')) & 0xffffffff
		}
		return dotted(uint32(v)), true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	// The shapes theirs tries: a first part of [1-9][0-9]* then decimal
	// parts, or a first part of 0[0-7]* then octal digits.
	octal := parts[0][0] == '0'
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" || len(p) > 12 {
			return "", false
		}
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' || octal && p[j] > '7' {
				return "", false
			}
		}
		base := 10
		if len(p) > 1 && p[0] == '0' {
			base = 8
		}
		v, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return "", false
		}
		vals[i] = v
	}
	var ip uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return "", false
		}
		ip |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(32-8*(len(vals)-1)) {
		return "", false
	}
	return dotted(uint32(ip | last)), true
}

func dotted(v uint32) string {
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." +
		strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255))
}
