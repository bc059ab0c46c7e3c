// Package schemedata holds the parts of a scheme view as a small JSON-like
// tree: what the command line's parse prints as scheme_data (CLI.md).
// Package scheme lists each view's parts (it imports this package and
// installs Append); the command line renders them. The listing is the
// command line's output format, not part of package scheme's API, so it
// lives here.
package schemedata

import "github.com/urlkit/urlkit"

// A Part is one named part of a view, in the order the listing shows it.
// Each view appends its own parts, so that no consumer switches on the
// view's type.
type Part struct {
	Name  string
	Value Value
}

// A Value is the value of a Part. It is a plain struct, not an interface,
// so that listing the parts of the common views (http, ftp, file,
// mailto, gopher without a Gopher+ request) into a reused slice allocates
// nothing: the strings are the view's own.
type Value struct {
	Kind Kind
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

// Kind says what a Value holds.
type Kind uint8

// The kinds of a Value. The zero Value is KindNull.
const (
	KindNull    Kind = iota // the part is absent: JSON null
	KindString              // Str: a JSON string
	KindNumber              // Str: the digits of a JSON number
	KindStrings             // Strings: a JSON array of strings
	KindArray               // Sub: a JSON array of the items' values
	KindObject              // Sub: a JSON object
)

// Append appends the parts of u's view to dst, read in the mode m as
// scheme.Parse reads it, and reports whether it listed a view: false
// when urlkit has no view for u's scheme, or with Parse's error when u is
// not a valid view of it (dst is then returned as it was). The common
// schemes (http, https, ftp, file, mailto, gopher) build their view on
// the stack, so that with a reused dst listing a URL of them allocates
// nothing beyond what decoding its parts needs.
//
// Package scheme installs it from its init (it imports this package, so
// this package cannot import it); it is nil in a program that does not
// link package scheme in.
var Append func(dst []Part, u *urlkit.URL, m urlkit.Mode) (parts []Part, ok bool, err error)
