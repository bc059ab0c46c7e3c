package scheme

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
)

// WAIS is the view of a wais URL (RFC 1738 3.9), in one of three forms:
//
//	wais://<host>:<port>/<database>                   a database to search
//	wais://<host>:<port>/<database>?<search>          a search
//	wais://<host>:<port>/<database>/<wtype>/<wpath>   a document
//
// The wpath is the WAIS document-id, which only the server that issued it
// may decompose. RFC 1630 wrote it as fields of the identifier,
// "digits=value;" each; when the wpath is written that way (with "=" and
// ";" unencoded, as the rfc1630 mode allows), Fields holds them.
type WAIS struct {
	Host        string // as written
	Port        string // the digits as written, "" for the default (210)
	Database    string // decoded
	Search      string // decoded; see HasSearch
	HasSearch   bool
	WType       string // decoded; see HasDocument
	WPath       string // the document-id, decoded
	HasDocument bool   // the /wtype/wpath form
	// Fields are RFC 1630's wpath fields, decoded, when the wpath is
	// written in that form; URL writes them in that form again. nil
	// otherwise.
	Fields []WAISField

	// At holds where each part is written in the URL's String form.
	At WAISSpans
}

// WAISSpans are the spans of a wais URL's parts (see Span).
type WAISSpans struct {
	Server
	Database, Search, WType, WPath Span
}

// WAISField is one field of a WAIS document identifier in RFC 1630's
// wpath encoding: the field number, "=", the contents, ";".
type WAISField struct {
	Number int
	Value  string // decoded
}

// ParseWAIS returns the view of a wais URL. A wpath with further "/" (in
// modes that allow it) is read whole: RFC 1738 wants them encoded.
func ParseWAIS(u *urlkit.URL) (*WAIS, error) {
	if err := expect(u, "wais"); err != nil {
		return nil, err
	}
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	w := &WAIS{Host: u.Host, Port: port(u)}
	w.At.Server = serverSpans(u)
	l := layoutOf(u)
	if u.Path == "" {
		return nil, syntaxError(u, l.path, "a wais URL needs '/' and a database name after the host (RFC 1738 3.9)")
	}
	segs := strings.SplitN(u.Path[1:], "/", 3)
	w.Database = unescape(segs[0])
	at := l.path + 1
	w.At.Database = Span{at, at + len(segs[0])}
	switch len(segs) {
	case 1:
		w.Search, w.HasSearch = unescape(u.Query), u.HasQuery
		if u.HasQuery {
			w.At.Search = Span{l.query, l.query + len(u.Query)}
		}
		return w, nil
	case 2:
		return nil, syntaxError(u, l.path+len(u.Path), "a WAIS document URL is /database/wtype/wpath: the '/' and the wpath are missing (RFC 1738 3.9)")
	}
	if u.HasQuery {
		return nil, syntaxError(u, l.query-1, "a WAIS document URL (/database/wtype/wpath) takes no search (RFC 1738 3.9)")
	}
	w.HasDocument = true
	w.WType = unescape(segs[1])
	w.WPath = unescape(segs[2])
	at += len(segs[0]) + 1
	w.At.WType = Span{at, at + len(segs[1])}
	at += len(segs[1]) + 1
	w.At.WPath = Span{at, at + len(segs[2])}
	w.Fields = waisFields(segs[2])
	return w, nil
}

// waisFields reads RFC 1630's wpath = digits "=" path ";" [ wpath ] from
// the wpath as written, or returns nil when it is not in that form.
func waisFields(raw string) []WAISField {
	var fields []WAISField
	for raw != "" {
		eq := strings.IndexByte(raw, '=')
		semi := strings.IndexByte(raw, ';')
		if eq <= 0 || semi < eq {
			return nil
		}
		digits := raw[:eq]
		if strings.Trim(digits, "0123456789") != "" || len(digits) > 1 && digits[0] == '0' {
			return nil // digits, written the one way URL writes them
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return nil
		}
		fields = append(fields, WAISField{Number: n, Value: unescape(raw[eq+1 : semi])})
		raw = raw[semi+1:]
	}
	return fields
}

// Scheme returns "wais".
func (w *WAIS) Scheme() string { return "wais" }

// URL builds the wais URL: the database, wtype and wpath encoded for
// uchar (so "/" is %2F), the search for RFC 1738's search production.
// With Fields, the wpath is written in RFC 1630's field form instead.
func (w *WAIS) URL() *urlkit.URL {
	u := serverURL("wais", w.Host, w.Port)
	p := "/" + escape(w.Database, &keepUchar)
	if w.HasDocument {
		p += "/" + escape(w.WType, &keepUchar) + "/"
		if w.Fields != nil {
			var b strings.Builder
			for _, f := range w.Fields {
				b.WriteString(strconv.Itoa(f.Number))
				b.WriteByte('=')
				b.WriteString(escape(f.Value, &keepUchar))
				b.WriteByte(';')
			}
			p += b.String()
		} else {
			p += escape(w.WPath, &keepUchar)
		}
	}
	u.Path = p
	if w.HasSearch && !w.HasDocument {
		u.Query, u.HasQuery = escape(w.Search, &keepSearch), true
	}
	return u
}

func init() {
	register(&unit{parse: view(ParseWAIS), plan: func(v View, p *planner) { p.wais(v.(*WAIS)) }, proxied: true}, "wais")
}

func (p *planner) wais(w *WAIS) {
	p.connect(addr(w.Host, w.Port, "wais"))
	p.comment("WAIS speaks Z39.50-1988 (RFC 1625): binary requests, not text lines; first an init request, then:")
	switch {
	case w.HasDocument:
		p.comment("a retrieval of the document of database %q, type %q, document-id %q (RFC 1738 3.9)", w.Database, w.WType, w.WPath)
		for _, f := range w.Fields {
			p.comment("document-id field %d: %q (RFC 1630 wpath encoding)", f.Number, f.Value)
		}
	case w.HasSearch:
		p.comment("a search of database %q for %q (RFC 1738 3.9)", w.Database, w.Search)
	default:
		p.comment("database %q is there to be searched: the client asks the user for the words, then sends a search request (RFC 1738 3.9)", w.Database)
	}
}
