//go:build ignore

// netjson is what a Go programmer would write instead of `urlkit parse
// --json`: net/url.Parse on each line of standard input, and
// encoding/json for the components, one object per line.
// scripts/bench.sh times it beside urlkit on the same million URLs.
//
//	go build -o netjson scripts/netjson.go && ./netjson < urls.txt
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
)

// record is one line of output: the input, whether net/url took it, and
// its components (user and password null when absent, as urlkit's are).
type record struct {
	Input    string  `json:"input"`
	Valid    bool    `json:"valid"`
	Error    string  `json:"error,omitempty"`
	Scheme   string  `json:"scheme"`
	User     *string `json:"user"`
	Password *string `json:"password"`
	Host     string  `json:"host"`
	Port     string  `json:"port"`
	Path     string  `json:"path"`
	Query    string  `json:"query"`
	Fragment string  `json:"fragment"`
	URL      string  `json:"url"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20+2) // urlkit's line limit, 1 MiB
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false) // as urlkit writes "&", "<" and ">"
	for in.Scan() {
		r := record{Input: in.Text()}
		if u, err := url.Parse(r.Input); err != nil {
			r.Error = err.Error()
		} else {
			r.Valid, r.Scheme, r.Host, r.Port = true, u.Scheme, u.Hostname(), u.Port()
			r.Path, r.Query, r.Fragment, r.URL = u.Path, u.RawQuery, u.Fragment, u.String()
			if u.User != nil {
				user := u.User.Username()
				r.User = &user
				if p, ok := u.User.Password(); ok {
					r.Password = &p
				}
			}
		}
		check(enc.Encode(&r))
	}
	check(in.Err())
	check(out.Flush())
}

// check ends the program on an error of reading or writing.
func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "netjson:", err)
		os.Exit(1)
	}
}
