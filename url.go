package urlkit

import (
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/percent"

	"net/url"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/resolver"
)

// URL is a parsed URL or relative reference. Every component is kept as
// written, still escaped, so that for every valid input s,
// Parse(s).String() == s. Absent and empty components stay apart: the Has
// flags say whether a delimiter was present (RFC 1738 3.1: `ftp://@host.com/`
// has an empty user, `ftp://host.com/` none, `ftp://foo:@host.com/` an empty
// password).
//
// The decomposition is RFC 3986's (scheme, authority, path, query,
// fragment) in every mode; what each mode changes is which characters and
// forms are valid. Scheme-specific meaning lives in package scheme.
//
// A URL from Parse also keeps the text it was parsed from, so that String
// hands that text back without building it again, and == compares that
// text too: two URLs parsed from the same text are ==, and so are two
// literals with the same components, but a parsed URL is never == to a
// literal with the same components, nor to one parsed from the text its
// components were changed to. SameComponents compares the components
// and flags alone; package normalize's Equal compares URLs once
// normalized.
type URL struct {
	Scheme   string // as written, without the ":"; "" for a relative reference
	User     string // as written; see HasUser
	Password string // as written; see HasPassword
	Host     string // as written; an IP literal keeps its brackets
	Port     string // the digits as written; see HasPort
	Path     string // RFC 3986 path as written ("/a/b" for http://h/a/b)
	Query    string // after "?", as written; see HasQuery
	Fragment string // after "#", as written; see HasFragment

	HasAuthority bool // "//" introduces an authority
	HasUser      bool // a userinfo ending in "@" is present
	HasPassword  bool // the userinfo contains ":"
	HasPort      bool // ":" follows the host
	HasQuery     bool // "?" is present
	HasFragment  bool // "#" is present

	// written is the text the URL was parsed from (after the lenient
	// mode's repairs), every component a slice of it: String hands it
	// back, allocation-free, while the components still lie where the
	// parser found them (see writtenForm).
	written string
	// mode is WHATWG for a URL parsed in that mode, whose setters are
	// then the URL Standard's.
	mode Mode
}

// String reassembles the URL from its components as written. For a URL
// as Parse returned it, that is the text parsed, returned without
// allocating. Its receiver is a value, as MarshalText's, so that fmt and
// encoding/json show a URL value (what Parse returns) as its text, not as
// a struct of its fields.
func (u URL) String() string {
	if u.writtenForm() {
		return u.written
	}
	return u.text(false)
}

// Redacted is String with the password, if any, replaced by "xxxxx".
func (u *URL) Redacted() string {
	if !u.HasPassword {
		return u.String()
	}
	return u.text(true)
}

// Clone returns a copy of u that shares no memory with the text it was
// parsed from: String's result is copied into one new string, which the
// components then slice, as they slice the text Parse was given. Parsing
// costs no allocation because the components are substrings of the
// input; a URL parsed from a buffer that will be written again (an
// unsafe.String over a read buffer) is cloned before it is kept.
func (u *URL) Clone() URL {
	c := *u
	if u.writtenForm() {
		c.written = strings.Clone(u.written)
	} else {
		c.written = u.text(false)
	}
	// Each component is taken from the new text where String puts it; a
	// component String leaves out is copied alone.
	text, at := c.written, 0
	take := func(v *string, written bool) {
		if !written {
			*v = strings.Clone(*v)
			return
		}
		*v = text[at : at+len(*v)]
		at += len(*v)
	}
	take(&c.Scheme, true)
	if c.Scheme != "" {
		at++ // ':'
	}
	auth := c.HasAuthority
	user := auth && c.HasUser
	if auth {
		at += 2 // "//"
	}
	take(&c.User, user)
	if user && c.HasPassword {
		at++ // ':'
	}
	take(&c.Password, user && c.HasPassword)
	if user {
		at++ // '@'
	}
	take(&c.Host, auth)
	if auth && c.HasPort {
		at++ // ':'
	}
	take(&c.Port, auth && c.HasPort)
	take(&c.Path, true)
	if c.HasQuery {
		at++ // '?'
	}
	take(&c.Query, c.HasQuery)
	if c.HasFragment {
		at++ // '#'
	}
	take(&c.Fragment, c.HasFragment)
	return c
}

// SameComponents reports whether u and v have the same components and
// flags, byte for byte (Equal compares them once normalized), whatever
// text each was parsed from.
func (u *URL) SameComponents(v *URL) bool {
	return u.Scheme == v.Scheme && u.User == v.User && u.Password == v.Password &&
		u.Host == v.Host && u.Port == v.Port && u.Path == v.Path &&
		u.Query == v.Query && u.Fragment == v.Fragment &&
		u.HasAuthority == v.HasAuthority && u.HasUser == v.HasUser &&
		u.HasPassword == v.HasPassword && u.HasPort == v.HasPort &&
		u.HasQuery == v.HasQuery && u.HasFragment == v.HasFragment
}

// writtenForm reports whether String's result is u.written: every
// component is the text of u.written where String would place it, every
// delimiter String would write is there, nothing is left over. The
// components and flags are exported and free to change since parsing; a
// URL as the parser returned it passes at the cost of a few comparisons,
// each component being the very bytes of u.written (string equality
// returns at once on the same address).
func (u *URL) writtenForm() bool {
	w := u.written
	if w == "" {
		return false
	}
	at := 0
	// part reports whether w continues with v and moves past it.
	part := func(v string) bool {
		if len(v) > len(w)-at || w[at:at+len(v)] != v {
			return false
		}
		at += len(v)
		return true
	}
	// delim reports whether w continues with c and moves past it.
	delim := func(c byte) bool {
		if at < len(w) && w[at] == c {
			at++
			return true
		}
		return false
	}
	if u.Scheme != "" && !(part(u.Scheme) && delim(':')) {
		return false
	}
	if u.HasAuthority {
		//lint:ignore SA4000 two calls: each moves past one "/"
		if !delim('/') || !delim('/') {
			return false
		}
		if u.HasUser && (!part(u.User) || u.HasPassword && !(delim(':') && part(u.Password)) || !delim('@')) {
			return false
		}
		if !part(u.Host) || u.HasPort && !(delim(':') && part(u.Port)) {
			return false
		}
	}
	return part(u.Path) &&
		(!u.HasQuery || delim('?') && part(u.Query)) &&
		(!u.HasFragment || delim('#') && part(u.Fragment)) &&
		at == len(w)
}

// text builds String's result (Redacted's, with redact) from the
// components.
func (u *URL) text(redact bool) string {
	var p resolver.URL
	u.parts(&p)
	return p.Text(redact)
}

// parts sets p to u's components, as the resolution engine reads them.
// It and fromParts assign field by field into their destination: a URL
// built aside and then copied in whole costs a stall on every call.
func (u *URL) parts(p *resolver.URL) {
	p.Scheme, p.User, p.Password, p.Host = u.Scheme, u.User, u.Password, u.Host
	p.Port, p.Path, p.Query, p.Fragment = u.Port, u.Path, u.Query, u.Fragment
	p.HasAuthority, p.HasUser, p.HasPassword = u.HasAuthority, u.HasUser, u.HasPassword
	p.HasPort, p.HasQuery, p.HasFragment = u.HasPort, u.HasQuery, u.HasFragment
}

// fromParts sets u to p's components and text, parts' inverse.
func (u *URL) fromParts(p *resolver.URL) {
	u.Scheme, u.User, u.Password, u.Host = p.Scheme, p.User, p.Password, p.Host
	u.Port, u.Path, u.Query, u.Fragment = p.Port, p.Path, p.Query, p.Fragment
	u.HasAuthority, u.HasUser, u.HasPassword = p.HasAuthority, p.HasUser, p.HasPassword
	u.HasPort, u.HasQuery, u.HasFragment = p.HasPort, p.HasQuery, p.HasFragment
	u.written = p.Written
}

// SchemeName returns the scheme in lower case (schemes are
// case-insensitive, RFC 1738 2.1). It allocates only when the scheme as
// written contains an upper-case letter.
func (u *URL) SchemeName() string { return cc.LowerASCII(u.Scheme) }

// IsAbs reports whether the URL has a scheme.
func (u *URL) IsAbs() bool { return u.Scheme != "" }

// Authority returns RFC 3986's authority as written (userinfo, host,
// port) and whether "//" introduced one. For a URL as Parse returned
// it, this and the other composite parts below are slices of the text
// parsed: they cost no string.
func (u *URL) Authority() (string, bool) {
	if !u.HasAuthority {
		return "", false
	}
	if u.writtenForm() {
		o := u.Offsets()
		return u.written[o.SchemeSpecificPart+2 : o.Path], true
	}
	var p resolver.URL
	u.parts(&p)
	return p.Authority()
}

// SchemeSpecificPart returns everything after "scheme:" up to "#", as
// written (RFC 1738 2.1's scheme-specific-part).
func (u *URL) SchemeSpecificPart() string {
	if u.writtenForm() {
		return u.written[u.Offsets().SchemeSpecificPart:u.beforeFragment()]
	}
	v := *u
	v.Scheme = ""
	v.HasFragment, v.Fragment = false, ""
	return v.String()
}

// URLPath returns RFC 1738's url-path as written: what follows the "/"
// after the host, up to "#" (the search part included), and whether there
// is one. URLs without an authority have no url-path.
func (u *URL) URLPath() (string, bool) {
	if !u.HasAuthority || !strings.HasPrefix(u.Path, "/") {
		return "", false
	}
	if !u.HasQuery {
		return u.Path[1:], true
	}
	if u.writtenForm() {
		return u.written[u.Offsets().Path+1 : u.beforeFragment()], true
	}
	return u.Path[1:] + "?" + u.Query, true
}

// beforeFragment is where the "#" is in u.written, or its end; u is in
// its written form.
func (u *URL) beforeFragment() int {
	if u.HasFragment {
		return len(u.written) - len(u.Fragment) - 1
	}
	return len(u.written)
}

// Hostname returns the host without the brackets of an IP literal.
func (u *URL) Hostname() string {
	h := u.Host
	if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
		return h[1 : len(h)-1]
	}
	return h
}

// EffectivePort returns the port to connect to: the written port, else the
// scheme's default port (DefaultPort). It returns false for schemes that
// have no port, such as mailto and news, and for a written port that is
// no port number (a URL built by hand: the parser refuses one), which
// names no port to connect to, not the default.
func (u *URL) EffectivePort() (int, bool) {
	if u.HasPort && u.Port != "" {
		// Digits only (a URL built by hand may hold "-1" or "+80", which
		// strconv reads as numbers).
		if strings.Trim(u.Port, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(u.Port)
		if err != nil || n > 65535 {
			return 0, false
		}
		return n, true
	}
	if p := DefaultPort(u.Scheme); p > 0 {
		return p, true
	}
	return 0, false
}

// DecodedUser returns the user name with its escapes decoded, and whether
// the URL has a user.
func (u *URL) DecodedUser() (string, bool) {
	return percent.Loose(u.User, false), u.HasUser
}

// DecodedPassword returns the password with its escapes decoded, and
// whether the URL has a password.
func (u *URL) DecodedPassword() (string, bool) {
	return percent.Loose(u.Password, false), u.HasPassword
}

// MarshalText returns String's bytes, for a URL value too (a struct field
// of type URL is written as a string, as UnmarshalText reads it).
func (u URL) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text as a URL valid in the RFC 1738 mode or, failing
// that, the RFC 3986 mode (so that modern URLs such as IPv6 literals load
// too). The error reported is the RFC 1738 one.
func (u *URL) UnmarshalText(text []byte) error {
	s := string(text)
	v, err := Parse(s)
	if err != nil {
		var err2 error
		if v, _, err2 = ParseMode(s, RFC3986); err2 != nil {
			return err
		}
	}
	*u = v
	return nil
}

// NetURL converts the URL to a *net/url.URL. Escaped forms are carried in
// RawPath and RawFragment so that net/url re-encodes nothing it need not.
// net/url writes no "#" for an empty Fragment, so for a URL with an
// empty fragment ("http://h/a#") NetURL carries the whole text after the
// scheme, "#" included, in Opaque (which String writes as it is); Host,
// User and Path are set as usual, RawQuery is left empty (its text is in
// Opaque) and String gives the URL back byte for byte.
// A URL without an authority whose path does not start with "/" (mailto:,
// news:) becomes an opaque net/url URL.
func (u *URL) NetURL() *url.URL {
	n := &url.URL{Scheme: u.Scheme, RawQuery: u.Query, ForceQuery: u.HasQuery && u.Query == "", OmitHost: !u.HasAuthority}
	if u.HasUser {
		user, _ := u.DecodedUser()
		if u.HasPassword {
			pass, _ := u.DecodedPassword()
			n.User = url.UserPassword(user, pass)
		} else {
			n.User = url.User(user)
		}
	}
	if u.HasAuthority {
		n.Host = u.Host
		if u.HasPort {
			n.Host += ":" + u.Port
		}
	}
	if !u.HasAuthority && u.Scheme != "" && !strings.HasPrefix(u.Path, "/") {
		n.Opaque = u.Path
	} else {
		n.Path = percent.Loose(u.Path, false)
		n.RawPath = u.Path
	}
	if u.HasFragment {
		n.Fragment = percent.Loose(u.Fragment, false)
		n.RawFragment = u.Fragment
	}
	if u.HasFragment && u.Fragment == "" {
		v := *u
		v.Scheme = ""
		n.Opaque, n.RawQuery, n.ForceQuery = v.String(), "", false
	}
	return n
}

// FromNetURL converts a *net/url.URL, parsing its String form in the RFC
// 3986 mode and, if net/url produced something RFC 3986 rejects, in the
// lenient mode.
func FromNetURL(n *url.URL) (URL, error) {
	s := n.String()
	if u, _, err := ParseMode(s, RFC3986); err == nil {
		return u, nil
	}
	u, _, err := ParseMode(s, Lenient)
	return u, err
}

// Offsets are the byte offsets of a URL's components in its String form:
// where each one starts (after its delimiter). A field is meaningful only
// when its component is present, except Path, which always is; an absent
// Fragment's offset is the end of the URL.
type Offsets struct {
	SchemeSpecificPart int // after "scheme:"
	User, Password     int
	Host, Port         int
	Path               int
	Query, Fragment    int
}

// Offsets returns where each component starts in u.String(), so that
// errors about a decoded part can name the offset of its text.
func (u *URL) Offsets() Offsets {
	var o Offsets
	i := 0
	if u.Scheme != "" {
		i = len(u.Scheme) + 1
	}
	o.SchemeSpecificPart = i
	if u.HasAuthority {
		i += 2
		if u.HasUser {
			o.User = i
			i += len(u.User)
			if u.HasPassword {
				o.Password = i + 1
				i += 1 + len(u.Password)
			}
			i++ // "@"
		}
		o.Host = i
		i += len(u.Host)
		if u.HasPort {
			o.Port = i + 1
			i += 1 + len(u.Port)
		}
	}
	o.Path = i
	i += len(u.Path)
	if u.HasQuery {
		o.Query = i + 1
		i += 1 + len(u.Query)
	}
	if u.HasFragment {
		i++
	}
	o.Fragment = i
	return o
}
