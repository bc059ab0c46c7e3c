package prospero_test

import (
	"context"
	"fmt"
	"log"
	"net"

	"github.com/urlkit/urlkit/client/prospero"
)

// The request a listing sends, as a plan prints it.
func ExampleClient_ListRequest() {
	var c prospero.Client
	req, err := c.ListRequest("AFTP/pub/it's here", nil, []string{"SIZE"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(req))
	_, err = c.ListRequest("AFTP/pub\nDELETE-LINK x", nil, nil)
	fmt.Println(err)
	// Output:
	// VERSION 5 urlkit
	// AUTHENTICATE '' UNAUTHENTICATED anonymous
	// DIRECTORY ASCII 'AFTP/pub/it''s here'
	// LIST ATTRIBUTES(SIZE) COMPONENTS
	// prospero: hsoname: unsafe argument: LF (0x0a) at offset 8
}

func ExampleTokens() {
	toks, err := prospero.Tokens(`LINK L FILE 'it''s here' INTERNET-D 127.0.0.1 ASCII AFTP'/pub/it''s here' 0`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", toks)
	// Output:
	// ["LINK" "L" "FILE" "it's here" "INTERNET-D" "127.0.0.1" "ASCII" "AFTP/pub/it's here" "0"]
}

// A listing from a fake ARDP server on loopback (examples use no real
// server): it answers any request with one packet, a 3-byte header and
// two LINK lines.
func ExampleClient_List() {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		log.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 2048)
		n, from, err := pc.ReadFromUDP(buf)
		if err != nil || n < 9 {
			return
		}
		reply := []byte{3, buf[1], buf[2]} // header length 3, the connection id
		reply = append(reply, "LINK L FILE hello.txt INTERNET-D 127.0.0.1 ASCII AFTP'/pub/hello.txt' 0\n"+
			"LINK L DIRECTORY sub INTERNET-D 127.0.0.1 ASCII AFTP'/pub/sub' 0\n"...)
		pc.WriteToUDP(reply, from)
	}()

	var c prospero.Client
	links, err := c.List(context.Background(), pc.LocalAddr().String(), "AFTP/pub", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range links {
		fmt.Println(l.Target, l.Name, l.Host, l.Hsoname)
	}
	// Output:
	// FILE hello.txt 127.0.0.1 AFTP/pub/hello.txt
	// DIRECTORY sub 127.0.0.1 AFTP/pub/sub
}
