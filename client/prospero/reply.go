package prospero

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrMalformed matches (with errors.Is) every *ParseError.
var ErrMalformed = errors.New("prospero: malformed reply")

// ParseError reports a reply line that does not follow the grammar: the
// line number (1-based), the byte offset in it and the rule broken.
type ParseError struct {
	Line   int
	Offset int
	Msg    string
}

// Error describes the problem and its position.
func (e *ParseError) Error() string {
	return fmt.Sprintf("prospero: malformed reply: line %d, byte %d: %s", e.Line, e.Offset, e.Msg)
}

// Is reports whether target is ErrMalformed.
func (e *ParseError) Is(target error) bool { return target == ErrMalformed }

// Tokens splits a line into tokens (Prospero protocol version 5, "Spaces,
// quoting, and line-feeds"): tokens are separated by unquoted spaces and
// tabs; a quote may start anywhere in a token (AFTP'/pub/x y' is one
// token, "AFTP/pub/x y"), and inside quotes a doubled quote stands for
// one quote. An unterminated quote fails with the offset of the quote
// that opened it.
func Tokens(line string) ([]string, error) {
	var toks []string
	var b strings.Builder
	in := false  // inside a token
	quoted := -1 // offset of the open quote, -1 outside quotes
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted >= 0:
			if c == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				quoted = -1
				continue
			}
			b.WriteByte(c)
		case c == '\'':
			quoted, in = i, true
		case c == ' ' || c == '\t':
			if in {
				toks = append(toks, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if quoted >= 0 {
		return nil, &ParseError{Offset: quoted, Msg: "unterminated quote"}
	}
	if in {
		toks = append(toks, b.String())
	}
	return toks, nil
}

// Link is a LINK line of a listing: a named pointer to an object.
type Link struct {
	Type        string // "L" normal, "U" union
	Target      string // FILE, DIRECTORY, DIRECTORY+FILE, OBJECT, SYMBOLIC, EXTERNAL, or NULL
	Name        string
	HostType    string // INTERNET-D
	Host        string // host, with "(port)" for a port
	HsonameType string // ASCII
	Hsoname     string
	Version     string
	DestExp     string // DEST-EXP value, if any
	// Attributes are the ATTRIBUTE lines that followed the link.
	Attributes []Attribute
}

// Attribute is an ATTRIBUTE line: a value of an attribute of a link or
// an object.
type Attribute struct {
	Depth     int    // number of '>' after ATTRIBUTE: nesting under a link value
	AppliesTo string // OBJECT, LINK, CACHED, REPLACEMENT, ADDITIONAL
	Namespace string // FIELD, APPLICATION, INTRINSIC
	Name      string
	Type      string // SEQUENCE, LINK, FILTER
	Values    []string
}

// Failure is a FAILURE or WARNING reply line; as an error, the server's
// refusal of a request.
type Failure struct {
	Warning bool   // WARNING rather than FAILURE
	Code    string // NOT-FOUND, NOT-A-DIRECTORY, NOT-AUTHORIZED, ...
	Text    string
}

// Error describes the failure, its text made printable.
func (f *Failure) Error() string {
	s := "prospero: FAILURE " + printable(f.Code)
	if f.Warning {
		s = "prospero: WARNING " + printable(f.Code)
	}
	if f.Text != "" {
		s += ": " + printable(f.Text)
	}
	return s
}

// ProtocolError is an ERROR reply: the server could not parse the
// request.
type ProtocolError struct {
	Text string
}

// Error describes the error, its text made printable.
func (e *ProtocolError) Error() string { return "prospero: server ERROR: " + printable(e.Text) }

// Reply is a parsed reply message.
type Reply struct {
	Links      []Link
	Attributes []Attribute // attributes not following a link (GET-OBJECT-INFO)
	Failures   []Failure   // FAILURE lines
	Warnings   []Failure   // WARNING lines
	Errors     []string    // ERROR lines' text
	NoneFound  bool        // NONE-FOUND
	Unresolved []string    // UNRESOLVED components
	Other      []string    // lines of other kinds (VERSION, SUCCESS, ...), as received
}

// Err returns the reply's first ERROR or FAILURE as an error, or nil.
func (r *Reply) Err() error {
	if len(r.Errors) > 0 {
		return &ProtocolError{Text: r.Errors[0]}
	}
	if len(r.Failures) > 0 {
		return &r.Failures[0]
	}
	return nil
}

// maxLines bounds the lines of a reply the parser keeps.
const maxLines = 1 << 16

// ParseReply parses a reply message. Lines end at an unquoted LF (a
// quoted token may span lines: file contents do), optionally preceded by
// CR.
func ParseReply(msg []byte) (*Reply, error) {
	r := &Reply{}
	s := string(msg)
	for n := 1; s != ""; n++ {
		if n > maxLines {
			return nil, &ParseError{Line: n, Msg: fmt.Sprintf("more than %d lines", maxLines)}
		}
		end := lineEnd(s)
		line := s[:end]
		if end < len(s) {
			s = s[end+1:]
		} else {
			s = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if i := strings.IndexByte(line, 0); i >= 0 {
			return nil, &ParseError{Line: n, Offset: i, Msg: "NUL byte"}
		}
		if err := r.parseLine(line); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				pe.Line = n
			}
			return nil, err
		}
	}
	return r, nil
}

// lineEnd returns the index of the first unquoted LF in s, or len(s).
// Every quote toggles the quoted state, which also handles a doubled quote inside
// quotes (closed and opened again).
func lineEnd(s string) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			quoted = !quoted
		case '\n':
			if !quoted {
				return i
			}
		}
	}
	return len(s)
}

func (r *Reply) parseLine(line string) error {
	toks, err := Tokens(line)
	if err != nil {
		return err
	}
	if len(toks) == 0 {
		return nil
	}
	rest := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(line, " \t"), toks[0]), " \t")
	switch kw := toks[0]; {
	case kw == "LINK":
		l, err := parseLink(toks[1:])
		if err != nil {
			return err
		}
		r.Links = append(r.Links, l)
	case strings.HasPrefix(kw, "ATTRIBUTE") && strings.Trim(kw[len("ATTRIBUTE"):], ">") == "":
		a, err := parseAttribute(len(kw)-len("ATTRIBUTE"), toks[1:])
		if err != nil {
			return err
		}
		if len(r.Links) > 0 { // the attributes of a LIST follow their link
			l := &r.Links[len(r.Links)-1]
			l.Attributes = append(l.Attributes, a)
		} else {
			r.Attributes = append(r.Attributes, a)
		}
	case kw == "FAILURE" || kw == "WARNING":
		f := Failure{Warning: kw == "WARNING"}
		if len(toks) > 1 {
			f.Code = toks[1]
			f.Text = strings.Join(toks[2:], " ")
		}
		if f.Warning {
			r.Warnings = append(r.Warnings, f)
		} else {
			r.Failures = append(r.Failures, f)
		}
	case kw == "ERROR":
		r.Errors = append(r.Errors, rest)
	case kw == "NONE-FOUND":
		r.NoneFound = true
	case kw == "UNRESOLVED":
		r.Unresolved = append(r.Unresolved, toks[1:]...)
	default:
		r.Other = append(r.Other, line)
	}
	return nil
}

func parseLink(t []string) (Link, error) {
	if len(t) < 8 {
		return Link{}, &ParseError{Msg: fmt.Sprintf("LINK has %d fields, want at least 8", len(t))}
	}
	l := Link{Type: t[0], Target: t[1], Name: t[2], HostType: t[3], Host: t[4], HsonameType: t[5], Hsoname: t[6], Version: t[7]}
	for i := 8; i+1 < len(t); i += 2 {
		if t[i] == "DEST-EXP" {
			l.DestExp = t[i+1]
		}
	}
	return l, nil
}

func parseAttribute(depth int, t []string) (Attribute, error) {
	if len(t) < 3 {
		return Attribute{}, &ParseError{Msg: fmt.Sprintf("ATTRIBUTE has %d fields, want at least 3", len(t))}
	}
	a := Attribute{Depth: depth, AppliesTo: t[0], Namespace: t[1], Name: t[2]}
	if len(t) > 3 {
		a.Type = t[3]
		a.Values = t[4:]
	}
	return a, nil
}

// printable returns s with control and non-ASCII bytes Go-escaped.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			q := strconv.QuoteToASCII(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}
