package main

import (
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/edit"
)

// tmplPart is a piece of a --get template: literal text, or a variable.
type tmplPart struct {
	lit      string
	isVar    bool
	name     string // a component, or "url"
	queryKey string // for {query:KEY} and {query-all:KEY}
	isQuery  bool
	queryAll bool
	encoded  bool // {:name}, {url:name}
	def      bool // {default:name}
	puny     bool
	idn      bool
	strict   bool // a decoding problem is an error
	must     bool // a missing component is an error
}

// parseTemplate reads a --get template as trurl does: variables in
// {braces} or, if a "[" comes first, [brackets] ("{{" is a literal "{");
// an unclosed one is literal text; outside variables, \n \t \r \\ \{ \[
// are escapes and other backslashes are kept.
func parseTemplate(f string) ([]tmplPart, error) {
	var parts []tmplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, tmplPart{lit: lit.String()})
			lit.Reset()
		}
	}
	var open, close byte
	for i := 0; i < len(f); {
		c := f[i]
		if open == 0 && (c == '{' || c == '[') {
			open, close = c, '}'
			if c == '[' {
				close = ']'
			}
		}
		switch {
		case open != 0 && c == open:
			if i+1 < len(f) && f[i+1] == open {
				lit.WriteByte(open)
				i += 2
				continue
			}
			end := strings.IndexByte(f[i+1:], close)
			if end < 0 {
				lit.WriteByte(open)
				i++
				continue
			}
			v, err := parseVariable(f[i+1 : i+1+end])
			if err != nil {
				return nil, err
			}
			flush()
			parts = append(parts, v)
			i += end + 2
		case c == '\\' && i+1 < len(f):
			switch f[i+1] {
			case 'n':
				lit.WriteByte('\n')
			case 't':
				lit.WriteByte('\t')
			case 'r':
				lit.WriteByte('\r')
			case '\\', '{', '[':
				lit.WriteByte(f[i+1])
			default:
				lit.WriteString(f[i : i+2])
			}
			i += 2
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return parts, nil
}

func parseVariable(v string) (tmplPart, error) {
	p := tmplPart{isVar: true}
	whole := v
	if strings.HasPrefix(v, ":") {
		p.encoded, v = true, v[1:]
	}
	for {
		word, rest, ok := strings.Cut(v, ":")
		if !ok {
			break
		}
		switch word {
		case "default":
			p.def = true
		case "puny":
			p.puny = true
		case "idn":
			p.idn = true
		case "strict":
			p.strict = true
		case "must":
			p.must = true
		case "url":
			p.encoded = true
		case "query", "query-all":
			p.isQuery, p.queryAll, p.queryKey, p.name = true, word == "query-all", rest, "query"
			return p, nil
		default:
			return p, fmt.Errorf("bad --get syntax: {%s}: unknown modifier %q", whole, word+":")
		}
		v = rest
	}
	if p.puny && p.idn {
		return p, fmt.Errorf("bad --get syntax: {%s}: puny: and idn: exclude each other", whole)
	}
	if v == "" {
		return p, fmt.Errorf("bad --get syntax: {%s}", whole)
	}
	if v != "url" && !edit.IsComponent(v) {
		return p, fmt.Errorf("%q is not a recognized URL component", v)
	}
	p.name = v
	return p, nil
}

func (r *editRun) writeGet(u *edit.URL, q *edit.Query) int {
	for _, p := range r.tmpl {
		if !p.isVar {
			r.out.WriteString(p.lit)
			continue
		}
		encoded := p.encoded || r.c.urlencode
		o := r.c.out
		o.DefaultPort = o.DefaultPort || p.def
		o.Puny = o.Puny || p.puny
		o.IDN = (o.IDN || p.idn) && !o.Puny
		switch {
		case p.isQuery:
			vs := q.Values(p.queryKey, encoded)
			if !p.queryAll && len(vs) > 1 {
				vs = vs[:1]
			}
			r.out.WriteString(strings.Join(vs, " "))
		case p.name == "url":
			s, err := u.Format(o)
			if err != nil {
				r.note("error converting the host name: %v", err)
			}
			r.out.WriteString(s)
		default:
			v, ok := u.Part(p.name, o)
			if !ok {
				if p.must && !(p.name == "query" && u.EmptyQuery || p.name == "fragment" && u.EmptyFragment) {
					r.out.Flush()
					fmt.Fprintf(r.st.Err, "urlkit edit: missing must:%s\n", p.name)
					return exitFail
				}
				continue
			}
			if !encoded {
				v = edit.Unescape(v)
				if strings.IndexByte(v, 0) >= 0 {
					if p.strict {
						r.out.Flush()
						fmt.Fprintf(r.st.Err, "urlkit edit: problems URL decoding %s: it holds a NUL byte\n", p.name)
						return exitFail
					}
					r.note("URL decoding %s gives a NUL byte; not shown", p.name)
					continue
				}
			}
			r.out.WriteString(v)
		}
	}
	r.out.WriteByte('\n')
	return exitOK
}

// writeJSON writes one object of trurl's --json array, in trurl's layout.
func (r *editRun) writeJSON(u *edit.URL, q *edit.Query) {
	s, err := u.Format(r.c.out)
	if err != nil {
		r.note("error converting the host name: %v", err)
	}
	var b []byte
	if r.jsonCount > 0 {
		b = append(b, ',')
	}
	r.jsonCount++
	b = append(b, "\n  {\n    \"url\": "...)
	b = appendJSONString(b, s)
	b = append(b, ",\n    \"parts\": {\n"...)
	first := true
	for _, name := range edit.Components {
		v, ok := u.Part(name, edit.Out{DefaultPort: r.c.out.DefaultPort, Puny: r.c.out.Puny, IDN: r.c.out.IDN})
		if !ok {
			continue
		}
		if !r.c.urlencode {
			if name == "query" {
				v = strings.ReplaceAll(v, "+", " ")
			}
			v = edit.Unescape(v)
		}
		if !first {
			b = append(b, ",\n"...)
		}
		first = false
		b = append(b, "      \""+name+"\": "...)
		b = appendJSONString(b, v)
	}
	b = append(b, "\n    }"...)
	if len(q.Pairs) > 0 {
		b = append(b, ",\n    \"params\": [\n"...)
		first = true
		for _, p := range q.Pairs {
			if p.Dec == "" {
				continue
			}
			k, v, _ := strings.Cut(p.Dec, "=")
			if !first {
				b = append(b, ",\n"...)
			}
			first = false
			b = append(b, "      {\n        \"key\": "...)
			b = appendJSONString(b, k)
			b = append(b, ",\n        \"value\": "...)
			b = appendJSONString(b, v)
			b = append(b, "\n      }"...)
		}
		b = append(b, "\n    ]"...)
	}
	b = append(b, "\n  }"...)
	r.out.Write(b)
}
