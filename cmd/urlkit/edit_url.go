package main

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/percent"
	"golang.org/x/net/idna"
)

// This file is the URL model of `urlkit edit`: the URL as curl's URL API
// (and so trurl, which edit follows) reads and writes it, which is not one
// of urlkit's modes. Where curl's reading differs from RFC 3986 it is
// written out here: a guessed scheme ("example.com" is http, "ftp.x" ftp),
// one to three slashes after the scheme, dot segments removed, the host
// percent-decoded and IPv4 numbers in any of inet_aton's forms written as
// four decimals, an IPv6 address in its RFC 5952 form with an optional
// zone, a default port dropped, an empty path written "/", and every
// component decoded and encoded again (editNormalize).

// editURL is one URL of `urlkit edit`. Components are stored encoded,
// except the host, which is stored decoded (UTF-8 for an IDN).
type editURL struct {
	scheme                        string // lower case
	guessed                       bool   // the scheme was guessed, not written
	user, password, options       string
	hasUser, hasPassword, hasOpts bool
	host, zone                    string // host: "[v6]" for IPv6, without the zone
	port                          string // decimal, no leading zeros; "" for none
	path                          string // starts with "/"
	query, fragment               string // "" for none (curl drops empty ones)
	// emptyQuery and emptyFragment record a "?" or "#" with nothing after
	// it: not written out, but present for {must:query} (curl's
	// CURLU_GET_EMPTY).
	emptyQuery, emptyFragment bool
}

// editOptions are the parsing choices of the command line.
type editOptions struct {
	noGuess     bool // --no-guess-scheme
	acceptSpace bool // --accept-space
	curlOnly    bool // --curl
}

// curlPorts are the schemes libcurl supports, with their default ports
// (0: none). trurl drops a default port, and --curl accepts, only these.
var curlPorts = map[string]int{
	"dict": 2628, "file": 0, "ftp": 21, "ftps": 990, "gopher": 70, "gophers": 70,
	"http": 80, "https": 443, "imap": 143, "imaps": 993, "ldap": 389, "ldaps": 636,
	"mqtt": 1883, "pop3": 110, "pop3s": 995, "rtmp": 1935, "rtsp": 554,
	"scp": 22, "sftp": 22, "smb": 445, "smbs": 445, "smtp": 25, "smtps": 465,
	"telnet": 23, "tftp": 69, "ws": 80, "wss": 443,
}

// optionSchemes have curl's login options (user:password;options@host).
var optionSchemes = map[string]bool{"imap": true, "imaps": true, "pop3": true, "pop3s": true, "smtp": true, "smtps": true}

func defaultPortOf(scheme string) (string, bool) {
	p, ok := curlPorts[scheme]
	if !ok || p == 0 {
		return "", false
	}
	return strconv.Itoa(p), true
}

// errEdit is a URL the edit model cannot read; its text is the reason.
type errEdit struct{ msg string }

func (e *errEdit) Error() string { return e.msg }

func editErr(msg string) error { return &errEdit{msg} }

// parseEditURL reads s as curl's URL API does with CURLU_GUESS_SCHEME
// (unless noGuess), CURLU_NON_SUPPORT_SCHEME (unless curlOnly) and
// CURLU_URLENCODE.
func parseEditURL(s string, o editOptions) (editURL, error) {
	var u editURL
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f {
			return u, editErr("malformed input: control character at offset " + strconv.Itoa(i))
		}
		if s[i] == ' ' && !o.acceptSpace {
			return u, editErr("malformed input: space at offset " + strconv.Itoa(i) + " (--accept-space encodes it)")
		}
	}
	rest := s
	if name, after, ok := schemePrefix(s, !o.noGuess); ok {
		u.scheme = strings.ToLower(name)
		if o.curlOnly {
			if _, known := curlPorts[u.scheme]; !known {
				return u, editErr("unsupported URL scheme " + strconv.Quote(u.scheme))
			}
		}
		if u.scheme == "file" {
			return parseFileURL(u, after)
		}
		n := 0
		for n < len(after) && after[n] == '/' && n < 4 {
			n++
		}
		if n < 1 || n > 3 {
			return u, editErr("bad slashes after the scheme: one to three are allowed")
		}
		rest = after[n:]
	} else if o.noGuess {
		return u, editErr("bad scheme: no scheme and --no-guess-scheme")
	} else {
		u.guessed = true
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if err := u.parseAuthority(rest[:end]); err != nil {
		return u, err
	}
	if u.guessed {
		u.scheme = guessScheme(u.host)
	}
	rest = rest[end:]
	pathEnd := strings.IndexAny(rest, "?#")
	if pathEnd < 0 {
		pathEnd = len(rest)
	}
	u.path = encodeRaw(rest[:pathEnd], "%20")
	rest = rest[pathEnd:]
	u.query, u.fragment = splitTail(rest)
	u.emptyQuery = u.query == "" && strings.HasPrefix(rest, "?")
	u.emptyFragment = u.fragment == "" && strings.HasSuffix(rest, "#")
	u.path = dedot(u.path)
	if u.scheme != "file" && u.host == "" {
		return u, editErr("no host part in the URL")
	}
	return u, nil
}

// schemePrefix finds "scheme:" at the start of s. With guessing on, curl
// takes it for a scheme only when "/" follows the colon, so that
// "localhost:8080" is a host and a port.
func schemePrefix(s string, guess bool) (name, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 40 {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			i++
			continue
		}
		break
	}
	if i == 0 || i >= len(s) || s[i] != ':' {
		return "", "", false
	}
	if guess && (i+1 >= len(s) || s[i+1] != '/') {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// guessScheme is curl's guess from the host name's first label.
func guessScheme(host string) string {
	h := strings.ToLower(host)
	for _, p := range []string{"ftp", "dict", "ldap", "imap", "smtp", "pop3"} {
		if strings.HasPrefix(h, p+".") {
			return p
		}
	}
	return "http"
}

func parseFileURL(u editURL, after string) (editURL, error) {
	if strings.HasPrefix(after, "//") {
		r := after[2:]
		end := strings.IndexAny(r, "/?#")
		if end < 0 {
			end = len(r)
		}
		if h := strings.ToLower(r[:end]); h != "" && h != "localhost" && h != "127.0.0.1" {
			return u, editErr("a file URL's host must be empty or localhost")
		}
		after = r[end:]
	}
	pathEnd := strings.IndexAny(after, "?#")
	if pathEnd < 0 {
		pathEnd = len(after)
	}
	u.path = dedot(encodeRaw(after[:pathEnd], "%20"))
	u.query, u.fragment = splitTail(after[pathEnd:])
	return u, nil
}

// splitTail splits "?query#fragment" (either part optional). The query is
// encoded as curl does; the fragment curl keeps as it is (normalizeParts
// encodes it).
func splitTail(s string) (query, fragment string) {
	if q, ok := strings.CutPrefix(s, "?"); ok {
		q, f, hasFragment := strings.Cut(q, "#")
		query, s = encodeRaw(q, "+"), ""
		if hasFragment {
			s = "#" + f
		}
	}
	fragment, _ = strings.CutPrefix(s, "#")
	return query, fragment
}

// encodeRaw percent-encodes what curl encodes in a URL it is given
// (CURLU_URLENCODE): octets 80-FF, and a space as space (%20, or "+" in
// the query).
func encodeRaw(s, space string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			b.WriteString(space)
		case c >= 0x80:
			const hex = "0123456789abcdef"
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (u *editURL) parseAuthority(a string) error {
	if at := strings.IndexByte(a, '@'); at >= 0 {
		u.parseLogin(a[:at])
		a = a[at+1:]
	}
	hostport := a
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return editErr("bad IPv6 address: no closing ']'")
		}
		if err := u.setIPv6(a[1:end]); err != nil {
			return err
		}
		hostport = ""
		a = a[end+1:]
		if a != "" && a[0] != ':' {
			return editErr("bad port: text after the IPv6 address")
		}
	} else if c := strings.LastIndexByte(a, ':'); c >= 0 {
		hostport, a = a[:c], a[c:]
	} else {
		a = ""
	}
	if strings.HasPrefix(a, ":") {
		if err := u.setPort(a[1:]); err != nil {
			return err
		}
	}
	if hostport != "" || u.host == "" {
		return u.setHostText(hostport, true)
	}
	return nil
}

func (u *editURL) parseLogin(login string) {
	user := login
	if optionSchemes[u.scheme] {
		if i := strings.IndexByte(user, ';'); i >= 0 {
			u.options, u.hasOpts = user[i+1:], true
			user = user[:i]
		}
	}
	if i := strings.IndexByte(user, ':'); i >= 0 {
		u.password, u.hasPassword = user[i+1:], true
		user = user[:i]
	}
	u.user, u.hasUser = user, true
}

// setIPv6 stores an IPv6 address in RFC 5952's form, with its zone (written
// "%25zone" or curl's "%zone").
func (u *editURL) setIPv6(in string) error {
	addr, zone, hasZone := strings.Cut(in, "%")
	if hasZone {
		zone = strings.TrimPrefix(zone, "25")
		if zone == "" {
			return editErr("bad IPv6 address: empty zone id")
		}
		z, err := urlkit.PathUnescape(zone)
		if err != nil || strings.ContainsAny(z, "/?#[]%@ ") {
			return editErr("bad IPv6 zone id " + strconv.Quote(zone))
		}
		zone = z
	}
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() {
		return editErr("bad IPv6 address " + strconv.Quote(addr))
	}
	u.host, u.zone = "["+a.String()+"]", zone
	return nil
}

// badHostBytes are the bytes curl refuses in a host name, after decoding.
const badHostBytes = " \r\n\t/:#?!@{}[]\\$'\"^`*<>=;,+&()%|"

// setHostText stores a host as written in a URL: percent-decoded, checked,
// an IPv4 number in any inet_aton form written as four decimals.
func (u *editURL) setHostText(h string, decode bool) error {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		return u.setIPv6(h[1 : len(h)-1])
	}
	if decode {
		d, err := urlkit.PathUnescape(h)
		if err != nil {
			return editErr("bad host name " + strconv.Quote(h) + ": bad percent escape")
		}
		h = d
	}
	if h == "" {
		u.host, u.zone = "", ""
		return nil
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c < ' ' || c == 0x7f || strings.IndexByte(badHostBytes, c) >= 0 {
			return editErr("bad host name " + strconv.Quote(h) + ": " + strconv.QuoteRune(rune(c)) + " is not allowed in a host name")
		}
	}
	if v4, ok := normalizeIPv4(h); ok {
		h = v4
	}
	u.host, u.zone = h, ""
	return nil
}

// normalizeIPv4 reads h as inet_aton does (one to four parts, each
// decimal, octal with a leading 0 or hex with 0x; the last part fills the
// remaining bytes) and returns the four-decimal form.
func normalizeIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	var nums []uint64
	for _, p := range parts {
		if p == "" || p[0] < '0' || p[0] > '9' {
			return "", false
		}
		base, digits := 10, p
		if len(p) > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') {
			base, digits = 16, p[2:]
		} else if len(p) > 1 && p[0] == '0' {
			base, digits = 8, p[1:]
		}
		if digits == "" {
			return "", false // "0x" is a name to curl
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return "", false
		}
		nums = append(nums, n)
	}
	var v uint64
	last := len(nums) - 1
	for i, n := range nums[:last] {
		if n > 0xff {
			return "", false
		}
		v |= n << (8 * (3 - i))
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return "", false
	}
	v |= nums[last]
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&0xff)) + "." + strconv.Itoa(int(v>>8&0xff)) + "." + strconv.Itoa(int(v&0xff)), true
}

func (u *editURL) setPort(p string) error {
	if p == "" {
		u.port = ""
		return nil
	}
	n, err := strconv.ParseUint(p, 10, 32)
	if err != nil || n > 65535 || p[0] == '+' {
		return editErr("bad port number " + strconv.Quote(p) + ": a port is a number from 0 to 65535")
	}
	u.port = strconv.FormatUint(n, 10)
	return nil
}

// dedot removes "." and ".." segments (RFC 3986 5.2.4) and makes an empty
// path "/", as curl does.
func dedot(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	if !strings.Contains(p, ".") {
		return p
	}
	var out []string
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// urlOut are the choices that change how a URL is written out.
type urlOut struct {
	keepPort, defaultPort bool
	puny, idn             bool
}

// hostOut returns the host as written out, converted with --punycode or
// --as-idn. A host IDNA cannot convert is returned as it is, with the
// error for a note.
func hostOut(h string, o urlOut) (string, error) {
	if strings.HasPrefix(h, "[") {
		return h, nil
	}
	switch {
	case o.puny && !isASCII(h):
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return h, err
		}
		return a, nil
	case o.idn && strings.Contains(strings.ToLower(h), "xn--"):
		d, err := idna.Lookup.ToUnicode(h)
		if err != nil {
			return h, err
		}
		return d, nil
	}
	return h, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// format writes the URL out as curl_url_get(CURLUPART_URL) does. A host
// that --punycode or --as-idn cannot convert is written as it is, and the
// error returned with the URL for a note.
func (u *editURL) format(o urlOut) (string, error) {
	var b strings.Builder
	var hostErr error
	b.WriteString(u.scheme)
	b.WriteString("://")
	if u.scheme == "file" {
		b.WriteString(u.path)
	} else {
		if u.hasUser {
			b.WriteString(u.user)
			if u.hasPassword {
				b.WriteByte(':')
				b.WriteString(u.password)
			}
			// Only a scheme with login options writes them, as curl
			// does: another reads ";options" back as part of the user
			// or password.
			if u.hasOpts && optionSchemes[u.scheme] {
				b.WriteByte(';')
				b.WriteString(u.options)
			}
			b.WriteByte('@')
		}
		var h string
		h, hostErr = hostOut(u.host, o)
		if u.zone != "" {
			h = h[:len(h)-1] + "%25" + curlEscape(u.zone) + "]"
		}
		b.WriteString(h)
		if port := u.portOut(o.defaultPort); port != "" {
			def, known := defaultPortOf(u.scheme)
			if o.keepPort || o.defaultPort || !known || port != def {
				b.WriteByte(':')
				b.WriteString(port)
			}
		}
		b.WriteString(u.path)
	}
	u.writeTail(&b)
	return b.String(), hostErr
}

func (u *editURL) writeTail(b *strings.Builder) {
	if u.query != "" {
		b.WriteByte('?')
		b.WriteString(u.query)
	}
	if u.fragment != "" {
		b.WriteByte('#')
		b.WriteString(u.fragment)
	}
}

// portOut is the port written, or with withDefault the scheme's default
// when none is.
func (u *editURL) portOut(withDefault bool) string {
	if u.port != "" || !withDefault {
		return u.port
	}
	d, _ := defaultPortOf(u.scheme)
	return d
}

// Component names, in trurl's order (which --json keeps).
var editComponents = []string{"scheme", "user", "password", "options", "host", "port", "path", "query", "fragment", "zoneid"}

func isEditComponent(name string) bool {
	for _, c := range editComponents {
		if c == name {
			return true
		}
	}
	return false
}

// part returns a component in its encoded form and whether it is set.
// The port is the written one or, with defaultPort, the default.
func (u *editURL) part(name string, o urlOut) (string, bool) {
	switch name {
	case "scheme":
		return u.scheme, u.scheme != ""
	case "user":
		return u.user, u.hasUser
	case "password":
		return u.password, u.hasPassword
	case "options":
		return u.options, u.hasOpts
	case "host":
		h, _ := hostOut(u.host, o)
		return h, u.host != ""
	case "port":
		p := u.portOut(o.defaultPort)
		return p, p != ""
	case "path":
		return u.path, true
	case "query":
		return u.query, u.query != ""
	case "fragment":
		return u.fragment, u.fragment != ""
	case "zoneid":
		return u.zone, u.zone != ""
	}
	return "", false
}

// curlEscape is curl_easy_escape: every byte but ALPHA DIGIT - . _ ~ is
// written %XX with upper-case hex digits.
func curlEscape(s string) string { return escapeKeep(s, isCurlUnreserved, false, "0123456789ABCDEF") }

// curlURLEncode is what curl_url_set does with CURLU_URLENCODE: the same
// set, lower-case hex digits, and in the path "/" kept.
func curlURLEncode(s string, keepSlash, plusSpace bool) string {
	keep := isCurlUnreserved
	if keepSlash {
		keep = func(c byte) bool { return c == '/' || isCurlUnreserved(c) }
	}
	return escapeKeep(s, keep, plusSpace, "0123456789abcdef")
}

func isCurlUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func escapeKeep(s string, keep func(byte) bool, plusSpace bool, hex string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case plusSpace && c == ' ':
			b.WriteByte('+')
		case keep(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// curlUnescape decodes every %XX escape and keeps any other "%".
func curlUnescape(s string) string {
	d := percent.Loose(s, false)
	return d
}

// canonicalPath decodes and encodes again each segment of the path (a
// "%2F" stays one, as a "/" inside a segment). A segment that decodes to
// "." or ".." ("%2e", ".%2E") is then a dot segment, removed as a
// written one is at parsing: RFC 3986 6.2.2 decodes before it removes
// them, and the output stays a URL that edit reads back unchanged.
func canonicalPath(p string) string {
	segs := strings.Split(p, "/")
	decodedDot := false
	for i, s := range segs {
		d := curlUnescape(s)
		decodedDot = decodedDot || d != s && (d == "." || d == "..")
		segs[i] = curlEscape(d)
	}
	path := strings.Join(segs, "/")
	if decodedDot {
		path = dedot(path)
	}
	return path
}

// normalizeParts is trurl's normalization of the path, the fragment and
// the login: each decoded and encoded again.
func (u *editURL) normalizeParts() {
	u.path = canonicalPath(u.path)
	u.fragment = curlEscape(curlUnescape(u.fragment))
	if u.hasUser {
		u.user = curlEscape(curlUnescape(u.user))
	}
	if u.hasPassword {
		u.password = curlEscape(curlUnescape(u.password))
	}
	if u.hasOpts {
		u.options = curlEscape(curlUnescape(u.options))
	}
}

var errUnknownComponent = errors.New("unknown component")

// set changes one component as `--set NAME=VALUE` does: value is encoded
// unless raw (`NAME:=VALUE`), and an empty value removes the component.
func (u *editURL) set(name, value string, raw bool, o editOptions) error {
	if value == "" {
		return u.clear(name)
	}
	enc := func(keepSlash, plus bool) string {
		if raw {
			return value
		}
		return curlURLEncode(value, keepSlash, plus)
	}
	switch name {
	case "url":
		v, err := parseEditURL(value, o)
		if err != nil {
			return err
		}
		*u = v
	case "scheme":
		if n, _, ok := schemePrefix(value+":/", false); !ok || len(n) != len(value) {
			return editErr("bad scheme " + strconv.Quote(value))
		}
		s := strings.ToLower(value)
		if _, known := curlPorts[s]; o.curlOnly && !known {
			return editErr("unsupported URL scheme " + strconv.Quote(s))
		}
		u.scheme, u.guessed = s, false
	case "user":
		u.user, u.hasUser = enc(false, false), true
	case "password":
		u.password, u.hasPassword, u.hasUser = enc(false, false), true, true
	case "options":
		u.options, u.hasOpts = enc(false, false), true
	case "host":
		return u.setHostText(value, raw || strings.HasPrefix(value, "["))
	case "port":
		return u.setPort(value)
	case "path":
		p := enc(true, false)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		u.path = p
	case "query":
		u.query, u.emptyQuery = enc(false, true), false
	case "fragment":
		u.fragment, u.emptyFragment = enc(false, false), false
	case "zoneid":
		if !strings.HasPrefix(u.host, "[") {
			return editErr("a zone id needs an IPv6 address")
		}
		u.zone = value
		if raw {
			u.zone = curlUnescape(value)
		}
	default:
		return errUnknownComponent
	}
	return nil
}

func (u *editURL) clear(name string) error {
	switch name {
	case "url":
		*u = editURL{}
	case "scheme":
		u.scheme, u.guessed = "", false
	case "user":
		u.user, u.hasUser, u.password, u.hasPassword = "", false, "", false
	case "password":
		u.password, u.hasPassword = "", false
	case "options":
		u.options, u.hasOpts = "", false
	case "host":
		u.host, u.zone = "", ""
	case "port":
		u.port = ""
	case "path":
		u.path = "/"
	case "query":
		u.query, u.emptyQuery = "", false
	case "fragment":
		u.fragment, u.emptyFragment = "", false
	case "zoneid":
		u.zone = ""
	default:
		return errUnknownComponent
	}
	return nil
}

// isSet reports whether a component counts as set for `--set NAME?=V`: a
// guessed scheme does not (curl's CURLU_NO_GUESS_SCHEME).
func (u *editURL) isSet(name string) bool {
	if name == "scheme" {
		return u.scheme != "" && !u.guessed
	}
	if name == "url" {
		return u.scheme != ""
	}
	_, ok := u.part(name, urlOut{})
	return ok
}
