package normalize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

// flagCases are each flag's documented cases: purell's README examples
// for the flags it has (its names), the "URI normalization" article's,
// and RFC 3986's where a flag touches what 6.2 says.
var flagCases = []struct {
	flags   normalize.Flags
	in, out string
}{
	{normalize.FlagRemoveEmptyQuery, "http://host/path?", "http://host/path"},
	{normalize.FlagRemoveEmptyQuery, "http://host/path?a", "http://host/path?a"},
	{normalize.FlagRemoveTrailingSlash, "http://host/path/", "http://host/path"},
	{normalize.FlagRemoveTrailingSlash, "http://host/path//", "http://host/path"},
	{normalize.FlagRemoveTrailingSlash, "http://host/", "http://host/"},
	{normalize.FlagRemoveTrailingSlash, "http://host//", "http://host/"},
	{normalize.FlagRemoveTrailingSlash, "http://host/path/?q", "http://host/path?q"},
	// A relative reference's path is hierarchical too; an opaque one has
	// no segments to trim.
	{normalize.FlagRemoveTrailingSlash, "a/b/", "a/b"},
	{normalize.FlagRemoveTrailingSlash | normalize.FlagRemoveDuplicateSlashes | normalize.FlagRemoveDirectoryIndex, "a//b/index.html", "a/b"},
	{normalize.FlagRemoveTrailingSlash, "mailto:a@b.example/", "mailto:a@b.example/"},
	{normalize.FlagAddTrailingSlash, "http://host/path", "http://host/path/"},
	{normalize.FlagAddTrailingSlash, "http://host/path/", "http://host/path/"},
	{normalize.FlagAddTrailingSlash | normalize.FlagRemoveTrailingSlash, "http://host/path/", "http://host/path"},
	{normalize.FlagRemoveDotSegments, "http://host/path/./a/b/../c", "http://host/path/a/c"},
	{normalize.FlagRemoveDirectoryIndex, "http://host/path/index.html", "http://host/path/"},
	{normalize.FlagRemoveDirectoryIndex, "http://host/path/Default.ASPX?x", "http://host/path/?x"},
	{normalize.FlagRemoveDirectoryIndex, "http://host/path/index.html/x", "http://host/path/index.html/x"},
	{normalize.FlagRemoveDirectoryIndex, "http://host/path/indexes.html", "http://host/path/indexes.html"},
	{normalize.FlagRemoveFragment, "http://host/path#fragment", "http://host/path"},
	{normalize.FlagRemoveFragment, "http://host/path#", "http://host/path"},
	{normalize.FlagForceHTTP, "https://host/", "http://host/"},
	{normalize.FlagForceHTTP, "https://host:80/", "http://host/"},
	{normalize.FlagForceHTTP, "ftp://host/", "ftp://host/"},
	{normalize.FlagRemoveDuplicateSlashes, "http://host/path//a///b", "http://host/path/a/b"},
	{normalize.FlagRemoveWWW, "http://www.host.com/", "http://host.com/"},
	{normalize.FlagRemoveWWW, "http://www.com/", "http://www.com/"},
	{normalize.FlagAddWWW, "http://host.com/", "http://www.host.com/"},
	{normalize.FlagAddWWW, "http://a.host.com/", "http://a.host.com/"},
	{normalize.FlagAddWWW, "http://[::1.2.3.4]/", "http://[::102:304]/"},
	{normalize.FlagAddWWW, "http://10.1/", "http://10.1/"},
	{normalize.FlagAddWWW | normalize.FlagRemoveWWW, "http://www.host.com/", "http://host.com/"},
	{normalize.FlagSortQuery, "http://host/path?c=3&b=2&a=1&b=1", "http://host/path?a=1&b=1&b=2&c=3"},
	{normalize.FlagSortQuery, "http://host/path?b&a=", "http://host/path?a=&b"},
	{normalize.FlagRemoveTracking, "http://host/?utm_source=x&id=1&fbclid=y&utm_medium=z", "http://host/?id=1"},
	{normalize.FlagRemoveTracking, "http://host/?utm_source=x", "http://host/"},
	{normalize.FlagRemoveTracking, "http://host/?utm%5Fsource=x&gclid=1#f", "http://host/#f"},
	{normalize.FlagRemoveTracking, "http://host/?xutm_source=x", "http://host/?xutm_source=x"},
	{normalize.FlagDecodeNumericHost, "http://1113982867/", "http://66.102.7.147/"},
	{normalize.FlagDecodeNumericHost, "http://0102.0146.07.0223/", "http://66.102.7.147/"},
	{normalize.FlagDecodeNumericHost, "http://0x42660793/", "http://66.102.7.147/"},
	{normalize.FlagDecodeNumericHost, "http://0x42.0x66.0x07.0x93/", "http://66.102.7.147/"},
	{normalize.FlagDecodeNumericHost, "http://4294967296/", "http://4294967296/"},
	{normalize.FlagDecodeNumericHost, "http://1.2.3.256/", "http://1.2.3.256/"},
	{normalize.FlagRemoveUnnecessaryHostDots, "http://.host../path", "http://host/path"},
	{normalize.FlagRemoveUnnecessaryHostDots, "http://www.example.com./", "http://www.example.com/"},
	{normalize.FlagHostToPunycode, "http://b%C3%BCcher.example/", "http://xn--bcher-kva.example/"},
	{normalize.FlagHostToPunycode, "http://a%FFb.example/", "http://a%FFb.example/"}, // not UTF-8: kept
	{normalize.FlagHostToIDN, "http://b%C3%BCcher.example/", "http://bücher.example/"},
	{normalize.FlagHostToPunycode, "http://XN--bcher-kva.example/", "http://xn--bcher-kva.example/"},
	{normalize.FlagHostToIDN, "http://xn--bcher-kva.example/", "http://bücher.example/"},
	{normalize.FlagHostToIDN, "http://xn--zz.example/", "http://xn--zz.example/"}, // not valid punycode: kept
	{normalize.FlagsUnsafe, "https://www.Example.com:443/a/./b/../index.html?b=2&utm_campaign=c&a=1#top",
		"http://example.com/a?a=1&b=2"},
}

func TestNormalizeFlags(t *testing.T) {
	for _, tc := range flagCases {
		u, _, err := urlkit.ParseMode(tc.in, urlkit.RFC3986)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		n := normalize.Normalizer{Mode: urlkit.RFC3986, Flags: tc.flags}
		got := n.Normalize(&u)
		if got.String() != tc.out {
			t.Errorf("%v: %q -> %q, want %q", tc.flags, tc.in, got.String(), tc.out)
		}
		if again := n.Normalize(&got); !again.SameComponents(&got) {
			t.Errorf("%v: not idempotent: %q -> %q", tc.flags, got.String(), again.String())
		}
		e, steps := n.Explain(&u)
		if !e.SameComponents(&got) {
			t.Errorf("%v: Explain %q, Normalize %q", tc.flags, e.String(), got.String())
		}
		base := normalize.Normalize(&u, urlkit.RFC3986)
		flagged := false
		for _, s := range steps {
			flagged = flagged || strings.HasPrefix(s.Section, "flag ")
		}
		if flagged != !got.SameComponents(&base) {
			t.Errorf("%v: %q: steps %v do not say what the flags did", tc.flags, tc.in, steps)
		}
		// Without the flags, the normal form is the mode's.
		if n := (normalize.Normalizer{Mode: urlkit.RFC3986}).Normalize(&u); !n.SameComponents(&base) {
			t.Errorf("%q: the zero flags are not Normalize", tc.in)
		}
	}
}

func TestNormalizeFlagsTracking(t *testing.T) {
	u, _, _ := urlkit.ParseMode("http://h/?ref=a&sid=1&utm_source=x", urlkit.RFC3986)
	n := normalize.Normalizer{Mode: urlkit.RFC3986, Flags: normalize.FlagRemoveTracking, TrackingParams: []string{"ref", "s?d"}}
	if v := n.Normalize(&u); v.String() != "http://h/?utm_source=x" {
		t.Errorf("got %q", v.String())
	}
	n.TrackingParams = []string{} // none
	if v := n.Normalize(&u); !v.SameComponents(&u) {
		t.Errorf("got %q, want %q", v.String(), u.String())
	}
}

// RFC 3986 6.2.2 and 6.2.3 in the rfc3986 mode, and RFC 5952 4's text
// form of IPv6 addresses (its section 4 examples).
func TestNormalizeRFC3986Canonical(t *testing.T) {
	for in, want := range map[string]string{
		"http://a/~x":                          "http://a/~x",
		"http://a/%7ex":                        "http://a/~x",
		"https://example.com/a/../b":           "https://example.com/b",
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d":   "example://a/b/c/%7Bfoo%7D", // 6.2.2
		"http://example.com":                   "http://example.com/",       // 6.2.3
		"http://example.com:/":                 "http://example.com/",
		"http://example.com:80/":               "http://example.com/",
		"https://example.com:443/":             "https://example.com/",
		"mailto:Joe@Example.COM":               "mailto:Joe@example.com",
		"http://[2001:DB8:0:0:0:0:0:1]/":       "http://[2001:db8::1]/",
		"http://[2001:db8:0:0:1:0:0:1]/":       "http://[2001:db8::1:0:0:1]/", // 4.2.3: the first of equal runs
		"http://[2001:db8::0:1]/":              "http://[2001:db8::1]/",
		"http://[2001:0db8::0001]/":            "http://[2001:db8::1]/",          // 4.1: no leading zeros
		"http://[2001:db8:0:1:1:1:1:1]/":       "http://[2001:db8:0:1:1:1:1:1]/", // 4.2.2: not one field
		"http://[::ffff:192.0.2.1]/":           "http://[::ffff:192.0.2.1]/",     // 5
		"http://[0:0:0:0:0:ffff:c000:0201]:8/": "http://[::ffff:192.0.2.1]:8/",
		"http://[v1.FE]/":                      "http://[v1.fe]/",
	} {
		got, err := normalize.NormalizeString(in, urlkit.RFC3986)
		if err != nil || got != want {
			t.Errorf("NormalizeString(%q, RFC3986) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestNormalizeFlagsByName(t *testing.T) {
	f, err := normalize.FlagsByName(" sort-query, remove-fragment ,")
	if err != nil || f != normalize.FlagSortQuery|normalize.FlagRemoveFragment {
		t.Errorf("got %v, %v", f, err)
	}
	if f, err := normalize.FlagsByName("unsafe"); err != nil || f != normalize.FlagsUnsafe {
		t.Errorf("unsafe: %v, %v", f, err)
	}
	if _, err := normalize.FlagsByName("sort-query,bogus"); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("bogus: %v", err)
	}
	// Every flag's name reads back as the flag.
	for f := normalize.Flags(1); f <= normalize.FlagHostToIDN; f <<= 1 {
		g, err := normalize.FlagsByName(f.String())
		if err != nil || g != f || strings.Contains(f.String(), ",") {
			t.Errorf("%d: %q reads back as %v, %v", f, f.String(), g, err)
		}
	}
	if all, _ := normalize.FlagsByName(normalize.FlagsAll.String()); all != normalize.FlagsAll {
		t.Errorf("FlagsAll round trip: %v", all)
	}
}

func TestNormalizerEqual(t *testing.T) {
	a, _, _ := urlkit.ParseMode("https://www.example.com/a/?b=1&a=2&fbclid=x#s", urlkit.RFC3986)
	b, _, _ := urlkit.ParseMode("http://example.com/a?a=2&b=1", urlkit.RFC3986)
	n := normalize.Normalizer{Mode: urlkit.RFC3986}
	if n.Equal(&a, &b) {
		t.Error("equal without flags")
	}
	n.Flags = normalize.FlagsUnsafe
	if !n.Equal(&a, &b) {
		t.Errorf("not equal with %v: %+v", n.Flags, n.ExplainEqual(&a, &b).Differences)
	}
	if c := n.ExplainEqual(&a, &b); !c.Equal || len(c.StepsA) == 0 {
		t.Errorf("ExplainEqual: %+v", c)
	}
}

func TestNormalizeRFC5952Allocs(t *testing.T) {
	u, _, _ := urlkit.ParseMode("http://[2001:db8::1]:8080/a", urlkit.RFC3986)
	if n := testing.AllocsPerRun(100, func() { normalize.Normalize(&u, urlkit.RFC3986) }); n != 0 {
		t.Errorf("Normalize of a canonical IPv6 URL: %v allocations", n)
	}
}

// FuzzNormalizeFlags: with any flags, the normal form is a fixed point
// (normalizing it again changes nothing), the input is equal to its
// normal form, and Equal is an equivalence on the normal forms: two
// inputs are equal exactly when their normal forms are.
func FuzzNormalizeFlags(f *testing.F) {
	for _, tc := range flagCases {
		f.Add(tc.in, "http://host/", uint32(tc.flags), uint8(urlkit.RFC3986))
	}
	f.Add("http://www.x.y/a/index.htm/?", "http://x.y/a?", uint32(normalize.FlagsAll), uint8(urlkit.RFC1738))
	f.Add("gopher://h//", "gopher://h/", uint32(normalize.FlagsAll|normalize.FlagAddTrailingSlash), uint8(urlkit.RFC1738))
	f.Add("http://[v1.a]/", "http://x.y/", uint32(normalize.FlagAddWWW), uint8(urlkit.RFC3986))
	f.Add("http://[::1]/a", "http://x.y/", uint32(normalize.FlagAddWWW|normalize.FlagHostToIDN|normalize.FlagDecodeNumericHost), uint8(urlkit.RFC3986))
	// CI found this one: the skip over "[...]" crossed the "/", so "[A0/]"
	// was read as a user name and its normal form as a host and a path.
	f.Add("//[A0/]@", "http://host/", uint32(normalize.FlagAddWWW), uint8(urlkit.RFC3986))
	// An opaque path has no slashes to trim; a host of dots stays.
	f.Add("mailto:A@B./", "mailto:a@b.", uint32(normalize.FlagsAll), uint8(urlkit.RFC1738))
	f.Add("http://./", "http://x/", uint32(normalize.FlagRemoveUnnecessaryHostDots), uint8(urlkit.RFC3986))
	// CI found this one: "https:0" is an opaque URL, and "http:0" is no
	// http URL in RFC 1738 (3.3).
	f.Add("https:0", "http://x/", uint32(normalize.FlagForceHTTP), uint8(urlkit.RFC1738))
	// Nor are these http URLs in RFC 1738: http takes no user name, and
	// no "/" or "?" in its search (3.3).
	f.Add("https://u@h/", "http://u@h/", uint32(normalize.FlagForceHTTP), uint8(urlkit.RFC1738))
	f.Add("https://h/?a/b", "http://h/?a/b", uint32(normalize.FlagForceHTTP), uint8(urlkit.RFC1738))
	// The path flags may not break a scheme's structured path in RFC 1738:
	// ";type=" ends an ftp path, a wais document is /database/wtype/wpath.
	f.Add("ftp://h/a;type=a", "ftp://h/a/;type=a", uint32(normalize.FlagAddTrailingSlash), uint8(urlkit.RFC1738))
	f.Add("wais://h/db/t/..", "wais://h/db/", uint32(normalize.FlagRemoveDotSegments), uint8(urlkit.RFC1738))
	f.Add("nntp://h/index.html", "nntp://h/", uint32(normalize.FlagRemoveDirectoryIndex), uint8(urlkit.RFC1738))
	// Nor may the query flags: the parser reads gopher's search and ftp's
	// ";type=" across the "?", and a sorted or dropped pair moved a "/"
	// into the search, or text after the type.
	f.Add("gopher://h/1?z/y&a%09s", "gopher://h/1", uint32(normalize.FlagSortQuery), uint8(urlkit.RFC1738))
	f.Add("gopher://h/1?x%09a&utm_q%09z&/", "gopher://h/1", uint32(normalize.FlagRemoveTracking), uint8(urlkit.RFC1738))
	f.Add("ftp://h/a?x&b;type=a", "ftp://h/a", uint32(normalize.FlagSortQuery), uint8(urlkit.RFC1738))
	// A file URL's localhost is its empty host (RFC 1738 3.10), with
	// any flag, and once the host dots are trimmed.
	f.Add("file://localhost/x", "file:///x", uint32(normalize.FlagRemoveFragment), uint8(urlkit.RFC1738))
	f.Add("file://localhost./x", "file:///x", uint32(normalize.FlagRemoveUnnecessaryHostDots), uint8(urlkit.RFC3986))
	f.Fuzz(func(t *testing.T, a, b string, flags uint32, mode uint8) {
		m := urlkit.Mode(mode % 4)
		n := normalize.Normalizer{Mode: m, Flags: normalize.Flags(flags)}
		u, _, err := urlkit.ParseMode(a, m)
		if err != nil {
			return
		}
		na := n.Normalize(&u)
		if again := n.Normalize(&na); !again.SameComponents(&na) {
			t.Fatalf("%v %v: not idempotent: %q -> %q -> %q", m, n.Flags, a, na.String(), again.String())
		}
		if !n.Equal(&u, &na) {
			t.Fatalf("%v %v: %q is not equal to its normal form %q", m, n.Flags, a, na.String())
		}
		// As text too: the normal form, read back, is its own normal form;
		// an RFC 3986 URI stays one (idn aside, which makes an IRI). No
		// flag empties a host; the canonical form writes a file URL's
		// localhost as the empty host (RFC 1738 3.10), which is no loss.
		if u.Host != "" && na.Host == "" && na.Scheme != "file" {
			t.Fatalf("%v %v: the host of %q is gone: %q", m, n.Flags, a, na.String())
		}
		r, _, err := urlkit.ParseMode(na.String(), m)
		if err != nil && m != urlkit.Lenient && n.Flags&normalize.FlagHostToIDN == 0 {
			t.Fatalf("%v %v: the normal form %q of %q does not parse: %v", m, n.Flags, na.String(), a, err)
		}
		if err == nil {
			if nr := n.Normalize(&r); nr.String() != na.String() {
				t.Fatalf("%v %v: %q -> %q, read back and normalized: %q", m, n.Flags, a, na.String(), nr.String())
			}
		}
		v, _, err := urlkit.ParseMode(b, m)
		if err != nil {
			return
		}
		nb := n.Normalize(&v)
		if n.Equal(&u, &v) != na.SameComponents(&nb) || n.Equal(&u, &v) != n.Equal(&v, &u) || n.Equal(&na, &nb) != n.Equal(&u, &v) {
			t.Fatalf("%v %v: Equal(%q, %q) is not the equality of the normal forms %q, %q", m, n.Flags, a, b, na.String(), nb.String())
		}
	})
}

func ExampleNormalizer() {
	n := normalize.Normalizer{
		Mode:  urlkit.RFC3986,
		Flags: normalize.FlagSortQuery | normalize.FlagRemoveTracking | normalize.FlagRemoveFragment | normalize.FlagRemoveWWW,
	}
	for _, s := range []string{
		"HTTPS://www.Example.com:443/a/../b?q=url&lang=en&utm_source=news#top",
		"https://example.com/b?lang=en&q=url",
	} {
		u, _, _ := urlkit.ParseMode(s, n.Mode)
		v := n.Normalize(&u)
		fmt.Println(v.String())
	}
	flags, _ := normalize.FlagsByName("unsafe")
	fmt.Println(flags)
	// Output:
	// https://example.com/b?lang=en&q=url
	// https://example.com/b?lang=en&q=url
	// remove-empty-query,remove-trailing-slash,remove-dot-segments,remove-directory-index,remove-fragment,force-http,remove-duplicate-slashes,remove-www,sort-query,remove-tracking
}

// BenchmarkNormalize measures the canonical form alone (nothing to
// change), the RFC 3986 form of an IPv6 URL, and a crawler's flags on a
// URL they change.
func BenchmarkNormalize(b *testing.B) {
	canon, _, _ := urlkit.ParseMode("http://info.cern.ch/albert/bertram/marie-claude?q=1#f", urlkit.RFC3986)
	ipv6, _, _ := urlkit.ParseMode("http://[2001:db8::1]:8080/a/b?q", urlkit.RFC3986)
	crawl, _, _ := urlkit.ParseMode("HTTPS://www.Example.com:443/a/./b/../index.html?q=url&lang=en&utm_source=news#top", urlkit.RFC3986)
	unsafe := normalize.Normalizer{Mode: urlkit.RFC3986, Flags: normalize.FlagsUnsafe}
	b.Run("canonical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			normalize.Normalize(&canon, urlkit.RFC3986)
		}
	})
	b.Run("ipv6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			normalize.Normalize(&ipv6, urlkit.RFC3986)
		}
	})
	b.Run("unsafe-flags", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			unsafe.Normalize(&crawl)
		}
	})
}
