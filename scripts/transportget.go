//go:build ignore

// transportget fetches a URL with an http.Client on fetch.Transport and
// writes the body to standard output, as urlkit get does: how a Go
// program reaches ftp: and the other schemes through net/http.
// scripts/bench-transport.sh times it beside urlkit get and Squid, each
// writing into the same pipe.
//
//	go build -o transportget scripts/transportget.go && ./transportget ftp://127.0.0.1:2121/pub/big.bin | wc -c
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/urlkit/urlkit/fetch"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: transportget URL")
		os.Exit(2)
	}
	c := &http.Client{Transport: &fetch.Transport{}}
	resp, err := c.Get(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, err = io.Copy(os.Stdout, resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, resp.Status, err)
		os.Exit(1)
	}
}
