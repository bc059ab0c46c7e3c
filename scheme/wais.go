package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/schemedata"
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

	// at holds where each part is written in the URL's String form.
	at waisSpans
}

// waisSpans are the spans of a wais URL's parts (see Span).
type waisSpans struct {
	authSpans
	Database, Search, WType, WPath Span
}

// WAISField is one field of a WAIS document identifier in RFC 1630's
// wpath encoding: the field number, "=", the contents, ";".
type WAISField struct {
	Number int
	Value  string // decoded
}

// parseWAIS returns the view of a wais URL. A wpath with further "/" (in
// modes that allow it) is read whole: RFC 1738 wants them encoded.
func parseWAIS(u *urlkit.URL) (*WAIS, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	w := &WAIS{Host: u.Host, Port: port(u)}
	w.at.authSpans = serverSpans(u)
	l := layoutOf(u)
	if u.Path == "" {
		return nil, syntaxError(u, l.path, "a wais URL needs '/' and a database name after the host (RFC 1738 3.9)")
	}
	segs := strings.SplitN(u.Path[1:], "/", 3)
	w.Database = unescape(segs[0])
	at := l.path + 1
	w.at.Database = Span{at, at + len(segs[0])}
	switch len(segs) {
	case 1:
		w.Search, w.HasSearch = unescape(u.Query), u.HasQuery
		if u.HasQuery {
			w.at.Search = Span{l.query, l.query + len(u.Query)}
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
	w.at.WType = Span{at, at + len(segs[1])}
	at += len(segs[1]) + 1
	w.at.WPath = Span{at, at + len(segs[2])}
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
		// a field number is a DocID field type (at most 32 bits on the
		// wire), kept to what an int holds everywhere
		n, err := strconv.ParseInt(digits, 10, 32)
		if err != nil {
			return nil
		}
		fields = append(fields, WAISField{Number: int(n), Value: unescape(raw[eq+1 : semi])})
		raw = raw[semi+1:]
	}
	return fields
}

// appendParts appends database, search, wtype, wpath and wpath_fields
// (an array of [number, contents] pairs).
func (w *WAIS) appendParts(dst []part) []part {
	var fields value
	if w.Fields != nil {
		fields = value{Kind: schemedata.KindArray, Sub: make([]part, len(w.Fields))}
		for i, f := range w.Fields {
			pair := []part{kv("", value{Kind: schemedata.KindNumber, Str: strconv.Itoa(f.Number)}), kv("", str(f.Value))}
			fields.Sub[i] = kv("", value{Kind: schemedata.KindArray, Sub: pair})
		}
	}
	return append(dst, kv("database", str(w.Database)), kv("search", opt(w.Search, w.HasSearch)),
		kv("wtype", opt(w.WType, w.HasDocument)), kv("wpath", opt(w.WPath, w.HasDocument)), kv("wpath_fields", fields))
}

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
	register(&unit{parse: view(parseWAIS), plan: func(v View, p *planner) { p.wais(v.(*WAIS)) }, proxied: true}, "wais")
}

// waisDocument is what a wais document URL's wpath stands for.
type waisDocument struct {
	// DocID holds the DocID's bytes in RFC 1738's form; nil in the fields
	// form.
	DocID []byte
	// Fields are the DocID's fields in Lynx's form ("type=value;" each).
	Fields []WAISField
	// Length is the document's length in bytes from the URL (Lynx wrote
	// it as a segment before the DocID fields), -1 when not given.
	Length int64
	// Form is how the wpath was written: "rfc1738" (the DocID's bytes,
	// percent-encoded) or "fields" (Lynx and libwww: "type=value;" per
	// DocID field, RFC 1630's wpath).
	Form string
}

// document decodes the wpath of a document URL (HasDocument); raw is the
// URL's String form, for the wpath as written. RFC 1738's form is the
// DocID's bytes percent-encoded; Lynx's is an optional "length/" and the
// DocID's fields as "type=value;" (a "=" or ";" written unencoded is
// never RFC 1738's form, where both are reserved).
func (w *WAIS) document(raw string) waisDocument {
	d := waisDocument{DocID: []byte(w.WPath), Length: -1, Form: "rfc1738"}
	if w.at.WPath.End > len(raw) || w.at.WPath.At > w.at.WPath.End {
		return d
	}
	wpath := raw[w.at.WPath.At:w.at.WPath.End]
	length := int64(-1)
	if n, rest, ok := strings.Cut(wpath, "/"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil {
			length, wpath = v, rest
		}
	}
	fields := waisFields(wpath)
	if fields == nil {
		return d
	}
	return waisDocument{Fields: fields, Length: length, Form: "fields"}
}

func (p *planner) wais(w *WAIS) {
	p.connect(addr(w.Host, w.Port, "wais"))
	p.comment("WAIS: Z39.50-1988 APDUs behind a 25-byte WAIS header, binary requests shown escaped; no init request (freeWAIS answers without one, as Lynx relied on)")
	switch {
	case w.HasDocument:
		d := w.document(p.u.String())
		if d.Fields != nil {
			p.comment("the document of database %q, type %q, DocID fields %v (Lynx's form)", w.Database, w.WType, d.Fields)
		} else {
			p.comment("the document of database %q, type %q, DocID %q (RFC 1738's form)", w.Database, w.WType, d.DocID)
		}
		first := int64(request.WAISChunkSize)
		if d.Length >= 0 {
			p.comment("length %d bytes, from the URL", d.Length)
			first = min(first, d.Length)
		}
		req := &request.WAIS{Database: w.Database, DocID: d.DocID, DocIDFields: docIDFields(d.Fields), Type: w.WType, Start: 0, End: first, Length: d.Length}
		p.binary(request.WAISRetrieve, w.WPath, req, w.at.WPath, "a retrieval of bytes [0, "+strconv.FormatInt(first, 10)+"): query type \"1\", element set \"Document Text\"")
		p.add(Step{Kind: Expect, Reply: "search response", Text: "a document text record; the server's diagnostic otherwise"})
		if d.Length < 0 || d.Length > first {
			// The chunks after the first are plan data too: this step's
			// bytes go as they are for the second, and are the template
			// whose range the client moves on for each one after it.
			end := first + request.WAISChunkSize
			if d.Length >= 0 {
				end = min(end, d.Length)
			}
			next := *req
			next.Start, next.End = first, end
			st := p.binary(request.WAISNextChunk, w.WPath, &next, w.at.WPath, fmt.Sprintf("the next chunk, bytes [%d, %d): the same retrieval; each chunk after it is this request with its range moved on by %d bytes", first, end, request.WAISChunkSize))
			st.When.Text = "the chunk before came back whole and the document's length (from the URL) is not reached; again, with the range moved on, for each chunk after it"
		}
		p.add(Step{Kind: End, Text: "the document ends with a chunk shorter than asked, or at its length"})
	case w.HasSearch:
		req := &request.WAIS{Database: w.Database, SeedWords: w.Search}
		p.binary(request.WAISSearch, w.Search, req, w.at.Search, fmt.Sprintf("a search of database %q for %q: query type \"3\", the seed words exactly as decoded", w.Database, w.Search))
		p.add(Step{Kind: Expect, Reply: "search response", Text: "one header group per hit (headline, score, lines, length, types, DocID)"})
	default:
		p.add(Step{Kind: Ask, Text: fmt.Sprintf("the words to search database %q for (on a terminal)", w.Database)})
		p.comment("then a search of %q for them, as for %s?WORDS", w.Database, w.Database)
		req := &request.WAIS{Database: "INFO", SeedWords: w.Database}
		st := p.binary(request.WAISSource, w.Database, req, w.at.Database, "the database's description: its source record, found by a search of the server's INFO database")
		st.When.Text = "there is no terminal to ask on"
		src := &request.WAIS{Database: "INFO", Type: "WSRC", Start: 0, End: request.WAISChunkSize, Length: -1}
		st = p.binary(request.WAISSourceRecord, w.Database+".src", src, w.at.Database, fmt.Sprintf("the hit %q: a retrieval of its bytes [0, %d) from INFO, type WSRC, with the hit's DocID (empty here: the search's reply gives it)", w.Database+".src", request.WAISChunkSize))
		st.When.Text = "the search found the hit (there is no terminal to ask on)"
	}
	p.fragmentNote()
}

// binary adds a Send step of a WAIS request, encoded later (encode).
func (p *planner) binary(op, arg string, req *request.WAIS, at Span, why string) *Step {
	st := p.send(op, arg, "")
	st.Request, st.Binary, st.At, st.Why, st.RFC = req, true, at, why, "RFC 1738 3.9"
	return st
}

// docIDFields are the wpath's fields as the request carries them.
func docIDFields(fields []WAISField) []request.DocIDField {
	if fields == nil {
		return nil
	}
	d := make([]request.DocIDField, len(fields))
	for i, f := range fields {
		d[i] = request.DocIDField{Number: f.Number, Value: f.Value}
	}
	return d
}
