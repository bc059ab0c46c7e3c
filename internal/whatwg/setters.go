package whatwg

import "strings"

// The URL API's setters (the Standard's section 6.1). Each changes one
// component of the record as the basic URL parser does with a state
// override, then serializes the record and reads the href back for the
// offsets. A value the Standard's parser fails on leaves the URL as it
// was (the API ignores the failure); the setters report it as false.

// SetHref replaces the URL with value parsed without a base.
func (u *URL) SetHref(value string) error {
	v, err := Parse(value, nil)
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// commit serializes c into u.
func (u *URL) commit(c *components) bool {
	v, err := Parse(c.serialize(), nil)
	if err != nil {
		return false
	}
	*u = v
	return true
}

// cannotHaveCredentials is the Standard's "cannot have a
// username/password/port".
func (c *components) cannotHaveCredentials() bool {
	return !c.hasHost || c.host == "" || c.scheme == "file"
}

// SetProtocol is the protocol setter: value up to its first ":" is the
// new scheme, refused when it would turn a special URL into a non-special
// one or back, or a URL with credentials or a port, or a file URL with an
// empty host, into or out of file.
func (u *URL) SetProtocol(value string) bool {
	value = removeTabNL(value)
	end := schemeEnd(value + ":")
	if end < 0 {
		return false
	}
	scheme := strings.ToLower(value[:end])
	c := u.components()
	was, _ := special(c.scheme)
	is, def := special(scheme)
	if was != is || scheme == "file" && (c.username != "" || c.password != "" || c.port >= 0) ||
		c.scheme == "file" && c.host == "" {
		return false
	}
	c.scheme = scheme
	if c.port == def {
		c.port = -1
	}
	return u.commit(&c)
}

// SetUsername is the username setter.
func (u *URL) SetUsername(value string) bool {
	c := u.components()
	if c.cannotHaveCredentials() {
		return false
	}
	c.username = encodeString(value, setUserinfo)
	return u.commit(&c)
}

// SetPassword is the password setter.
func (u *URL) SetPassword(value string) bool {
	c := u.components()
	if c.cannotHaveCredentials() {
		return false
	}
	c.password = encodeString(value, setUserinfo)
	return u.commit(&c)
}

func encodeString(s string, set uint8) string {
	if !anyEncoded(s, set) {
		return s
	}
	var b builder
	encodeTo(&b, s, set)
	return b.String()
}

// SetHost is the host setter: a host and an optional ":port".
func (u *URL) SetHost(value string) bool { return u.setHost(value, false) }

// SetHostname is the hostname setter: a host, without a port.
func (u *URL) SetHostname(value string) bool { return u.setHost(value, true) }

func (u *URL) setHost(value string, hostname bool) bool {
	c := u.components()
	if c.opaque {
		return false
	}
	value = removeTabNL(value)
	var p parser
	p.init(value)
	p.b.in = ""
	p.override = true
	p.setScheme(c.scheme)
	if p.file {
		j := strings.IndexAny(value, "/\\?#")
		if j < 0 {
			j = len(value)
		}
		if j > 0 {
			if !p.host(value[:j], 0, false) {
				return false
			}
		}
		c.host = p.b.String()
		if c.host == "localhost" {
			c.host = ""
		}
		c.hasHost = true
		return u.commit(&c)
	}
	k, brackets := 0, false
	for ; k < len(value); k++ {
		ch := value[k]
		if ch == ':' && !brackets || ch == '/' || ch == '?' || ch == '#' || ch == '\\' && p.special {
			break
		}
		if ch == '[' {
			brackets = true
		} else if ch == ']' {
			brackets = false
		}
	}
	colon := k < len(value) && value[k] == ':'
	if colon && (k == 0 || hostname) {
		return false
	}
	if !colon && k == 0 && (p.special || c.username != "" || c.password != "" || c.port >= 0) {
		return false
	}
	if !p.host(value[:k], 0, !p.special) {
		return false
	}
	c.host, c.hasHost = p.b.String(), true
	if colon {
		if port, ok := portValue(value[k+1:], p.defPort); ok {
			c.port = port
		}
	}
	return u.commit(&c)
}

// portValue is the port state with a state override: the digits at
// the start of s, false when there are none or too many.
func portValue(s string, def int) (int, bool) {
	n, k := 0, 0
	for ; k < len(s) && isDigit(s[k]); k++ {
		if n <= 65535 {
			n = n*10 + int(s[k]-'0')
		}
	}
	if k == 0 || n > 65535 {
		return 0, false
	}
	if n == def {
		return -1, true
	}
	return n, true
}

// SetPort is the port setter; "" removes the port.
func (u *URL) SetPort(value string) bool {
	c := u.components()
	if c.cannotHaveCredentials() {
		return false
	}
	if value == "" {
		c.port = -1
		return u.commit(&c)
	}
	value = removeTabNL(value)
	_, def := special(c.scheme)
	port, ok := portValue(value, def)
	if !ok {
		return false
	}
	c.port = port
	return u.commit(&c)
}

// SetPathname is the pathname setter.
func (u *URL) SetPathname(value string) bool {
	c := u.components()
	if c.opaque {
		return false
	}
	value = removeTabNL(value)
	var p parser
	p.init(value)
	p.b.in = ""
	p.override = true
	p.setScheme(c.scheme)
	p.u.hasHost = c.hasHost
	i := 0
	switch {
	case p.special:
		if i < len(value) && (value[0] == '/' || value[0] == '\\') {
			i++
		}
		p.path(i)
	case value != "":
		if value[0] == '/' {
			i++
		}
		p.path(i)
	case !c.hasHost:
		p.b.writeByte('/')
	}
	c.path = p.b.String()
	return u.commit(&c)
}

// SetSearch is the search setter; "" removes the query.
func (u *URL) SetSearch(value string) bool {
	c := u.components()
	if value == "" {
		c.query, c.hasQuery = "", false
		return u.commit(&c)
	}
	value = removeTabNL(strings.TrimPrefix(value, "?"))
	set := setQuery
	if s, _ := special(c.scheme); s {
		set = setSpecialQuery
	}
	c.query, c.hasQuery = encodeString(value, set), true
	return u.commit(&c)
}

// SetHash is the hash setter; "" removes the fragment.
func (u *URL) SetHash(value string) bool {
	c := u.components()
	if value == "" {
		c.fragment, c.hasFragment = "", false
		return u.commit(&c)
	}
	value = removeTabNL(strings.TrimPrefix(value, "#"))
	c.fragment, c.hasFragment = encodeString(value, setFragment), true
	return u.commit(&c)
}

// Get is the getter the URL API names attr ("href", "protocol", ...,
// "origin"); false for a name the API does not have.
func (u *URL) Get(attr string) (string, bool) {
	switch attr {
	case "href":
		return u.Href, true
	case "protocol":
		return u.Protocol(), true
	case "username":
		return u.Username(), true
	case "password":
		return u.Password(), true
	case "host":
		return u.Host(), true
	case "hostname":
		return u.Hostname(), true
	case "port":
		return u.PortString(), true
	case "pathname":
		return u.Pathname(), true
	case "search":
		return u.Search(), true
	case "hash":
		return u.Hash(), true
	case "origin":
		return u.Origin(), true
	}
	return "", false
}

// Set runs the setter the URL API names attr; false when the standard
// leaves the URL unchanged or the API has no such setter.
func (u *URL) Set(attr, value string) bool {
	switch attr {
	case "href":
		return u.SetHref(value) == nil
	case "protocol":
		return u.SetProtocol(value)
	case "username":
		return u.SetUsername(value)
	case "password":
		return u.SetPassword(value)
	case "host":
		return u.SetHost(value)
	case "hostname":
		return u.SetHostname(value)
	case "port":
		return u.SetPort(value)
	case "pathname":
		return u.SetPathname(value)
	case "search":
		return u.SetSearch(value)
	case "hash":
		return u.SetHash(value)
	}
	return false
}
