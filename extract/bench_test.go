package extract_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/extract"
	"mvdan.cc/xurls/v2"
)

// corpusSize is the least amount of text the benchmark runs on.
const corpusSize = 20 << 20

// corpusRoots hold the machine's own documentation: plain text, much of
// it with URLs (copyright files, changelogs, READMEs, licenses).
var corpusRoots = []string{"/usr/share/common-licenses", "/usr/share/doc"}

var corpus struct {
	once  sync.Once
	data  []byte
	files int
}

// loadCorpus concatenates the uncompressed text files under corpusRoots,
// in lexical order, until there are corpusSize bytes (repeating them when
// there are fewer), or skips the benchmark when there are none.
// URLKIT_EXTRACT_CORPUS names a file to use instead.
func loadCorpus(tb testing.TB) []byte {
	corpus.once.Do(func() {
		if f := os.Getenv("URLKIT_EXTRACT_CORPUS"); f != "" {
			corpus.data, _ = os.ReadFile(f)
			corpus.files = 1
			return
		}
		var buf bytes.Buffer
		for _, root := range corpusRoots {
			filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || buf.Len() >= corpusSize {
					return fs.SkipDir
				}
				if !d.Type().IsRegular() || compressed(path) {
					return nil
				}
				b, err := os.ReadFile(path)
				if err != nil || bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
					return nil // unreadable or binary
				}
				buf.Write(b)
				if len(b) > 0 && b[len(b)-1] != '\n' {
					buf.WriteByte('\n')
				}
				corpus.files++
				return nil
			})
		}
		if buf.Len() == 0 {
			return
		}
		for once := buf.Bytes(); buf.Len() < corpusSize; {
			buf.Write(once[:min(len(once), corpusSize-buf.Len())])
		}
		corpus.data = buf.Bytes()
	})
	if len(corpus.data) == 0 {
		tb.Skipf("no text under %v to build the corpus from", corpusRoots)
	}
	return corpus.data
}

func compressed(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz", ".bz2", ".xz", ".zst", ".lz", ".lzma", ".z", ".zip", ".jar", ".png", ".gif", ".jpg", ".jpeg", ".ico", ".pdf", ".woff", ".woff2", ".ttf":
		return true
	}
	return false
}

// BenchmarkExtract runs urlkit's extractor and xurls side by side over the
// same corpus: MB/s from SetBytes, and the number of URLs found as the
// "urls" metric. Compare with benchstat, or run the binary under perf
// stat for steadier figures:
//
//	go test -c -o /tmp/extract.test ./extract
//	perf stat -e cycles:u /tmp/extract.test -test.run '^$' -test.bench 'Extract/urlkit/FindAll' -test.count 5
func BenchmarkExtract(b *testing.B) {
	data := loadCorpus(b)
	text := string(data)
	b.Logf("corpus: %d bytes from %d files", len(data), corpus.files)
	run := func(name string, find func() int) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			n := 0
			for b.Loop() {
				n = find()
			}
			b.ReportMetric(float64(n), "urls")
		})
	}
	run("urlkit/FindAll", func() int { return len(extract.FindAll(text)) })
	var line []byte
	run("urlkit/Scanner", func() int { // as urlkit extract writes them out
		s := extract.NewScanner(bytes.NewReader(data))
		n := 0
		for s.Next() {
			line = s.AppendURL(line[:0])
			n++
		}
		return n
	})
	run("urlkit/WrappedOnly", func() int {
		return len((&extract.Config{WrappedOnly: true}).FindAll(text))
	})
	strict, relaxed := xurls.Strict(), xurls.Relaxed()
	run("xurls/Strict", func() int { return len(strict.FindAllStringIndex(text, -1)) })
	run("xurls/Relaxed", func() int { return len(relaxed.FindAllStringIndex(text, -1)) })
}

// TestCompareXurls reports where urlkit and xurls Strict() differ on the
// corpus. It takes a while (xurls runs at a few MB/s), so it runs only
// when URLKIT_XURLS_COMPARE is set:
//
//	URLKIT_XURLS_COMPARE=1 go test -run CompareXurls -v ./extract
func TestCompareXurls(t *testing.T) {
	if os.Getenv("URLKIT_XURLS_COMPARE") == "" {
		t.Skip("set URLKIT_XURLS_COMPARE=1 to compare with xurls on the corpus")
	}
	data := loadCorpus(t)
	text := string(data)
	items := extract.FindAll(text)
	for _, c := range []struct {
		name string
		re   *regexp.Regexp
	}{{"Strict", xurls.Strict()}, {"Relaxed", xurls.Relaxed()}} {
		matches := c.re.FindAllStringIndex(text, -1)
		t.Logf("corpus %d bytes: urlkit %d URLs (%d wrapped), xurls %s %d", len(text), len(items), countWrapped(items), c.name, len(matches))
		report(t, text, items, matches)
	}
}

func countWrapped(items []extract.Item) int {
	n := 0
	for _, it := range items {
		if it.Wrapped {
			n++
		}
	}
	return n
}

// report classifies the differences between urlkit's items and xurls'
// matches, pairing them by where the URL starts in the text.
func report(t *testing.T, text string, items []extract.Item, matches [][]int) {
	byStart := map[int64][]int{}
	for _, m := range matches {
		byStart[int64(m[0])] = m
	}
	kinds := map[string][]string{}
	add := func(kind, example string) { kinds[kind] = append(kinds[kind], example) }
	seen := map[int64]bool{}
	same := 0
	for _, it := range items {
		end := it.End
		if it.Wrapped {
			end-- // xurls stops before '>'
		}
		m, ok := byStart[it.Offset]
		seen[it.Offset] = true
		raw := text[it.Offset:end]
		switch {
		case !ok && it.Wrapped:
			add("urlkit only: wrapped (whitespace or a line break inside, or a scheme xurls does not list)", fmt.Sprintf("%q -> %s", text[it.Start:it.End], it.URL))
		case !ok:
			add("urlkit only: "+scheme(it.URL), fmt.Sprintf("%q", raw))
		case int64(m[1]) == end:
			same++
		case int64(m[1]) < end:
			add("both, xurls shorter", fmt.Sprintf("urlkit %q, xurls %q", raw, text[m[0]:m[1]]))
		default:
			add("both, xurls longer", fmt.Sprintf("urlkit %q, xurls %q", raw, text[m[0]:m[1]]))
		}
	}
	for _, m := range matches {
		if seen[int64(m[0])] {
			continue
		}
		s := text[m[0]:m[1]]
		add("xurls only: "+xscheme(s), fmt.Sprintf("%q", s))
	}
	t.Logf("  same URL at the same place: %d", same)
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return len(kinds[names[i]]) > len(kinds[names[j]]) })
	for _, k := range names {
		ex := kinds[k]
		t.Logf("  %6d %s", len(ex), k)
		for _, e := range ex[:min(len(ex), 4)] {
			if len(e) > 160 {
				e = e[:160] + "..."
			}
			t.Logf("           e.g. %s", e)
		}
	}
}

func scheme(u string) string {
	if i := strings.IndexByte(u, ':'); i > 0 {
		return strings.ToLower(u[:i]) + ":"
	}
	return "?"
}

// xscheme names a match of xurls: its scheme, or "no scheme" for the
// relaxed mode's bare host names.
func xscheme(s string) string {
	if i := strings.Index(s, ":"); i > 0 && !strings.ContainsAny(s[:i], "/.@") {
		return strings.ToLower(s[:i]) + ":"
	}
	if strings.Contains(s, "@") && !strings.Contains(s, "/") {
		return "no scheme (mail address)"
	}
	return "no scheme (host name)"
}
