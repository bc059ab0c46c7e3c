package gopher

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/urlkit/urlkit/internal/gophertype"
)

// ItemType is the one-character type of a Gopher item, the first byte of
// a menu line (RFC 1436 section 3.8).
type ItemType byte

// Item types of RFC 1436, of Gopher+, and the common extensions.
const (
	TypeText      ItemType = '0' // text file
	TypeMenu      ItemType = '1' // menu (directory)
	TypeCSO       ItemType = '2' // CSO phone-book server
	TypeError     ItemType = '3' // error
	TypeBinHex    ItemType = '4' // BinHexed Macintosh file (7-bit text)
	TypeDOS       ItemType = '5' // DOS binary archive
	TypeUUEncoded ItemType = '6' // UNIX uuencoded file (7-bit text)
	TypeSearch    ItemType = '7' // index-search server: the request carries search words
	TypeTelnet    ItemType = '8' // telnet session; the selector is the login name
	TypeBinary    ItemType = '9' // binary file, read until the server closes
	TypeMirror    ItemType = '+' // redundant server for the previous item
	TypeTN3270    ItemType = 'T' // tn3270 session
	TypeGIF       ItemType = 'g' // GIF image
	TypeImage     ItemType = 'I' // image of another format

	TypeBitmap ItemType = ':' // Gopher+ bitmap image
	TypeMovie  ItemType = ';' // Gopher+ movie
	TypeAudio  ItemType = '<' // Gopher+ sound

	TypeInfo     ItemType = 'i' // informational line, not selectable (common extension)
	TypeHTML     ItemType = 'h' // HTML document; "URL:..." selectors link outside Gopher
	TypeSound    ItemType = 's' // sound file (common extension)
	TypeDocument ItemType = 'd' // word-processor or PDF document (common extension)
	TypeMIME     ItemType = 'M' // MIME multipart/mixed message
)

// String returns a short lowercase name ("text", "menu", "search", ...),
// or `type 'x'` for an unknown type. The names, like IsMenu and IsBinary,
// come from internal/gophertype, the one table of item types.
func (t ItemType) String() string {
	if it, ok := gophertype.Lookup(byte(t)); ok {
		return it.Name
	}
	return fmt.Sprintf("type %q", rune(t))
}

// IsMenu reports whether the item's response is a menu: types 1 and 7.
func (t ItemType) IsMenu() bool {
	it, _ := gophertype.Lookup(byte(t))
	return it.Menu
}

// IsBinary reports whether the item's response is binary data, read
// until the server closes the connection with no "." terminator
// (RFC 1436: types 5 and 9, and by extension images, sounds, movies and
// documents). Other types are text or menus.
func (t ItemType) IsBinary() bool {
	it, _ := gophertype.Lookup(byte(t))
	return it.Binary
}

// ErrMalformedItem is returned by ParseItem for a line that has no item
// type: an empty line, or one starting with TAB, CR or LF.
var ErrMalformedItem = errors.New("gopher: malformed menu line")

// Item is one line of a Gopher menu (RFC 1436 section 3.8):
//
//	Type Display TAB Selector TAB Host TAB Port [TAB Plus]
//
// All fields are kept as sent, undecoded: the selector is an opaque
// string to send back to Host:Port, so it round-trips exactly (Gophernicus
// encodes spaces in generated selectors as "#040"; that is its business).
type Item struct {
	Type     ItemType // what the selector leads to
	Display  string   // user-visible name
	Selector string   // opaque string identifying the item on its server
	Host     string   // server to ask for the item
	Port     string   // decimal in well-formed lines; kept as text for fidelity
	// Plus is everything after the fourth TAB: "+" marks a Gopher+
	// item, "?" a Gopher+ item with an ASK form; "" for plain Gopher.
	Plus string
}

// ParseItem parses a menu line. The line ending (CRLF, LF, or any run of
// CR and LF bytes) is removed first. The parser is tolerant, as Gopher
// clients have to be: missing fields are left empty (a line of
// "iJust text" is an info item with no selector, host or port), the port
// is not checked, and everything after the fourth TAB goes to Plus. It
// fails only for a line without an item type (ErrMalformedItem).
//
// For a line with four or five fields and no trailing CR/LF, String gives
// back the line exactly; for any item it returned, ParseItem(it.String())
// gives back it.
func ParseItem(line string) (Item, error) {
	line = strings.TrimRight(line, "\r\n")
	if line == "" || line[0] == '\t' {
		return Item{}, fmt.Errorf("%w: %q", ErrMalformedItem, clip(line))
	}
	it := Item{Type: ItemType(line[0])}
	rest := line[1:]
	fields := [...]*string{&it.Display, &it.Selector, &it.Host, &it.Port}
	for i, f := range fields {
		if i == len(fields)-1 {
			*f, it.Plus, _ = strings.Cut(rest, "\t")
			if it.Plus == "" {
				// Port ends the line as String writes it: the line-end
				// bytes before an empty fifth field go too (found by fuzzing).
				it.Port = strings.TrimRight(it.Port, "\r\n")
			}
			break
		}
		var ok bool
		*f, rest, ok = strings.Cut(rest, "\t")
		if !ok {
			break
		}
	}
	return it, nil
}

// String formats the item as a menu line without line ending: always the
// four RFC 1436 fields, and the fifth when Plus is set.
func (it Item) String() string {
	var b strings.Builder
	b.Grow(len(it.Display) + len(it.Selector) + len(it.Host) + len(it.Port) + len(it.Plus) + 5)
	b.WriteByte(byte(it.Type))
	b.WriteString(it.Display)
	b.WriteByte('\t')
	b.WriteString(it.Selector)
	b.WriteByte('\t')
	b.WriteString(it.Host)
	b.WriteByte('\t')
	b.WriteString(it.Port)
	if it.Plus != "" {
		b.WriteByte('\t')
		b.WriteString(it.Plus)
	}
	return b.String()
}

// Addr returns "Host:Port" (bracketing an IPv6 host), the address to
// pass to Client.Fetch for this item.
func (it Item) Addr() string { return net.JoinHostPort(it.Host, it.Port) }

// IsPlus reports whether the item is marked as a Gopher+ item ("+" or
// "?" in the fifth field).
func (it Item) IsPlus() bool { return it.Plus != "" && (it.Plus[0] == '+' || it.Plus[0] == '?') }

// clip shortens s for an error message.
func clip(s string) string {
	const max = 64
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
