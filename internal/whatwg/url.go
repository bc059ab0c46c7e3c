// Package whatwg is the WHATWG URL Standard (url.spec.whatwg.org): the
// basic URL parser, the host parser with domain to ASCII, the href
// serializer, origin, the URL API's setters and application/x-www-form-
// urlencoded. The root package's WHATWG mode calls it.
//
// A URL is kept as its href and the offsets of its components in it,
// the href being built while parsing: when the input is already in its
// serialized form, the href is the input itself and parsing allocates
// nothing.
package whatwg

import "strconv"

// URL is a parsed URL record, held as its serialization (Href) and where
// each component lies in it.
type URL struct {
	Href string

	schemeEnd  int // Href[schemeEnd] == ':'
	userEnd    int // username: Href[schemeEnd+3:userEnd] (with a host)
	passEnd    int // password: Href[userEnd+1:passEnd] when passEnd > userEnd
	hostStart  int // after "//" and the credentials' "@"
	hostEnd    int
	pathStart  int // the path; after the "/." a hostless "//" path needs
	queryStart int // the "?", or -1
	fragStart  int // the "#", or -1
	port       int32
	hasHost    bool
	opaque     bool
	dotSlash   bool // "/." before the path (no host, a path starting "//")
}

// Scheme returns the scheme, without ":".
func (u *URL) Scheme() string { return u.Href[:u.schemeEnd] }

// Protocol returns the scheme and ":" (the API's protocol).
func (u *URL) Protocol() string { return u.Href[:u.schemeEnd+1] }

// HasHost reports whether the host is not null.
func (u *URL) HasHost() bool { return u.hasHost }

// OpaquePath reports whether the path is opaque (a URL such as
// "mailto:x" or "data:,": no "/" after the scheme).
func (u *URL) OpaquePath() bool { return u.opaque }

// Username returns the username, percent-encoded.
func (u *URL) Username() string {
	if !u.hasHost {
		return ""
	}
	return u.Href[u.schemeEnd+3 : u.userEnd]
}

// Password returns the password, percent-encoded.
func (u *URL) Password() string {
	if u.passEnd <= u.userEnd {
		return ""
	}
	return u.Href[u.userEnd+1 : u.passEnd]
}

// HasCredentials reports whether the username or the password is not
// empty (the href then has "@").
func (u *URL) HasCredentials() bool {
	return u.hasHost && u.hostStart > u.schemeEnd+3
}

// Hostname returns the serialized host ("" when null).
func (u *URL) Hostname() string { return u.Href[u.hostStart:u.hostEnd] }

// Port returns the port, -1 when null.
func (u *URL) Port() int { return int(u.port) }

// PortString returns the port as the API gives it: "" when null.
func (u *URL) PortString() string {
	if u.port < 0 {
		return ""
	}
	return u.Href[u.hostEnd+1 : u.portEnd()]
}

// portEnd is where the port's digits end.
func (u *URL) portEnd() int {
	if u.dotSlash {
		return u.pathStart - 2
	}
	return u.pathStart
}

// Host returns the API's host: the hostname and ":port" when not null.
func (u *URL) Host() string {
	if !u.hasHost {
		return ""
	}
	return u.Href[u.hostStart:u.portEnd()]
}

// Pathname returns the serialized path (the API's pathname).
func (u *URL) Pathname() string { return u.Href[u.pathStart:u.pathEnd()] }

// PathWithDot returns the path as the href writes it, with the "/." a
// hostless path starting with "//" takes.
func (u *URL) PathWithDot() string {
	if u.dotSlash {
		return u.Href[u.pathStart-2 : u.pathEnd()]
	}
	return u.Pathname()
}

func (u *URL) pathEnd() int {
	if u.queryStart >= 0 {
		return u.queryStart
	}
	return u.fragEnd()
}

func (u *URL) fragEnd() int {
	if u.fragStart >= 0 {
		return u.fragStart
	}
	return len(u.Href)
}

// Query returns the query without "?" and whether it is not null.
func (u *URL) Query() (string, bool) {
	if u.queryStart < 0 {
		return "", false
	}
	return u.Href[u.queryStart+1 : u.fragEnd()], true
}

// Search returns the API's search: "?" and the query, or "" when the
// query is null or empty.
func (u *URL) Search() string {
	q, _ := u.Query()
	if q == "" {
		return ""
	}
	return u.Href[u.queryStart:u.fragEnd()]
}

// Fragment returns the fragment without "#" and whether it is not null.
func (u *URL) Fragment() (string, bool) {
	if u.fragStart < 0 {
		return "", false
	}
	return u.Href[u.fragStart+1:], true
}

// Hash returns the API's hash: "#" and the fragment, or "" when it is
// null or empty.
func (u *URL) Hash() string {
	if u.fragStart < 0 || u.fragStart == len(u.Href)-1 {
		return ""
	}
	return u.Href[u.fragStart:]
}

// special reports whether the scheme is one of the Standard's special
// schemes, and its default port (-1 for file).
func special(scheme string) (bool, int) {
	switch scheme {
	case "http", "ws":
		return true, 80
	case "https", "wss":
		return true, 443
	case "ftp":
		return true, 21
	case "file":
		return true, -1
	}
	return false, -1
}

// IsSpecial reports whether the URL's scheme is special.
func (u *URL) IsSpecial() bool {
	s, _ := special(u.Scheme())
	return s
}

// Origin returns the ASCII serialization of the URL's origin: "scheme://
// host[:port]" for http, https, ws, wss and ftp, a blob: URL's inner
// http(s) URL's origin, and "null" (an opaque origin) for the rest.
func (u *URL) Origin() string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.Href[:u.schemeEnd+3] + u.Host()
	case "blob":
		inner, err := Parse(u.Pathname(), nil)
		if err == nil {
			switch inner.Scheme() {
			case "http", "https":
				return inner.Origin()
			}
		}
	}
	return "null"
}

// components is the URL record as strings, for the setters: they
// change one and serialize it again.
type components struct {
	scheme, username, password string
	host                       string
	hasHost                    bool
	port                       int
	path                       string // serialized, without the "/."
	opaque                     bool
	query, fragment            string
	hasQuery, hasFragment      bool
}

func (u *URL) components() components {
	c := components{
		scheme: u.Scheme(), username: u.Username(), password: u.Password(),
		host: u.Hostname(), hasHost: u.hasHost, port: int(u.port),
		path: u.Pathname(), opaque: u.opaque,
	}
	c.query, c.hasQuery = u.Query()
	c.fragment, c.hasFragment = u.Fragment()
	return c
}

// serialize is the URL serializer over the record's strings.
func (c *components) serialize() string {
	b := c.scheme + ":"
	if c.hasHost {
		b += "//"
		if c.username != "" || c.password != "" {
			b += c.username
			if c.password != "" {
				b += ":" + c.password
			}
			b += "@"
		}
		b += c.host
		if c.port >= 0 {
			b += ":" + strconv.Itoa(c.port)
		}
	} else if !c.opaque && len(c.path) > 1 && c.path[0] == '/' && c.path[1] == '/' {
		b += "/."
	}
	b += c.path
	if c.hasQuery {
		b += "?" + c.query
	}
	if c.hasFragment {
		b += "#" + c.fragment
	}
	return b
}
