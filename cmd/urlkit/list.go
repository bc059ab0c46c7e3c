package main

// get --list: an FTP directory's listing parsed into entries (name,
// type, size, time), from MLSD, LIST (Unix or DOS) or NLST, written by
// package listing as text columns or JSON lines.

import (
	"io"

	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/listing"
)

// listHelp is the part of get -h about --list.
const listHelp = `Listings: --list lists an FTP directory (the URL's last segment, with or
without a trailing /) with the facts of each entry: MLSD when the server's
FEAT lists MLST, else LIST (the Unix ls -l and DOS formats are read), else
NLST (names only). Each entry is a line "TYPE SIZE TIME NAME" (- for what
the server did not say), or with --json an object {"name", "type", "size",
"time"}. Without --list a URL ending in / lists names with NLST, as RFC
1738 says.`

// writeList writes the entries of the listing resp holds (fetch parses
// it and warns of the lines it could not read, in resp.Warnings).
func writeList(w io.Writer, resp *fetch.Response, asJSON bool) error {
	if asJSON {
		return listing.WriteJSON(w, resp.Entries)
	}
	return listing.WriteText(w, resp.Entries)
}
