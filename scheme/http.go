package scheme

import (
	"encoding/base64"
	"strings"

	"github.com/urlkit/urlkit"
)

// HTTP is the view of an http URL (RFC 1738 3.3) or of its modern sibling
// https (RFC 2818):
//
//	http://<host>:<port>/<path>?<searchpart>
//
// HTTP passes the path and the search to the server as they are written,
// so the view keeps them encoded. No user name or password is allowed.
type HTTP struct {
	Secure bool   // https
	Host   string // as written
	Port   string // the digits as written, "" for the default (80, or 443 for https)
	Path   string // the HTTP selector as written, without the "/" that follows the host; see NoPath
	NoPath bool   // no "/" follows the host: "http://h" has no path, "http://h/" an empty one

	// User and Password, decoded, are read in the RFC3986 and Lenient
	// modes only
	// (RFC 1738 3.3 allows no login; RFC 3986 does, and the access layer
	// sends it as Basic authorization); see HasUser and HasPassword.
	User, Password       string
	HasUser, HasPassword bool
	Search               string // the search part as written, after "?"; see HasSearch
	HasSearch            bool   // a "?" is present

	// at holds where each part is written in the URL's String form.
	at httpSpans
}

// httpSpans are the spans of an http URL's parts (see Span).
type httpSpans struct {
	authSpans
	Path, Search Span
}

// parseHTTP returns the view of an http or https URL, with its user name
// and password if login is set (the RFC3986 and Lenient modes: RFC 3986
// allows them in http URLs, RFC 1738 3.3 does not).
func parseHTTP(u *urlkit.URL, login bool) (*HTTP, error) {
	h := new(HTTP)
	if err := h.read(u, login); err != nil {
		return nil, err
	}
	return h, nil
}

// read fills h, a zero HTTP, with the view of u, with its login if login
// is set (else a login is an error).
func (h *HTTP) read(u *urlkit.URL, login bool) error {
	if err := needAuthority(u); err != nil {
		return err
	}
	if u.HasUser && !login {
		return syntaxError(u, layoutOf(u).user, "a user name or password is not allowed in "+u.SchemeName()+" URLs (RFC 1738 3.3); RFC 3986's are read in the rfc3986 mode")
	}
	o := u.Offsets()
	h.Secure = len(u.Scheme) == len("https") // expect took http or https
	h.Host, h.Port, h.Search, h.HasSearch = u.Host, port(u), u.Query, u.HasQuery
	h.at.authSpans = serverSpansAt(u, o)
	if len(u.Path) > 0 {
		h.Path = u.Path[1:]
		h.at.Path = Span{o.Path + 1, o.Path + len(u.Path)}
	} else {
		h.NoPath = true
	}
	if u.HasQuery {
		h.at.Search = Span{o.Query, o.Query + len(u.Query)}
	}
	if login {
		h.HasUser, h.HasPassword = u.HasUser, u.HasPassword
		h.User, _ = u.DecodedUser()
		h.Password, _ = u.DecodedPassword()
	}
	return nil
}

// name returns "http" or "https".
func (h *HTTP) name() string {
	if h.Secure {
		return "https"
	}
	return "http"
}

// appendParts appends path (null for a URL without one) and search, and
// user and password when the URL has a login.
func (h *HTTP) appendParts(dst []part) []part {
	dst = append(dst, kv("path", opt(h.Path, !h.NoPath)), kv("search", opt(h.Search, h.HasSearch)))
	if h.HasUser {
		dst = append(dst, kv("user", str(h.User)), kv("password", opt(h.Password, h.HasPassword)))
	}
	return dst
}

// URL builds the URL from the path and search as they are.
func (h *HTTP) URL() *urlkit.URL {
	u := serverURL(h.name(), h.Host, h.Port)
	setLogin(u, h.User, h.Password, h.HasUser, h.HasPassword)
	if !h.NoPath || h.Path != "" {
		u.Path = "/" + h.Path
	}
	u.Query, u.HasQuery = h.Search, h.HasSearch
	return u
}

// RequestURI returns what the request line carries when the client talks
// to the server itself: "/", the path, and "?" with the search if there
// is one. The fragment is never sent (RFC 1630).
func (h *HTTP) RequestURI() string {
	if h.HasSearch {
		return "/" + h.Path + "?" + h.Search
	}
	return "/" + h.Path
}

// Hostname returns the host without the brackets of an IP literal.
func (h *HTTP) Hostname() string { return strings.TrimSuffix(strings.TrimPrefix(h.Host, "["), "]") }

func init() {
	register(&unit{parse: func(u *urlkit.URL, m urlkit.Mode) (View, error) {
		return nilView(parseHTTP(u, currentReading(m)))
	}, parts: httpParts, plan: httpPlan, proxied: true}, "http", "https")
}

// httpParts is unit.parts, the view on the stack.
func httpParts(dst []part, u *urlkit.URL, m urlkit.Mode) ([]part, error) {
	var h HTTP
	if err := h.read(u, currentReading(m)); err != nil {
		return dst, err
	}
	return h.appendParts(dst), nil
}

// httpPlan is the request urlkit's access layer sends with net/http: an
// HTTP/1.1 GET with the headers net/http writes, in its order. The path
// and search go as written, still encoded, so their decoded bytes are no
// concern.
func httpPlan(v View, p *planner) {
	h := v.(*HTTP)
	p.connect(addr(h.Host, h.Port, h.name()))
	if h.Secure {
		p.comment("https: a TLS handshake with server name %q comes first; the request then goes over TLS (RFC 2818)", h.Hostname())
	}
	p.httpRequest(h.RequestURI(), hostHeader(h), h)
	p.fragmentNote()
}

// httpRequest adds a GET request as net/http writes it (Request.write:
// the request line, Host, User-Agent, then the other headers in the
// order of their names), with the transport's own compression off, as
// the access layer sets it.
func (p *planner) httpRequest(target, host string, h *HTTP) {
	method := "GET"
	if p.opts.Head {
		method = "HEAD"
	}
	st := p.send(method, target, method+" "+target+" HTTP/1.1\r\n")
	st.Why, st.RFC = "the path and search go to the server as written, still encoded", "RFC 1738 3.3; RFC 9112 3"
	st.Reply = "2xx; a redirect to an http or https URL is followed (at most 10), each checked like this one"
	p.send("Host", host, "Host: "+host+"\r\n")
	p.send("User-Agent", p.opts.UserAgent, "User-Agent: "+p.opts.UserAgent+"\r\n")
	if p.opts.Compressed {
		st = p.send("Accept-Encoding", "gzip", "Accept-Encoding: gzip\r\n")
		st.Why = "a gzip-compressed body, asked for (get --compressed) and decoded by the client"
	}
	if h != nil && h.HasUser {
		// net/http's Client sends the URL's login as Basic authorization
		// (RFC 7617).
		cred := base64.StdEncoding.EncodeToString([]byte(h.User + ":" + h.Password))
		st := p.send("Authorization", cred, "Authorization: Basic "+cred+"\r\n")
		st.Secret, st.Why, st.RFC = true, "the user name and password of the URL, as Basic authorization", "RFC 7617"
	}
	p.send("", "", "\r\n")
	p.add(Step{Kind: End, Text: "the body ends after Content-Length bytes, with the last chunk, or when the server closes the connection"})
}

// hostHeader is the Host header net/http writes: the host and the port
// as written (an empty port dropped).
func hostHeader(h *HTTP) string {
	if h.Port != "" {
		return h.Host + ":" + h.Port
	}
	return h.Host
}
