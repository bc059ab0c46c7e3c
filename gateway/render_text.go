package gateway

import (
	"bufio"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// sniffSize is how much of a text is read to choose its charset.
const sniffSize = 64 << 10

// textPage is the page head of a text; the text itself is streamed
// after it, escaped, inside <pre>.
type textPage struct {
	pageHead
	Charset  string // the charset the text is shown in
	Charsets []charsetLink
}

type charsetLink struct {
	Name, Href string
	Current    bool
}

// charsets are the charsets offered for a text: UTF-8, and the two that
// old Gopher and FTP texts are most often in.
var charsets = []string{"utf-8", "iso-8859-1", "cp437"}

// textPage renders a text as preformatted text, decoded from its charset
// into UTF-8: the ?charset= of the request, else the one the server
// named, else UTF-8 when the start of the text is valid UTF-8, else CP437
// when it looks like DOS text (box drawing) and Latin-1 otherwise. The
// text streams: the page's head is written, then the text as it comes.
func (q *query) textPage(body io.Reader, contentType string) {
	if v, ok := q.view.(*scheme.Gopher); ok && v.Type == '0' {
		body = gopher.NewTextReader(body) // the "." line and dot-stuffing (RFC 1436)
	}
	br := bufio.NewReaderSize(body, sniffSize)
	head, _ := br.Peek(sniffSize) // a short text is all here; its error comes again on Read
	name := q.params.Get("charset")
	enc := charsetEncoding(name)
	if enc == nil {
		name = ""
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if e := charsetEncoding(params["charset"]); e != nil {
				name, enc = params["charset"], e
			}
		}
	}
	if enc == nil {
		name = guessCharset(head)
		enc = charsetEncoding(name)
	}
	p := textPage{pageHead: pageHead{Title: "Text", URL: q.redacted()}, Charset: name}
	for _, c := range charsets {
		p.Charsets = append(p.Charsets, charsetLink{Name: c, Href: q.self() + "?charset=" + c, Current: strings.EqualFold(c, name)})
	}
	h := q.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method == http.MethodHead {
		return
	}
	if err := q.wf.pages.ExecuteTemplate(q.w, "text-head", p); err != nil {
		return
	}
	var r io.Reader = br
	if enc != encoding.Nop {
		r = transform.NewReader(br, enc.NewDecoder())
	} else {
		r = transform.NewReader(br, unicode.UTF8.NewDecoder()) // invalid bytes: U+FFFD
	}
	err := copyEscaped(q.w, r)
	tail := textTail{}
	if err != nil {
		tail.Err = safetext.Visible("the text ends early: " + err.Error())
	}
	q.wf.pages.ExecuteTemplate(q.w, "text-tail", tail)
}

type textTail struct{ Err string }

// copyEscaped copies r to w escaped for HTML text, in pieces (every
// piece is escaped on its own: an escape is never split).
func copyEscaped(w io.Writer, r io.Reader) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			template.HTMLEscape(w, visibleControls(buf[:n]))
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// visibleControls replaces control bytes other than TAB, LF and CR with
// U+FFFD's ASCII stand-in "?" so that no terminal sequence reaches a
// text browser; a decoder's output is UTF-8, so the C0 bytes are
// characters of their own.
func visibleControls(b []byte) []byte {
	for i, c := range b {
		if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			b[i] = '?'
		}
	}
	return b
}

// charsetEncoding returns the decoder of a charset name (a WHATWG label,
// or cp437/ibm437), encoding.Nop for UTF-8, nil when it is unknown.
func charsetEncoding(name string) encoding.Encoding {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "":
		return nil
	case "utf-8", "utf8":
		return encoding.Nop
	case "cp437", "ibm437", "437", "dos":
		return charmap.CodePage437
	case "iso-8859-1", "latin1", "latin-1":
		// Latin-1 proper: WHATWG's label maps it to windows-1252.
		return charmap.ISO8859_1
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		return nil
	}
	if n, _ := htmlindex.Name(e); n == "utf-8" {
		return encoding.Nop
	}
	return e
}

// guessCharset names the charset of a text from its start: utf-8 when
// it is valid UTF-8 (a sequence cut at the end of the sample counts as
// valid), else cp437 when most bytes above 0x7F are CP437's box drawing
// and block characters (0xB0-0xDF), else iso-8859-1.
func guessCharset(b []byte) string {
	valid := b
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		if utf8.RuneStart(b[len(b)-k]) {
			if !utf8.FullRune(b[len(b)-k:]) {
				valid = b[:len(b)-k]
			}
			break
		}
	}
	if utf8.Valid(valid) {
		return "utf-8"
	}
	box, high := 0, 0
	for _, c := range b {
		if c >= 0x80 {
			high++
			if c >= 0xB0 && c <= 0xDF {
				box++
			}
		}
	}
	if box*2 > high {
		return "cp437"
	}
	return "iso-8859-1"
}
