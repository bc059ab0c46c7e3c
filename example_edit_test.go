package urlkit_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

func ExampleParseQuery() {
	u, _ := urlkit.Parse("http://example.com/search?q=url+syntax&lang=en&lang=fr&utm_source=x")
	// RFC 1630: "+" in a query string is a space. Saying so is a choice.
	q := urlkit.ParseQuery(u.Query, urlkit.QuerySyntax{PlusAsSpace: true})
	v, _ := q.Get("q")
	lang, _ := q.Get("lang") // the first
	fmt.Println(v, lang)
	q.Del("utm_source")
	q.Set("page", "2 of 3")
	_ = u.SetQuery(q)
	fmt.Println(u.String())
	// Output:
	// url syntax en
	// http://example.com/search?q=url+syntax&lang=en&lang=fr&page=2+of+3
}

func ExampleQuery_Encode() {
	// Pairs that are not changed keep their text, escapes and all.
	q := urlkit.ParseQuery("a=%7e&b=x%2By", urlkit.QuerySyntax{})
	q.Add("c", "1&2")
	fmt.Println(q.Encode())
	// Output:
	// a=%7e&b=x%2By&c=1%262
}

func ExampleURL_SetHost() {
	u, _ := urlkit.Parse("http://example.com/")
	err := u.SetHost("example.com\r\nX-Injected: 1")
	fmt.Println(err)
	fmt.Println(u.String())
	_ = u.SetHost("2001:db8::1")
	_ = u.SetPort(8080)
	_ = u.SetPath("/a b")
	fmt.Println(u.String())
	// Output:
	// urlkit: "example.com\r\nX-Injected: 1": offset 11: byte 0x0D is not allowed in a host name (RFC 3986 3.2.2, reg-name)
	// http://example.com/
	// http://[2001:db8::1]:8080/a%20b
}

func ExampleURL_JoinPath() {
	u, _ := urlkit.Parse("ftp://ftp.example.org/pub/")
	v, _ := u.JoinPath("old", "../new files", "README")
	fmt.Println(v.String())
	// Output:
	// ftp://ftp.example.org/pub/new%20files/README
}

func ExampleQueryEscape() {
	fmt.Println(urlkit.QueryEscape("a b&c=d+e"), urlkit.PathEscape("a b/c"))
	// Output:
	// a+b%26c%3Dd%2Be a%20b%2Fc
}
