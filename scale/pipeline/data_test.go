package pipeline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/scale/records"
)

// benchURLs is where the project's URL data sets live.
const benchURLs = "../../../shared/bench/urls"

// testURLs are the URLs the tests' inputs are made of: web URLs from the
// project's data sets when they are there, with duplicates, mixed case
// and invalid lines; a fixed list otherwise.
func testURLs(t testing.TB) []string {
	var urls []string
	for _, name := range []string{"kasztp.txt", "userbait.txt"} {
		f, err := os.Open(filepath.Join(benchURLs, name))
		if err != nil {
			if os.Getenv("URLKIT_REQUIRE_DATA") != "" {
				t.Fatal(err)
			}
			continue
		}
		sc := bufio.NewScanner(f)
		for n := 0; sc.Scan() && n < 1500; n++ {
			urls = append(urls, strings.TrimPrefix(sc.Text(), "\uFEFF"))
		}
		f.Close()
	}
	urls = append(urls,
		"http://WWW.Example.COM:80/a/./b/../c?b=2&a=1#frag",
		"https://www.example.com/a/c?b=2&a=1",
		"http://bücher.example/straße",
		"http://[2001:DB8::1]:8080/x",
		"ftp://ftp.example.org/pub/file.txt;type=i",
		"gopher://gopher.example:70/1/dir",
		"http://me.blogspot.com/2024/",
		"http://127.0.0.1/",
		"mailto:someone@example.com",
		"news:comp.infosystems.www",
		"http://exa mple.com/ bad",
		"not a url",
	)
	r := rand.New(rand.NewPCG(1, 2))
	n := len(urls)
	for range n / 3 { // duplicates, some in another case
		u := urls[r.IntN(n)]
		if r.IntN(2) == 0 {
			u = strings.Replace(u, "http://", "HTTP://", 1)
		}
		urls = append(urls, u)
	}
	return urls
}

// writeGzip writes data to name as gzip members of about size bytes each
// (multi-member, as WARC files are).
func writeGzip(t testing.TB, name string, data []byte, size int) {
	var b bytes.Buffer
	for len(data) > 0 {
		k := min(size, len(data))
		w := gzip.NewWriter(&b)
		w.Write(data[:k])
		w.Close()
		data = data[k:]
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, name string, data []byte) {
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inputs writes the test inputs into dir: the URL list (plain and
// multi-member gzip), CDX in both forms, WARC, text, WET, WAT; it
// returns the URL list and the WAT pages.
type inputSet struct {
	urls  []string
	text  []byte
	pages []records.WATLinks
}

func writeInputs(t testing.TB, dir string) inputSet {
	urls := testURLs(t)
	half := len(urls) / 2
	list := func(us []string) []byte { return []byte(strings.Join(us, "\n") + "\n") }
	write(t, filepath.Join(dir, "urls-0.txt"), list(urls[:half]))
	writeGzip(t, filepath.Join(dir, "urls-1.txt.gz"), list(urls[half:]), 4000)

	// CDX: the first half as CDXJ, the second in the classic form.
	var cdxj, classic bytes.Buffer
	for _, u := range urls[:half] {
		fmt.Fprintf(&cdxj, "key 20240101000000 {\"url\": %q, \"status\": \"200\"}\n", u)
	}
	classic.WriteString(" CDX N b a m s k r M S V g\n")
	for _, u := range urls[half:] {
		if strings.ContainsAny(u, " \t") {
			continue // the classic form cannot hold it
		}
		fmt.Fprintf(&classic, "key 20240101000000 %s text/html 200 AAAA - - 100 200 f.warc.gz\n", u)
	}
	write(t, filepath.Join(dir, "index-0.cdxj"), cdxj.Bytes())
	writeGzip(t, filepath.Join(dir, "index-1.cdx.gz"), classic.Bytes(), 1000)

	// WARC: a request and a response per URL (the request is not
	// counted), and a warcinfo.
	var warc []byte
	warc = records.AppendRecord(warc, "warcinfo", "", "application/warc-fields", []byte("software: urlkit tests\r\n"))
	for _, u := range urls {
		if strings.ContainsAny(u, " \t") {
			continue
		}
		warc = records.AppendRecord(warc, "request", u, "application/http", []byte("GET / HTTP/1.1\r\n\r\n"))
		warc = records.AppendRecord(warc, "response", u, "application/http", []byte("HTTP/1.1 200 OK\r\n\r\n<html>"))
	}
	writeGzip(t, filepath.Join(dir, "crawl.warc.gz"), warc, 3000)

	// Text: prose around the URLs, wrapped and bare.
	var text bytes.Buffer
	for i, u := range urls {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&text, "See %s for more.\n", u)
		case 1:
			fmt.Fprintf(&text, "The page <URL:%s> says so,\n", u)
		case 2:
			fmt.Fprintf(&text, "(as in %s), and <%s>.\n", u, u)
		default:
			fmt.Fprintf(&text, "Nothing here but words %d.\n\n", i)
		}
	}
	write(t, filepath.Join(dir, "prose.txt"), text.Bytes())

	// WET: the same text cut into conversion records.
	var wet []byte
	wet = records.AppendRecord(wet, "warcinfo", "", "application/warc-fields", []byte("x: y\r\n"))
	lines := strings.SplitAfter(text.String(), "\n")
	for i := 0; i < len(lines); i += 40 {
		chunk := strings.Join(lines[i:min(i+40, len(lines))], "")
		wet = records.AppendRecord(wet, "conversion", fmt.Sprintf("http://page%d.example/", i), "text/plain", []byte(chunk))
	}
	writeGzip(t, filepath.Join(dir, "text.warc.wet.gz"), wet, 5000)

	// WAT: each page links to a few URLs of the list, relative ones too.
	r := rand.New(rand.NewPCG(3, 4))
	var wat []byte
	var pages []records.WATLinks
	for i := 0; i < 60; i++ {
		p := records.WATLinks{TargetURI: urls[r.IntN(len(urls))]}
		if strings.ContainsAny(p.TargetURI, " \t") || !strings.Contains(p.TargetURI, "://") {
			continue
		}
		if i%5 == 0 {
			p.Base = "http://base.example/dir/"
		}
		for range 1 + r.IntN(8) {
			p.Links = append(p.Links, urls[r.IntN(len(urls))])
		}
		p.Links = append(p.Links, "/about", "../up/x.html", "#top", "mailto:a@b.example", "//cdn.example/lib.js")
		pages = append(pages, p)
		wat = records.AppendRecord(wat, "metadata", p.TargetURI, "application/json", watJSON(p))
	}
	writeGzip(t, filepath.Join(dir, "graph.warc.wat.gz"), wat, 4000)
	return inputSet{urls: urls, text: text.Bytes(), pages: pages}
}

func watJSON(p records.WATLinks) []byte {
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	var links []string
	for _, l := range p.Links {
		links = append(links, `{"path":"A@/href","url":`+q(l)+`}`)
	}
	head := `{}`
	if p.Base != "" {
		head = `{"Base":` + q(p.Base) + `}`
	}
	return []byte(`{"Envelope":{"WARC-Header-Metadata":{"WARC-Target-URI":` + q(p.TargetURI) +
		`},"Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Head":` + head +
		`,"Links":[` + strings.Join(links, ",") + `]}}}}}`)
}
