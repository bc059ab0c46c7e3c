package main

// get --list: an FTP directory's listing parsed into entries (name,
// type, size, time), from MLSD, LIST (Unix or DOS) or NLST, as text
// columns or JSON lines.

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/urlkit/urlkit/client/ftp"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
)

// listHelp is the part of get -h about --list.
const listHelp = `Listings: --list lists an FTP directory (the URL's last segment, with or
without a trailing /) with the facts of each entry: MLSD when the server's
FEAT lists MLST, else LIST (the Unix ls -l and DOS formats are read), else
NLST (names only). Each entry is a line "TYPE SIZE TIME NAME" (- for what
the server did not say), or with --json an object {"name", "type", "size",
"time"}. Without --list a URL ending in / lists names with NLST, as RFC
1738 says.`

// maxListWarnings bounds the lines of a listing that writeList names one
// by one: a server may send any number, each up to the scanner's limit.
const maxListWarnings = 10

// writeList parses the listing in resp.Body and writes its entries. A
// LIST line no parser reads is skipped, and reported on warn, clipped,
// for the first maxListWarnings of them; one more warning counts the
// rest.
func writeList(w io.Writer, resp *fetch.Response, asJSON bool, warn func(string)) error {
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	now := time.Now().UTC()
	notRead := 0
	defer func() {
		if n := notRead - maxListWarnings; n > 0 {
			warn(fmt.Sprintf("%d more %s lines not read", n, resp.ListFormat))
		}
	}()
	for sc.Scan() {
		line := sc.Text()
		e, skip, err := ftp.ParseEntry(resp.ListFormat, line, now)
		if err != nil && !skip {
			if notRead < maxListWarnings {
				warn(fmt.Sprintf("%s line not read: %s", resp.ListFormat, clip(line)))
			}
			notRead++
		}
		if err != nil || skip {
			continue
		}
		if err := writeEntry(w, e, asJSON); err != nil {
			return err
		}
	}
	return sc.Err()
}

func writeEntry(w io.Writer, e ftp.Entry, asJSON bool) error {
	if asJSON {
		obj := struct {
			Name string  `json:"name"`
			Type string  `json:"type,omitempty"`
			Size *int64  `json:"size,omitempty"`
			Time *string `json:"time,omitempty"`
		}{Name: e.Name, Type: e.Type}
		if e.Size >= 0 {
			obj.Size = &e.Size
		}
		if !e.Time.IsZero() {
			t := e.Time.UTC().Format("2006-01-02T15:04:05Z")
			obj.Time = &t
		}
		b, err := safetext.AppendJSONLine(nil, obj)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	typ, size, t := e.Type, "-", "-"
	if typ == "" {
		typ = "-"
	}
	if e.Size >= 0 {
		size = fmt.Sprint(e.Size)
	}
	if !e.Time.IsZero() {
		t = e.Time.UTC().Format("2006-01-02T15:04:05Z")
	}
	_, err := fmt.Fprintf(w, "%-5s %12s %-20s %s\n", typ, size, t, safetext.Visible(e.Name))
	return err
}
