package scheme

import "github.com/urlkit/urlkit/internal/schemedata"

// part and value are the listing's types (internal/schemedata: the
// command line's scheme_data), which each view's appendParts builds.
type (
	part  = schemedata.Part
	value = schemedata.Value
)

func init() { schemedata.Append = appendParts }

// str is a string value.
func str(s string) value { return value{Kind: schemedata.KindString, Str: s} }

// opt is a string value, or null when the part is absent.
func opt(s string, ok bool) value {
	if !ok {
		return value{}
	}
	return str(s)
}

// strs is a list of strings, never null (an empty list, not an absent
// one).
func strs(l []string) value {
	if l == nil {
		l = []string{} // a zero-size allocation: none
	}
	return value{Kind: schemedata.KindStrings, Strings: l}
}

// kv is the part name with the value v.
func kv(name string, v value) part { return part{Name: name, Value: v} }
