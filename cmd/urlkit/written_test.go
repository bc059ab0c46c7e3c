package main

import (
	"testing"

	"github.com/urlkit/urlkit"
)

var writtenSeeds = []string{
	"http://h/", "http://h", "HTTP://Example.COM:80/a/b?c=d#e", "https://u:p@h:8443/p?q#f",
	"ftp://@host.com/", "ftp://foo:@host.com/", "ftp://u:p%40x@h/a%2Fb;type=a",
	"mailto:a@b.c", "news:comp.lang.go", "file:///etc/motd", "gopher://h:70/1sel",
	"URL:http://x/y", "<URL:http://x/y>", " http://x/ ", "http://x/a b", "<http://x/a\tb>",
	"http://[::1]:8080/", "a/b?c#d", "//h/p", "?q", "#f", "", "x-a:b:c", "http://h?", "http://h#",
	"telnet://u:@h:/", "wais://h/db?s", "http://\xff/\x80",
}

// checkWritten compares writtenForm's parts with the URL's methods.
func checkWritten(t *testing.T, s string, m urlkit.Mode) {
	u, _, err := urlkit.ParseMode(s, m)
	if err != nil {
		return
	}
	w := writtenForm(&u)
	if want := u.String(); w.s != want {
		t.Fatalf("%q (%v): form %q, String %q", s, m, w.s, want)
	}
	type pair struct {
		v  string
		ok bool
	}
	check := func(what string, got, want pair) {
		if got != want {
			t.Errorf("%q (%v): %s %q %v, want %q %v", s, m, what, got.v, got.ok, want.v, want.ok)
		}
	}
	a, aok := w.authority(&u)
	wa, waok := u.Authority()
	check("authority", pair{a, aok}, pair{wa, waok})
	i, iok := w.userinfo(&u)
	wi, wiok := u.Userinfo()
	check("userinfo", pair{i, iok}, pair{wi, wiok})
	p, pok := w.urlPath(&u)
	wp, wpok := u.URLPath()
	check("url_path", pair{p, pok}, pair{wp, wpok})
	check("scheme_specific_part", pair{w.schemeSpecificPart(&u), true}, pair{u.SchemeSpecificPart(), true})
}

func TestWrittenForm(t *testing.T) {
	for _, s := range writtenSeeds {
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986, urlkit.Lenient} {
			checkWritten(t, s, m)
		}
	}
	// A URL edited after parsing is not written as its input.
	u, _, _ := urlkit.ParseMode("http://h/a", urlkit.RFC1738)
	u.Path = "/b"
	if w := writtenForm(&u); w.s != "http://h/b" {
		t.Errorf("an edited path is written %q", w.s)
	}
}

func FuzzWrittenForm(f *testing.F) {
	for _, s := range writtenSeeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, mode uint8) {
		checkWritten(t, s, []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986, urlkit.Lenient}[mode%4])
	})
}
