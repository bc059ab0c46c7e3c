package smtp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"time"

	"github.com/urlkit/urlkit/client/smtp"
)

// mailServer is a canned SMTP server on 127.0.0.1 for the examples: it
// refuses RCPT for "nobody@..." and prints the data it receives.
func mailServer() string {
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
		r := bufio.NewReader(c)
		io.WriteString(c, "220 mail.example.org ESMTP\r\n")
		inData := false
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case inData && line == ".":
				inData = false
				io.WriteString(c, "250 queued\r\n")
			case inData:
				fmt.Println("data:" + line)
			case strings.HasPrefix(line, "EHLO"):
				io.WriteString(c, "250-mail.example.org\r\n250 SIZE 1000000\r\n")
			case strings.HasPrefix(line, "RCPT TO:<nobody@"):
				io.WriteString(c, "550 no such user\r\n")
			case line == "DATA":
				inData = true
				io.WriteString(c, "354 go ahead\r\n")
			case line == "QUIT":
				io.WriteString(c, "221 bye\r\n")
				return
			default:
				io.WriteString(c, "250 ok\r\n")
			}
		}
	}()
	return ln.Addr().String()
}

// Build a message and submit it; one recipient is refused, the other
// gets the message.
func ExampleConn_Send() {
	addr := mailServer()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := smtp.BuildMessage([]smtp.Field{
		{Name: "From", Value: "Ann <ann@example.org>"},
		{Name: "To", Value: "bob@example.net, nobody@example.net"},
		{Name: "Subject", Value: "Hello"},
		{Name: "Date", Value: "Mon, 02 Nov 2026 12:00:00 +0000"},
		{Name: "Message-ID", Value: "<1@example.org>"},
	}, []byte("Hi Bob.\n.\n"), smtp.MessageOptions{})
	if err != nil {
		log.Fatal(err)
	}
	c, err := smtp.Dial(ctx, addr)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	err = c.Send(ctx, "ann@example.org", []string{"bob@example.net", "nobody@example.net"}, msg)
	var re *smtp.RecipientsError
	if errors.As(err, &re) {
		fmt.Println("delivered:", re.Delivered)
		for _, f := range re.Failed {
			fmt.Println("refused:", f.Addr, f.Code)
		}
	}
	c.Quit(ctx)
	// Output:
	// data:From: "Ann" <ann@example.org>
	// data:To: <bob@example.net>, <nobody@example.net>
	// data:Subject: Hello
	// data:Date: Mon, 02 Nov 2026 12:00:00 +0000
	// data:Message-ID: <1@example.org>
	// data:
	// data:Hi Bob.
	// data:..
	// delivered: true
	// refused: nobody@example.net 550
}

// Header injection is refused before anything is built or sent.
func ExampleBuildMessage() {
	_, err := smtp.BuildMessage([]smtp.Field{
		{Name: "From", Value: "ann@example.org"},
		{Name: "Subject", Value: "hi\r\nBcc: victim@example.com"},
	}, nil, smtp.MessageOptions{})
	fmt.Println(err)
	fmt.Println(smtp.CheckAddress("bob@exa mple.net"))
	// Output:
	// smtp: header field "Subject": offset 2: CR, LF or NUL in the value (header injection)
	// smtp: bad address "bob@exa mple.net" at offset 7: byte 0x20 in a domain (letters, digits and hyphens only)
}
