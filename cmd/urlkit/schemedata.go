package main

import (
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemedata"
)

// appendSchemeData appends the JSON of the URL's typed scheme view for
// parse's scheme_data (CLI.md): the view's parts (schemedata.Append),
// values decoded and absent parts null, or null when urlkit has no view
// for its scheme or the URL is not a valid view of it. The mode is the
// one the URL was parsed in: the lenient mode also reads the drafts' afs
// scheme and FTP type codes. Nothing here knows a scheme: a scheme's
// file in package scheme lists its parts. The parts are listed into
// *parts, a slice the caller keeps for the next URL.
func appendSchemeData(b []byte, parts *[]schemedata.Part, u *urlkit.URL, m urlkit.Mode) []byte {
	list, ok, _ := schemedata.Append((*parts)[:0], u, m)
	*parts = list
	if !ok {
		return append(b, "null"...)
	}
	return partsJSON(b, list)
}

// partsJSON appends the parts as a JSON object.
func partsJSON(b []byte, parts []schemedata.Part) []byte {
	o := jsonObject{b: b}
	o.begin()
	for i := range parts {
		o.key(parts[i].Name)
		o.b = valueJSON(o.b, &parts[i].Value)
	}
	o.end()
	return o.b
}

// valueJSON appends one value of a Part (see schemedata.Value).
func valueJSON(b []byte, v *schemedata.Value) []byte {
	switch v.Kind {
	case schemedata.KindString:
		return appendJSONString(b, v.Str)
	case schemedata.KindStrings:
		return appendJSONStrings(b, v.Strings)
	case schemedata.KindNumber: // a JSON number has no leading zeros
		if d := strings.TrimLeft(v.Str, "0"); d != "" {
			return append(b, d...)
		}
		return append(b, '0')
	case schemedata.KindArray:
		b = append(b, '[')
		for i := range v.Sub {
			if i > 0 {
				b = append(b, ',')
			}
			b = valueJSON(b, &v.Sub[i].Value)
		}
		return append(b, ']')
	case schemedata.KindObject:
		return partsJSON(b, v.Sub)
	}
	return append(b, "null"...)
}
