package urlkit

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/percent"
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/internal/whatwg"
	"golang.org/x/net/idna"
)

// The setters below change one component of a URL. Each takes the
// component decoded (the Raw forms take it already encoded), encodes what
// must be encoded, and refuses what no encoding can make valid (a host
// holding a space or CR LF) with an *Error naming the offset and the rule.
// On error the URL is left unchanged.
//
// After a successful call the URL is a valid RFC 3986 URI reference whose
// String parses back, in the RFC3986 mode, into the same fields. The
// encodings use only characters that RFC 1738 allows too, so a URL that
// Parse (the RFC1738 mode) accepted stays accepted after a setter that
// encodes (the Raw forms take any text RFC 3986 allows), unless its scheme has
// a production of its own in RFC 1738 section 5 (no user name in an http
// URL, a newsgroup name without escapes, a hostname of letters, digits and
// "-") or the host set is an IPv6 literal, which RFC 1738 cannot write:
// Check(u.String(), RFC1738) then says what breaks it.
//
// To remove a component, clear its Has flag (u.HasQuery = false).
//
// A URL parsed in the WHATWG mode has the URL Standard's setters instead,
// which encode and repair as its parser does and refuse what it refuses
// (the URL then stays as it was, and the error says so): SetScheme is
// its protocol setter, SetUser username, SetPassword password, SetHost
// hostname (an IPv6 address with or without brackets), SetPort port,
// SetPath and SetRawPath pathname, SetRawQuery search and SetQuery
// URLSearchParams' (the pairs written as application/x-www-form-
// urlencoded; an empty Query or query removes it, as there), SetFragment
// and SetRawFragment hash.

// SetScheme sets the scheme (RFC 3986 3.1: a letter, then letters, digits,
// "+", "-" or "."). An empty scheme makes the URL a relative reference.
func (u *URL) SetScheme(scheme string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("scheme", scheme, (*whatwg.URL).SetProtocol)
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		if !cc.Is(c, cc.Alpha) && (i == 0 || !cc.Is(c, cc.Digit) && c != '+' && c != '-' && c != '.') {
			return setError("scheme", scheme, i, ErrBadScheme, describe(c)+" is not allowed in a scheme: a letter, then letters, digits, '+', '-' or '.' (RFC 3986 3.1)")
		}
	}
	v := *u
	v.Scheme = scheme
	return u.commit(&v, "scheme")
}

// SetUser sets the user name, encoding what RFC 1738 3.1 says must be
// encoded in it (":", "@", "/" and every unsafe character).
func (u *URL) SetUser(user string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("user", user, (*whatwg.URL).SetUsername)
	}
	v := *u
	v.User, v.HasUser, v.HasAuthority = percent.Escape(user, percent.Userinfo, false), true, true
	return u.commit(&v, "user")
}

// SetPassword sets the password, encoded like the user name. A URL with a
// password has a user name: an empty one is added if there is none.
func (u *URL) SetPassword(password string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("password", password, (*whatwg.URL).SetPassword)
	}
	v := *u
	v.Password, v.HasPassword, v.HasUser, v.HasAuthority = percent.Escape(password, percent.Userinfo, false), true, true, true
	return u.commit(&v, "password")
}

// SetHost sets the host: a registered name, an IPv4 address, or an IPv6
// address (with or without its brackets; it is written with them). A name
// with non-ASCII text is converted to its IDNA A-labels ("bücher.example"
// is "xn--bcher-kva.example"), as the lenient mode does; a name IDNA
// refuses is refused. Characters that delimit other components or are not
// allowed in a host at all (space, control characters, "/", "?", "#",
// "@", ":", "[", "]", "%", "\" ...) are refused, not encoded: a host that
// holds them is not a host.
func (u *URL) SetHost(host string) error {
	if u.mode == WHATWG {
		if strings.IndexByte(host, ':') >= 0 && !strings.HasPrefix(host, "[") {
			host = "[" + host + "]"
		}
		return u.setWHATWG("host", host, (*whatwg.URL).SetHostname)
	}
	h, err := hostText(host)
	if err != nil {
		return err
	}
	v := *u
	v.Host, v.HasAuthority = h, true
	return u.commit(&v, "host")
}

func hostText(host string) (string, error) {
	inner := host
	if len(host) >= 2 && host[0] == '[' && host[len(host)-1] == ']' {
		inner = host[1 : len(host)-1]
	}
	if strings.IndexByte(inner, ':') >= 0 || inner != host {
		if a, err := netip.ParseAddr(inner); err == nil && a.Is6() && a.Zone() == "" {
			return "[" + inner + "]", nil
		}
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c >= utf8.RuneSelf {
			continue
		}
		if c == ':' || c == '[' || c == ']' {
			return "", setError("host", host, i, ErrBadHost, describe(c)+" is allowed in a host only in an IPv6 address, [ADDRESS] (RFC 3986 3.2.2)")
		}
		if !cc.Is(c, cc.Unreserved) && strings.IndexByte("~!$&'()*+,;=", c) < 0 {
			return "", setError("host", host, i, ErrBadHost, describe(c)+" is not allowed in a host name (RFC 3986 3.2.2, reg-name)")
		}
	}
	ascii := true
	for i := 0; i < len(host); i++ {
		ascii = ascii && host[i] < utf8.RuneSelf
	}
	if !ascii {
		if !utf8.ValidString(host) {
			return "", setError("host", host, 0, ErrBadHost, "a host name must be ASCII or UTF-8 text")
		}
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", setError("host", host, 0, ErrBadHost, "internationalized host name is not valid IDNA: "+err.Error())
		}
		host = a
	}
	return percent.Escape(host, percent.Unsafe, false), nil // "~" is %7E, as RFC 1738 2.2 has it
}

// SetPort sets the port (0 to 65535). The URL must have a host.
func (u *URL) SetPort(port int) error {
	if u.mode == WHATWG && port >= 0 {
		return u.setWHATWG("port", whatwgPort(port), (*whatwg.URL).SetPort)
	}
	if port < 0 || port > 65535 {
		return setError("port", strconv.Itoa(port), 0, ErrBadPort, "a port is a number from 0 to 65535")
	}
	v := *u
	v.Port, v.HasPort = strconv.Itoa(port), true
	return u.commit(&v, "port")
}

// SetPath sets the path from its decoded text: "/" separates segments and
// every other character that is not allowed in a segment is encoded (a
// "/" that belongs inside a segment cannot be told apart here: build the
// path with PathEscape and use SetRawPath). In a URL with a host, a path
// that does not start with "/" gets one.
func (u *URL) SetPath(path string) error {
	if u.mode == WHATWG {
		return u.SetRawPath(path)
	}
	return u.SetRawPath(percent.Escape(path, percent.Path, false))
}

// SetRawPath sets the path from its encoded text, which must be a valid
// RFC 3986 path (percent-encode everything else). In a URL with a host, a
// path that does not start with "/" gets one.
func (u *URL) SetRawPath(path string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("path", path, (*whatwg.URL).SetPathname)
	}
	v := *u
	if v.HasAuthority && path != "" && path[0] != '/' {
		path = "/" + path
	}
	if !v.HasAuthority && strings.HasPrefix(path, "//") {
		return setError("path", path, 0, ErrSchemeSyntax, "a path without a host cannot start with \"//\": it would be read as the host (RFC 3986 3.3)")
	}
	if v.Scheme == "" && !v.HasAuthority {
		// A first segment with ":" would be read as a scheme.
		seg, _, _ := strings.Cut(path, "/")
		if i := strings.IndexByte(seg, ':'); i >= 0 {
			return setError("path", path, i, ErrMissingScheme, "':' in the first segment of a relative path would make it a scheme; write it %3A (RFC 3986 4.2)")
		}
	}
	v.Path = path
	return u.commit(&v, "path")
}

// SetQuery sets the query to q's text (see Query.Encode); a Query without
// pairs removes the query.
func (u *URL) SetQuery(q Query) error {
	if u.mode == WHATWG {
		return u.setWHATWG("query", prefixed('?', formText(q.pairs)), (*whatwg.URL).SetSearch)
	}
	if len(q.pairs) == 0 {
		v := *u
		v.Query, v.HasQuery = "", false
		return u.commit(&v, "query")
	}
	return u.SetRawQuery(q.Encode())
}

// SetRawQuery sets the query (without "?") from its encoded text, which
// must be valid in an RFC 3986 query.
func (u *URL) SetRawQuery(query string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("query", prefixed('?', query), (*whatwg.URL).SetSearch)
	}
	v := *u
	v.Query, v.HasQuery = query, true
	return u.commit(&v, "query")
}

// SetFragment sets the fragment from its decoded text, encoding what must
// be encoded (RFC 1738 2.2: the unsafe characters, "#" among them).
func (u *URL) SetFragment(fragment string) error {
	if u.mode == WHATWG {
		return u.SetRawFragment(fragment)
	}
	return u.SetRawFragment(percent.Escape(fragment, percent.Fragment, false))
}

// SetRawFragment sets the fragment (without "#") from its encoded text,
// which must be valid in an RFC 3986 fragment.
func (u *URL) SetRawFragment(fragment string) error {
	if u.mode == WHATWG {
		return u.setWHATWG("fragment", prefixed('#', fragment), (*whatwg.URL).SetHash)
	}
	v := *u
	v.Fragment, v.HasFragment = fragment, true
	return u.commit(&v, "fragment")
}

// JoinPath returns a copy of u with the elements appended to its path,
// joined by "/" (one "/" between two elements, whatever they end or start
// with) and with "." and ".." segments resolved (RFC 3986 5.2.4). Each
// element is decoded text in which "/" separates segments, like SetPath's
// argument. A trailing "/" on the last element is kept.
func (u *URL) JoinPath(elem ...string) (URL, error) {
	p := u.Path
	for _, e := range elem {
		if e == "" {
			continue
		}
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		p += percent.Escape(strings.TrimLeft(e, "/"), percent.Path, false)
	}
	if resolver.HasDotSegment(p) {
		p = string(resolver.RemoveDotSegments([]byte(p), nil, ""))
	}
	v := *u
	if err := v.SetRawPath(p); err != nil {
		return URL{}, err
	}
	return v, nil
}

// commit replaces u with v when v's text is a valid RFC 3986 reference
// that parses back into v's fields.
func (u *URL) commit(v *URL, what string) error {
	if v.HasPort && !v.HasAuthority {
		return setError(what, v.String(), 0, ErrBadPort, "a port needs a host")
	}
	if v.HasUser && !v.HasAuthority {
		v.HasAuthority = true
	}
	s := v.String()
	w, _, err := ParseReference(s, RFC3986)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Op = "set " + what
		}
		return err
	}
	if !w.SameComponents(v) {
		return setError(what, s, 0, ErrSchemeSyntax, "the components do not read back as written (RFC 3986 3)")
	}
	*u = w // v's components, whose String is s without building it again
	return nil
}

func setError(what, input string, off int, cause error, rule string) *Error {
	return &Error{Op: "set " + what, Input: safetext.RedactURL(input), Offset: off, Err: cause, Rule: rule}
}
