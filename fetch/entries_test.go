package fetch

import (
	"context"
	"strings"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
	"github.com/urlkit/urlkit/listing"
)

// Response.Entries against the real servers: a caller gets each
// listing's entries as values, with their URLs, without parsing the text
// of the Body (issue 37: listings rendered in one place; the gateway
// renders these as HTML).
func TestResponseEntries(t *testing.T) {
	env := wt.ServerEnv(t, "FTP_PORT", "GOPHER_PORT", "NNTP_PORT", "WAIS_PORT", "PROSPERO_PORT")
	f := &Fetcher{}
	f.NNTP.Server = "127.0.0.1:" + env["NNTP_PORT"]
	ctx := context.Background()
	entries := func(t *testing.T, list bool, raw string) (listing.Header, []listing.Entry) {
		t.Helper()
		u := mustParse(t, raw)
		var resp *Response
		var err error
		if list {
			resp, err = f.List(ctx, u)
		} else {
			resp, err = f.Fetch(ctx, u)
		}
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		defer resp.Body.Close()
		if resp.Entries == nil || !resp.Listing {
			t.Fatalf("%s: no entries (listing %v)", raw, resp.Listing)
		}
		var es []listing.Entry
		for resp.Entries.Next() {
			es = append(es, *resp.Entries.Entry())
		}
		if err := resp.Entries.Err(); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return resp.Entries.Header, es
	}
	find := func(t *testing.T, es []listing.Entry, name string) listing.Entry {
		t.Helper()
		for _, e := range es {
			if e.Name == name {
				return e
			}
		}
		t.Fatalf("no entry %q in %+v", name, es)
		return listing.Entry{}
	}

	t.Run("ftp", func(t *testing.T) {
		h, es := entries(t, true, "ftp://127.0.0.1:"+env["FTP_PORT"]+"/pub/")
		if e := find(t, es, "64k.bin"); h.Format != listing.FTP || e.Kind != "file" || e.Size != 65536 || e.Time.IsZero() ||
			e.URL != "ftp://127.0.0.1:"+env["FTP_PORT"]+"/pub/64k.bin" {
			t.Errorf("64k.bin: %+v", e)
		}
		if e := find(t, es, "sub dir"); e.Kind != "dir" || e.URL != "ftp://127.0.0.1:"+env["FTP_PORT"]+"/pub/sub%20dir/" {
			t.Errorf("sub dir: %+v", e)
		}
	})
	t.Run("gopher", func(t *testing.T) {
		h, es := entries(t, false, "gopher://127.0.0.1:"+env["GOPHER_PORT"]+"/")
		if e := find(t, es, "hello"); h.Format != listing.Gopher || e.Gopher.Type != '0' || e.Gopher.Selector != "/hello.txt" ||
			e.URL != "gopher://127.0.0.1:"+env["GOPHER_PORT"]+"/0/hello.txt" {
			t.Errorf("hello: %+v", e)
		}
		if e := find(t, es, "docs"); e.Kind != "dir" {
			t.Errorf("docs: %+v", e)
		}
	})
	t.Run("news", func(t *testing.T) {
		h, es := entries(t, false, "nntp://127.0.0.1:"+env["NNTP_PORT"]+"/local.general")
		e := find(t, es, "General article")
		if h.Format != listing.Articles || h.Of != "local.general" || e.Article.MessageID != "<general@test.invalid>" ||
			!strings.Contains(e.Article.From, "poster@test.invalid") || e.Time.IsZero() || e.URL != "news:general@test.invalid" {
			t.Errorf("article: %+v", e)
		}
		h, es = entries(t, false, "news:*")
		if e := find(t, es, "local.mod"); h.Format != listing.Groups || e.Group.Status != "m" || e.URL != "news:local.mod" {
			t.Errorf("group: %+v", e)
		}
	})
	t.Run("wais", func(t *testing.T) {
		h, es := entries(t, false, "wais://127.0.0.1:"+env["WAIS_PORT"]+"/test?gopher")
		if h.Format != listing.WAIS || h.Of != "test" || h.Query != "gopher" || h.Count != len(es) || len(es) != 2 {
			t.Fatalf("%+v: %d hits", h, len(es))
		}
		if e := es[0]; e.Name != "Alpha document about gophers" || e.Size != 137 || e.WAIS.Lines != 3 ||
			!strings.HasPrefix(e.URL, "wais://127.0.0.1:"+env["WAIS_PORT"]+"/test/TEXT/%") {
			t.Errorf("hit: %+v", e)
		}
	})
	t.Run("prospero", func(t *testing.T) {
		h, es := entries(t, false, "prospero://127.0.0.1:"+env["PROSPERO_PORT"]+"/AFTP/pub")
		e := find(t, es, "hello.txt")
		if h.Format != listing.Prospero || h.Count != 5 || e.Kind != "file" || e.Size != 15 || e.Prospero.Size != "15 bytes" ||
			e.Time.IsZero() || e.Prospero.HSOName != "AFTP/pub/hello.txt" || !strings.HasPrefix(e.URL, "prospero://127.0.0.1") {
			t.Errorf("%+v: %+v", h, e)
		}
	})
}
