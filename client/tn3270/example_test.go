package tn3270_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"strings"

	"github.com/urlkit/urlkit/client/tn3270"
)

// Read a host's first screen as text. A fake host on a net.Pipe
// negotiates TN3270 and writes "HELLO" in a protected field.
func ExampleConn_ReadScreen() {
	client, host := net.Pipe()
	go func() {
		defer host.Close()
		host.Write([]byte("\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0\xff\xfd\x19\xff\xfb\x19\xff\xfd\x00\xff\xfb\x00"))
		buf := make([]byte, 256)
		for got := 0; got < 31; { // the client's 31 bytes of answers
			n, err := host.Read(buf)
			if err != nil {
				return
			}
			got += n
		}
		// Erase/Write, WCC, SF protected, "HELLO" in EBCDIC, IAC EOR
		host.Write([]byte("\xf5\xc3\x1d\x20\xc8\xc5\xd3\xd3\xd6\xff\xef"))
	}()
	var d tn3270.Dialer
	c, err := d.NewConn(client)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.ReadScreen(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", strings.Split(c.Screen.Text(), "\n")[0])
	// Output:
	// " HELLO"
}

func ExampleParseKeys() {
	keys, err := tn3270.ParseKeys("logon ibmuser<tab>secret<enter><pf3>")
	if err != nil {
		log.Fatal(err)
	}
	for _, k := range keys {
		fmt.Println(k)
	}
	// Output:
	// logon ibmuser
	// <tab>
	// secret
	// <enter>
	// <pf3>
}
