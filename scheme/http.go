package scheme

import (
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
	Secure    bool   // https
	Host      string // as written
	Port      string // the digits as written, "" for the default (80, or 443 for https)
	Path      string // the HTTP selector as written, without the "/" that follows the host
	Search    string // the search part as written, after "?"; see HasSearch
	HasSearch bool   // a "?" is present
}

// ParseHTTP returns the view of an http or https URL.
func ParseHTTP(u *urlkit.URL) (*HTTP, error) {
	if err := expect(u, "http", "https"); err != nil {
		return nil, err
	}
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	if u.HasUser {
		return nil, syntaxError(u, layoutOf(u).user, "a user name or password is not allowed in "+u.SchemeName()+" URLs (RFC 1738 3.3)")
	}
	h := &HTTP{Secure: u.SchemeName() == "https", Host: u.Host, Port: port(u), Search: u.Query, HasSearch: u.HasQuery}
	if len(u.Path) > 0 {
		h.Path = u.Path[1:]
	}
	return h, nil
}

// Scheme returns "http" or "https".
func (h *HTTP) Scheme() string {
	if h.Secure {
		return "https"
	}
	return "http"
}

// URL builds the URL from the path and search as they are.
func (h *HTTP) URL() *urlkit.URL {
	u := serverURL(h.Scheme(), h.Host, h.Port)
	u.Path = "/" + h.Path
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
