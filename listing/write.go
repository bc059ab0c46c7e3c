package listing

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/gophertype"
	"github.com/urlkit/urlkit/internal/safetext"
)

// WriteText writes l in its text form, reading it to its end: a line
// per entry (three for a WAIS hit, two for a Prospero link with a URL),
// after a line that says what a WAIS or Prospero listing is of. Every
// field the server sent is made safe for a terminal
// (safetext.Visible). The columns per format:
//
//	FTP       TYPE SIZE TIME NAME ("-" for what the server did not say)
//	Gopher    [type] NAME <URL>; information lines indented
//	Articles  NUMBER, DATE, FROM, SUBJECT and MESSAGE-ID, TAB-separated
//	Groups    NAME HIGH LOW STATUS
//	WAIS      N. HEADLINE / score, lines, bytes, types / URL
//	Prospero  TARGET NAME SIZE MODIFIED HOST HSONAME / URL
func WriteText(w io.Writer, l *List) error {
	_, err := io.Copy(w, NewReader(l, false))
	return err
}

// WriteJSON writes l as JSON objects, one per line, reading it to its
// end (safetext.AppendJSONLine). The fields per format:
//
//	FTP       name, type, size, time (the last three when known)
//	Gopher    type, name, url, selector, host, port
//	Articles  number, date, from, subject, message_id
//	Groups    group, high, low, status
//	WAIS      headline, score, lines, length, types, url
//	Prospero  name, target, host, hsoname, size, modified, url
func WriteJSON(w io.Writer, l *List) error {
	_, err := io.Copy(w, NewReader(l, true))
	return err
}

// NewReader returns the text of l (WriteText's), or its JSON lines
// (WriteJSON's), as a stream that reads l as it is read: a response body
// of any length in constant memory.
func NewReader(l *List, asJSON bool) io.Reader {
	return &reader{l: l, json: asJSON}
}

type reader struct {
	l    *List
	json bool
	n    int // entries written
	buf  []byte
	off  int
	end  bool
	err  error
}

// Read fills p with as many entries as fit (a writer gets few large
// writes, not one per entry); an error of the listing comes after the
// entries read before it.
func (r *reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if r.off < len(r.buf) {
			c := copy(p[n:], r.buf[r.off:])
			r.off += c
			n += c
			continue
		}
		if r.end {
			break
		}
		r.fill()
	}
	switch {
	case n > 0:
		return n, nil
	case r.err != nil:
		return 0, r.err
	}
	return 0, io.EOF
}

// fill puts the next entry's form in buf (after the header, before the
// first), or ends the reading.
func (r *reader) fill() {
	r.buf, r.off = r.buf[:0], 0
	if r.n == 0 && !r.json {
		r.buf = appendHeader(r.buf, &r.l.Header)
	}
	if !r.l.Next() {
		r.end, r.err = true, r.l.Err()
		return
	}
	r.n++
	if r.json {
		var err error
		if r.buf, err = appendJSON(r.buf, r.l.Header.Format, r.l.Entry()); err != nil {
			r.end, r.err = true, err
		}
		return
	}
	r.buf = appendText(r.buf, r.l.Header.Format, r.n, r.l.Entry())
}

// appendHeader appends the line a WAIS or Prospero listing begins with.
func appendHeader(b []byte, h *Header) []byte {
	switch h.Format {
	case WAIS:
		return fmt.Appendf(b, `WAIS search of "%s" on %s for "%s": %s`+"\n", safetext.Visible(h.Of), safetext.Visible(h.Server), safetext.Visible(h.Query), plural(h.Count, "hit"))
	case Prospero:
		return fmt.Appendf(b, `Prospero directory "%s" on %s: %s`+"\n", safetext.Visible(h.Of), safetext.Visible(h.Server), plural(h.Count, "link"))
	}
	return b
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// appendText appends the text of e, the nth entry of a listing in format f.
func appendText(b []byte, f Format, n int, e *Entry) []byte {
	v := safetext.Visible
	switch f {
	case FTP:
		typ, size, t := e.Kind, "-", "-"
		if typ == "" {
			typ = "-"
		}
		if e.Size >= 0 {
			size = strconv.FormatInt(e.Size, 10)
		}
		if !e.Time.IsZero() {
			t = e.Modified()
		}
		return fmt.Appendf(b, "%-5s %12s %-20s %s\n", v(typ), size, t, v(e.Name))
	case Gopher:
		switch e.Gopher.Type {
		case 'i':
			return fmt.Appendf(b, "         %s\n", v(e.Name))
		case '3':
			return fmt.Appendf(b, "[error]  %s\n", v(e.Name))
		}
		return fmt.Appendf(b, "%-8s %s <%s>\n", v("["+gopherTypeName(e.Gopher.Type)+"]"), v(e.Name), v(e.URL))
	case Articles:
		b = strconv.AppendInt(b, e.Article.Number, 10)
		for _, s := range [...]string{e.Article.Date, e.Article.From, e.Name, e.Article.MessageID} {
			b = append(b, '\t')
			b = append(b, v(s)...)
		}
		return append(b, '\n')
	case Groups:
		return append(append(b, v(e.Name+" "+strconv.FormatInt(e.Group.High, 10)+" "+strconv.FormatInt(e.Group.Low, 10)+" "+e.Group.Status)...), '\n')
	case WAIS:
		types := make([]string, len(e.WAIS.Types))
		for i, t := range e.WAIS.Types {
			types[i] = v(t)
		}
		return fmt.Appendf(b, "%3d. %s\n     score %d, %d lines, %d bytes, %s\n     %s\n", n, v(e.Name), e.WAIS.Score, e.WAIS.Lines, e.Size, strings.Join(types, " "), v(e.URL))
	case Prospero:
		p := &e.Prospero
		b = fmt.Appendf(b, "%-9s %-20s %12s  %-20s  %s %s\n", v(p.Target), v(e.Name), v(p.Size), v(e.Modified()), v(p.Host), v(p.HSOName))
		if e.URL != "" {
			b = fmt.Appendf(b, "          %s\n", v(e.URL))
		}
		return b
	}
	return fmt.Appendf(b, "%s <%s>\n", v(e.Name), v(e.URL))
}

// gopherTypeName names a Gopher item type ("menu"), or quotes an
// unknown one.
func gopherTypeName(c byte) string {
	if t, ok := gophertype.Lookup(c); ok {
		return t.Name
	}
	return fmt.Sprintf("type %q", rune(c))
}

// appendJSON appends e, an entry of a listing in format f, as a JSON
// line. The WAIS and Prospero fields are shown as the text form shows
// them (safetext.Visible), as they always were.
func appendJSON(b []byte, f Format, e *Entry) ([]byte, error) {
	v := safetext.Visible
	switch f {
	case FTP:
		obj := struct {
			Name string  `json:"name"`
			Type string  `json:"type,omitempty"`
			Size *int64  `json:"size,omitempty"`
			Time *string `json:"time,omitempty"`
		}{Name: e.Name, Type: e.Kind}
		if e.Size >= 0 {
			obj.Size = &e.Size
		}
		if !e.Time.IsZero() {
			t := e.Modified()
			obj.Time = &t
		}
		return safetext.AppendJSONLine(b, obj)
	case Gopher:
		return safetext.AppendJSONLine(b, struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			URL      string `json:"url,omitempty"`
			Selector string `json:"selector"`
			Host     string `json:"host"`
			Port     string `json:"port"`
		}{gopherTypeName(e.Gopher.Type), e.Name, e.URL, e.Gopher.Selector, e.Gopher.Host, e.Gopher.Port})
	case Articles:
		return safetext.AppendJSONLine(b, struct {
			Number    int64  `json:"number"`
			Date      string `json:"date"`
			From      string `json:"from"`
			Subject   string `json:"subject"`
			MessageID string `json:"message_id"`
		}{e.Article.Number, e.Article.Date, e.Article.From, e.Name, e.Article.MessageID})
	case Groups:
		return safetext.AppendJSONLine(b, struct {
			Group  string `json:"group"`
			High   int64  `json:"high"`
			Low    int64  `json:"low"`
			Status string `json:"status"`
		}{e.Name, e.Group.High, e.Group.Low, e.Group.Status})
	case WAIS:
		types := make([]string, len(e.WAIS.Types))
		for i, t := range e.WAIS.Types {
			types[i] = v(t)
		}
		return safetext.AppendJSONLine(b, struct {
			Headline string   `json:"headline"`
			Score    int64    `json:"score"`
			Lines    int64    `json:"lines"`
			Length   int64    `json:"length"`
			Types    []string `json:"types"`
			URL      string   `json:"url"`
		}{v(e.Name), e.WAIS.Score, e.WAIS.Lines, e.Size, types, e.URL})
	case Prospero:
		p := &e.Prospero
		return safetext.AppendJSONLine(b, struct {
			Name     string `json:"name"`
			Target   string `json:"target"`
			Host     string `json:"host"`
			Hsoname  string `json:"hsoname"`
			Size     string `json:"size,omitempty"`
			Modified string `json:"modified,omitempty"`
			URL      string `json:"url,omitempty"`
		}{v(e.Name), v(p.Target), v(p.Host), v(p.HSOName), v(p.Size), v(e.Modified()), e.URL})
	}
	return safetext.AppendJSONLine(b, struct {
		Name string `json:"name"`
		URL  string `json:"url,omitempty"`
	}{e.Name, e.URL})
}
