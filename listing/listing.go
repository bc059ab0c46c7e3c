// Package listing holds the entries of a resource that lists others (an
// FTP directory, a Gopher menu, a news group's articles, a news server's
// groups, the hits of a WAIS search, a Prospero directory) as structured
// values, and writes them in the two forms urlkit prints: text for people
// (WriteText) and JSON lines for programs (WriteJSON). Package fetch
// builds the entries from what its clients parsed (Response.Entries);
// the command line and the gateway only write them.
//
// An Entry holds what the server sent, unchanged: a name may hold any
// byte. The text writer shows each field made safe for a terminal
// (control bytes escaped); the JSON writer writes the strings JSON
// escapes, inert for a terminal too. A writer of another form (HTML)
// escapes for its own context.
package listing

import "time"

// Format names the source of a listing, which decides the columns of its
// text and the names of its JSON fields.
type Format int

// The formats, one per kind of listing urlkit reads.
const (
	// FTP is an FTP directory listing (MLSD, LIST or NLST lines parsed).
	FTP Format = iota + 1
	// Gopher is a Gopher menu (RFC 1436 3.1).
	Gopher
	// Articles is a news group's overview: one entry per article.
	Articles
	// Groups is a news server's groups (LIST ACTIVE).
	Groups
	// WAIS is the hit list of a WAIS search.
	WAIS
	// Prospero is a Prospero directory's links.
	Prospero
)

// Header says what a listing is of. The text forms of WAIS and Prospero
// listings begin with a line made of it.
type Header struct {
	Format Format
	// Server is the server's host:port, as the access plan connects.
	Server string
	// Of is what is listed: the WAIS database searched, the Prospero
	// directory (its hsoname), the news group.
	Of string
	// Query is the search of a WAIS listing (its seed words).
	Query string
	// Count is the number of entries when known before they are read,
	// else -1.
	Count int
}

// Entry is one entry of a listing. Name, Kind, URL, Size and Time are
// common to every format; the fields of the entry's Format alone are set
// among the rest.
type Entry struct {
	// Name is what the entry is called: an FTP file's name, a Gopher
	// item's display string, an article's subject, a group's name, a
	// WAIS hit's headline, a Prospero link's name.
	Name string
	// Kind is "file", "dir", "link" or "other", or "" when the server did
	// not say (FTP's NLST, an unknown LIST line type).
	Kind string
	// URL is the entry's URL as urlkit writes it, "" when none names it.
	URL string
	// Size is the entry's length in bytes, -1 when not known.
	Size int64
	// Time is the entry's modification (or posting) time, zero when not
	// known.
	Time time.Time

	Gopher   GopherItem   // Format Gopher
	Article  Article      // Format Articles
	Group    Group        // Format Groups
	WAIS     WAISHit      // Format WAIS
	Prospero ProsperoLink // Format Prospero
}

// Modified returns when the entry last changed, as the listing's forms
// write it: RFC 3339 in UTC, or, for a Prospero link whose time does
// not read as one, the text the server sent; "" when unknown.
func (e *Entry) Modified() string {
	if !e.Time.IsZero() {
		return e.Time.UTC().Format(time.RFC3339)
	}
	return e.Prospero.Modified
}

// GopherItem is what a Gopher menu line says besides its display string
// (RFC 1436 3.8).
type GopherItem struct {
	// Type is the item type character ('0' text, '1' menu, 'i'
	// information...).
	Type byte
	// Selector, Host and Port are where the item is.
	Selector, Host, Port string
}

// Article is a news article of a group's overview (RFC 3977 8.3); its
// subject is the Entry's Name.
type Article struct {
	// Number is the article's number in the group.
	Number int64
	// From, Date, MessageID and References are the overview's fields, as
	// the server sent them (Date is also the Entry's Time when it reads
	// as an RFC 5322 date).
	From, Date, MessageID, References string
}

// Group is a news group of a LIST ACTIVE answer (RFC 3977 7.6.3); its
// name is the Entry's Name.
type Group struct {
	// High and Low are the group's highest and lowest article numbers.
	High, Low int64
	// Status is "y" (posting allowed), "n", "m" (moderated) or another
	// letter the server gave.
	Status string
}

// WAISHit is a hit of a WAIS search; its headline is the Entry's Name
// and its length (-1 when the server did not say) the Entry's Size.
type WAISHit struct {
	// Score is the server's rank of the document.
	Score int64
	// Lines is the document's length in lines, -1 when the server did
	// not say.
	Lines int64
	// Types are the document's types ("TEXT", ...).
	Types []string
}

// ProsperoLink is a link of a Prospero directory: its target and the
// attributes as the server sent them.
type ProsperoLink struct {
	// Target is the link's target type: "FILE", "DIRECTORY", ...
	Target string
	// Host and HSOName are where the target is.
	Host, HSOName string
	// Size is the SIZE attribute ("15 bytes"), "" when absent.
	Size string
	// Modified is the LAST-MODIFIED attribute as sent
	// ("20240102030405Z"), "" when absent; the Entry's Time when it reads.
	Modified string
}

// List reads a listing's entries one at a time, in the manner of
// bufio.Scanner: call Next, then Entry, until Next returns false, then
// Err. A List is read once.
type List struct {
	// Header says what the listing is of.
	Header Header

	next func(*Entry) (bool, error)
	e    Entry
	err  error
	done bool
}

// New returns the List of header whose entries next gives: next fills
// its argument and reports true for each entry, then false at the end,
// with the error that ended the listing early, if any.
func New(header Header, next func(*Entry) (bool, error)) *List {
	return &List{Header: header, next: next}
}

// FromSlice returns the List of the entries es.
func FromSlice(header Header, es []Entry) *List {
	header.Count = len(es)
	i := 0
	return New(header, func(e *Entry) (bool, error) {
		if i == len(es) {
			return false, nil
		}
		*e = es[i]
		i++
		return true, nil
	})
}

// Next reads the next entry, reporting false at the end of the listing
// or at an error (Err).
func (l *List) Next() bool {
	if l.done {
		return false
	}
	l.e = Entry{Size: -1}
	ok, err := l.next(&l.e)
	if !ok || err != nil {
		l.done, l.err = true, err
		return false
	}
	return true
}

// Entry returns the entry Next read. It is valid until the next call of
// Next.
func (l *List) Entry() *Entry { return &l.e }

// Err returns the error that ended the listing early, nil at its end.
func (l *List) Err() error { return l.err }
