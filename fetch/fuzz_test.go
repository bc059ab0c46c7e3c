package fetch

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// FuzzCheckURL: CheckURL never panics; an error names an offset inside
// the URL and the URL with its password redacted; an ftp URL it accepts decodes to no CR,
// LF or NUL anywhere a command could carry it.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"ftp://user:pw@h:21/a%0D%0Ab/c;type=i",
		"ftp://h/%2Fetc/motd",
		"gopher://h:25/0sel%09search%09+",
		"gopher://h/0form%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A",
		"http://u:p%0A@h:6667/x?y#z",
		"file:///tmp/a%00",
		"news:a%0Db@c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC3986} {
			u, _, err := urlkit.ParseMode(s, m)
			if err != nil {
				continue
			}
			err = CheckURL(&u, nil)
			var fe *Error
			if err != nil {
				if !errors.As(err, &fe) || !errors.Is(err, ErrUnsafe) {
					t.Fatalf("CheckURL(%q) = %v: not an *Error of kind ErrUnsafe", s, err)
				}
				if fe.Offset < 0 || fe.Offset >= len(u.String()) {
					t.Fatalf("CheckURL(%q): offset %d outside the URL", s, fe.Offset)
				}
				if fe.URL != u.Redacted() {
					t.Fatalf("CheckURL(%q): URL %q, want the redacted %q", s, fe.URL, u.Redacted())
				}
				continue
			}
			if u.SchemeName() != "ftp" {
				continue
			}
			if _, err := scheme.Parse(&u, urlkit.RFC1738); err != nil {
				// The FTP opener refuses what its view rejects (ErrInvalidURL)
				// before dialing: "ftp:%000" has no host to send to.
				continue
			}
			user, _ := u.DecodedUser()
			pass, _ := u.DecodedPassword()
			path, _ := urlkit.PathUnescape(u.Path)
			query, _ := urlkit.PathUnescape(u.Query)
			for _, d := range []string{user, pass, path, query} {
				if strings.ContainsAny(d, "\r\n\x00") {
					t.Fatalf("CheckURL(%q) accepted a decoded %q", s, d)
				}
			}
		}
	})
}

// FuzzNoProxyMatch: no list or host makes noProxyMatch panic, and "*"
// matches everything.
func FuzzNoProxyMatch(f *testing.F) {
	f.Add("a.org, .example.com,10.0.0.0/8,[::1]:80", "www.example.com", 80)
	f.Fuzz(func(t *testing.T, list, host string, port int) {
		noProxyMatch(list, host, port)
		if !noProxyMatch(list+",*", host, port) {
			t.Fatal(`"*" did not match`)
		}
	})
}
