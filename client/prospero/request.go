package prospero

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// Quote returns s as one Prospero token: in single quotes, with each
// quote doubled (Prospero protocol version 5, "Spaces, quoting, and
// line-feeds"). The empty string becomes two quotes.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// MaxName is the longest hsoname or component sent, in bytes: the
// MAXPATHLEN of Prospero's protocol header (pprot.h). dirsrv Alpha.5.2a
// crashes on a component of 3000 bytes.
const MaxName = 1024

// ErrNameTooLong reports an hsoname or component longer than MaxName;
// nothing was sent.
var ErrNameTooLong = errors.New("prospero: name too long")

// checkName is checkArg plus the length limit.
func checkName(what, s string) error {
	if len(s) > MaxName {
		return fmt.Errorf("%w: %s of %d bytes (limit %d)", ErrNameTooLong, what, len(s), MaxName)
	}
	return checkArg(what, s)
}

// checkArg refuses CR, LF and NUL: a request is a sequence of lines, and
// the server handles tokens as C strings. Quoting could carry an LF, but
// no hsoname needs one and a decoded URL must not smuggle a second
// command line in.
func checkArg(what, s string) error {
	if err := wire.CheckArg(s, false); err != nil {
		return fmt.Errorf("prospero: %s: %w", what, err)
	}
	return nil
}

// checkToken refuses what cannot be an unquoted token of an option or
// attribute list: empty, whitespace, quotes, '+' (the list separator),
// and CR, LF, NUL.
func checkToken(what, s string) error {
	if err := checkArg(what, s); err != nil {
		return err
	}
	if s == "" {
		return fmt.Errorf("prospero: %s is empty", what)
	}
	if i := strings.IndexAny(s, " \t'+()"); i >= 0 {
		return fmt.Errorf("prospero: %s %q: %q at offset %d is not allowed in a token", what, s, s[i], i)
	}
	return nil
}

// header returns the lines every request starts with: the protocol
// version and the (unauthenticated) user.
func (c *Client) header() (string, error) {
	user := c.User
	if user == "" {
		user = "anonymous"
	}
	if err := checkToken("user", user); err != nil {
		return "", err
	}
	return "VERSION 5 urlkit\nAUTHENTICATE '' UNAUTHENTICATED " + user + "\n", nil
}

// ListRequest returns the request message that lists a directory:
//
//	VERSION 5 urlkit
//	AUTHENTICATE '' UNAUTHENTICATED anonymous
//	DIRECTORY ASCII 'hsoname'
//	LIST ATTRIBUTES(attr+...) COMPONENTS 'component' ...
//
// The components are a multiple-component name relative to the directory
// (each quoted, so a '/' inside one is part of the name), the last of
// which may hold the wildcards * and ?; with no components every link is
// listed ("*" is implied). With attrs nil no attributes are asked for
// (an empty option list), with attrs empty but not nil the server's
// interesting ones (ATTRIBUTES). Nothing holding CR, LF or NUL is
// accepted.
func (c *Client) ListRequest(hsoname string, components []string, attrs []string) ([]byte, error) {
	head, err := c.header()
	if err != nil {
		return nil, err
	}
	if err := checkName("hsoname", hsoname); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("DIRECTORY ASCII " + Quote(hsoname) + "\n")
	opts := "''"
	if attrs != nil {
		opts = "ATTRIBUTES"
		if len(attrs) > 0 {
			for _, a := range attrs {
				if err := checkToken("attribute", a); err != nil {
					return nil, err
				}
			}
			opts += "(" + strings.Join(attrs, "+") + ")"
		}
	}
	b.WriteString("LIST " + opts + " COMPONENTS")
	for _, comp := range components {
		if err := checkName("component", comp); err != nil {
			return nil, err
		}
		b.WriteString(" " + Quote(comp))
	}
	b.WriteString("\n")
	return []byte(b.String()), nil
}

// ObjectInfoRequest returns the request message for attributes of an
// object:
//
//	VERSION 5 urlkit
//	AUTHENTICATE '' UNAUTHENTICATED anonymous
//	GET-OBJECT-INFO attr+... ASCII 'hsoname'
//
// attrs names the attributes ("CONTENTS" for a file's data, "#ALL", ...).
func (c *Client) ObjectInfoRequest(hsoname string, attrs ...string) ([]byte, error) {
	head, err := c.header()
	if err != nil {
		return nil, err
	}
	if err := checkName("hsoname", hsoname); err != nil {
		return nil, err
	}
	if len(attrs) == 0 {
		return nil, fmt.Errorf("prospero: GET-OBJECT-INFO needs an attribute")
	}
	for _, a := range attrs {
		if err := checkToken("attribute", a); err != nil {
			return nil, err
		}
	}
	return []byte(head + "GET-OBJECT-INFO " + strings.Join(attrs, "+") + " ASCII " + Quote(hsoname) + "\n"), nil
}
