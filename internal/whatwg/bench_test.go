package whatwg

import (
	"net/url"
	"testing"
)

var benchURLs = []string{
	"https://www.example.com/path/to/page.html?query=1&b=2#frag",
	"file:///Users/someone/projects/node_modules/lib/index.js",
	"http://Example.COM:80/a/./b/../c",
	"https://www.kaggle.com/c/titanic",
}

func BenchmarkParseOne(b *testing.B) {
	for _, s := range benchURLs {
		b.Run("whatwg/"+s[:8], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Parse(s, nil)
			}
		})
		b.Run("neturl/"+s[:8], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				url.Parse(s)
			}
		})
	}
}

func BenchmarkParseShort(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Parse("https://www.kaggle.com/c/titanic", nil)
	}
}

func BenchmarkParseShortNetURL(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		url.Parse("https://www.kaggle.com/c/titanic")
	}
}
