package rlogin_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"time"

	"github.com/urlkit/urlkit/client/rlogin"
)

// The bytes of the handshake and of a window-size message, for a plan to
// show.
func ExampleHandshake() {
	hs, err := rlogin.Handshake("alice", "bob", "xterm", 38400)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", hs)
	fmt.Printf("%q\n", rlogin.AppendWindowSize(nil, 80, 24))
	// Output:
	// "\x00alice\x00bob\x00xterm/38400\x00"
	// "\xff\xffss\x00\x18\x00P\x00\x00\x00\x00"
}

// Log in and copy the session to standard output. (Needs a server:
// compiled, not run.)
func ExampleDialer_Dial() {
	d := rlogin.Dialer{Timeout: 5 * time.Second, Term: "xterm", Width: 80, Height: 24}
	c, err := d.Dial(context.Background(), "127.0.0.1:513", "alice", "alice")
	if err != nil {
		log.Fatal(err) // a *rlogin.HandshakeError when refused
	}
	defer c.Close()
	if !c.Privileged() {
		fmt.Fprintln(os.Stderr, "note:", rlogin.UnprivilegedNote(c.SourcePort()))
	}
	go io.Copy(c, os.Stdin)
	io.Copy(os.Stdout, c)
}

// A refusal carries the server's message.
func ExampleHandshakeError() {
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
		c.Read(make([]byte, 64)) // the handshake
		c.Write([]byte("\x01Permission denied.\n"))
	}()
	d := rlogin.Dialer{Unprivileged: true}
	_, err = d.Dial(context.Background(), ln.Addr().String(), "alice", "root")
	var he *rlogin.HandshakeError
	if errors.As(err, &he) {
		fmt.Println(he.Msg)
	}
	// Output:
	// Permission denied.
}
