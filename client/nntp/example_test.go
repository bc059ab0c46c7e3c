package nntp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"time"

	"github.com/urlkit/urlkit/client/nntp"
)

// newsServer is a canned NNTP server on 127.0.0.1 for the examples: it
// greets, then answers each command line from replies, in order.
func newsServer(replies map[string]string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		defer ln.Close()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, "200 news.example.org ready (posting ok)\r\n")
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			reply, ok := replies[strings.TrimRight(line, "\r\n")]
			if !ok {
				reply = "500 What?\r\n"
			}
			io.WriteString(c, reply)
		}
	}()
	return ln.Addr().String()
}

// List a group's articles: overview data streamed in batches.
func ExampleConn_Overview() {
	addr := newsServer(map[string]string{
		"CAPABILITIES":            "101 Capability list:\r\nVERSION 2\r\nREADER\r\nOVER\r\n.\r\n",
		"GROUP comp.misc":         "211 2 1 2 comp.misc\r\n",
		"OVER 1-2":                "224 Overview follows\r\n1\tHello\tA <a@example.org>\tMon, 02 Nov 2026 12:00:00 +0000\t<1@example.org>\t\t300\t5\r\n2\tRe: Hello\tB <b@example.org>\tMon, 02 Nov 2026 13:00:00 +0000\t<2@example.org>\t<1@example.org>\t320\t6\r\n.\r\n",
		"ARTICLE <2@example.org>": "220 0 <2@example.org>\r\nSubject: Re: Hello\r\n\r\n..signature follows\r\n.\r\n",
		"QUIT":                    "205 Bye\r\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := nntp.Dial(ctx, addr)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	g, err := c.Group(ctx, "comp.misc")
	if err != nil {
		log.Fatal(err)
	}
	s := c.Overview(ctx, g.Low, g.High)
	for s.Next() {
		o := s.Item()
		fmt.Printf("%d %s %q %s\n", o.Number, o.MessageID, o.Subject, o.From)
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	a, err := c.Article(ctx, "<2@example.org>")
	if err != nil {
		log.Fatal(err)
	}
	io.Copy(os.Stdout, a) // unstuffed, LF line ends
	if err := a.Close(); err != nil {
		log.Fatal(err)
	}
	c.Quit(ctx)
	// Output:
	// 1 <1@example.org> "Hello" A <a@example.org>
	// 2 <2@example.org> "Re: Hello" B <b@example.org>
	// Subject: Re: Hello
	//
	// .signature follows
}

// Check an article before posting: the missing Message-ID and Date are
// added, a bad header is refused with its line and rule.
func ExampleCheckArticle() {
	opt := nntp.ArticleOptions{
		Newsgroups: "comp.misc",
		Now:        time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC),
		Domain:     "example.org",
	}
	art, err := nntp.CheckArticle([]byte("From: A <a@example.org>\nSubject: Hello\n\nHi.\n"), opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(string(art), "\n") {
		if strings.HasPrefix(line, "Message-ID:") {
			line = "Message-ID: <...@example.org>" // random
		}
		fmt.Println(line)
	}
	_, err = nntp.CheckArticle([]byte("From: A <a@example.org>\nSubject: Hi\nNewsgroups: comp misc\n\n"), opt)
	fmt.Println(err)
	// Output:
	// Newsgroups: comp.misc
	// Message-ID: <...@example.org>
	// Date: Mon, 02 Nov 2026 12:00:00 +0000
	// From: A <a@example.org>
	// Subject: Hello
	//
	// Hi.
	//
	// nntp: bad article: line 3: Newsgroups: newsgroup "comp misc": byte 0x20 is not a component-char (RFC 5536 section 3.1.4)
}
