package normalize_test

import (
	"fmt"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

type equalCase struct {
	section string
	a, b    string
	equal   bool
	differs string // for unequal pairs: the first component that differs
}

var equalCases = []equalCase{
	{"RFC 1630 example 1", "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude", true, ""},
	{"RFC 1630 example 2", "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude", false, "path"},
	{"RFC 1738 2.2 hex case", "http://h/a%2fb", "http://h/a%2Fb", true, ""},
	{"RFC 1738 2.2 reserved ;", "ftp://h/a;type=a", "ftp://h/a%3Btype=a", false, "path"},
	{"RFC 1738 2.2 reserved =", "http://h/a?x=y", "http://h/a?x%3Dy", false, "query"},
	{"RFC 1738 2.2 unsafe ~", "http://h/~joe", "http://h/%7Ejoe", true, ""},
	{"RFC 1738 2.1 scheme case", "HTTP://h/", "http://h/", true, ""},
	{"RFC 1738 3.1 host case", "http://INFO.cern.CH/", "http://info.cern.ch/", true, ""},
	{"RFC 1738 3.1 path case", "http://h/A", "http://h/a", false, "path"},
	{"RFC 1738 3.1 empty user", "ftp://@host.com/", "ftp://host.com/", false, "user"},
	{"RFC 1738 3.1 empty password", "ftp://foo:@host.com/", "ftp://foo@host.com/", false, "password"},
	{"RFC 1738 3.1 user", "ftp://foo@host.com/", "ftp://%66oo@host.com/", true, ""},
	{"RFC 1738 3.3 default port", "http://h:80/", "http://h/", true, ""},
	{"RFC 1738 3.3 other port", "http://h:8080/", "http://h/", false, "port"},
	{"RFC 1738 3.3 empty path", "http://h", "http://h/", true, ""},
	{"RFC 1738 3.4 gopher", "gopher://h", "gopher://h/1", true, ""},
	{"RFC 1738 3.4 gopher", "gopher://h:70/", "gopher://h/1", true, ""},
	{"RFC 1738 3.4 gopher type", "gopher://h/", "gopher://h/0", false, "path"},
	{"RFC 1738 3.2.2 ftp type", "ftp://h/pub/f;type=I", "ftp://h/pub/f;type=i", true, ""},
	{"RFC 1738 section 5 ;type= in any case", "ftp://h/pub/f;Type=I", "ftp://h/pub/f;type=i", true, ""},
	{"RFC 1738 3.2.2 ftp type", "ftp://h/pub/f;type=a", "ftp://h/pub/f;type=i", false, "path"},
	{"RFC 1738 3.2 ftp default port", "ftp://h:21", "ftp://h/", true, ""},
	{"RFC 1738 3.8 telnet", "telnet://h:23", "telnet://h/", true, ""},
	{"RFC 1738 3.10 file", "file://localhost/etc/motd", "file:///etc/motd", true, ""},
	{"RFC 1738 3.10 file", "file://host/etc/motd", "file:///etc/motd", false, "host"},
	{"RFC 1630 query +", "http://h/?a+b", "http://h/?a%2Bb", false, "query"},
	{"RFC 1630 query +", "http://h/?a+b", "http://h/?a%20b", false, "query"},
	{"RFC 1630 . and ..", "http://h/a/%2E%2E/b", "http://h/a/../b", false, "path"},
	{"fragment", "http://h/#x", "http://h/#%78", true, ""},
	{"fragment", "http://h/#x", "http://h/", false, "fragment"},
	{"query", "http://h/?", "http://h/", false, "query"},
	{"scheme", "http://h/", "https://h/", false, "scheme"},
	{"authority", "news:comp.lang.go", "news://comp.lang.go", false, "authority"},
}

// TestEqualModes: the RFC3986 mode compares at RFC 3986 6.2.2's level,
// the others at RFC 1738 2.2's; the mail domain is case-insensitive in
// every mode (issue 10).
func TestEqualModes(t *testing.T) {
	for _, tc := range []struct {
		section string
		a, b    string
		mode    urlkit.Mode
		equal   bool
	}{
		{"RFC 3986 6.2.2", "example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", urlkit.RFC3986, true},
		{"RFC 3986 6.2.2", "example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", urlkit.Lenient, true},
		{"RFC 1738: dot segments have no meaning in a URL", "example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", urlkit.RFC1738, false},
		{"RFC 3986 6.2.2.2: %2E is '.'", "http://h/a/%2E%2E/b", "http://h/b", urlkit.RFC3986, true},
		{"RFC 3986 6.2.2.2: ~ is unreserved", "http://h/~joe", "http://h/%7Ejoe", urlkit.RFC3986, true},
		{"RFC 3986 6.2.2.2: $ is reserved", "http://h/$", "http://h/%24", urlkit.RFC3986, false},
		{"RFC 3986 5.2.4's second example in 6.2.2.3", "x:mid/content=5/../6", "x:mid/6", urlkit.RFC3986, true},
		{"RFC 3986 6.2.3", "mailto:Joe@Example.COM", "mailto:Joe@example.com", urlkit.RFC3986, true},
		{"RFC 3986 6.2.3", "mailto:Joe@Example.COM", "mailto:Joe@example.com", urlkit.RFC1738, true},
		{"RFC 6068: a list", "mailto:a@X.ORG,B@Y.Org", "mailto:a@x.org,B@y.org", urlkit.RFC3986, true},
		{"RFC 822: the local part is case-sensitive", "mailto:Joe@example.com", "mailto:joe@example.com", urlkit.RFC1738, false},
	} {
		a, _, err := urlkit.ParseMode(tc.a, tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := urlkit.ParseMode(tc.b, tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := normalize.Equal(&a, &b, tc.mode); got != tc.equal {
			na, nb := normalize.Normalize(&a, tc.mode), normalize.Normalize(&b, tc.mode)
			t.Errorf("%s: Equal(%q, %q, %v) = %v (normal forms %q, %q)", tc.section, tc.a, tc.b, tc.mode, got, na.String(), nb.String())
		}
		if c := normalize.ExplainEqual(&a, &b, tc.mode); c.Equal != tc.equal {
			t.Errorf("%s: ExplainEqual disagrees: %+v", tc.section, c)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, tc := range equalCases {
		a, _, err := urlkit.ParseMode(tc.a, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := urlkit.ParseMode(tc.b, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		if got := normalize.Equal(&a, &b, urlkit.RFC1738); got != tc.equal {
			t.Errorf("%s: Equal(%q, %q) = %v", tc.section, tc.a, tc.b, got)
		}
		if got := normalize.Equal(&b, &a, urlkit.RFC1738); got != tc.equal {
			t.Errorf("%s: Equal(%q, %q) = %v (not symmetric)", tc.section, tc.b, tc.a, got)
		}
		c := normalize.ExplainEqual(&a, &b, urlkit.RFC1738)
		if c.Equal != tc.equal {
			t.Errorf("%s: ExplainEqual says %v", tc.section, c.Equal)
		}
		if tc.equal {
			if len(c.Differences) != 0 {
				t.Errorf("%s: equal with differences %v", tc.section, c.Differences)
			}
			if tc.a != tc.b && len(c.StepsA)+len(c.StepsB) == 0 {
				t.Errorf("%s: equal but no rule named", tc.section)
			}
			continue
		}
		if len(c.Differences) == 0 || c.Differences[0].Component != tc.differs {
			t.Errorf("%s: differences %v, want %s first", tc.section, c.Differences, tc.differs)
		}
	}
}

func TestExplainEqualNotes(t *testing.T) {
	a, _ := urlkit.Parse("ftp://@host.com/")
	b, _ := urlkit.Parse("ftp://host.com/")
	c := normalize.ExplainEqual(&a, &b, urlkit.RFC1738)
	if len(c.Differences) != 1 || c.Differences[0].String() != `user: "" != (none) (RFC 1738 3.1: an empty user name is not the same as no user name)` {
		t.Errorf("differences %v", c.Differences)
	}
	a, _ = urlkit.Parse("http://info.cern.ch/albert/bertram/marie-claude")
	b, _ = urlkit.Parse("http://info.cern.ch/albert/bertram%2Fmarie-claude")
	c = normalize.ExplainEqual(&a, &b, urlkit.RFC1738)
	if len(c.Differences) != 1 || c.Differences[0].String() != `path: "/albert/bertram/marie-claude" != "/albert/bertram%2Fmarie-claude"` {
		t.Errorf("differences %v", c.Differences)
	}
}

// FuzzEqual: Equal is reflexive, symmetric and transitive on the fuzzed
// triples, agrees with ExplainEqual, and holds between a URL and its
// normal form.
func FuzzEqual(f *testing.F) {
	for _, tc := range equalCases {
		f.Add(tc.a, tc.b, tc.b)
	}
	f.Add("http://h/%41", "http://h/A", "HTTP://h:80/%41")
	f.Fuzz(func(t *testing.T, as, bs, cs string) {
		var us [3]urlkit.URL
		for i, s := range []string{as, bs, cs} {
			u, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
			if err != nil {
				if u, _, err = urlkit.ParseMode(s, urlkit.Lenient); err != nil {
					return
				}
			}
			us[i] = u
		}
		a, b, c := &us[0], &us[1], &us[2]
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC3986} {
			if !normalize.Equal(a, a, m) {
				t.Fatalf("not reflexive: %q", a.String())
			}
			ab, ba, bc, ac := normalize.Equal(a, b, m), normalize.Equal(b, a, m), normalize.Equal(b, c, m), normalize.Equal(a, c, m)
			if ab != ba {
				t.Fatalf("not symmetric: %q, %q", a.String(), b.String())
			}
			if ab && bc && !ac {
				t.Fatalf("not transitive: %q, %q, %q", a.String(), b.String(), c.String())
			}
			e := normalize.ExplainEqual(a, b, m)
			if e.Equal != ab || (!ab && len(e.Differences) == 0) || (ab && len(e.Differences) != 0) {
				t.Fatalf("ExplainEqual(%q, %q) = %+v, Equal %v", a.String(), b.String(), e, ab)
			}
			n := normalize.Normalize(a, m)
			if !normalize.Equal(a, &n, m) || !normalize.Equal(&n, a, m) {
				t.Fatalf("%v: %q is not Equal to its normal form %q", m, a.String(), n.String())
			}
			if again := normalize.Normalize(&n, m); !again.SameComponents(&n) {
				t.Fatalf("%v: the normal form %q of %q normalizes again to %q", m, n.String(), a.String(), again.String())
			}
		}
	})
}

func ExampleEqual() {
	a, _ := urlkit.Parse("http://info.cern.ch/albert/bertram/marie-claude")
	for _, s := range []string{
		"http://info.cern.ch/albert/bertram/marie%2Dclaude",
		"http://info.cern.ch/albert/bertram%2Fmarie-claude",
		"HTTP://INFO.CERN.CH:80/albert/bertram/marie-claude",
	} {
		b, _ := urlkit.Parse(s)
		fmt.Println(normalize.Equal(&a, &b, urlkit.RFC1738), s)
	}
	// Output:
	// true http://info.cern.ch/albert/bertram/marie%2Dclaude
	// false http://info.cern.ch/albert/bertram%2Fmarie-claude
	// true HTTP://INFO.CERN.CH:80/albert/bertram/marie-claude
}

func ExampleExplainEqual() {
	a, _ := urlkit.Parse("ftp://@host.com/pub;type=A")
	b, _ := urlkit.Parse("FTP://host.com:21/pub;type=a")
	c := normalize.ExplainEqual(&a, &b, urlkit.RFC1738)
	fmt.Println("equal:", c.Equal)
	for _, d := range c.Differences {
		fmt.Println(d)
	}
	for _, s := range c.StepsB {
		fmt.Println("B:", s)
	}
	// Output:
	// equal: false
	// user: "" != (none) (RFC 1738 3.1: an empty user name is not the same as no user name)
	// B: RFC 1738 2.1: the scheme "FTP" lower-cased: "ftp" (scheme names are case-insensitive)
	// B: RFC 1738 3.1: the port 21 dropped: it is the default port of ftp
}
