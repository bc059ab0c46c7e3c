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
			return []string{text(u, f.At.User), text(u, f.At.Password), text(u, f.At.Host), text(u, f.At.Port),
				text(u, f.At.CWD[0]), text(u, f.At.CWD[1]), text(u, f.At.CWD[2]), text(u, f.At.Name), text(u, f.At.Type)}
		}, []string{"us%3Aer", "p%40ss", "h.example", "2121", "a%2Fb", "", "c", "n%20x", "i"}},
		{"gopher://h:7070/0a_gopher_selector%09the%20words%09!+ABSTRACT#f", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			g := v.(*Gopher)
			return []string{text(u, g.At.Type), text(u, g.At.Selector), text(u, g.At.Search), text(u, g.At.Plus), text(u, g.At.Port)}
		}, []string{"0", "a_gopher_selector", "the%20words", "!+ABSTRACT", "7070"}},
		{"http://h/a%20b?q=1#x", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			h := v.(*HTTP)
			return []string{text(u, h.At.Path), text(u, h.At.Search)}
		}, []string{"a%20b", "q=1"}},
		{"nntp://news.example/comp.x/0012", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			n := v.(*NNTP)
			return []string{text(u, n.At.Group), text(u, n.At.Article)}
		}, []string{"comp.x", "0012"}},
		{"file://localhost/etc/mo%74d?x#f", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			f := v.(*File)
			return []string{text(u, f.At.Host), text(u, f.At.Path)}
		}, []string{"localhost", "/etc/mo%74d?x"}},
		{"wais://h/db/TEXT/doc%20id", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			w := v.(*WAIS)
			return []string{text(u, w.At.Database), text(u, w.At.WType), text(u, w.At.WPath)}
		}, []string{"db", "TEXT", "doc%20id"}},
		{"wais://h/db?a%20b", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			w := v.(*WAIS)
			return []string{text(u, w.At.Database), text(u, w.At.Search)}
		}, []string{"db", "a%20b"}},
		{"prospero://h/pros/name%001;a=b;c=d", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			p := v.(*Prospero)
			return []string{text(u, p.At.Path), text(u, p.At.Fields[0]), text(u, p.At.Fields[1])}
		}, []string{"pros/name%001", "a=b", "c=d"}},
		{"mailto:timbl@info.cern.ch#x", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			return []string{text(u, v.(*Mailto).At.Address)}
		}, []string{"timbl@info.cern.ch"}},
		{"telnet://user:pw@h:2323/", urlkit.RFC1738, func(v View, u *urlkit.URL) []string {
			tv := v.(*Telnet)
			return []string{text(u, tv.At.User), text(u, tv.At.Password), text(u, tv.At.Host), text(u, tv.At.Port)}
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
