// Command gendata writes the inputs of the scale benchmarks (never
// committed): DIR/text/*.txt, plain text with URLs (--text-bytes in all),
// and DIR/urls/*.txt, a URL list (--urls lines in all), made from the web
// URLs of ../shared/bench/urls with a varying query so that there are
// many distinct URLs, spread over --files files.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	src := flag.String("src", "../shared/bench/urls", "the folder of the URL data sets")
	dir := flag.String("dir", "/tmp/urlkit-scale-bench", "where to write")
	textBytes := flag.Int64("text-bytes", 1<<30, "bytes of text")
	nURLs := flag.Int("urls", 10_000_000, "URLs of the list")
	files := flag.Int("files", 16, "files per input")
	flag.Parse()
	var pool []string
	for _, n := range []string{"kasztp.txt", "userbait.txt"} {
		b, err := os.ReadFile(filepath.Join(*src, n))
		if err != nil {
			log.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimPrefix(strings.TrimSpace(l), "\uFEFF")
			if strings.HasPrefix(l, "http") && !strings.ContainsAny(l, " \t") {
				pool = append(pool, l)
			}
		}
	}
	r := rand.New(rand.NewPCG(39, 1))
	url := func() string {
		u := pool[r.IntN(len(pool))]
		if r.IntN(2) == 0 {
			sep := "?"
			if strings.Contains(u, "?") {
				sep = "&"
			}
			u += fmt.Sprintf("%sid=%d", sep, r.IntN(100_000))
		}
		return u
	}
	words := strings.Fields("the archive of a crawl holds pages and their links which researchers count by host domain and suffix across months of data")
	write := func(sub string, each func(w *bufio.Writer, i int) int64, budget int64) {
		d := filepath.Join(*dir, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			log.Fatal(err)
		}
		per := budget / int64(*files)
		for f := range *files {
			fh, err := os.Create(filepath.Join(d, fmt.Sprintf("part-%02d.txt", f)))
			if err != nil {
				log.Fatal(err)
			}
			w := bufio.NewWriterSize(fh, 1<<20)
			for n, i := int64(0), 0; n < per; i++ {
				n += each(w, i)
			}
			if err := w.Flush(); err != nil {
				log.Fatal(err)
			}
			fh.Close()
		}
	}
	// Text: sentences of 8 to 30 words, a URL in one of two, wrapped in
	// <URL:...> in one of ten of those.
	write("text", func(w *bufio.Writer, i int) int64 {
		var n int
		for k := range 8 + r.IntN(22) {
			m, _ := w.WriteString(words[(i+k*7)%len(words)])
			w.WriteByte(' ')
			n += m + 1
		}
		switch r.IntN(20) {
		case 0:
			m, _ := fmt.Fprintf(w, "<URL:%s> ", url())
			n += m
		case 1, 2, 3, 4, 5, 6, 7, 8, 9:
			m, _ := fmt.Fprintf(w, "see %s for more. ", url())
			n += m
		}
		w.WriteString(".\n")
		return int64(n + 2)
	}, *textBytes)
	// URLs: one per line, nURLs in all.
	per := *nURLs / *files
	count := 0
	write("urls", func(w *bufio.Writer, i int) int64 {
		w.WriteString(url())
		w.WriteByte('\n')
		count++
		if count%per == 0 {
			return 1 << 62 // this file is full
		}
		return 0
	}, int64(*files)*(1<<62/int64(*files)))
}
