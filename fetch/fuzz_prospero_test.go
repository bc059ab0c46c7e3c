package fetch

import (
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/prospero"
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
				if _, err := scheme.ParseProspero(&u); err != nil {
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
		for i, e := range ProsperoEntries(r.Links) {
			if e.URL == "" {
				continue
			}
			u := check(e.URL, "link URL")
			v, err := scheme.ParseProspero(u)
			if err != nil {
				t.Fatalf("link URL %q: %v", e.URL, err)
			}
			if v.HSOName != r.Links[i].Hsoname && !v.HasVersion {
				t.Fatalf("link URL %q: hsoname %q, the server named %q", e.URL, v.HSOName, r.Links[i].Hsoname)
			}
		}
	})
}
