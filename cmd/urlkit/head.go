package main

// get -I (--head): what the server says about a resource, without its
// data: HTTP HEAD, FTP SIZE/MDTM/MLST, a Gopher+ item's attributes ("!").

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// headFlags declares -I and --head (--json, shared with the news
// listings, is declared with them).
func headFlags(fs *flag.FlagSet, head *bool) {
	fs.BoolVar(head, "I", false, "what the server says about the resource, not its data (HTTP HEAD, FTP SIZE/MDTM/MLST, Gopher+ attributes)")
	fs.BoolVar(head, "head", false, "the same as -I")
}

// headHelp is the part of get -h about -I.
const headHelp = `Head: -I (--head) prints what the server says about each resource
instead of its data, as "Name: value" lines (one JSON object per URL with
--json): HTTP the status and the header fields of a HEAD request; FTP the
size (SIZE, in TYPE I), the time (MDTM) and, when the server's FEAT lists
it, the facts of MLST, after the login and CWDs of the URL; Gopher the
item's Gopher+ attribute block ("!"), as the server sends it.`

// headURL is the URL -I fetches for u: for gopher, the item's Gopher+
// attributes (RFC 1738's gopher+_string "!"); else u.
func headURL(u urlkit.URL) (urlkit.URL, bool) {
	if u.SchemeName() != "gopher" || u.Path == "" || u.Fragment != "" {
		return u, false
	}
	if v, err := scheme.Parse(&u, urlkit.RFC1738); err != nil {
		return u, false
	} else if g, ok := v.(*scheme.Gopher); !ok || g.HasSearch {
		return u, false
	}
	// The selector, an empty search and the Gopher+ string "!", each
	// after its %09 (RFC 1738 3.4), on the path as written.
	v := u
	if err := v.SetRawPath(u.Path + "%09%09!"); err != nil {
		return u, false
	}
	return v, true
}

// writeHead writes the Fields of a Head response as lines or JSON.
func writeHead(w io.Writer, resp *fetch.Response, asJSON bool) error {
	if asJSON {
		type field struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		}
		obj := struct {
			URL    string  `json:"url"`
			Size   *int64  `json:"size,omitempty"`
			Time   string  `json:"time,omitempty"`
			Fields []field `json:"fields"`
		}{URL: resp.URL, Fields: []field{}}
		if resp.Size >= 0 {
			obj.Size = &resp.Size
		}
		if !resp.ModTime.IsZero() {
			obj.Time = resp.ModTime.UTC().Format("2006-01-02T15:04:05Z")
		}
		for _, f := range resp.Fields {
			obj.Fields = append(obj.Fields, field{f.Name, f.Value})
		}
		b, err := safetext.AppendJSONLine(nil, obj)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	for _, f := range resp.Fields {
		if _, err := fmt.Fprintf(w, "%s: %s\n", safetext.Visible(f.Name), safetext.Visible(f.Value)); err != nil {
			return err
		}
	}
	return nil
}

// head fetches what -I prints for u.
func (o *getOptions) head(ctx context.Context, f *fetch.Fetcher, u *urlkit.URL) (*fetch.Response, bool, error) {
	if v, ok := headURL(*u); ok {
		resp, err := f.Fetch(ctx, &v)
		return resp, true, err
	}
	resp, err := f.Head(ctx, u)
	return resp, false, err
}
