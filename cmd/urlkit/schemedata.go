package main

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// schemeData returns the JSON of the URL's typed scheme view for parse
// --json's scheme_data (CLI.md), values decoded and absent parts null, or
// null when urlkit has no view for its scheme or the URL is not a valid
// view of it. The mode is the one the URL was parsed in: the lenient mode
// also reads the drafts' afs scheme and FTP type codes.
func schemeData(u *urlkit.URL, m urlkit.Mode) []byte {
	v, err := scheme.Parse(u, m)
	if err != nil || v == nil {
		return []byte("null")
	}
	var o jsonObject
	o.begin()
	switch v := v.(type) {
	case *scheme.FTP:
		o.raw("cwd", jsonStrings(nonNil(v.CWD)))
		o.str("name", v.Name)
		o.optStr("type", v.Type, v.Type != "")
		o.optStr("user", v.User, v.HasUser)
		o.optStr("password", v.Password, v.HasPassword)
	case *scheme.HTTP:
		o.str("path", v.Path)
		o.optStr("search", v.Search, v.HasSearch)
	case *scheme.Gopher:
		o.str("type", string([]byte{v.Type}))
		o.str("selector", v.Selector)
		o.optStr("search", v.Search, v.HasSearch)
		o.optStr("plus", v.Plus, v.HasPlus)
		o.raw("plus_request", plusJSON(v))
	case *scheme.Mailto:
		local, domain := v.Split()
		o.str("address", v.Address)
		o.str("local_part", local)
		o.str("domain", domain)
	case *scheme.News:
		o.str("kind", v.Kind())
		o.optStr("group", v.Group, !v.All && v.MessageID == "")
		o.optStr("message_id", v.MessageID, v.MessageID != "")
	case *scheme.NNTP:
		o.str("group", v.Group)
		o.key("article")
		if v.Article != "" {
			// A JSON number has no leading zeros.
			if d := strings.TrimLeft(v.Article, "0"); d != "" {
				o.b = append(o.b, d...)
			} else {
				o.b = append(o.b, '0')
			}
		} else {
			o.b = append(o.b, "null"...)
		}
	case *scheme.Telnet:
		o.optStr("user", v.User, v.HasUser)
		o.optStr("password", v.Password, v.HasPassword)
	case *scheme.WAIS:
		o.str("database", v.Database)
		o.optStr("search", v.Search, v.HasSearch)
		o.optStr("wtype", v.WType, v.HasDocument)
		o.optStr("wpath", v.WPath, v.HasDocument)
		o.key("wpath_fields")
		if v.Fields == nil {
			o.b = append(o.b, "null"...)
		} else {
			o.b = append(o.b, '[')
			for i, f := range v.Fields {
				if i > 0 {
					o.b = append(o.b, ',')
				}
				o.b = append(o.b, '[')
				o.b = strconv.AppendInt(o.b, int64(f.Number), 10)
				o.b = append(o.b, ',')
				o.b = appendJSONString(o.b, f.Value)
				o.b = append(o.b, ']')
			}
			o.b = append(o.b, ']')
		}
	case *scheme.File:
		o.str("host", v.Host)
		o.str("path", v.Path)
		local, err := v.LocalPath()
		o.optStr("local_path", local, err == nil)
	case *scheme.Prospero:
		o.str("hsoname", v.HSOName)
		fields := []byte{'['}
		for i, f := range v.Fields {
			if i > 0 {
				fields = append(fields, ',')
			}
			fields = append(fields, jsonStrings([]string{f.Name, f.Value})...)
		}
		o.raw("fields", append(fields, ']'))
		o.optStr("version", v.Version, v.HasVersion)
		o.raw("attributes", jsonStrings(nonNil(v.Attributes)))
	case *scheme.MID:
		o.str("id", v.ID)
	case *scheme.CID:
		o.str("id", v.ID)
	case *scheme.URN:
		o.str("name", v.Name)
	case *scheme.AFS:
		o.str("cell", v.Cell)
		o.str("path", v.Path)
	}
	o.end()
	return o.b
}

// plusJSON classifies a gopher URL's Gopher+ string: null when there is
// none or it is none of the forms of RFC 1738 3.4.
func plusJSON(g *scheme.Gopher) []byte {
	p, err := g.PlusRequest()
	if err != nil || p.Kind == scheme.PlusNone {
		return []byte("null")
	}
	var o jsonObject
	o.begin()
	o.str("kind", p.Kind.String())
	view := p.Kind == scheme.PlusView
	o.optStr("view", p.View, view)
	o.optStr("language", p.Language, view)
	if p.Attributes != nil {
		o.raw("attributes", jsonStrings(p.Attributes))
	} else {
		o.raw("attributes", []byte("null"))
	}
	if p.Form {
		o.raw("ask_values", jsonStrings(nonNil(p.Values)))
	} else {
		o.raw("ask_values", []byte("null"))
	}
	o.end()
	return o.b
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
