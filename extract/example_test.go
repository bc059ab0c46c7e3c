package extract_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/urlkit/urlkit/extract"
)

// RFC 1738's appendix example, as the RFC prints it: each URL broken
// across two lines inside its wrapper.
func ExampleFindAll() {
	text := `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
type=d> but you can probably pick it up from <URL:ftp://ds.in
ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
net/instructions/overview.HTM#WARNING>.`
	for _, it := range extract.FindAll(text) {
		fmt.Printf("%d:%d %s\n", it.Line, it.Column, it.URL)
	}
	// Output:
	// 1:33 ftp://info.cern.ch/pub/www/doc;type=d
	// 2:51 ftp://ds.internic.net/rfc
	// 3:44 http://ds.internic.net/instructions/overview.HTM#WARNING
}

// Bare URLs in running text: sentence punctuation is left out, balanced
// parentheses are kept, quotes end a URL, and the schemes without "//"
// are found too.
func ExampleFindAll_bare() {
	text := `See http://info.cern.ch/hypertext/WWW/TheProject.html, the group
news:comp.infosystems.www (or mailto:timbl@info.cern.ch), the page
"http://en.wikipedia.org/wiki/URL_(disambiguation)" and URL:ftp://info.cern.ch/pub.`
	for _, it := range extract.FindAll(text) {
		fmt.Println(it.URL)
	}
	// Output:
	// http://info.cern.ch/hypertext/WWW/TheProject.html
	// news:comp.infosystems.www
	// mailto:timbl@info.cern.ch
	// http://en.wikipedia.org/wiki/URL_(disambiguation)
	// ftp://info.cern.ch/pub
}

// Writing the URLs out as they are found: AppendURL copies each into the
// writer's buffer, where URL would make a string of it.
func ExampleScanner_AppendURL() {
	s := extract.NewScanner(strings.NewReader("Get <URL:ftp://ftp.example.org/pub/> or http://www.example.org/."))
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for s.Next() {
		out.Write(s.AppendURL(out.AvailableBuffer()))
		out.WriteByte('\n')
	}
	// Output:
	// ftp://ftp.example.org/pub/
	// http://www.example.org/
}

// A line break right after a hyphen inside a wrapper: the hyphen is kept,
// and the reading without it is the alternative.
func ExampleItem_alternative() {
	it := extract.FindAll("<URL:http://info.cern.ch/albert/bertram/marie-\n   claude>")[0]
	fmt.Println(it.URL)
	fmt.Println(it.Alternative)
	// Output:
	// http://info.cern.ch/albert/bertram/marie-claude
	// http://info.cern.ch/albert/bertram/marieclaude
}

// The lenient parser confirms every URL; its repairs are listed with
// their offsets in the input.
func ExampleItem_repairs() {
	it := extract.FindAll("Read http://bücher.example/über now.")[0]
	fmt.Println(it.URL)
	for _, r := range it.Repairs {
		fmt.Printf("offset %d: %s\n", r.Offset, r.Message)
	}
	// Output:
	// http://xn--bcher-kva.example/%C3%BCber
	// offset 12: internationalized host name "bücher.example" converted to its IDNA A-label xn--bcher-kva.example
	// offset 28: non-ASCII character "ü" encoded as %C3%BC
}

// A Scanner reads any io.Reader in bounded memory; problems go to
// Config.Problem.
func ExampleScanner() {
	input := "See <URL:http://a.example/\n\nnext paragraph> and http://b.example/x.\n"
	c := &extract.Config{Problem: func(p extract.Problem) {
		fmt.Fprintln(os.Stdout, "problem:", p.Error())
	}}
	s := c.NewScanner(strings.NewReader(input))
	for s.Next() {
		it := s.Item()
		fmt.Printf("%d:%d wrapped=%v %s\n", it.Line, it.Column, it.Wrapped, it.URL)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// problem: extract: line 1, column 5 (offset 4): "<URL:http://a.example/": wrapper not closed: blank line before the closing '>'
	// 1:10 wrapped=false http://a.example/
	// 3:21 wrapped=false http://b.example/x
}

// WrappedOnly finds only the URLs inside wrappers.
func ExampleConfig_FindAll() {
	c := &extract.Config{WrappedOnly: true}
	for _, it := range c.FindAll("http://bare.example/ and <http://wrapped.example/>") {
		fmt.Println(it.URL)
	}
	// Output:
	// http://wrapped.example/
}
