package urlkit_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// resolvePair is one line of resolve_pairs.tsv, parsed by both libraries.
type resolvePair struct {
	base, ref   string
	ub, ur      urlkit.URL
	nb, nr      *url.URL
	urlkitValid bool
}

// loadResolvePairs reads the pairs that both urlkit (RFC 3986 mode) and
// net/url parse, so that both sides do the same work.
func loadResolvePairs(b *testing.B) []resolvePair {
	var pairs []resolvePair
	for _, line := range loadLines(b, "resolve_pairs.tsv") {
		bs, rs, _ := strings.Cut(line, "\t")
		ub, _, err1 := urlkit.ParseMode(bs, urlkit.RFC3986)
		ur, _, err2 := urlkit.ParseReference(rs, urlkit.RFC3986)
		nb, err3 := url.Parse(bs)
		nr, err4 := url.Parse(rs)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			continue
		}
		pairs = append(pairs, resolvePair{bs, rs, ub, ur, nb, nr, true})
	}
	return pairs
}

// BenchmarkResolve runs urlkit's rules and net/url's ResolveReference side
// by side over the resolve pairs. One op is one pass over all pairs;
// ns/pair is the time per resolution.
//
//   - parsed: both sides start from parsed URLs; urlkit builds the result
//     string and its URL (one allocation), net/url its *URL.
//   - text: both sides start from the two strings and end with the result
//     string (urlkit: ResolveString; net/url: Parse, Parse,
//     ResolveReference, String).
func BenchmarkResolve(b *testing.B) {
	pairs := loadResolvePairs(b)
	n := len(pairs)
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/pair")
	}
	rules := []urlkit.Rule{urlkit.Rule3986, urlkit.Rule2396, urlkit.Rule1808, urlkit.Rule1630}
	for _, rule := range rules {
		b.Run("parsed/urlkit-"+rule.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range pairs {
					urlkit.Resolve(&pairs[i].ub, &pairs[i].ur, rule)
				}
			}
			report(b)
		})
	}
	b.Run("parsed/net-url", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range pairs {
				pairs[i].nb.ResolveReference(pairs[i].nr)
			}
		}
		report(b)
	})
	b.Run("parsed/net-url+String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range pairs {
				_ = pairs[i].nb.ResolveReference(pairs[i].nr).String()
			}
		}
		report(b)
	})
	// The text rows read the texts alone, packed as BenchmarkParse's
	// lines are, and the parsed pairs are let go: their heap, several
	// MB with pointers, is no input of theirs, and how often the
	// collector runs (it takes each side's allocations as they come)
	// depended on it.
	texts := make([]struct{ base, ref string }, len(pairs))
	for i := range pairs {
		texts[i].base, texts[i].ref = pairs[i].base, pairs[i].ref
	}
	pairs = nil
	b.Run("text/urlkit-rfc3986", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range texts {
				urlkit.ResolveString(texts[i].base, texts[i].ref, urlkit.Rule3986)
			}
		}
		report(b)
	})
	b.Run("text/net-url", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range texts {
				nb, _ := url.Parse(texts[i].base)
				nr, _ := url.Parse(texts[i].ref)
				_ = nb.ResolveReference(nr).String()
			}
		}
		report(b)
	})
}

// TestResolveAllocs pins the allocation budget of Rule3986: at most one
// allocation per resolution. Resolve allocates only a merged or cleaned
// path (the other fields slice the base and the reference);
// ResolveString allocates the result string.
func TestResolveAllocs(t *testing.T) {
	base, _, _ := urlkit.ParseMode("http://user@a:8080/b/c/d;p?q#f", urlkit.RFC3986)
	for _, rs := range []string{"g", "../../g?y#s", "/./a/../b", "//h/x", "?y", "#s", "", "g:h/./i", strings.Repeat("a/../", 100) + "z"} {
		ref, _, _ := urlkit.ParseReference(rs, urlkit.RFC3986)
		n := testing.AllocsPerRun(100, func() { urlkit.Resolve(&base, &ref, urlkit.Rule3986) })
		max := 1.0
		if len(rs) > 256 {
			max = 2 // the dot-removal buffer outgrows its stack array
		}
		if n > max {
			t.Errorf("Resolve(%q): %v allocations", rs, n)
		}
		bs := base.String()
		n = testing.AllocsPerRun(100, func() { urlkit.ResolveString(bs, rs, urlkit.Rule3986) })
		if n > max {
			t.Errorf("ResolveString(%q): %v allocations", rs, n)
		}
	}
}

// BenchmarkRelative runs Relative, resolution's inverse, over the resolve
// pairs: from each base to the URL its reference resolves to, which
// shares the base's site for most relative references. ns/pair is the
// time per target.
func BenchmarkRelative(b *testing.B) {
	type relativePair struct{ base, target urlkit.URL }
	var pairs []relativePair
	for _, p := range loadResolvePairs(b) {
		s, err := urlkit.ResolveString(p.base, p.ref, urlkit.Rule3986)
		if err != nil {
			continue
		}
		t, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
		if err != nil || t.Scheme == "" {
			continue
		}
		pairs = append(pairs, relativePair{p.ub, t})
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range pairs {
			urlkit.Relative(&pairs[i].base, &pairs[i].target, urlkit.Rule3986)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pairs)), "ns/pair")
}
