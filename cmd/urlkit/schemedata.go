package main

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// schemeData returns the JSON of the URL's typed scheme view for parse
// --json's scheme_data (CLI.md): the view's parts (scheme.View.Parts),
// values decoded and absent parts null, or null when urlkit has no view
// for its scheme or the URL is not a valid view of it. The mode is the
// one the URL was parsed in: the lenient mode also reads the drafts' afs
// scheme and FTP type codes. Nothing here knows a scheme: a scheme's
// file in package scheme lists its parts.
func schemeData(u *urlkit.URL, m urlkit.Mode) []byte {
	return appendSchemeData(nil, u, m)
}

// appendSchemeData appends schemeData(u, m) to b.
func appendSchemeData(b []byte, u *urlkit.URL, m urlkit.Mode) []byte {
	v, err := scheme.Parse(u, m)
	if err != nil || v == nil {
		return append(b, "null"...)
	}
	return partsJSON(b, v.Parts())
}

// partsJSON appends the parts as a JSON object.
func partsJSON(b []byte, parts []scheme.Part) []byte {
	o := jsonObject{b: b}
	o.begin()
	for _, p := range parts {
		o.key(p.Name)
		o.b = valueJSON(o.b, p.Value)
	}
	o.end()
	return o.b
}

// valueJSON appends one value of a Part (see scheme.Part).
func valueJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendJSONString(b, v)
	case []string:
		return appendJSONStrings(b, v)
	case scheme.Number: // a JSON number has no leading zeros
		if d := strings.TrimLeft(string(v), "0"); d != "" {
			return append(b, d...)
		}
		return append(b, '0')
	case [][]string:
		b = append(b, '[')
		for i, pair := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONStrings(b, pair)
		}
		return append(b, ']')
	case []scheme.WAISField:
		b = append(b, '[')
		for i, f := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(f.Number), 10)
			b = append(b, ',')
			b = appendJSONString(b, f.Value)
			b = append(b, ']')
		}
		return append(b, ']')
	case []scheme.Part:
		return partsJSON(b, v)
	}
	return append(b, "null"...)
}
