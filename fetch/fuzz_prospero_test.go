package fetch

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/prospero"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

// FuzzProsperoReplyURLs: the URLs the prospero opener makes of what a
// server sends (a FORWARDED reply, an AFTP access method, the links of a
// listing) never panic, always parse, and a prospero URL reads back as
// the host and hsoname the server named.
func FuzzProsperoReplyURLs(f *testing.F) {
	for _, s := range []string{
		"FORWARDED INTERNET-D 127.0.0.1(1525) ASCII 'AFTP/pub/it''s' 0\n",
		"FORWARDED INTERNET-D h ASCII 'a\rb' 3\n",
		"ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/a b' BINARY\n",
		"LINK L FILE 'x y' INTERNET-D 127.0.0.1(1525) ASCII 'AFTP/x y' 0\nATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE 7 bytes\nATTRIBUTE OBJECT INTRINSIC LAST-MODIFIED SEQUENCE 20261123185258Z\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		r, err := prospero.ParseReply(msg)
		if err != nil {
			return
		}
		check := func(raw, what string) *urlkit.URL {
			u, err := urlkit.Parse(raw)
			if err != nil {
				t.Fatalf("%s %q does not parse: %v", what, raw, err)
			}
			return &u
		}
		if to := forwarded(r); to != "" {
			// followForward refuses one that does not parse (ErrProtocol);
			// one that does is a prospero view.
			if u, err := urlkit.Parse(to); err == nil {
				if _, err := viewOf[*scheme.Prospero](&u, urlkit.RFC1738); err != nil {
					t.Fatalf("FORWARDED URL %q: %v", to, err)
				}
			}
		}
		if to := ftpTarget(r.Attributes); to != "" {
			check(to, "AFTP URL")
		}
		for _, l := range r.Links {
			to := ftpTarget(l.Attributes)
			if to != "" {
				check(to, "AFTP URL")
			}
		}
		for i, e := range prosperoEntries(r.Links) {
			if e.URL == "" {
				continue
			}
			u := check(e.URL, "link URL")
			v, err := viewOf[*scheme.Prospero](u, urlkit.RFC1738)
			if err != nil {
				t.Fatalf("link URL %q: %v", e.URL, err)
			}
			if v.HSOName != r.Links[i].Hsoname || v.HasVersion {
				t.Fatalf("link URL %q: hsoname %q, the server named %q", e.URL, v.HSOName, r.Links[i].Hsoname)
			}
		}
	})
}

// FuzzPlanEncoders: the plans of wais and prospero URLs, encoded by the
// clients' encoders, never panic; every WAIS request decodes back to the
// request the plan describes (database, seed words or DocID, type,
// range), every Prospero request quotes the hsoname and ends in LF.
func FuzzPlanEncoders(f *testing.F) {
	for _, s := range []string{
		"wais://h/db?a%20b", "wais://h/db", "wais://h/db/TEXT/%01%02ab",
		"wais://h/db/TEXT/137/1=a%3Ab;7=%00;", "prospero://h/AFTP/it's;version=3",
		"prospero://h/a%0Db", "prospero://h/x%002",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, _, err := urlkit.ParseMode(s, urlkit.Lenient)
		if err != nil || (u.SchemeName() != "wais" && u.SchemeName() != "prospero") {
			return
		}
		plan, err := scheme.PlanURL(&u, scheme.PlanOptions{Mode: urlkit.Lenient})
		if err != nil || len(plan.Refused) > 0 {
			return
		}
		for _, st := range plan.Sends() {
			if st.Text == "" {
				t.Fatalf("%q: a %s step was not encoded", s, st.Op)
			}
			switch r := st.Request.(type) {
			case *request.WAIS:
				got, err := wais.ParseRequest([]byte(st.Text))
				if err != nil {
					t.Fatalf("%q: %s request does not decode: %v", s, st.Op, err)
				}
				switch g := got.(type) {
				case *wais.SearchRequest:
					if g.Database != r.Database || g.SeedWords != r.SeedWords {
						t.Fatalf("%q: search %+v, planned %+v", s, g, r)
					}
				case *wais.TextRequest:
					if g.Database != r.Database || g.Type != r.Type || g.Start != r.Start || g.End != r.End || (r.DocIDFields == nil && string(g.DocID) != string(r.DocID)) {
						t.Fatalf("%q: retrieval %+v, planned %+v", s, g, r)
					}
				default:
					t.Fatalf("%q: %T", s, got)
				}
			case *request.Prospero:
				if !strings.Contains(st.Text, prospero.Quote(r.HSOName)) || !strings.HasSuffix(st.Text, "\n") {
					t.Fatalf("%q: %q", s, st.Text)
				}
			default:
				t.Fatalf("%q: a send step holds %T", s, st.Request)
			}
		}
	})
}
