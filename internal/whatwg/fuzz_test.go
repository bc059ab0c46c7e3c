package whatwg

import (
	"strings"
	"testing"
)

// FuzzParse checks the Standard's invariants on any input, with and
// without a base: a URL the parser returns has an href that parses back
// into the same URL (parse(href) == href, the offsets included); the
// components the getters give are slices of the href in its order; and
// every setter, given any value, leaves a URL whose href parses back into
// it, and changes nothing when given the same value again.
func FuzzParse(f *testing.F) {
	for _, c := range urlCasesF(f) {
		base := ""
		if c.Base != nil {
			base = *c.Base
		}
		f.Add(c.Input, base, "x")
	}
	f.Fuzz(func(t *testing.T, input, base, value string) {
		var b *URL
		if base != "" {
			v, err := Parse(base, nil)
			if err != nil {
				return
			}
			b = &v
		}
		u, err := Parse(input, b)
		if err != nil {
			return
		}
		again, err := Parse(u.Href, nil)
		if err != nil || again != u {
			t.Fatalf("Parse(%q) = %q, which parses back into %q, %v", input, u.Href, again.Href, err)
		}
		rebuilt := u.components()
		if s := rebuilt.serialize(); s != u.Href {
			t.Fatalf("Parse(%q) = %q, whose components serialize to %q", input, u.Href, s)
		}
		for _, attr := range []string{"protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"} {
			v := u
			set(&v, attr, value)
			w, err := Parse(v.Href, nil)
			if err != nil || w != v {
				t.Fatalf("%q.%s = %q gives %q, which parses back into %q, %v", u.Href, attr, value, v.Href, w.Href, err)
			}
			once := v
			set(&v, attr, value)
			if v.Href != once.Href {
				t.Fatalf("%q.%s = %q: %q, then %q", u.Href, attr, value, once.Href, v.Href)
			}
			if strings.Contains(v.Href, "\t") || strings.Contains(v.Href, "\n") {
				t.Fatalf("%q.%s = %q: href %q holds a tab or newline", u.Href, attr, value, v.Href)
			}
		}
	})
}

// urlCasesF is the seed corpus: the inputs of urltestdata.json.
func urlCasesF(f *testing.F) []urlCase { return urlCasesTB(f, "urltestdata.json") }
