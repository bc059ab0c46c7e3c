package mailbox

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
)

// MaxDepth bounds the nesting of multiparts (and message/rfc822 parts)
// FindPart descends into.
const MaxDepth = 20

// ErrBadMessage reports a message whose MIME structure cannot be read
// (no boundary, an unknown Content-Transfer-Encoding, nesting deeper
// than MaxDepth).
var ErrBadMessage = errors.New("mailbox: bad MIME message")

// Part is a MIME body part found by FindPart.
type Part struct {
	// Header is the part's header (Content-Type, Content-ID, ...).
	Header textproto.MIMEHeader
	// ContentType is the media type, lower case ("image/png"), with
	// "text/plain" for a part that gives none (RFC 2045 section 5.2).
	ContentType string
	// Params are the Content-Type parameters (charset, name, ...).
	Params map[string]string
	// Body reads the part's content with its Content-Transfer-Encoding
	// (base64, quoted-printable) decoded. It reads from the message
	// reader given to FindPart and is valid only while that is.
	Body io.Reader
}

// FindPart reads the message from r and returns the body part whose
// Content-ID (RFC 2392) is cid, with or without angle brackets, looking
// at the message itself, then depth-first into multipart/* parts and
// message/rfc822 parts. It stops reading at the part found. A missing
// part is an error matching ErrNotFound.
func FindPart(r io.Reader, cid string) (*Part, error) {
	want := NormalizeID(cid)
	if len(want) < 3 || strings.ContainsAny(want, "\r\n\x00") {
		return nil, fmt.Errorf("mailbox: bad content-id %q", cid)
	}
	m, err := readBoundedMessage(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadMessage, err)
	}
	p, err := findIn(textproto.MIMEHeader(m.Header), m.Body, want, 0)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("%w: part %s", ErrNotFound, want)
	}
	return p, nil
}

// findIn looks at one entity (header and raw body) and below it.
func findIn(h textproto.MIMEHeader, body io.Reader, want string, depth int) (*Part, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: nested deeper than %d", ErrBadMessage, MaxDepth)
	}
	ct, params := "text/plain", map[string]string{}
	if v := h.Get("Content-Type"); v != "" {
		t, p, err := mime.ParseMediaType(v)
		if err == nil {
			ct, params = t, p
		} else if strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "multipart/") {
			return nil, fmt.Errorf("%w: Content-Type %q: %w", ErrBadMessage, v, err)
		}
	}
	if id := h.Get("Content-Id"); id != "" && sameID(NormalizeID(id), want) {
		dec, err := decode(h.Get("Content-Transfer-Encoding"), body)
		if err != nil {
			return nil, err
		}
		return &Part{Header: h, ContentType: ct, Params: params, Body: dec}, nil
	}
	switch {
	case strings.HasPrefix(ct, "multipart/"):
		boundary := params["boundary"]
		if boundary == "" {
			return nil, fmt.Errorf("%w: %s without a boundary", ErrBadMessage, ct)
		}
		mr := multipart.NewReader(body, boundary)
		for {
			p, err := mr.NextRawPart() // raw: we decode, uniformly, below
			if err == io.EOF {
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBadMessage, err)
			}
			found, err := findIn(p.Header, p, want, depth+1)
			if found != nil || err != nil {
				return found, err
			}
		}
	case ct == "message/rfc822":
		dec, err := decode(h.Get("Content-Transfer-Encoding"), body)
		if err != nil {
			return nil, err
		}
		m, err := readBoundedMessage(dec)
		if err != nil {
			return nil, nil // not a readable message: no parts inside
		}
		return findIn(textproto.MIMEHeader(m.Header), m.Body, want, depth+1)
	}
	return nil, nil
}

// readBoundedMessage is mail.ReadMessage with the header bounded: it must end
// (a blank line) within MaxHeaderBytes, as when searching a mailbox.
// mail.ReadMessage alone reads a header line of any length into memory:
// a file of a gigabyte with no line break was a gigabyte.
func readBoundedMessage(r io.Reader) (*mail.Message, error) {
	br := bufio.NewReaderSize(r, MaxHeaderBytes)
	head, err := br.Peek(MaxHeaderBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	if err == nil && !headerEnds(head) {
		return nil, fmt.Errorf("the header does not end within %d bytes", MaxHeaderBytes)
	}
	return mail.ReadMessage(br)
}

// headerEnds reports whether the header at the start of b ends in b: an
// empty line, or none at all (the message is only a body).
func headerEnds(b []byte) bool {
	if len(b) > 0 && b[0] == '\n' || bytes.HasPrefix(b, []byte("\r\n")) {
		return true
	}
	return bytes.Contains(b, []byte("\n\n")) || bytes.Contains(b, []byte("\n\r\n"))
}

// decode undoes a Content-Transfer-Encoding (RFC 2045 section 6).
func decode(cte string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "", "7bit", "8bit", "binary":
		return r, nil
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, &base64Filter{r: r}), nil
	case "quoted-printable":
		return quotedprintable.NewReader(r), nil
	}
	return nil, fmt.Errorf("%w: unknown Content-Transfer-Encoding %q", ErrBadMessage, cte)
}

// base64Filter drops what is not base64 alphabet (RFC 2045 section 6.8:
// line breaks and other characters "must be ignored"), keeping "=".
type base64Filter struct{ r io.Reader }

func (f *base64Filter) Read(p []byte) (int, error) {
	for {
		n, err := f.r.Read(p)
		j := 0
		for _, b := range p[:n] {
			if b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '+' || b == '/' || b == '=' {
				p[j] = b
				j++
			}
		}
		if j > 0 || err != nil {
			return j, err
		}
	}
}
