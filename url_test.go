package urlkit

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unsafe"
)

func TestTextMarshaling(t *testing.T) {
	for _, s := range []string{
		"ftp://foo:@host.com/",
		"http://[::1]:8080/~user", // RFC 3986 only: UnmarshalText falls back
		"news:*",
	} {
		var u URL
		if err := u.UnmarshalText([]byte(s)); err != nil {
			t.Errorf("UnmarshalText(%q): %v", s, err)
			continue
		}
		b, err := u.MarshalText()
		if err != nil || string(b) != s {
			t.Errorf("MarshalText = %q, %v; want %q", b, err, s)
		}
	}
	var u URL
	if err := u.UnmarshalText([]byte("ftp://a b/")); err == nil {
		t.Error("UnmarshalText accepted a space")
	}
	// Through encoding/json, as a field.
	type doc struct{ Link *URL }
	var d doc
	if err := json.Unmarshal([]byte(`{"Link":"gopher://h/0sel"}`), &d); err != nil || d.Link.Host != "h" {
		t.Fatalf("json: %v %+v", err, d.Link)
	}
	out, _ := json.Marshal(d)
	if string(out) != `{"Link":"gopher://h/0sel"}` {
		t.Errorf("json.Marshal = %s", out)
	}
	// A field of type URL, what Parse returns, written by value: a string
	// too, which reads back (it was an object of the fields, which
	// UnmarshalText then refused).
	type config struct{ Server URL }
	c := config{Server: *d.Link}
	out, err := json.Marshal(c)
	if string(out) != `{"Server":"gopher://h/0sel"}` || err != nil {
		t.Errorf("json.Marshal(value) = %s, %v", out, err)
	}
	var back config
	if err := json.Unmarshal(out, &back); err != nil || back.Server.String() != "gopher://h/0sel" {
		t.Errorf("round trip: %v %v", err, back.Server)
	}
	// fmt shows a URL value as its text.
	if got := fmt.Sprint(c.Server, " ", &c.Server); got != "gopher://h/0sel gopher://h/0sel" {
		t.Errorf("fmt.Sprint = %q", got)
	}
	var m Mode
	if err := m.UnmarshalText([]byte("rfc3986")); err != nil || m != RFC3986 {
		t.Errorf("Mode.UnmarshalText: %v %v", m, err)
	}
}

func TestNetURL(t *testing.T) {
	for _, tc := range []struct {
		in, path, opaque string
	}{
		{"http://u:p%40ss@info.cern.ch:8000/albert/bertram%2Fmarie-claude?q=1#f%20g", "/albert/bertram/marie-claude", ""},
		{"mailto:timbl@info.cern.ch", "", "timbl@info.cern.ch"},
		{"file:///etc/motd", "/etc/motd", ""},
		{"ftp://@host.com/", "/", ""},
		{"x:/a", "/a", ""},                      // no authority: none added (review)
		{"file:/etc/passwd", "/etc/passwd", ""}, // RFC 1738's file:/// is not the same text
	} {
		u, _, err := ParseMode(tc.in, RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		n := u.NetURL()
		if n.String() != tc.in {
			t.Errorf("NetURL(%q).String() = %q", tc.in, n.String())
		}
		if n.Path != tc.path || n.Opaque != tc.opaque {
			t.Errorf("NetURL(%q): path %q opaque %q", tc.in, n.Path, n.Opaque)
		}
		back, err := FromNetURL(n)
		if err != nil || !back.SameComponents(&u) {
			t.Errorf("FromNetURL(NetURL(%q)) = %+v, %v", tc.in, back, err)
		}
	}
	u, _ := Parse("ftp://foo:p%40ss@host.com/")
	if p, _ := u.NetURL().User.Password(); p != "p@ss" {
		t.Errorf("net/url password %q", p)
	}
	// net/url output that RFC 3986 rejects goes through the lenient mode.
	n := &url.URL{Scheme: "http", Host: "h", Path: "/a b"}
	v, err := FromNetURL(n)
	if err != nil || v.Path != "/a%20b" {
		t.Errorf("FromNetURL(%v) = %+v, %v", n, v, err)
	}
}

func TestOffsets(t *testing.T) {
	s := "ftp://us:pw@host:21/a/b?q#f"
	u, _, err := ParseMode(s, RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	o := u.Offsets()
	for _, c := range []struct {
		name string
		at   int
		want string
	}{
		{"ssp", o.SchemeSpecificPart, "//us"},
		{"user", o.User, "us:"},
		{"password", o.Password, "pw@"},
		{"host", o.Host, "host:"},
		{"port", o.Port, "21/"},
		{"path", o.Path, "/a/b"},
		{"query", o.Query, "q#"},
		{"fragment", o.Fragment, "f"},
	} {
		if !strings.HasPrefix(s[c.at:], c.want) {
			t.Errorf("%s offset %d points at %q, want %q", c.name, c.at, s[c.at:], c.want)
		}
	}
}

// TestStringHandsBackInput: String on a URL as Parse returned it is the
// input itself, allocation-free; once a component is changed it is built
// again (the FuzzParse targets check that on every input they make).
func TestStringHandsBackInput(t *testing.T) {
	for _, tc := range []struct{ in, pathX string }{
		{"http://example.com/a?b#c", "http://example.com/ax?b#c"},
		{"ftp://u:p@h:21/x;type=a", "ftp://u:p@h:21/x;type=ax"},
		{"news:comp.lang.go", "news:comp.lang.gox"},
		{"//h/p", "//h/px"},
		{"mailto:a@b", "mailto:a@bx"},
	} {
		u, _, err := ParseReference(tc.in, RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.String(); unsafe.StringData(got) != unsafe.StringData(tc.in) || got != tc.in {
			t.Errorf("String of %q is not the input", tc.in)
		}
		if n := testing.AllocsPerRun(100, func() { _ = u.String() }); n != 0 {
			t.Errorf("String of %q: %v allocations", tc.in, n)
		}
		v := u
		v.Path += "x"
		if got := v.String(); got != tc.pathX {
			t.Errorf("%q with x added to the path: String %q, want %q", tc.in, got, tc.pathX)
		}
	}
	// The composite parts, sliced from the text parsed, are the parts
	// built from the components (in every mode; fuzzMode checks them on
	// every input it makes).
	for _, s := range []string{
		"http://h/", "http://h", "HTTP://Example.COM:80/a/b?c=d#e", "https://u:p@h:8443/p?q#f",
		"ftp://@host.com/", "ftp://foo:@host.com/", "ftp://u:p%40x@h/a%2Fb;type=a",
		"mailto:a@b.c", "news:comp.lang.go", "file:///etc/motd", "gopher://h:70/1sel",
		"URL:http://x/y", "<URL:http://x/y>", " http://x/ ", "http://x/a b", "<http://x/a\tb>",
		"http://[::1]:8080/", "a/b?c#d", "//h/p", "?q", "#f", "", "x-a:b:c", "http://h?", "http://h#",
		"telnet://u:@h:/", "wais://h/db?s", "http://\xff/\x80",
	} {
		for _, m := range []Mode{RFC1738, RFC1630, RFC3986, Lenient} {
			if u, _, err := ParseMode(s, m); err == nil {
				writtenPartsAgree(t, &u)
			}
		}
	}
	// A URL edited after parsing is not written as its input.
	e, _, _ := ParseMode("http://h/a", RFC1738)
	e.Path = "/b"
	if s := e.String(); s != "http://h/b" {
		t.Errorf("an edited path is written %q", s)
	}
	u, _ := Parse("ftp://user:secret@h/")
	if got := u.Redacted(); got != "ftp://user:xxxxx@h/" {
		t.Errorf("Redacted = %q", got)
	}
}

// TestEqualityOperator pins what the URL documentation says of ==: a
// parsed URL keeps its text, which == compares too.
func TestEqualityOperator(t *testing.T) {
	a, _ := Parse("http://h/p?q")
	b, _ := Parse("http://h/p?q")
	lit := URL{Scheme: "http", Host: "h", Path: "/p", Query: "q", HasAuthority: true, HasQuery: true}
	lit2 := lit
	if a != b {
		t.Error("two URLs parsed from the same text are not ==")
	}
	if lit != lit2 {
		t.Error("two literals with the same components are not ==")
	}
	if a == lit || !a.SameComponents(&lit) {
		t.Errorf("a parsed URL and a literal: == %v, SameComponents %v; want false, true", a == lit, a.SameComponents(&lit))
	}
	c, _ := Parse("http://h/p?r")
	a.Query = "r"
	if a == c || !a.SameComponents(&c) || a.String() != c.String() {
		t.Error("a changed parsed URL and one parsed from the changed text")
	}
}
