package wire

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsafeArg matches (with errors.Is) every [*ArgError].
var ErrUnsafeArg = errors.New("unsafe argument")

// ArgError reports a byte that must not appear in a protocol argument: CR
// or LF would end the command line early and let the rest of the string
// run as a second command (command injection), NUL truncates strings in
// many servers, and TAB separates fields in Gopher requests.
type ArgError struct {
	Offset int  // byte offset of the first offending byte
	Byte   byte // the offending byte
}

// Error describes the byte and its offset.
func (e *ArgError) Error() string {
	return fmt.Sprintf("unsafe argument: %s at offset %d", byteName(e.Byte), e.Offset)
}

// Is reports whether target is ErrUnsafeArg.
func (e *ArgError) Is(target error) bool { return target == ErrUnsafeArg }

func byteName(b byte) string {
	switch b {
	case '\r':
		return "CR (0x0d)"
	case '\n':
		return "LF (0x0a)"
	case 0:
		return "NUL (0x00)"
	case '\t':
		return "TAB (0x09)"
	}
	return fmt.Sprintf("byte 0x%02x", b)
}

// CheckArg returns an [*ArgError] for the first CR, LF or NUL in s, or
// for the first TAB too when forbidTab is set. It returns nil when s is
// safe to send as (part of) one command line.
func CheckArg(s string, forbidTab bool) error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r', '\n', 0:
			return &ArgError{Offset: i, Byte: c}
		case '\t':
			if forbidTab {
				return &ArgError{Offset: i, Byte: c}
			}
		}
	}
	return nil
}

// ErrNoLineEnd reports a command line handed to a client without the CR
// LF that ends it.
var ErrNoLineEnd = errors.New("command line does not end in CR LF")

// CheckLine checks line, one whole command line as a plan writes it: it
// must end in CR LF and hold no other CR, LF or NUL (an [*ArgError] with
// the offset in line). It returns the line without its CR LF, for
// [Session.Send], which writes it back.
func CheckLine(line string) (string, error) {
	body, ok := strings.CutSuffix(line, "\r\n")
	if !ok {
		return "", ErrNoLineEnd
	}
	if err := CheckArg(body, false); err != nil {
		return "", err
	}
	return body, nil
}
