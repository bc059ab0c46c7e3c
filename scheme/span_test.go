package scheme

import (
	"testing"

	"github.com/urlkit/urlkit"
)

// TestSpans: each view's spans name the text of its parts in the URL,
// the offsets its concerns and plans report (issue 10: split once, with
// offsets).
func TestSpans(t *testing.T) {
	text := func(u *urlkit.URL, sp Span) string { return u.String()[sp.At:sp.End] }
	for _, tc := range []struct {
		in   string
		mode urlkit.Mode
		got  func(View, *urlkit.URL) []string
		want []string
	}{
		{"ftp://us%3Aer:p%40ss@h.example:2121/a%2Fb//c/n%20x;type=i", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			f := v.(*FTP)
			return []string{text(u, f.at.User), text(u, f.at.Password), text(u, f.at.Host), text(u, f.at.Port),
				text(u, f.at.CWD[0]), text(u, f.at.CWD[1]), text(u, f.at.CWD[2]), text(u, f.at.Name), text(u, f.at.Type)}
		}, []string{"us%3Aer", "p%40ss", "h.example", "2121", "a%2Fb", "", "c", "n%20x", "i"}},
		{"gopher://h:7070/0a_gopher_selector%09the%20words%09!+ABSTRACT#f", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			g := v.(*Gopher)
			return []string{text(u, g.at.Type), text(u, g.at.Selector), text(u, g.at.Search), text(u, g.at.Plus), text(u, g.at.Port)}
		}, []string{"0", "a_gopher_selector", "the%20words", "!+ABSTRACT", "7070"}},
		{"http://h/a%20b?q=1#x", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			h := v.(*HTTP)
			return []string{text(u, h.at.Path), text(u, h.at.Search)}
		}, []string{"a%20b", "q=1"}},
		{"nntp://news.example/comp.x/0012", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			n := v.(*NNTP)
			return []string{text(u, n.at.Group), text(u, n.at.Article)}
		}, []string{"comp.x", "0012"}},
		{"file://localhost/etc/mo%74d?x#f", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			f := v.(*File)
			return []string{text(u, f.at.Host), text(u, f.at.Path)}
		}, []string{"localhost", "/etc/mo%74d?x"}},
		{"wais://h/db/TEXT/doc%20id", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			w := v.(*WAIS)
			return []string{text(u, w.at.Database), text(u, w.at.WType), text(u, w.at.WPath)}
		}, []string{"db", "TEXT", "doc%20id"}},
		{"wais://h/db?a%20b", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			w := v.(*WAIS)
			return []string{text(u, w.at.Database), text(u, w.at.Search)}
		}, []string{"db", "a%20b"}},
		{"prospero://h/pros/name%001;a=b;c=d", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			p := v.(*Prospero)
			return []string{text(u, p.at.Path), text(u, p.at.Fields[0]), text(u, p.at.Fields[1])}
		}, []string{"pros/name%001", "a=b", "c=d"}},
		{"mailto:timbl@info.cern.ch#x", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			return []string{text(u, v.(*Mailto).at.Address)}
		}, []string{"timbl@info.cern.ch"}},
		{"telnet://user:pw@h:2323/", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			tv := v.(*Telnet)
			return []string{text(u, tv.at.User), text(u, tv.at.Password), text(u, tv.at.Host), text(u, tv.at.Port)}
		}, []string{"user", "pw", "h", "2323"}},
	} {
		u := parseURL(t, tc.in, tc.mode)
		v, err := Parse(u, tc.mode)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got := tc.got(v, u)
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Errorf("%s: part %d is written %q, want %q", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}
