package listing_test

import (
	"os"
	"time"

	"github.com/urlkit/urlkit/listing"
)

// A listing's entries, as fetch gives them (Response.Entries), written
// in the text and the JSON form urlkit prints.
func Example() {
	entries := []listing.Entry{
		{Name: "README", Kind: "file", Size: 1024, Time: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC), URL: "ftp://ftp.example.org/pub/README"},
		{Name: "incoming", Kind: "dir", Size: -1, URL: "ftp://ftp.example.org/pub/incoming/"},
	}
	h := listing.Header{Format: listing.FTP}
	listing.WriteText(os.Stdout, listing.FromSlice(h, entries))
	listing.WriteJSON(os.Stdout, listing.FromSlice(h, entries))

	l := listing.FromSlice(h, entries)
	for l.Next() {
		e := l.Entry()
		os.Stdout.WriteString(e.Kind + " " + e.URL + "\n")
	}
	// Output:
	// file          1024 2024-05-01T12:00:00Z README
	// dir              - -                    incoming
	// {"name":"README","type":"file","size":1024,"time":"2024-05-01T12:00:00Z"}
	// {"name":"incoming","type":"dir"}
	// file ftp://ftp.example.org/pub/README
	// dir ftp://ftp.example.org/pub/incoming/
}
