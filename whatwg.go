package urlkit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/internal/whatwg"
)

// parseWHATWG is ParseMode in the WHATWG mode: the URL Standard's basic
// URL parser without a base, its href and components as the URL. An
// input already in the standard's serialized form costs no allocation.
func parseWHATWG(s string) (u URL, _ []Warning, _ error) {
	w, err := whatwg.Parse(s, nil)
	if err != nil {
		return URL{}, nil, whatwgError("parse", s, err)
	}
	u.fromWHATWG(&w)
	return u, nil, nil
}

// fromWHATWG sets u to the URL whose text is w's href, each component a
// slice of it. The fields are set one by one: a composite literal would
// be built in a temporary and copied.
func (u *URL) fromWHATWG(w *whatwg.URL) {
	u.Scheme = w.Scheme()
	u.HasAuthority = w.HasHost()
	u.User, u.HasUser = w.Username(), w.HasCredentials()
	u.Password = w.Password()
	u.HasPassword = u.Password != ""
	u.Host = w.Hostname()
	u.Port, u.HasPort = w.PortString(), w.Port() >= 0
	u.Path = w.PathWithDot()
	u.Query, u.HasQuery = w.Query()
	u.Fragment, u.HasFragment = w.Fragment()
	u.written, u.mode = w.Href, WHATWG
}

// whatwgError is the standard's failure as an *Error: the validation
// error's name is the rule.
func whatwgError(op, s string, err error) *Error {
	var we *whatwg.Error
	if !errors.As(err, &we) {
		return &Error{Op: op, Input: safetext.RedactURL(s), Err: ErrSchemeSyntax, Rule: err.Error()}
	}
	cause := ErrInvalidChar
	switch {
	case we.Name == "missing-scheme-non-relative-URL":
		cause = ErrMissingScheme
	case strings.HasPrefix(we.Name, "port-"):
		cause = ErrBadPort
	case strings.HasPrefix(we.Name, "IPv") || strings.HasPrefix(we.Name, "host-") || strings.HasPrefix(we.Name, "domain-"):
		cause = ErrBadHost
	}
	return &Error{Op: op, Input: safetext.RedactURL(s), Offset: we.Offset, Err: cause,
		Rule: "validation error " + we.Name + " (URL Standard: failure)"}
}

// toWHATWG reads u, a URL of the WHATWG mode, back as the standard's
// record: its text is an href.
func (u *URL) toWHATWG() (whatwg.URL, error) {
	return whatwg.Parse(u.String(), nil)
}

// setWHATWG runs the URL Standard's setter named what on u with value:
// set returns false when the standard leaves the URL unchanged, which is
// then an error naming the component.
func (u *URL) setWHATWG(what, value string, set func(w *whatwg.URL, v string) bool) error {
	w, err := u.toWHATWG()
	if err != nil {
		return whatwgError("set "+what, u.String(), err)
	}
	if !set(&w, value) {
		return setError(what, value, 0, ErrSchemeSyntax, "the URL Standard's "+what+" setter leaves the URL unchanged for this value")
	}
	*u = URL{}
	u.fromWHATWG(&w)
	return nil
}

// whatwgPort is SetPort's value for the standard's port setter.
func whatwgPort(port int) string { return strconv.Itoa(port) }

// formText is URLSearchParams' serialization of the pairs: the
// application/x-www-form-urlencoded serializer ("k" without "=" is
// "k=" there).
func formText(pairs []QueryPair) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(whatwg.FormEncode(p.Key))
		b.WriteByte('=')
		b.WriteString(whatwg.FormEncode(p.Value))
	}
	return b.String()
}

// prefixed is the value of the search or hash setter for a query or
// fragment without its delimiter: the delimiter and the text (the
// setters drop one leading delimiter, which may be the text's own), or ""
// for "", which removes the component as the setters do.
func prefixed(delim byte, s string) string {
	if s == "" {
		return ""
	}
	return string(delim) + s
}
