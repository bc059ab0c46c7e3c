package gopher_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/urlkit/urlkit/client/gopher"
)

func ExampleParseItem() {
	it, err := gopher.ParseItem("0hello\t/hello.txt\t127.0.0.1\t7070\t+\r\n")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(it.Type, it.Display, it.Selector, it.Addr(), it.IsPlus())

	// Missing fields are tolerated: an info line with no selector.
	info, _ := gopher.ParseItem("iJust a line of text\n")
	fmt.Printf("%s %q %q\n", info.Type, info.Display, info.Selector)
	// Output:
	// text hello /hello.txt 127.0.0.1:7070 true
	// info "Just a line of text" ""
}

func ExampleItem_String() {
	it := gopher.Item{Type: gopher.TypeSearch, Display: "Search", Selector: "/cgi-bin/search", Host: "127.0.0.1", Port: "7071"}
	fmt.Printf("%q\n", it.String())
	// Output:
	// "7Search\t/cgi-bin/search\t127.0.0.1\t7071"
}

// A menu ends at "." or, as pygopherd sends it, at the end of the input.
func ExampleNewMenuReader() {
	menu := "iWelcome\t\tnull.host\t1\r\n" +
		"0About\t/about.txt\tgopher.example.org\t70\r\n" +
		"1Docs\t/docs\tgopher.example.org\t70\r\n"
	m := gopher.NewMenuReader(strings.NewReader(menu), 0)
	for m.Next() {
		it := m.Item()
		if it.Type == gopher.TypeInfo {
			fmt.Println("   ", it.Display)
			continue
		}
		fmt.Printf("%-5s %s -> %s %s\n", it.Type, it.Display, it.Addr(), it.Selector)
	}
	if err := m.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	//     Welcome
	// text  About -> gopher.example.org:70 /about.txt
	// menu  Docs -> gopher.example.org:70 /docs
}

func ExampleNewTextReader() {
	body := "First line\r\n..dot-stuffed line\r\n.\r\nnot part of the text\r\n"
	io.Copy(os.Stdout, gopher.NewTextReader(strings.NewReader(body)))
	// Output:
	// First line
	// .dot-stuffed line
}

func ExampleParseAttributes() {
	attrs := "+INFO: 0form.txt\t/form.txt\t127.0.0.1\t7070\t+\r\n" +
		"+ADMIN:\r\n Admin: Test Admin <admin@example.invalid>\r\n" +
		"+ASK:\r\n Ask: What is your name?\r\n Choose: Colour?\tred\tgreen\tblue\r\n"
	blocks, err := gopher.ParseAttributes(strings.NewReader(attrs))
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range blocks {
		fmt.Printf("%s %q %q\n", b.Name, b.Value, b.Lines)
	}
	for _, q := range blocks[2].Questions() {
		fmt.Printf("%s: %s %q\n", q.Kind, q.Prompt, q.Defaults)
	}
	// Output:
	// INFO "0form.txt\t/form.txt\t127.0.0.1\t7070\t+" []
	// ADMIN "" ["Admin: Test Admin <admin@example.invalid>"]
	// ASK "" ["Ask: What is your name?" "Choose: Colour?\tred\tgreen\tblue"]
	// Ask: What is your name? []
	// Choose: Colour? ["red" "green" "blue"]
}

// Fetch a Gopher+ item. (Needs a server: compiled, not run.)
func ExampleClient_Fetch() {
	var c gopher.Client
	plus := "+"
	resp, err := c.Fetch(context.Background(), "gopher.example.org:70", "/hello.txt", nil, &plus)
	if err != nil {
		log.Fatal(err) // a *gopher.PlusError for a Gopher+ error response
	}
	defer resp.Close()
	fmt.Println("gopher+:", resp.Plus, "length:", resp.Length)
	io.Copy(os.Stdout, resp.Text())
}

// Search a type 7 item. (Needs a server: compiled, not run.)
func ExampleClient_Fetch_search() {
	var c gopher.Client
	words := "foo bar"
	resp, err := c.Fetch(context.Background(), "gopher.example.org:70", "/cgi-bin/search", &words, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	m := resp.Menu()
	for m.Next() {
		fmt.Println(m.Item().Display)
	}
}
