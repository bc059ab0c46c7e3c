package wais

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
)

// The request bytes of a search, as a plan prints them and a trace shows
// them.
func ExampleSearchRequest_Marshal() {
	req := &SearchRequest{Database: "test", SeedWords: "gopher"}
	msg, err := req.Marshal()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(FormatMessage(msg))
	// Output:
	// 0000000040z2wais        0\x00\x16\x16\x00\x00(\x00\x00)\x00\x00(\x01\x11\x00\x12\x04test\x14\x013c\x0ej\x06gophero\x01\x01r\x01(
}

// A search against a fake server on loopback that answers with one
// canned hit (examples use no real server).
func ExampleConn_Search() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := readRequest(c); err == nil {
			io.WriteString(c, hitResponse("Alpha document about gophers", 28))
		}
	}()

	ctx := context.Background()
	c, err := Dial(ctx, ln.Addr().String())
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	sr, err := c.Search(ctx, &SearchRequest{Database: "test", SeedWords: "gopher"})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range sr.Hits {
		fmt.Printf("%q DocID %q\n", h.Headline, h.DocID)
	}
	// Output:
	// "Alpha document about gophers" DocID "id"
}

func ExampleParseDocID() {
	fields, err := ParseDocID([]byte("\x01\x07vm:2210\x02\x04test\x03\x0c0 137 /a.txt"))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range fields {
		fmt.Printf("%d=%s;", f.Type, f.Value)
	}
	fmt.Println()
	// Output:
	// 1=vm:2210;2=test;3=0 137 /a.txt;
}
