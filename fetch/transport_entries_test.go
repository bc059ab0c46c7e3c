package fetch

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/urlkit/urlkit/listing"
)

// A JSON listing's Body gives its entries as values too (Entries), the
// same ones its lines are written from; a listing asked for as text, and
// an object that is no listing, have no such method.
func TestTransportListingEntries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := "file://" + filepath.ToSlash(dir)
	tr := &Transport{}
	get := func(rawURL string, accept string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := tr.RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v, %v", rawURL, resp, err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	type lister interface{ Entries() *listing.List }

	resp := get(base+"/", "application/x-ndjson")
	lb, ok := resp.Body.(lister)
	if !ok {
		t.Fatalf("a JSON listing's Body (%T) has no Entries", resp.Body)
	}
	l := lb.Entries()
	var got []listing.Entry
	for l.Next() {
		got = append(got, *l.Entry())
	}
	if err := l.Err(); err != nil || l.Header.Format != listing.FTP || len(got) != 2 ||
		got[0].Name != "a.txt" || got[0].Kind != "file" || got[0].Size != 5 || got[0].Time.IsZero() ||
		got[1].Name != "sub" || got[1].Kind != "dir" {
		t.Fatalf("entries %+v (format %d), %v", got, l.Header.Format, l.Err())
	}
	// The lines of another request are those entries written as JSON.
	var want bytes.Buffer
	if err := listing.WriteJSON(&want, listing.FromSlice(l.Header, got)); err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(get(base+"/", "application/x-ndjson").Body); err != nil || !bytes.Equal(b, want.Bytes()) {
		t.Errorf("the Body's lines:\n%s(%v)\nwant\n%s", b, err, want.Bytes())
	}

	for _, u := range []string{base + "/", base + "/a.txt"} {
		if _, ok := get(u, "").Body.(lister); ok {
			t.Errorf("%s asked as text: the Body has Entries", u)
		}
	}
	if _, ok := get(base+"/a.txt", "application/x-ndjson").Body.(lister); ok {
		t.Errorf("a file asked with JSON accepted: the Body has Entries")
	}
}
