package scheme

// A Part is one named part of a view, in the order a machine-readable
// listing shows it (the command line's scheme_data, CLI.md). Each view
// appends its own parts with its AppendParts method, so that no consumer
// switches on the view's type.
type Part struct {
	Name  string
	Value Value
}

// A Value is the value of a Part, a small JSON-like tree. It is a plain
// struct, not an interface, so that listing the parts of the common
// views (http, ftp, file, mailto, gopher without a Gopher+ request)
// into a reused slice allocates nothing: the strings are the view's own.
type Value struct {
	Kind ValueKind
	// Str is the string of a KindString, or the decimal digits of a
	// KindNumber as written (leading zeros are dropped when it is shown).
	Str string
	// Strings are the strings of a KindStrings (never nil for it: an
	// empty list is not an absent one).
	Strings []string
	// Sub holds the members of a KindObject, or the items of a KindArray
	// (their names empty).
	Sub []Part
}

// ValueKind says what a Value holds.
type ValueKind uint8

// The kinds of a Value. The zero Value is KindNull.
const (
	KindNull    ValueKind = iota // the part is absent: JSON null
	KindString                   // Str: a JSON string
	KindNumber                   // Str: the digits of a JSON number
	KindStrings                  // Strings: a JSON array of strings
	KindArray                    // Sub: a JSON array of the items' values
	KindObject                   // Sub: a JSON object
)

// str is a string Value.
func str(s string) Value { return Value{Kind: KindString, Str: s} }

// opt is a string Value, or null when the part is absent.
func opt(s string, ok bool) Value {
	if !ok {
		return Value{}
	}
	return str(s)
}

// strs is a list of strings, never null (an empty list, not an absent
// one).
func strs(l []string) Value {
	if l == nil {
		l = []string{} // a zero-size allocation: none
	}
	return Value{Kind: KindStrings, Strings: l}
}
