package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/listing"
)

// entriesBody is the Body of a JSON listing as fetch.Transport gives it:
// its lines, and its entries as values (Entries).
type entriesBody struct {
	*strings.Reader
	l *listing.List
}

func (b entriesBody) Close() error           { return nil }
func (b entriesBody) Entries() *listing.List { return b.l }

// entriesTransport answers every request with a listing of the entries
// es: a fake, for entries with fields no real server would send.
type entriesTransport struct {
	h  listing.Header
	es []listing.Entry
}

func (e entriesTransport) RoundTrip(*http.Request) (*http.Response, error) {
	resp := answer(200, "application/x-ndjson", nil)
	resp.Body = entriesBody{strings.NewReader("{}\n"), listing.FromSlice(e.h, e.es)}
	return resp, nil
}

// listingKinds are the listings FuzzListing renders, each with a URL of
// a scheme that gives it.
var listingKinds = []struct {
	f    listing.Format
	path string
}{
	{listing.FTP, "/ftp://h.example/pub/"},
	{listing.Groups, "/news:*"},
	{listing.Articles, "/news:local.test"},
	{listing.Articles, "/nntp://h.example/local.test"},
	{listing.WAIS, "/wais://h.example/db?q"},
	{listing.Prospero, "/prospero://h.example/AFTP/pub"},
}

// FuzzListing renders entries whose every field holds server bytes, in
// each listing's page, and checks the page rules (checkHTML) and that
// the entry has its row in the page's table.
func FuzzListing(f *testing.F) {
	f.Add(uint8(0), "<script>x</script>", "javascript:alert(1)", "\x1b[2J\u202e", int64(3))
	f.Add(uint8(1), `a"<b>`, "//evil.example/", "y", int64(-1))
	f.Add(uint8(3), "<img src=x onerror=1>", "<a\"@b>", "\xff\x00", int64(1<<40))
	f.Add(uint8(4), "<i>", "data:text/html,<script>1</script>", "TEXT", int64(0))
	f.Fuzz(func(t *testing.T, kind uint8, s1, s2, s3 string, n int64) {
		k := listingKinds[int(kind)%len(listingKinds)]
		e := listing.Entry{Name: s1 + "x", Kind: s3, URL: s2, Size: n, Time: time.Unix(n%(1<<33), 0),
			Article:  listing.Article{Number: n, From: s2, Date: s3, MessageID: s2},
			Group:    listing.Group{High: n, Low: n - 1, Status: s3},
			WAIS:     listing.WAISHit{Score: n, Lines: n, Types: []string{s2, s3}},
			Prospero: listing.ProsperoLink{Target: s3, Host: s2, HSOName: s1, Size: s3, Modified: s2},
		}
		wf := newWebForm(webConfig{Transport: entriesTransport{listing.Header{Format: k.f}, []listing.Entry{e}}, AllowPost: true})
		req := httptest.NewRequest(http.MethodGet, "http://gw.example/", nil)
		req.RequestURI = k.path
		rec := httptest.NewRecorder()
		wf.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("%s: %d %s", k.path, rec.Code, rec.Header().Get("Content-Type"))
		}
		page := rec.Body.Bytes()
		checkHTML(t, page)
		if !strings.Contains(string(page), `<table id="listing">`) || strings.Count(string(page), "<tr>") < 2 {
			t.Fatalf("%s: no row for the entry in the page:\n%s", k.path, page)
		}
	})
}
