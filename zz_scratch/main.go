package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urlkit/urlkit/client/rlogin"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/client/tn3270"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	switch os.Args[1] {
	case "telnet":
		d := telnet.Dialer{Trace: os.Stdout, Width: 80, Height: 24}
		if len(os.Args) > 2 { d = telnet.Dialer{Trace: os.Stdout} }
		c, err := d.Dial(ctx, "127.0.0.1:"+os.Getenv("TELNET_PORT"))
		if err != nil { panic(err) }
		s := telnet.Session{Conn: c, In: strings.NewReader(""), Out: os.Stderr, Linger: 2 * time.Second}
		fmt.Println(s.Run(ctx))
	case "rlogin":
		d := rlogin.Dialer{Trace: os.Stdout}
		c, err := d.Dial(ctx, "127.0.0.1:"+os.Getenv("RLOGIN_PORT"), "root", os.Getenv("RLOGIN_USER"))
		if err != nil { panic(err) }
		buf := make([]byte, 100)
		c.SetDeadline(time.Now().Add(2*time.Second))
		n, err := c.Read(buf)
		fmt.Printf("%q %v\n", buf[:n], err)
		c.Close()
	case "tn3270":
		d := tn3270.Dialer{Trace: os.Stdout}
		c, err := d.Dial(ctx, "127.0.0.1:"+os.Getenv("TN3270_PORT"))
		if err != nil { panic(err) }
		fmt.Println(c.ReadScreen(ctx))
		fmt.Print(c.Screen.Text())
		c.Close()
	}
}
