package scheme

import (
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/schemedata"
)

// Prospero is the view of a prospero URL (RFC 1738 3.11):
//
//	prospero://<host>:<port>/<hsoname>;<field>=<value>
//
// The hsoname is opaque to the client: a "/" in it has no meaning and a
// ";" must be encoded. Fields (";name=value") identify the target, such
// as OBJECT-VERSION. RFC 1630 adds a version number after "%00" (an
// escaped string terminator), and the October 1993 draft further
// "%00"-separated attributes (with an empty version when only attributes
// are given: "%00%00").
//
// An hsoname, version or attribute cannot hold a NUL byte: URL writes it
// as %00, which reads back as a separator.
type Prospero struct {
	Host       string // as written
	Port       string // the digits as written, "" for the default (1525)
	HSOName    string // decoded
	Version    string // decoded, after the first %00; see HasVersion
	HasVersion bool
	Attributes []string // decoded, after further %00; nil when none (they imply HasVersion)
	Fields     []Field  // the ";name=value" fields, decoded; nil when none

	// at holds where each part is written in the URL's String form: the
	// hsoname (with its %00 version and attributes) and each field.
	at prosperoSpans
}

// prosperoSpans are the spans of a prospero URL's parts (see Span).
type prosperoSpans struct {
	authSpans
	Path   Span   // the hsoname, version and attributes, up to the first ";"
	Fields []Span // each "name=value"
}

// Field is one ";name=value" field of a Prospero URL.
type Field struct {
	Name, Value string
}

// parseProspero returns the view of a prospero URL.
func parseProspero(u *urlkit.URL) (*Prospero, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	p, off, ok := urlPath(u)
	if !ok {
		return nil, syntaxError(u, off-1, "a prospero URL needs '/' and an hsoname after the host (RFC 1738 3.11)")
	}
	v := &Prospero{Host: u.Host, Port: port(u)}
	v.at.authSpans = serverSpans(u)
	ppath, fields, hasFields := strings.Cut(p, ";")
	v.at.Path = Span{off, off + len(ppath)}
	parts := splitEscape(ppath, 0)
	v.HSOName = unescape(parts[0])
	if len(parts) > 1 {
		v.HasVersion, v.Version = true, unescape(parts[1])
	}
	for _, a := range parts[min(2, len(parts)):] {
		v.Attributes = append(v.Attributes, unescape(a))
	}
	if !hasFields {
		return v, nil
	}
	off += len(ppath) + 1
	for _, f := range strings.Split(fields, ";") {
		name, value, ok := strings.Cut(f, "=")
		if !ok {
			return nil, syntaxError(u, off+len(f), "a Prospero field is \";\" fieldname \"=\" fieldvalue: the '=' is missing (RFC 1738 3.11)")
		}
		v.Fields = append(v.Fields, Field{Name: unescape(name), Value: unescape(value)})
		v.at.Fields = append(v.at.Fields, Span{off, off + len(f)})
		off += len(f) + 1
	}
	return v, nil
}

// appendParts appends hsoname, fields (an array of [name, value] pairs),
// version and attributes.
func (p *Prospero) appendParts(dst []part) []part {
	pairs := value{Kind: schemedata.KindArray, Sub: make([]part, len(p.Fields))}
	for i, f := range p.Fields {
		pairs.Sub[i] = kv("", strs([]string{f.Name, f.Value}))
	}
	return append(dst, kv("hsoname", str(p.HSOName)), kv("fields", pairs), kv("version", opt(p.Version, p.HasVersion)),
		kv("attributes", strs(p.Attributes)))
}

// URL builds the prospero URL: the hsoname encoded for psegment with its
// "/" kept (";" becomes %3B), the version and attributes after %00, and
// each field's name and value encoded for fieldname and fieldvalue ("="
// and ";" encoded).
func (p *Prospero) URL() *urlkit.URL {
	u := serverURL("prospero", p.Host, p.Port)
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(escape(p.HSOName, &keepPpath))
	if p.HasVersion || p.Attributes != nil {
		b.WriteString("%00")
		b.WriteString(escape(p.Version, &keepPpath))
		for _, a := range p.Attributes {
			b.WriteString("%00")
			b.WriteString(escape(a, &keepPpath))
		}
	}
	for _, f := range p.Fields {
		b.WriteByte(';')
		b.WriteString(escape(f.Name, &keepField))
		b.WriteByte('=')
		b.WriteString(escape(f.Value, &keepField))
	}
	setPath(u, b.String())
	return u
}

// AFS is the view of an afs URL, the Andrew File System global file names
// of the 1993-94 drafts (draft-ietf-uri-url-03 BNF: afsaddress = "afs://"
// cellname "/" path). The drafts kept it "as a historical note"; urlkit
// reads it in the lenient mode only.
type AFS struct {
	Cell string // the cell name, as written
	Path string // decoded, starting with "/"
}

// parseAFS returns the view of an afs URL.
func parseAFS(u *urlkit.URL) (*AFS, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	p, off, ok := urlPath(u)
	if !ok {
		return nil, syntaxError(u, off-1, "an afs URL needs '/' and a path after the cell name (draft-ietf-uri-url-03, afsaddress)")
	}
	if k := indexEscape(p, '/'); k >= 0 {
		return nil, syntaxError(u, off+k, "%2F in an AFS path: a file or directory name cannot hold '/'")
	}
	return &AFS{Cell: u.Host, Path: "/" + unescape(p)}, nil
}

// appendParts appends cell and path.
func (a *AFS) appendParts(dst []part) []part {
	return append(dst, kv("cell", str(a.Cell)), kv("path", str(a.Path)))
}

// URL builds "afs://", the cell and the path, each segment encoded for
// fsegment.
func (a *AFS) URL() *urlkit.URL {
	f := File{Host: a.Cell, Path: a.Path}
	u := f.URL()
	u.Scheme = "afs"
	return u
}

// GlobalPath returns the file name under which AFS clients mount the
// cell: /afs/<cell><path>.
func (a *AFS) GlobalPath() string { return "/afs/" + a.Cell + a.Path }

func init() {
	register(&unit{parse: view(parseProspero), concerns: prosperoConcerns, plan: func(v View, p *planner) { p.prospero(v.(*Prospero)) }}, "prospero")
	register(&unit{parse: view(parseAFS), concerns: fileConcerns, plan: func(v View, p *planner) {
		p.open(v.(*AFS).GlobalPath())
		p.comment("afs (draft-ietf-uri-url-03, historical): the Andrew File System global name, read where AFS mounts its cells under /afs")
	}}, "afs")
}

// prosperoConcerns: the hsoname and the fields go into the request.
func prosperoConcerns(v View, c *concernList) {
	if p, _ := v.(*Prospero); p != nil {
		c.scanSpan(p.at.Path, ctlCR|ctlLF, "Prospero request (hsoname)")
		for _, f := range p.at.Fields {
			c.scanSpan(f, ctlCR|ctlLF|ctlNUL, "Prospero request (fields)")
		}
		return
	}
	if p, off, ok := urlPath(c.u); ok {
		ppath, fields, _ := strings.Cut(p, ";")
		c.scan(ppath, off, ctlCR|ctlLF, "Prospero request (hsoname)")
		c.scan(fields, off+len(ppath)+1, ctlCR|ctlLF|ctlNUL, "Prospero request (fields)")
	}
}

// prosperoVersion checks an object version (RFC 1630's %00 form or a
// ;version= or ;OBJECT-VERSION= field): Prospero protocol version 5
// ("Versions") has 0 for the current version and positive integers for
// explicit ones; the empty version is the current one.
func prosperoVersion(v string) bool {
	return v == "" || strings.Trim(v, "0123456789") == "" && len(v) <= 9
}

func (pl *planner) prospero(p *Prospero) {
	version := ""
	if p.HasVersion {
		if !prosperoVersion(p.Version) {
			pl.unsupported(p.at.Path.At, fmt.Sprintf("Prospero object version %q: a version is a number (protocol version 5, \"Versions\")", p.Version))
			return
		}
		version = p.Version
	}
	if len(p.Attributes) > 0 {
		pl.unsupported(p.at.Path.At, "the October 1993 draft's %00 attributes are not supported: Prospero version 5 has no request that takes them with a name")
		return
	}
	for i, f := range p.Fields {
		switch {
		case strings.EqualFold(f.Name, "version") || strings.EqualFold(f.Name, "object-version"):
			if !prosperoVersion(f.Value) {
				pl.unsupported(p.at.Fields[i].At, fmt.Sprintf("Prospero object version %q: a version is a number (protocol version 5, \"Versions\")", f.Value))
				return
			}
			version = f.Value
		default:
			pl.unsupported(p.at.Fields[i].At, fmt.Sprintf("the Prospero field %q is not supported (urlkit applies version and OBJECT-VERSION only)", f.Name))
			return
		}
	}
	asked := p.HasVersion || len(p.Fields) > 0
	version = strings.TrimLeft(version, "0")
	pl.connect(addr(p.Host, p.Port, "prospero"))
	pl.comment("Prospero protocol version 5 over ARDP/UDP: each request below goes out after a 9-byte ARDP header (connection id, random per request; packet 1 of 1; received through 0), the reply comes in packets that are acknowledged and reassembled")
	pl.comment("the hsoname %q is opaque to the client: sent quoted, a ' doubled (RFC 1738 3.11)", p.HSOName)
	if asked && version == "" {
		pl.comment("object version 0 is the current version: the requests are those without it")
	}
	if version != "" {
		pl.comment("object version %s follows the hsoname (protocol version 5: DIRECTORY and GET-OBJECT-INFO take an object-version; 0, the current version, is left out)", version)
	}
	req := &request.Prospero{HSOName: p.HSOName, Version: version}
	st := pl.send(request.ProsperoList, p.HSOName, "")
	st.Request, st.At, st.Why, st.RFC = req, p.at.Path, "list the object as a directory, with the attributes the server finds interesting (size, dates, access methods)", "RFC 1738 3.11"
	st.Reply = "LINK lines, or FAILURE NOT-A-DIRECTORY for a file"
	st = pl.send(request.ProsperoContents, p.HSOName, "")
	st.Request, st.At, st.Why, st.When = req, p.at.Path, "the object is a file: its data, from its CONTENTS attribute", Cond{On: request.ProsperoList, Reply: "NOT-A-DIRECTORY", Text: "the server replies FAILURE NOT-A-DIRECTORY"}
	st = pl.send(request.ProsperoAccess, p.HSOName, "")
	st.Request, st.At, st.Why, st.When = req, p.at.Path, "the data is elsewhere: the access methods name it", Cond{On: request.ProsperoContents, Lists: "CONTENTS", Not: true, Text: "the reply has no CONTENTS attribute"}
	pl.comment("an AFTP or FTP access method's target is fetched as an ftp URL through urlkit's FTP access")
	pl.fragmentNote()
}
