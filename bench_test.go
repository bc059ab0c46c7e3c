package urlkit_test

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// benchDir is where the shared URL data sets live (see
// ../shared/bench/urls/README.md); URLKIT_BENCH_DIR overrides it.
func benchDir() string {
	if d := os.Getenv("URLKIT_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "shared", "bench", "urls")
}

// benchFiles are the one-URL-per-line data sets.
var benchFiles = []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"}

// loadLines reads a data set the way the README says every tool reads it:
// split on "\n", drop empty lines and a trailing "\r", keep every other byte.
func loadLines(tb testing.TB, name string) []string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(benchDir(), name))
	if err != nil {
		// The data sets stay in ../shared (they are not ours to
		// redistribute); test.sh sets URLKIT_REQUIRE_DATA=1 when they are
		// there, so that a test that reads them cannot pass vacuously.
		if os.Getenv("URLKIT_REQUIRE_DATA") == "1" {
			tb.Fatalf("bench data: %v", err)
		}
		tb.Skipf("bench data not available (set URLKIT_BENCH_DIR): %v", err)
	}
	var lines []string
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > 0 {
			lines = append(lines, string(line))
		}
	}
	return lines
}

func totalBytes(lines []string) int64 {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return int64(n)
}

// BenchmarkParse runs urlkit (each strict mode, the lenient one and the
// WHATWG one) and net/url side by side over each data set. One op is one pass over the
// whole file; ns/url is reported as a metric so that the parsers compare
// per URL.
func BenchmarkParse(b *testing.B) {
	for _, file := range benchFiles {
		lines := loadLines(b, file)
		name := strings.TrimSuffix(file, ".txt")
		run := func(parser string, parse func(string) bool) {
			b.Run(name+"/"+parser, func(b *testing.B) {
				b.SetBytes(totalBytes(lines))
				b.ReportAllocs()
				for b.Loop() {
					for _, l := range lines {
						parse(l)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/url")
			})
		}
		run("urlkit-rfc1738", func(s string) bool { _, _, err := urlkit.ParseMode(s, urlkit.RFC1738); return err == nil })
		run("urlkit-rfc3986", func(s string) bool { _, _, err := urlkit.ParseMode(s, urlkit.RFC3986); return err == nil })
		run("urlkit-lenient", func(s string) bool { _, _, err := urlkit.ParseMode(s, urlkit.Lenient); return err == nil })
		run("urlkit-whatwg", func(s string) bool { _, _, err := urlkit.ParseMode(s, urlkit.WHATWG); return err == nil })
		run("net-url", func(s string) bool { _, err := url.Parse(s); return err == nil })
	}
}

// BenchmarkParseString is BenchmarkParse with String after every
// successful parse, on both sides: urlkit's Parse (the RFC1738 mode) and
// its RFC3986 mode, and net/url's Parse; ns/url is per line of the file.
func BenchmarkParseString(b *testing.B) {
	for _, file := range benchFiles {
		lines := loadLines(b, file)
		name := strings.TrimSuffix(file, ".txt")
		run := func(parser string, parseString func(string) int) {
			b.Run(name+"/"+parser, func(b *testing.B) {
				b.SetBytes(totalBytes(lines))
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					for _, l := range lines {
						n += parseString(l)
					}
				}
				if n == 0 {
					b.Fatal("no line parsed")
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/url")
			})
		}
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC3986} {
			run("urlkit-"+m.String(), func(s string) int {
				if u, _, err := urlkit.ParseMode(s, m); err == nil {
					return len(u.String())
				}
				return 0
			})
		}
		run("net-url", func(s string) int {
			if u, err := url.Parse(s); err == nil {
				return len(u.String())
			}
			return 0
		})
	}
}

// BenchmarkParseValid measures only the lines each parser accepts, so that
// allocs/op shows the allocation-free valid path (errors allocate).
func BenchmarkParseValid(b *testing.B) {
	for _, file := range benchFiles {
		lines := loadLines(b, file)
		name := strings.TrimSuffix(file, ".txt")
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC3986} {
			var valid []string
			for _, l := range lines {
				if _, _, err := urlkit.ParseMode(l, m); err == nil {
					valid = append(valid, l)
				}
			}
			b.Run(name+"/urlkit-"+m.String(), func(b *testing.B) {
				b.SetBytes(totalBytes(valid))
				b.ReportAllocs()
				for b.Loop() {
					for _, l := range valid {
						urlkit.ParseMode(l, m)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(valid)), "ns/url")
			})
		}
	}
}
