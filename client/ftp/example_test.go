package ftp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/urlkit/urlkit/client/ftp"
)

// Retrieve a file in binary mode. (Needs a server: compiled, not run.)
func ExampleDialer_Dial() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := ftp.Dialer{Timeout: 10 * time.Second}
	c, err := d.Dial(ctx, "ftp.example.org:21")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(ctx, "", ""); err != nil { // anonymous
		log.Fatal(err)
	}
	if err := c.Type(ctx, ftp.TypeImage); err != nil {
		log.Fatal(err)
	}
	body, err := c.Retr(ctx, "/pub/file.bin")
	if err != nil {
		log.Fatal(err)
	}
	_, err = io.Copy(os.Stdout, body)
	if cerr := body.Close(); err == nil {
		err = cerr // the completion reply, or a short transfer
	}
	if err != nil {
		log.Fatal(err)
	}
	c.Quit(ctx)
}

// RFC 1738 section 3.2.2 maps an empty path segment to "CWD" with a null
// argument; servers differ on it, so the caller decides what a refusal
// means. (Needs a server: compiled, not run.)
func ExampleConn_Cwd() {
	ctx := context.Background()
	c, err := ftp.Dial(ctx, "ftp.example.org:21")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(ctx, "myname", "secret"); err != nil {
		log.Fatal(err)
	}
	for _, dir := range []string{"", "etc"} { // ftp://myname@host//etc/motd
		err := c.Cwd(ctx, dir)
		var re *ftp.ReplyError
		if errors.As(err, &re) && dir == "" {
			log.Printf("null CWD refused (%d): staying in the login directory", re.Code)
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
	}
}

// List a directory line by line. (Needs a server: compiled, not run.)
func ExampleConn_Nlst() {
	ctx := context.Background()
	c, err := ftp.Dial(ctx, "ftp.example.org:21")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(ctx, "", ""); err != nil {
		log.Fatal(err)
	}
	l, err := c.Nlst(ctx, "/pub")
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	for l.Next() {
		fmt.Println(l.Item())
	}
	if err := l.Err(); err != nil {
		log.Fatal(err)
	}
}

// A negative reply carries the code for the caller to judge.
func ExampleReplyError() {
	var err error = &ftp.ReplyError{Cmd: "CWD", Code: 501, Msg: "Invalid number of parameters"}
	fmt.Println(err)
	var re *ftp.ReplyError
	if errors.As(err, &re) {
		fmt.Println(re.Code, re.Temporary())
	}
	// Output:
	// ftp: CWD: 501 Invalid number of parameters
	// 501 false
}
