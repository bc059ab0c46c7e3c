package urlkit

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/urlkit/urlkit/internal/whatwg"
)

// TestWHATWGMode checks the root's WHATWG mode: the URL is the URL
// Standard's href and its components, the failures are errors, and the
// mode's name reads back.
func TestWHATWGMode(t *testing.T) {
	for _, c := range []struct {
		in, href             string
		user, pass, host     string
		port, path, q, f     string
		auth, hasUser, hasPw bool
		hasPort, hasQ, hasF  bool
	}{
		{in: " HTTP://u:p@EXAMPLE.com:080/a/./b/../c d?x y#z ", href: "http://u:p@example.com/a/c%20d?x%20y#z",
			user: "u", pass: "p", host: "example.com", path: "/a/c%20d", q: "x%20y", f: "z", auth: true, hasUser: true, hasPw: true, hasQ: true, hasF: true},
		{in: "https://[0:0::1]:8443", href: "https://[::1]:8443/", host: "[::1]", port: "8443", path: "/", auth: true, hasPort: true},
		{in: "http://0x7f.1/", href: "http://127.0.0.1/", host: "127.0.0.1", path: "/", auth: true},
		{in: "web+demo:/.//not-a-host/", href: "web+demo:/.//not-a-host/", path: "/.//not-a-host/"},
		{in: "mailto:a@b", href: "mailto:a@b", path: "a@b"},
		{in: "file:c:\\x", href: "file:///c:/x", path: "/c:/x", auth: true},
	} {
		u, _, err := ParseMode(c.in, WHATWG)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if u.String() != c.href || u.User != c.user || u.Password != c.pass || u.Host != c.host || u.Port != c.port ||
			u.Path != c.path || u.Query != c.q || u.Fragment != c.f || u.HasAuthority != c.auth || u.HasUser != c.hasUser ||
			u.HasPassword != c.hasPw || u.HasPort != c.hasPort || u.HasQuery != c.hasQ || u.HasFragment != c.hasF {
			t.Errorf("%q: %+v", c.in, u)
		}
		// The href is also a valid URL of RFC 3986 with the same
		// components, but for an opaque path's or a host's code points
		// RFC 3986 has no room for.
		if v, _, err := ParseMode(u.String(), RFC3986); err == nil && !v.SameComponents(&u) {
			t.Errorf("%q: RFC 3986 reads %+v", c.in, v)
		}
	}
	for _, c := range []struct {
		in    string
		cause error
		off   int
	}{
		{"http://exa mple.com/", ErrBadHost, 10},
		{"no-scheme", ErrMissingScheme, 0},
		{"http://h:99999/", ErrBadPort, 9},
		{"http://[::1/", ErrBadHost, 7},
	} {
		_, _, err := ParseMode(c.in, WHATWG)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, c.cause) || e.Offset != c.off {
			t.Errorf("%q: %v, want %v at %d", c.in, err, c.cause, c.off)
		}
		if l := Check(c.in, WHATWG); len(l) != 1 || l[0].Offset != c.off {
			t.Errorf("Check(%q) = %v", c.in, l)
		}
	}
	if l := Check("HTTP://h\\a b", WHATWG); len(l) != 0 {
		t.Errorf("Check of a URL the standard repairs: %v", l)
	}
	var m Mode
	if err := m.UnmarshalText([]byte("whatwg")); err != nil || m != WHATWG || WHATWG.String() != "whatwg" {
		t.Errorf("mode name: %v %v", m, err)
	}
}

// TestWHATWGAllocs: an input already in the standard's serialized form
// costs no allocation, the URL's text being the input.
func TestWHATWGAllocs(t *testing.T) {
	for _, s := range []string{
		"https://www.example.com/path/to/page.html?query=1&b=2#frag",
		"file:///Users/someone/projects/node_modules/lib/index.js",
		"http://user:pass@127.0.0.1:8080/a/b?c",
		"https://[2001:db8::1]/",
		"mailto:someone@example.com",
		"node:fs",
		"https://xn--bcher-kva.example/",
	} {
		var u URL
		allocs := testing.AllocsPerRun(100, func() { u, _, _ = ParseMode(s, WHATWG) })
		if allocs != 0 || u.String() != s {
			t.Errorf("%q: %v allocations, String %q", s, allocs, u.String())
		}
	}
}

// TestWHATWGSetters: a URL of the WHATWG mode has the standard's setters.
func TestWHATWGSetters(t *testing.T) {
	u, _, err := ParseMode("https://example.com:8080/a?b#c", WHATWG)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		set  func() error
		want string
	}{
		{func() error { return u.SetScheme("http") }, "http://example.com:8080/a?b#c"},
		{func() error { return u.SetPort(80) }, "http://example.com/a?b#c"},
		{func() error { return u.SetHost("EXAMPLE.org") }, "http://example.org/a?b#c"},
		{func() error { return u.SetHost("::1") }, "http://[::1]/a?b#c"},
		{func() error { return u.SetUser("a b") }, "http://a%20b@[::1]/a?b#c"},
		{func() error { return u.SetPath("x/../y z") }, "http://a%20b@[::1]/y%20z?b#c"},
		{func() error { return u.SetRawQuery("q=1 2") }, "http://a%20b@[::1]/y%20z?q=1%202#c"},
		{func() error { return u.SetQuery(ParseQuery("k=v w&x", QuerySyntax{})) }, "http://a%20b@[::1]/y%20z?k=v+w&x=#c"},
		{func() error { return u.SetRawQuery("") }, "http://a%20b@[::1]/y%20z#c"},
		{func() error { return u.SetFragment("f g") }, "http://a%20b@[::1]/y%20z#f%20g"},
	}
	for i, s := range steps {
		if err := s.set(); err != nil || u.String() != s.want {
			t.Fatalf("step %d: %q, %v; want %q", i, u.String(), err, s.want)
		}
	}
	// What the standard refuses leaves the URL as it was, and says so.
	before := u.String()
	if err := u.SetScheme("mailto"); err == nil || u.String() != before {
		t.Errorf("special to non-special: %q, %v", u.String(), err)
	}
	if err := u.SetHost("a b"); err == nil || u.String() != before {
		t.Errorf("host with a space: %q, %v", u.String(), err)
	}
}

// checkWHATWG checks the root's URL for s against the standard's record:
// the same href, handed back as parsed (its components lie where String
// puts them), and read back into the same URL.
func checkWHATWG(t *testing.T, s string) {
	t.Helper()
	u, _, err := ParseMode(s, WHATWG)
	w, werr := whatwg.Parse(s, nil)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: %v, the standard's parser %v", s, err, werr)
	}
	if err != nil {
		return
	}
	if u.String() != w.Href || !u.writtenForm() || u.text(false) != w.Href {
		t.Fatalf("%q: String %q, components %q, href %q", s, u.String(), u.text(false), w.Href)
	}
	v, _, err := ParseMode(u.String(), WHATWG)
	if err != nil || v != u {
		t.Fatalf("%q: href %q reads back as %+v, %v", s, u.String(), v, err)
	}
	if c := u.Clone(); !c.SameComponents(&u) || c.String() != u.String() {
		t.Fatalf("%q: Clone %+v", s, c)
	}
}

// TestWHATWGConformance runs checkWHATWG over urltestdata.json's inputs
// that have no base.
func TestWHATWGConformance(t *testing.T) {
	b, err := os.ReadFile("../shared/conformance/wpt-url/urltestdata.json")
	if err != nil {
		t.Skip(err)
	}
	var cases []json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range cases {
		var c struct {
			Input string  `json:"input"`
			Base  *string `json:"base"`
		}
		if json.Unmarshal(r, &c) == nil && c.Base == nil {
			checkWHATWG(t, c.Input)
			n++
		}
	}
	if n < 100 {
		t.Errorf("%d cases", n)
	}
}

// FuzzParseWHATWG checks checkWHATWG's invariants on any input.
func FuzzParseWHATWG(f *testing.F) {
	for _, s := range []string{"HTTP://u:p@EXAMPLE.com:080/a/./b/../c d?x y#z", "web+demo:/.//x", "file:c:\\x", "https://[::1]/", "a:\t b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkWHATWG(t, s) })
}
