package urlkit

import (
	cc "github.com/urlkit/urlkit/internal/charclass"

	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinel causes. Every *Error wraps exactly one of them, so callers can
// test the kind of problem with errors.Is without parsing messages.
var (
	// ErrMissingScheme: the input has no "scheme:" prefix where one is required.
	ErrMissingScheme = errors.New("missing scheme")
	// ErrBadScheme: the scheme contains a character its grammar does not allow.
	ErrBadScheme = errors.New("invalid scheme")
	// ErrInvalidChar: a character appears unencoded where its rule forbids it.
	ErrInvalidChar = errors.New("character must be encoded")
	// ErrBadEscape: a "%" is not followed by two hexadecimal digits.
	ErrBadEscape = errors.New("invalid percent escape")
	// ErrBadHost: the host is not a hostname, host number or IP literal.
	ErrBadHost = errors.New("invalid host")
	// ErrBadPort: the port is not a decimal number from 0 to 65535.
	ErrBadPort = errors.New("invalid port")
	// ErrSchemeSyntax: the URL breaks a production of its scheme's grammar.
	ErrSchemeSyntax = errors.New("scheme syntax violated")
	// ErrUnknownMode: a Mode that is none of RFC1738, RFC1630, RFC3986
	// and Lenient was given.
	ErrUnknownMode = errors.New("unknown mode")
)

// Error is a syntax error at a byte offset of an input.
//
// Input never holds a password: it is the input with the password of its
// userinfo replaced by "xxxxx" (so offsets after a password refer to the
// original input, not to the quoted text).
type Error struct {
	Op     string // the operation: "parse", "check", "unescape", ...
	Input  string // the input, password redacted
	Offset int    // byte offset (0-based) of the problem in the original input
	Err    error  // the sentinel cause (ErrInvalidChar, ErrBadHost, ...)
	Rule   string // the rule broken, as a sentence fragment
}

// Error formats the error as `urlkit: "INPUT": offset N: RULE`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("urlkit: ")
	b.WriteString(strconv.Quote(e.Input))
	b.WriteString(": offset ")
	b.WriteString(strconv.Itoa(e.Offset))
	b.WriteString(": ")
	b.WriteString(e.Rule)
	return b.String()
}

// Unwrap returns the sentinel cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every problem found in one input, in order of offset.
type ErrorList []*Error

// Error joins the messages, one per line.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list and the list itself otherwise, so that
// `return list.Err()` never yields a non-nil error holding nothing.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Warning is a repair made by the lenient parser: the offset in the input
// and what was changed.
type Warning struct {
	Offset  int
	Message string
}

// String formats the warning as "offset N: MESSAGE".
func (w Warning) String() string { return fmt.Sprintf("offset %d: %s", w.Offset, w.Message) }

// describe names the byte c for an error message: 'x', space, or byte
// 0xNN.
func describe(c byte) string { return cc.Describe(c) }

// encoded returns the %XX escape of c.
func encoded(c byte) string { return cc.Escaped(c) }

// hexByte returns "0xNN".
func hexByte(c byte) string { return cc.Escaped(c)[1:] }
