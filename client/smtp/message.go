package smtp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// ErrBadHeader reports a header field BuildMessage refused; the error is
// a *HeaderError.
var ErrBadHeader = errors.New("smtp: bad header field")

// HeaderError reports a header field refused by BuildMessage: its name,
// the byte offset in the name or value, and the rule broken.
type HeaderError struct {
	Field  string // made safe for a terminal
	Offset int
	Rule   string
}

// Error describes the problem.
func (e *HeaderError) Error() string {
	return fmt.Sprintf("smtp: header field %q: offset %d: %s", e.Field, e.Offset, e.Rule)
}

// Is matches ErrBadHeader, and ErrUnsafeArg for CR, LF and NUL (header
// injection).
func (e *HeaderError) Is(target error) bool {
	return target == ErrBadHeader || (target == ErrUnsafeArg && strings.HasPrefix(e.Rule, "CR, LF or NUL"))
}

// Field is one header field for BuildMessage: a name ("Subject") and its
// value, unencoded and unfolded.
type Field struct {
	Name, Value string
}

// MessageOptions are what BuildMessage adds.
type MessageOptions struct {
	// Now is the time of a missing Date field (default time.Now()).
	Now time.Time
	// Domain is the right-hand side of a generated Message-ID (default:
	// the domain of the first From address).
	Domain string
}

// addressFields hold address lists (RFC 5322 section 3.6.2, 3.6.3).
var addressFields = map[string]bool{
	"from": true, "sender": true, "reply-to": true, "to": true, "cc": true, "bcc": true,
}

// BuildMessage builds a message (RFC 5322) from header fields and a
// body: the fields in the order given, then Date and Message-ID when
// they are absent, an empty line and the body, all with CRLF line ends.
//
// It refuses, with a *HeaderError, before anything is built:
//   - CR, LF or NUL in a name or value (header injection: a value
//     "x\r\nBcc: victim" would add a field);
//   - a name that is not printable US-ASCII without ":" and space;
//   - an address field (From, To, Cc, Bcc, Reply-To, Sender) that
//     net/mail cannot parse as an address list, a missing From;
//   - a Date or Message-ID given twice, a line over 998 octets.
//
// Address fields are rewritten in canonical form (display names with
// non-ASCII characters are RFC 2047-encoded by net/mail); other values
// with non-ASCII characters are encoded as RFC 2047 Q encoded-words.
// A Bcc field is left out of the message (its addresses belong in the
// envelope only).
func BuildMessage(fields []Field, body []byte, opt MessageOptions) ([]byte, error) {
	var b bytes.Buffer
	seen := map[string]bool{}
	var fromDomain string
	for _, f := range fields {
		if f.Name == "" {
			return nil, &HeaderError{Field: "", Offset: 0, Rule: "empty field name"}
		}
		for i := 0; i < len(f.Name); i++ {
			c := f.Name[i]
			switch {
			case c == '\r' || c == '\n' || c == 0:
				return nil, &HeaderError{Field: wire.Clip(f.Name), Offset: i, Rule: "CR, LF or NUL in the field name"}
			case c <= ' ' || c >= 0x7f || c == ':':
				return nil, &HeaderError{Field: wire.Clip(f.Name), Offset: i, Rule: "field names are printable US-ASCII without colon (RFC 5322 section 2.2)"}
			}
		}
		for i := 0; i < len(f.Value); i++ {
			if c := f.Value[i]; c == '\r' || c == '\n' || c == 0 {
				return nil, &HeaderError{Field: wire.Clip(f.Name), Offset: i, Rule: "CR, LF or NUL in the value (header injection)"}
			}
		}
		lower := strings.ToLower(f.Name)
		if (lower == "date" || lower == "message-id" || lower == "from" || lower == "subject") && seen[lower] {
			return nil, &HeaderError{Field: wire.Clip(f.Name), Rule: "given twice (RFC 5322 section 3.6)"}
		}
		seen[lower] = true
		value := f.Value
		switch {
		case addressFields[lower]:
			list, err := mail.ParseAddressList(value)
			if err != nil {
				return nil, &HeaderError{Field: wire.Clip(f.Name), Rule: "not an address list (RFC 5322 section 3.4): " + err.Error()}
			}
			parts := make([]string, len(list))
			for i, a := range list {
				parts[i] = a.String()
				if err := CheckAddress(Quoted(a.Address)); err != nil {
					return nil, &HeaderError{Field: wire.Clip(f.Name), Rule: err.Error()}
				}
			}
			if lower == "from" && len(list) == 0 {
				return nil, &HeaderError{Field: wire.Clip(f.Name), Rule: "names no mailbox: From is a mailbox-list (RFC 5322 section 3.6.2)"}
			}
			if lower == "from" && fromDomain == "" {
				fromDomain = list[0].Address[strings.LastIndexByte(list[0].Address, '@')+1:]
			}
			if lower == "bcc" {
				continue
			}
			value = strings.Join(parts, ", ")
		case lower == "date":
			if _, err := mail.ParseDate(value); err != nil {
				return nil, &HeaderError{Field: wire.Clip(f.Name), Rule: "not an RFC 5322 date-time"}
			}
		case needsEncoding(value):
			value = mime.QEncoding.Encode("utf-8", value)
		}
		line := f.Name + ": " + value
		if len(line) > 998 {
			return nil, &HeaderError{Field: wire.Clip(f.Name), Offset: 998, Rule: "line over 998 octets (RFC 5322 section 2.1.1)"}
		}
		b.WriteString(line + "\r\n")
	}
	if !seen["from"] {
		return nil, &HeaderError{Field: "From", Rule: "missing; it is mandatory (RFC 5322 section 3.6)"}
	}
	if !seen["date"] {
		now := opt.Now
		if now.IsZero() {
			now = time.Now()
		}
		b.WriteString("Date: " + now.Format(time.RFC1123Z) + "\r\n")
	}
	if !seen["message-id"] {
		domain := opt.Domain
		if domain == "" {
			domain = fromDomain
		}
		var r [12]byte
		rand.Read(r[:])
		id := hex.EncodeToString(r[:]) + "@" + domain
		if err := CheckAddress(id); err != nil {
			return nil, &HeaderError{Field: "Message-ID", Rule: "domain: " + err.Error()}
		}
		b.WriteString("Message-ID: <" + id + ">\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes(), nil
}

func needsEncoding(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || (s[i] < ' ' && s[i] != '\t') || s[i] == 0x7f {
			return true
		}
	}
	return false
}
