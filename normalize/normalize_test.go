package normalize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

type normalizeCase struct {
	section string
	in      string
	want    string
}

// normalizeCases: each row names the rule of the specifications it checks.
var normalizeCases = []normalizeCase{
	{"RFC 1630 example 1", "http://info.cern.ch/albert/bertram/marie%2Dclaude", "http://info.cern.ch/albert/bertram/marie-claude"},
	{"RFC 1630 example 2", "http://info.cern.ch/albert/bertram%2Fmarie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude"},
	{"RFC 1738 2.2 unreserved", "http://h/%41%7a%30%24%2D%5F%2E%2B%21%2A%27%28%29%2C", "http://h/Az0$-_.+!*'(),"},
	{"RFC 1738 2.2 reserved kept", "http://h/a%3Bb;c%2fd%3F%3a%40%3D%26", "http://h/a%3Bb;c%2Fd%3F%3A%40%3D%26"},
	{"RFC 1738 2.2 unsafe", "http://h/%7e%7Euser/%20%3C%3E%22%23%25%7B%7D%7C%5C%5E%5B%5D%60", "http://h/%7E%7Euser/%20%3C%3E%22%23%25%7B%7D%7C%5C%5E%5B%5D%60"},
	{"RFC 1738 2.2 controls and 8-bit", "ftp://h/%0a%7f%80%ff", "ftp://h/%0A%7F%80%FF"},
	{"RFC 1738 2.1 scheme case", "HTTP://info.cern.ch/", "http://info.cern.ch/"},
	{"RFC 1738 3.1 host case", "http://Info.CERN.ch/Albert", "http://info.cern.ch/Albert"},
	{"RFC 1738 3.1 user case kept", "ftp://Joe:Secret@H.Example/", "ftp://Joe:Secret@h.example/"},
	{"RFC 1738 3.1 user escapes", "ftp://%6Aoe:%3a%40@h/", "ftp://joe:%3A%40@h/"},
	{"RFC 1738 3.1 empty user", "ftp://@host.com/", "ftp://@host.com/"},
	{"RFC 1738 3.1 empty password", "ftp://foo:@host.com/", "ftp://foo:@host.com/"},
	{"RFC 1738 3.1 default port", "http://h:80/a", "http://h/a"},
	{"RFC 1738 3.2 default port", "ftp://h:21/a", "ftp://h/a"},
	{"RFC 1738 3.4 default port", "gopher://h:70/0a", "gopher://h/0a"},
	{"RFC 1738 3.1 other port", "http://h:8080/a", "http://h:8080/a"},
	{"RFC 1738 3.1 port leading zeros", "http://h:0080/a", "http://h/a"},
	{"RFC 1738 3.1 port leading zeros", "http://h:08080/a", "http://h:8080/a"},
	{"RFC 1738 3.3 empty http path", "http://h", "http://h/"},
	{"RFC 1738 3.8 telnet final slash", "telnet://h", "telnet://h/"},
	{"RFC 1738 3.2 empty ftp url-path", "ftp://h", "ftp://h/"},
	{"RFC 1738 3.4 empty gopher path", "gopher://h", "gopher://h/1"},
	{"RFC 1738 3.4 empty gopher path", "gopher://h/", "gopher://h/1"},
	{"RFC 1738 3.4 gopher type 1", "gopher://h/1", "gopher://h/1"},
	{"RFC 1738 3.2.2 type code", "ftp://h/a/b;type=A", "ftp://h/a/b;type=a"},
	{"RFC 1738 section 5 literal, any case", "ftp://h/a/b;TYPE=I", "ftp://h/a/b;type=i"},
	{"RFC 1738 3.2.2 type code", "ftp://h/a/b;type=%49", "ftp://h/a/b;type=i"},
	{"RFC 1738 3.2.2 type code (not at the end)", "ftp://h/a;type=D/b", "ftp://h/a;type=D/b"},
	{"RFC 1738 3.10 localhost", "file://localhost/etc/motd", "file:///etc/motd"},
	{"RFC 1738 3.10 localhost", "file://LOCALHOST/etc/motd", "file:///etc/motd"},
	{"RFC 1630 query +", "http://h/a?x%2By+z%20w", "http://h/a?x%2By+z%20w"},
	{"RFC 1630 query +", "http://h/a%2Bb", "http://h/a+b"},
	{"RFC 1630 fragmentid has no +", "http://h/#a%2Bb", "http://h/#a%2Bb"},
	{"RFC 1630 reserved . and ..", "http://h/a/%2E/b/%2e%2E/c", "http://h/a/%2E/b/%2E%2E/c"},
	{"RFC 1630 reserved . and ..", "http://h/a/%2E./b", "http://h/a/%2E%2E/b"},
	{"RFC 1630 reserved . and ..", "http://h/a/%2Ex/%2e", "http://h/a/.x/%2E"},
	{"RFC 1738 2.2 no other rule for mailto", "mailto:Joe%40Example.COM", "mailto:Joe%40Example.COM"},
	{"RFC 1738 2.2 fragment", "http://h/#a%2db%7e", "http://h/#a-b%7E"},
	{"RFC 3986 6.2.3 empty port", "http://h:/", "http://h/"},
	{"no dot-segment removal", "http://h/a/./b/../c", "http://h/a/./b/../c"},
	{"absent query and fragment kept apart", "http://h/?#", "http://h/?#"},
	// "url:http:..." would read as the appendix's prefix and an http URL.
	{"RFC 1738 appendix: a url URL stays one", "URL:%68ttp://evil.example/", "url:%68ttp://evil.example/"},
}

func TestNormalize(t *testing.T) {
	for _, tc := range normalizeCases {
		u, _, err := urlkit.ParseMode(tc.in, urlkit.RFC3986)
		if err != nil {
			u, err = urlkit.Parse(tc.in)
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.section, err)
		}
		n := normalize.Normalize(&u, urlkit.RFC1738)
		if got := n.String(); got != tc.want {
			t.Errorf("%s: Normalize(%q) = %q, want %q", tc.section, tc.in, got, tc.want)
		}
		m, steps := normalize.Explain(&u, urlkit.RFC1738)
		if !m.SameComponents(&n) {
			t.Errorf("%s: Explain %+v, Normalize %+v", tc.section, m, n)
		}
		if (tc.in == tc.want) != (len(steps) == 0) {
			t.Errorf("%s: %q: steps %v", tc.section, tc.in, steps)
		}
		if again := normalize.Normalize(&n, urlkit.RFC1738); !again.SameComponents(&n) {
			t.Errorf("%s: not idempotent: %q -> %q", tc.section, n.String(), again.String())
		}
	}
}

func TestNormalizeLenient(t *testing.T) {
	// What only the lenient parser accepts comes out canonical.
	u, _, err := urlkit.ParseMode("HTTP://Example.COM:80/a b/~x/%7e", urlkit.Lenient)
	if err != nil {
		t.Fatal(err)
	}
	n := normalize.Normalize(&u, urlkit.RFC1738)
	if got, want := n.String(), "http://example.com/a%20b/%7Ex/%7E"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A URL built by hand with raw unsafe bytes and a stray "%".
	v := urlkit.URL{Scheme: "http", HasAuthority: true, Host: "h", Path: "/a b%zz/\xe9", HasFragment: true, Fragment: "x#y"}
	nv := normalize.Normalize(&v, urlkit.RFC1738)
	if got, want := nv.String(), "http://h/a%20b%25zz/%E9#x%23y"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestExplainNormalize(t *testing.T) {
	u, _, _ := urlkit.ParseMode("HTTP://Info.CERN.ch:80/albert/%62ertram/marie%2dclaude%7e?q#%66", urlkit.RFC3986)
	_, steps := normalize.Explain(&u, urlkit.RFC1738)
	var lines []string
	for _, s := range steps {
		lines = append(lines, s.String())
	}
	want := []string{
		`RFC 1738 2.1: the scheme "HTTP" lower-cased: "http" (scheme names are case-insensitive)`,
		`RFC 1738 3.1: the host "Info.CERN.ch" lower-cased: "info.cern.ch" (host names are case-insensitive)`,
		`RFC 1738 3.1: the port 80 dropped: it is the default port of http`,
		`RFC 1738 2.2: in the path, decoded %62 as "b", %2d as "-": characters that need no escaping`,
		`RFC 1738 2.2: in the path, written %7e as %7E: upper-case hex digits`,
		`RFC 1738 2.2: in the fragment, decoded %66 as "f": characters that need no escaping`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalizeAllocs(t *testing.T) {
	u, _ := urlkit.Parse("http://info.cern.ch/albert/bertram%2Fmarie-claude?q#f")
	if n := testing.AllocsPerRun(100, func() { normalize.Normalize(&u, urlkit.RFC1738) }); n != 0 {
		t.Errorf("Normalize of a canonical URL: %v allocations", n)
	}
}

// FuzzNormalize: Normalize is idempotent, and its result prints as a URL
// that parses, in the mode the input was valid in, to the same
// components.
func FuzzNormalize(f *testing.F) {
	for _, tc := range normalizeCases {
		f.Add(tc.in)
	}
	f.Add("ftp://u?x@h/a")
	f.Add("url:./http://h/")
	f.Add("url:%41b://=")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986, urlkit.Lenient} {
			u, _, err := urlkit.ParseMode(s, m)
			if err != nil {
				continue
			}
			// RFC 1738's canonical form, and the one of the mode the
			// input was read in (RFC 3986's decodes more).
			for _, nm := range []urlkit.Mode{urlkit.RFC1738, m} {
				n := normalize.Normalize(&u, nm)
				if again := normalize.Normalize(&n, nm); !again.SameComponents(&n) {
					t.Fatalf("%v/%v: not idempotent: %q -> %q -> %q", m, nm, s, n.String(), again.String())
				}
				pm := m
				if m == urlkit.Lenient {
					pm = urlkit.RFC3986
				}
				v, _, err := urlkit.ParseMode(n.String(), pm)
				if err != nil {
					t.Fatalf("%v/%v: normalized %q of %q does not parse: %v", m, nm, n.String(), s, err)
				}
				if !v.SameComponents(&n) {
					t.Fatalf("%v/%v: normalized %q of %q parses to %+v, not %+v", m, nm, n.String(), s, v, n)
				}
				if !normalize.Equal(&u, &n, nm) {
					t.Fatalf("%v/%v: %q is not Equal to its normal form %q", m, nm, s, n.String())
				}
			}
		}
	})
}

func ExampleNormalize() {
	for _, s := range []string{
		"HTTP://Info.CERN.ch:80/albert/bertram/marie%2dclaude",
		"http://info.cern.ch/albert/bertram%2fmarie-claude",
		"gopher://gopher.example",
		"ftp://ftp.example/pub/file;type=I",
		"file://localhost/etc/motd",
	} {
		u, _ := urlkit.Parse(s)
		n := normalize.Normalize(&u, urlkit.RFC1738)
		fmt.Println(n.String())
	}
	// Output:
	// http://info.cern.ch/albert/bertram/marie-claude
	// http://info.cern.ch/albert/bertram%2Fmarie-claude
	// gopher://gopher.example/1
	// ftp://ftp.example/pub/file;type=i
	// file:///etc/motd
}

func ExampleExplain() {
	u, _ := urlkit.Parse("FTP://Ftp.Example:21/pub/%66ile;type=I")
	n, steps := normalize.Explain(&u, urlkit.RFC1738)
	fmt.Println(n.String())
	for _, s := range steps {
		fmt.Println(s)
	}
	// Output:
	// ftp://ftp.example/pub/file;type=i
	// RFC 1738 2.1: the scheme "FTP" lower-cased: "ftp" (scheme names are case-insensitive)
	// RFC 1738 3.1: the host "Ftp.Example" lower-cased: "ftp.example" (host names are case-insensitive)
	// RFC 1738 3.1: the port 21 dropped: it is the default port of ftp
	// RFC 1738 2.2: in the path, decoded %66 as "f": characters that need no escaping
	// RFC 1738 3.2.2: ";type=I" written ";type=i" (the literal and the type code compare case-insensitively)
}

// TestDefaultPortFromRegistry: the default port dropped is the
// registry's, for schemes RFC 1738 does not list too.
func TestDefaultPortFromRegistry(t *testing.T) {
	u, _, _ := urlkit.ParseMode("wss://h:443/chat", urlkit.RFC3986)
	if n := normalize.Normalize(&u, urlkit.RFC1738); n.String() != "wss://h/chat" {
		t.Errorf("normalized %s", n.String())
	}
}
