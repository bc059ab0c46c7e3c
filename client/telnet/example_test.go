package telnet_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"time"

	"github.com/urlkit/urlkit/client/telnet"
)

// A scripted session over pipes: a fake server on a net.Pipe asks for
// the terminal type, prompts for a login, and prints what it gets.
func ExampleSession() {
	client, server := net.Pipe()
	var got []string // what the server read
	go func() {
		defer server.Close()
		// IAC DO TERMINAL-TYPE, IAC SB TERMINAL-TYPE SEND IAC SE
		server.Write([]byte("\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0login:"))
		buf := make([]byte, 64)
		var n int
		for range 3 { // WILL TERMINAL-TYPE; the terminal type; the login
			n, _ = server.Read(buf)
			got = append(got, fmt.Sprintf("%q", buf[:n]))
		}
		server.Write([]byte("\nhello, " + strings.TrimSpace(string(buf[:n])) + "\n")) // bare LF: the output is compared as text
	}()
	d := telnet.Dialer{TermTypes: []string{"VT100"}}
	c, err := d.NewConn(client)
	if err != nil {
		log.Fatal(err)
	}
	s := telnet.Session{Conn: c, In: strings.NewReader(""), Out: os.Stdout,
		Login: &telnet.Login{UserLine: "guest\r\n"}, Linger: time.Second}
	if err := s.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Join(got, "\n"))
	// Output:
	// login:
	// hello, guest
	// "\xff\xfb\x18"
	// "\xff\xfa\x18\x00VT100\xff\xf0"
	// "guest\r\n"
}

// The bytes a client puts on the wire, for a plan to show.
func ExampleAppendData() {
	fmt.Printf("%q\n", telnet.AppendData(nil, []byte("ls\n\xff"), false))
	fmt.Printf("%q\n", telnet.AppendOption(nil, telnet.WILL, telnet.OptNAWS))
	fmt.Printf("%q\n", telnet.AppendNAWS(nil, 80, 24))
	// Output:
	// "ls\r\n\xff\xff"
	// "\xff\xfb\x1f"
	// "\xff\xfa\x1f\x00P\x00\x18\xff\xf0"
}

// Dial a server and copy its output. (Needs a server: compiled, not run.)
func ExampleDialer_Dial() {
	d := telnet.Dialer{Timeout: 5 * time.Second, Width: 80, Height: 24, TermTypes: []string{"XTERM"}}
	c, err := d.Dial(context.Background(), "127.0.0.1:2323")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	io.Copy(os.Stdout, c)
}

// A line typed at a prompt, as an access plan writes it: in the NVT
// (RFC 854) its CR LF is sent as it is; with BINARY on our side (RFC 856)
// as CR alone, the Return key's byte. IAC is doubled in both.
func ExampleAppendLine() {
	fmt.Printf("%q\n", telnet.AppendLine(nil, []byte("guest\r\n"), false))
	fmt.Printf("%q\n", telnet.AppendLine(nil, []byte("g\xffst\r\n"), true))
	// Output:
	// "guest\r\n"
	// "g\xff\xffst\r"
}
