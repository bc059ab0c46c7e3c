// Package gophertype is the one table of Gopher item types (RFC 1436
// section 3.8, Gopher+, and the common extensions). The Gopher client
// (client/gopher) names and reads items with it, and package scheme's
// gopher view and plan describe a URL's type with it; it is a leaf, so
// neither has to know the other.
package gophertype

// Type describes one item type.
type Type struct {
	Char    byte
	Name    string // short lower-case name ("text", "menu")
	Meaning string // what the item is, for people ("a text file")
	Menu    bool   // the response is a menu (types 1 and 7)
	Binary  bool   // the response is binary data read until the server closes
	Session bool   // an interactive session, not a document (8, T)
}

// table lists the types; RFC 1436 section 3.8 for 0-9, +, T, g, I.
var table = [...]Type{
	{Char: '0', Name: "text", Meaning: "a text file"},
	{Char: '1', Name: "menu", Meaning: "a directory (menu)", Menu: true},
	{Char: '2', Name: "cso", Meaning: "a CSO phone-book server"},
	{Char: '3', Name: "error", Meaning: "an error"},
	{Char: '4', Name: "binhex", Meaning: "a BinHexed Macintosh file"},
	{Char: '5', Name: "dos", Meaning: "a DOS binary archive", Binary: true},
	{Char: '6', Name: "uuencoded", Meaning: "a uuencoded file"},
	{Char: '7', Name: "search", Meaning: "an index-search server", Menu: true},
	{Char: '8', Name: "telnet", Meaning: "a telnet session", Session: true},
	{Char: '9', Name: "binary", Meaning: "a binary file", Binary: true},
	{Char: '+', Name: "mirror", Meaning: "a redundant server"},
	{Char: 'T', Name: "tn3270", Meaning: "a tn3270 session", Session: true},
	{Char: 'g', Name: "gif", Meaning: "a GIF image", Binary: true},
	{Char: 'I', Name: "image", Meaning: "an image", Binary: true},
	{Char: ':', Name: "bitmap", Meaning: "a Gopher+ bitmap image", Binary: true},
	{Char: ';', Name: "movie", Meaning: "a Gopher+ movie", Binary: true},
	{Char: '<', Name: "audio", Meaning: "a Gopher+ sound", Binary: true},
	{Char: 'i', Name: "info", Meaning: "an informational line"},
	{Char: 'h', Name: "html", Meaning: "an HTML page"},
	{Char: 's', Name: "sound", Meaning: "a sound", Binary: true},
	{Char: 'd', Name: "document", Meaning: "a word-processor or PDF document", Binary: true},
	{Char: 'M', Name: "mime", Meaning: "a MIME multipart/mixed message"},
}

// Lookup returns the description of the item type c.
func Lookup(c byte) (Type, bool) {
	for _, t := range table {
		if t.Char == c {
			return t, true
		}
	}
	return Type{Char: c}, false
}
