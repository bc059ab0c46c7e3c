// Package edit is the URL as curl's URL API reads and writes it, and as
// trurl (whose options `urlkit edit` takes) edits it, built on the core:
// urlkit's RFC 3986 parser splits the URL, internal/resolver removes dot
// segments, internal/ipv4 reads inet_aton's numbers, the registry gives
// the default ports and charclass's escaper encodes. What is curl's own
// is here: the steps before the parser (a guessed scheme, one to three
// slashes, an IPv6 zone, what curl accepts raw that RFC 3986 does not),
// the checks and forms after it (a host percent-decoded, checked and
// written in its address form, a port without leading zeros, login
// options), and trurl's query pairs.
package edit

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/ipv4"
	"golang.org/x/net/idna"
)

// URL is one URL of `urlkit edit`. Components are stored encoded, except
// the host, which is stored decoded (UTF-8 for an IDN).
type URL struct {
	Scheme                        string // lower case
	Guessed                       bool   // the scheme was guessed, not written
	User, Password, Options       string
	HasUser, HasPassword, HasOpts bool
	Host, Zone                    string // Host: "[v6]" for IPv6, without the zone
	Port                          string // decimal, no leading zeros; "" for none
	Path                          string // starts with "/"
	Query, Fragment               string // "" for none (curl drops empty ones)
	// EmptyQuery and EmptyFragment record a "?" or "#" with nothing after
	// it: not written out, but present for {must:query} (curl's
	// CURLU_GET_EMPTY).
	EmptyQuery, EmptyFragment bool
}

// Options are the parsing choices of the command line.
type Options struct {
	NoGuess     bool // --no-guess-scheme
	AcceptSpace bool // --accept-space
	CurlOnly    bool // --curl
}

// Out are the choices that change how a URL is written out.
type Out struct {
	KeepPort, DefaultPort bool
	Puny, IDN             bool
}

// Error is a URL the edit model cannot read; its text is the reason.
type Error struct{ Msg string }

// Error returns the reason.
func (e *Error) Error() string { return e.Msg }

func editErr(msg string) error { return &Error{msg} }

// Parse reads s as curl's URL API does with CURLU_GUESS_SCHEME (unless
// NoGuess), CURLU_NON_SUPPORT_SCHEME (unless CurlOnly) and
// CURLU_URLENCODE.
func Parse(s string, o Options) (URL, error) {
	var u URL
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f {
			return u, editErr("malformed input: control character at offset " + strconv.Itoa(i))
		}
		if s[i] == ' ' && !o.AcceptSpace {
			return u, editErr("malformed input: space at offset " + strconv.Itoa(i) + " (--accept-space encodes it)")
		}
	}
	rest := s
	if name, after, ok := SchemePrefix(s, !o.NoGuess); ok {
		u.Scheme = strings.ToLower(name)
		if o.CurlOnly && !curlSchemes[u.Scheme] {
			return u, editErr("unsupported URL scheme " + strconv.Quote(u.Scheme))
		}
		if u.Scheme == "file" {
			return parseFile(u, after)
		}
		n := 0
		for n < len(after) && after[n] == '/' && n < 4 {
			n++
		}
		if n < 1 || n > 3 {
			return u, editErr("bad slashes after the scheme: one to three are allowed")
		}
		rest = after[n:]
	} else if o.NoGuess {
		return u, editErr("bad scheme: no scheme and --no-guess-scheme")
	} else {
		u.Guessed = true
	}
	c, err := split(rest)
	if err != nil {
		return u, err
	}
	if c.HasUser {
		u.setLogin(c)
	}
	if c.hasZone {
		if err := u.setIPv6(c.Host[1:len(c.Host)-1] + "%" + c.zone); err != nil {
			return u, err
		}
	} else if err := u.setHostText(c.Host, true); err != nil {
		return u, err
	}
	if c.HasPort {
		if err := u.SetPort(c.Port); err != nil {
			return u, err
		}
	}
	if u.Guessed {
		u.Scheme = guessScheme(u.Host)
	}
	u.setTail(c)
	if u.Host == "" {
		return u, editErr("no host part in the URL")
	}
	return u, nil
}

// parts is a URL as the core split it, each component as curl keeps it.
type parts struct {
	urlkit.URL
	zone    string // an IPv6 zone as written, which RFC 3986 has no room for
	hasZone bool
}

// split hands rest ("authority/path?query#fragment", what follows
// "scheme://" as curl reads it) to urlkit's RFC 3986 parser, after the
// step that makes curl's text RFC 3986's: what curl encodes itself (a
// space, octets 80-FF in the path and the query) is encoded as curl
// encodes it; what curl keeps raw that RFC 3986 refuses ("{", a "%"
// without two hex digits, a second "#", a space in the login) is
// encoded for the parser and then written back raw; an IPv6 zone
// ("%eth0" or "%25eth0") is taken out. The split is then the core's.
func split(rest string) (parts, error) {
	var p preparer
	p.b = append(p.b, "x://"...)
	authEnd := strings.IndexAny(rest, "/?#")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	var c parts
	auth := rest[:authEnd]
	login := strings.IndexByte(auth, '@') + 1 // curl's login ends at the first "@"
	p.prepare(auth[:login], loginPart)
	host := auth[login:]
	if strings.HasPrefix(host, "[") {
		if end := strings.IndexByte(host, ']'); end > 0 {
			if addr, zone, ok := strings.Cut(host[1:end], "%"); ok {
				c.zone, c.hasZone = zone, true
				host = "[" + addr + host[end:]
			}
		}
	}
	p.prepare(host, hostPart)
	pathAt := len(p.b)
	p.prepare(rest[authEnd:], pathPart)
	u, _, err := urlkit.ParseMode(string(p.b), urlkit.RFC3986)
	if err != nil {
		if errors.Is(err, urlkit.ErrBadPort) {
			return c, badPort(portText(host))
		}
		var e *urlkit.Error
		if errors.As(err, &e) {
			return c, editErr(e.Rule)
		}
		return c, err
	}
	c.URL = u
	if u.HasUser {
		c.User = p.restore(u.User, len("x://"), false)
		c.Password = p.restore(u.Password, len("x://")+len(u.User)+1, false)
	}
	at := pathAt + len(u.Path)
	c.Path = p.restore(u.Path, pathAt, false)
	if u.HasQuery {
		c.Query = p.restore(u.Query, at+1, true)
		at += 1 + len(u.Query)
	}
	if u.HasFragment {
		c.Fragment = p.restore(u.Fragment, at+1, false)
	}
	return c, nil
}

// The parts of the text the preparer encodes differently.
const (
	loginPart = iota
	hostPart
	pathPart
)

// preparer builds the RFC 3986 text of split, noting where it encoded a
// byte that curl keeps as it is.
type preparer struct {
	b     []byte
	marks []mark
}

// mark is an escape of the prepared text at offset at that stands for
// the byte raw as curl keeps it; or, with space, a space that curl
// encodes: "%20" in the path, "+" in the query.
type mark struct {
	at    int
	raw   byte
	space bool
}

// rawInPath are the printable bytes curl keeps unencoded that RFC 3986
// allows in no component (and "[", "]", allowed in a host only).
const rawInPath = "\"<>\\^`{|}[]"

func (p *preparer) prepare(s string, part int) {
	hash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			// curl encodes it in the path and the query; the login and
			// the fragment it keeps raw.
			if part != hostPart {
				p.marks = append(p.marks, mark{at: len(p.b), raw: ' ', space: part == pathPart && !hash})
			}
			p.b = append(p.b, "%20"...)
		case c >= 0x80:
			// curl encodes it, in lower case, but in the login and the
			// fragment.
			if part == loginPart || part == pathPart && hash {
				p.marks = append(p.marks, mark{at: len(p.b), raw: c})
			}
			p.b = append(p.b, '%', lowerHex[c>>4], lowerHex[c&15])
		case part == hostPart && c != '[' && c != ']' && strings.IndexByte(rawInPath, c) >= 0:
			// Encoded for the parser, refused after decoding by
			// setHostText, which says why as curl does.
			p.b = append(p.b, '%', cc.UpperHex[c>>4], cc.UpperHex[c&15])
		case part != hostPart && (strings.IndexByte(rawInPath, c) >= 0 || c == '#' && hash ||
			c == '%' && !(i+2 < len(s) && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]))):
			p.marks = append(p.marks, mark{at: len(p.b), raw: c})
			p.b = append(p.b, '%', cc.UpperHex[c>>4], cc.UpperHex[c&15])
		default:
			hash = hash || c == '#' && part == pathPart
			p.b = append(p.b, c)
		}
	}
}

const lowerHex = "0123456789abcdef"

// restore returns the component v, which starts at offset at of the
// prepared text, with its marked escapes written as curl keeps them.
func (p *preparer) restore(v string, at int, query bool) string {
	var b []byte
	last := 0
	for _, m := range p.marks {
		if m.at < at || m.at >= at+len(v) {
			continue
		}
		i := m.at - at
		b = append(b, v[last:i]...)
		switch {
		case !m.space:
			b = append(b, m.raw)
		case query:
			b = append(b, '+')
		default:
			b = append(b, "%20"...)
		}
		last = i + 3
	}
	if b == nil {
		return v
	}
	return string(append(b, v[last:]...))
}

// setLogin takes the user and password the core split; a scheme with
// login options reads them as curl does, from the first ";" of the
// login (user;options:password is user and options "options:password").
func (u *URL) setLogin(c parts) {
	u.User, u.HasUser = c.User, true
	u.Password, u.HasPassword = c.Password, c.HasPassword
	if !optionSchemes[u.Scheme] {
		return
	}
	login := c.User
	if c.HasPassword {
		login += ":" + c.Password
	}
	user := login
	if i := strings.IndexByte(user, ';'); i >= 0 {
		u.Options, u.HasOpts = user[i+1:], true
		user = user[:i]
	}
	u.Password, u.HasPassword = "", false
	if i := strings.IndexByte(user, ':'); i >= 0 {
		u.Password, u.HasPassword = user[i+1:], true
		user = user[:i]
	}
	u.User = user
}

// setTail sets the path (made absolute, dot segments removed), the query
// and the fragment the core split.
func (u *URL) setTail(c parts) {
	u.Path = removeDots(absolute(c.Path))
	u.Query, u.Fragment = c.Query, c.Fragment
	u.EmptyQuery = c.HasQuery && c.Query == ""
	u.EmptyFragment = c.HasFragment && c.Fragment == ""
}

// absolute is p starting with "/", as curl makes every path.
func absolute(p string) string {
	if p == "" || p[0] != '/' {
		return "/" + p
	}
	return p
}

// SchemePrefix finds "scheme:" at the start of s. With guessing on, curl
// takes it for a scheme only when "/" follows the colon, so that
// "localhost:8080" is a host and a port.
func SchemePrefix(s string, guess bool) (name, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 40 {
		c := s[i]
		if cc.Is(c, cc.Alpha) || i > 0 && (cc.Is(c, cc.Digit) || c == '+' || c == '-' || c == '.') {
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

// parseFile reads what follows "file:": an optional "//" and a host,
// which must be empty or the local host, then the path, query and
// fragment, split by the core as for any URL.
func parseFile(u URL, after string) (URL, error) {
	rest := absolute(after) // no authority: the path alone
	if a, ok := strings.CutPrefix(after, "//"); ok {
		end := strings.IndexAny(a, "/?#")
		if end < 0 {
			end = len(a)
		}
		if h := strings.ToLower(a[:end]); h != "" && h != "localhost" && h != "127.0.0.1" {
			return u, editErr("a file URL's host must be empty or localhost")
		}
		rest = a[end:]
	}
	c, err := split(rest)
	if err != nil {
		return u, err
	}
	u.setTail(c)
	return u, nil
}

// setIPv6 stores an IPv6 address in RFC 5952's form, with its zone (written
// "%25zone" or curl's "%zone").
func (u *URL) setIPv6(in string) error {
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
	u.Host, u.Zone = "["+a.String()+"]", zone
	return nil
}

// badHostBytes are the bytes curl refuses in a host name, after decoding.
const badHostBytes = " \r\n\t/:#?!@{}[]\\$'\"^`*<>=;,+&()%|"

// setHostText stores a host as written in a URL: percent-decoded (with
// decode), checked, an IPv4 number in any inet_aton form written as four
// decimals.
func (u *URL) setHostText(h string, decode bool) error {
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
		u.Host, u.Zone = "", ""
		return nil
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c < ' ' || c == 0x7f || strings.IndexByte(badHostBytes, c) >= 0 {
			return editErr("bad host name " + strconv.Quote(h) + ": " + strconv.QuoteRune(rune(c)) + " is not allowed in a host name")
		}
	}
	if a, ok := ipv4.Aton(h); ok {
		h = a.String()
	}
	u.Host, u.Zone = h, ""
	return nil
}

// SetPort sets the port: decimal digits up to 65535, written without
// leading zeros; "" removes it.
func (u *URL) SetPort(p string) error {
	if p == "" {
		u.Port = ""
		return nil
	}
	n, err := strconv.ParseUint(p, 10, 32)
	if err != nil || n > 65535 || p[0] == '+' {
		return badPort(p)
	}
	u.Port = strconv.FormatUint(n, 10)
	return nil
}

func badPort(p string) error {
	return editErr("bad port number " + strconv.Quote(p) + ": a port is a number from 0 to 65535")
}

// portText is the port of a host[:port] the parser refused, for its
// message: after "]:" for an IP literal, else after the last ":".
func portText(hostport string) string {
	if i := strings.LastIndex(hostport, "]:"); strings.HasPrefix(hostport, "[") && i >= 0 {
		return hostport[i+2:]
	}
	return hostport[strings.LastIndexByte(hostport, ':')+1:]
}

// hostOut returns the host as written out, converted with Puny or IDN.
// A host IDNA cannot convert is returned as it is, with the error for a
// note.
func hostOut(h string, o Out) (string, error) {
	if strings.HasPrefix(h, "[") {
		return h, nil
	}
	switch {
	case o.Puny && !isASCII(h):
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return h, err
		}
		return a, nil
	case o.IDN && strings.Contains(strings.ToLower(h), "xn--"):
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

// Format writes the URL out as curl_url_get(CURLUPART_URL) does. A host
// that Puny or IDN cannot convert is written as it is, and the error
// returned with the URL for a note.
func (u *URL) Format(o Out) (string, error) {
	var b strings.Builder
	var hostErr error
	b.WriteString(u.Scheme)
	b.WriteString("://")
	if u.Scheme == "file" {
		b.WriteString(u.Path)
	} else {
		if u.HasUser {
			b.WriteString(u.User)
			if u.HasPassword {
				b.WriteByte(':')
				b.WriteString(u.Password)
			}
			// Only a scheme with login options writes them, as curl
			// does: another reads ";options" back as part of the user
			// or password.
			if u.HasOpts && optionSchemes[u.Scheme] {
				b.WriteByte(';')
				b.WriteString(u.Options)
			}
			b.WriteByte('@')
		}
		var h string
		h, hostErr = hostOut(u.Host, o)
		if u.Zone != "" {
			h = h[:len(h)-1] + "%25" + Escape(u.Zone) + "]"
		}
		b.WriteString(h)
		if port := u.portOut(o.DefaultPort); port != "" {
			if def := DefaultPort(u.Scheme); o.KeepPort || o.DefaultPort || def == "" || port != def {
				b.WriteByte(':')
				b.WriteString(port)
			}
		}
		b.WriteString(u.Path)
	}
	if u.Query != "" {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	if u.Fragment != "" {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String(), hostErr
}

// portOut is the port written, or with withDefault the scheme's default
// when none is.
func (u *URL) portOut(withDefault bool) string {
	if u.Port != "" || !withDefault {
		return u.Port
	}
	return DefaultPort(u.Scheme)
}

// Components are the component names, in trurl's order (which --json
// keeps).
var Components = []string{"scheme", "user", "password", "options", "host", "port", "path", "query", "fragment", "zoneid"}

// IsComponent reports whether name is one of Components.
func IsComponent(name string) bool {
	for _, c := range Components {
		if c == name {
			return true
		}
	}
	return false
}

// Part returns a component in its encoded form and whether it is set.
// The port is the written one or, with DefaultPort, the default.
func (u *URL) Part(name string, o Out) (string, bool) {
	switch name {
	case "scheme":
		return u.Scheme, u.Scheme != ""
	case "user":
		return u.User, u.HasUser
	case "password":
		return u.Password, u.HasPassword
	case "options":
		return u.Options, u.HasOpts
	case "host":
		h, _ := hostOut(u.Host, o)
		return h, u.Host != ""
	case "port":
		p := u.portOut(o.DefaultPort)
		return p, p != ""
	case "path":
		return u.Path, true
	case "query":
		return u.Query, u.Query != ""
	case "fragment":
		return u.Fragment, u.Fragment != ""
	case "zoneid":
		return u.Zone, u.Zone != ""
	}
	return "", false
}
