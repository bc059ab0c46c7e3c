package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/listing"
	"github.com/urlkit/urlkit/scheme"
)

// waisHitsType is the ContentType of a WAIS hit list as text; with
// WAISOpener.JSON it is "application/json".
const waisHitsType = "text/x-wais-hits"

// WAISOpener opens wais: URLs for a Fetcher (its WAIS field; RFC 1738
// 3.9) over the WAIS protocol (client/wais), carrying out the plan "urlkit explain" prints: each
// Send step's bytes are a whole request message, sent as they are.
//
//   - wais://host:port/database?words: a search; the Body lists the hits,
//     each with its headline, score, lines, length, types and the wais
//     URL of the document in RFC 1738's form (the DocID's bytes
//     percent-encoded), which this opener retrieves in turn.
//   - wais://host:port/database/wtype/wpath: the document, retrieved in
//     chunks of 32 KiB. The wpath is RFC 1738's form
//     or Lynx's ("type=value;" per DocID field, after an optional length
//     segment; read in the lenient mode, which get falls back to).
//   - wais://host:port/database: with a way to ask (Request.Prompt) the
//     user is asked for search words; otherwise the Body is the
//     database's description, its source record.
//
// The zero value is ready to use.
type WAISOpener struct {
	// Dialer holds the client's settings (limits, chunk size); its
	// Trace is replaced by the Fetcher's and its ChunkSize by the plan's.
	Dialer wais.Dialer
	// JSON makes a hit list JSON objects (headline, score, lines, length,
	// types, url), one per line, instead of text.
	JSON bool
}

// open carries out the access plan of the URL (scheme.PlanURL).
func (o *WAISOpener) open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient})
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	v, err := viewOf[*scheme.WAIS](req.URL, urlkit.Lenient)
	if err != nil {
		return nil, err
	}
	var addr string
	var send *scheme.Step
	var next []byte   // the request of a document's second chunk, the template of the later ones
	var record []byte // the retrieval of a database's source record, its DocID the hit's
	for i, st := range plan.Steps {
		switch {
		case st.Kind == scheme.Connect:
			addr = st.Text
		case st.Kind == scheme.Send && st.Op == request.WAISNextChunk:
			next = []byte(st.Text)
		case st.Kind == scheme.Send && st.Op == request.WAISSourceRecord:
			record = []byte(st.Text)
		case st.Kind == scheme.Send && send == nil:
			send = &plan.Steps[i]
		}
	}
	if addr == "" || send == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the wais access plan sends no request"}
	}
	d := o.Dialer
	d.Trace = req.Trace
	d.Timeout = req.connectTimeout(d.Timeout)
	d.ChunkSize = request.WAISChunkSize
	msg := []byte(send.Text)
	if send.Op == request.WAISSource && req.Prompt != nil {
		// On a terminal: the search words are asked for, then the search
		// is the one the plan shows for database?WORDS.
		words, err := req.Prompt(ctx, Prompt{Text: fmt.Sprintf("Search WAIS database %q on %s for", v.Database, addr)})
		if err != nil {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrNeedInput, Err: err}
		}
		if msg, err = (&wais.SearchRequest{Database: v.Database, SeedWords: words}).Marshal(); err != nil {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrInvalidURL, Err: err}
		}
		send = &scheme.Step{Op: request.WAISSearch}
	}
	parsed, err := wais.ParseRequest(msg)
	if err != nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "the plan's WAIS request does not decode", Err: err}
	}
	c, err := d.Dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	switch send.Op {
	case request.WAISRetrieve:
		tr, ok := parsed.(*wais.TextRequest)
		if !ok {
			c.Close()
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "the plan's retrieval is no text request"}
		}
		length := int64(-1)
		if r, ok := send.Request.(*request.WAIS); ok {
			length = r.Length
		}
		rc, err := c.OpenRequest(ctx, msg, next, length) // the plan's bytes, for every chunk
		if err != nil {
			c.Close()
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "the plan's retrieval", Err: err}
		}
		resp := &Response{Size: length, ContentType: waisContentType(tr.Type), Body: &waisBody{rc: rc, c: c}}
		return resp, nil
	case request.WAISSource:
		defer c.Close()
		src, err := c.SourceRequest(ctx, msg, record, send.Arg) // the plan's search of INFO, then its retrieval of the hit
		if err != nil {
			return nil, err
		}
		return bodyOf("text/plain", []byte(src.Text)), nil
	}
	defer c.Close()
	sr, ok := parsed.(*wais.SearchRequest)
	if !ok {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "the plan's search is no search request"}
	}
	res, err := c.RoundTrip(ctx, msg)
	if err != nil {
		return nil, err
	}
	resp, ok := res.(*wais.SearchResponse)
	if !ok {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: fmt.Sprintf("the server answered a search with %T", res)}
	}
	if len(resp.Hits) == 0 && len(resp.Diagnostics) > 0 {
		return nil, &resp.Diagnostics[0]
	}
	return listingOf(waisHits(v, sr.Database, resp.Hits), listing.Header{Format: listing.WAIS, Server: addr, Of: sr.Database, Query: sr.SeedWords}, o.JSON || req.json, waisHitsType), nil
}

// waisHits turns the hits of a search of database on the server of v
// into entries with the URLs of their documents (RFC 1738's form: the
// database, the first type and the DocID's bytes percent-encoded).
func waisHits(v *scheme.WAIS, database string, hits []wais.Hit) []listing.Entry {
	out := make([]listing.Entry, 0, len(hits))
	for _, h := range hits {
		typ := "TEXT"
		if len(h.Types) > 0 && h.Types[0] != "" {
			typ = h.Types[0]
		}
		doc := scheme.WAIS{Host: v.Host, Port: v.Port, Database: database, HasDocument: true, WType: typ, WPath: string(h.DocID)}
		out = append(out, listing.Entry{Name: h.Headline, Kind: "file", URL: doc.URL().String(), Size: h.Length,
			WAIS: listing.WAISHit{Score: h.Score, Lines: h.Lines, Types: h.Types}})
	}
	return out
}

// listingOf is the Response of a listing held in memory: its entries,
// and its text (of the media type textType) or JSON as the Body.
func listingOf(es []listing.Entry, h listing.Header, asJSON bool, textType string) *Response {
	var b bytes.Buffer // the writers cannot fail in memory
	if asJSON {
		listing.WriteJSON(&b, listing.FromSlice(h, es))
		textType = "application/json"
	} else {
		listing.WriteText(&b, listing.FromSlice(h, es))
	}
	r := bodyOf(textType, b.Bytes())
	r.Listing, r.Entries = true, listing.FromSlice(h, es)
	return r
}

// waisContentType is the media type of a WAIS document type.
func waisContentType(t string) string {
	switch strings.ToUpper(t) {
	case "TEXT", "WSRC", "WCAT", "WHELP":
		return "text/plain"
	case "HTML":
		return "text/html"
	case "GIF":
		return "image/gif"
	}
	return "application/octet-stream"
}

// classify names the kind of the WAIS client's errors (see classifier).
func (o *WAISOpener) classify(err error) error {
	var d *wais.Diagnostic
	switch {
	case errors.As(err, &d):
		if d.Code == "S1" {
			return ErrNotFound // database not available
		}
		return ErrStatus
	case errors.Is(err, wais.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, wais.ErrShortDocument), errors.Is(err, wais.ErrTruncated):
		return ErrShortTransfer
	case errors.Is(err, wais.ErrMalformed):
		return ErrProtocol
	}
	return nil
}

// waisBody reads a document and closes the connection after it.
type waisBody struct {
	rc io.ReadCloser
	c  *wais.Conn
}

func (b *waisBody) Read(p []byte) (int, error) { return b.rc.Read(p) }

func (b *waisBody) Close() error {
	b.rc.Close()
	return b.c.Close()
}

// bodyOf is a Response whose Body is data in memory.
func bodyOf(contentType string, data []byte) *Response {
	return &Response{Body: io.NopCloser(bytes.NewReader(data)), Size: int64(len(data)), ContentType: contentType}
}
