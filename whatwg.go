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
func parseWHATWG(s string) (URL, []Warning, error) {
	w, err := whatwg.Parse(s, nil)
	if err != nil {
		return URL{}, nil, whatwgError("parse", s, err)
	}
	return fromWHATWG(&w), nil, nil
}

// fromWHATWG is the URL whose text is w's href, each component a slice
// of it.
func fromWHATWG(w *whatwg.URL) URL {
	u := URL{
		Scheme: w.Scheme(), User: w.Username(), Password: w.Password(),
		Host: w.Hostname(), Port: w.PortString(), Path: w.PathWithDot(),
		HasAuthority: w.HasHost(), HasUser: w.HasCredentials(),
		HasPort: w.Port() >= 0, written: w.Href, mode: WHATWG,
	}
	u.HasPassword = u.Password != ""
	u.Query, u.HasQuery = w.Query()
	u.Fragment, u.HasFragment = w.Fragment()
	return u
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
	*u = fromWHATWG(&w)
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
