package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
)

func ExampleFetcher_Get() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("Hello, file.\n"), 0o644)

	var f fetch.Fetcher
	resp, err := f.Get(context.Background(), "file://localhost"+filepath.ToSlash(dir)+"/hello.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	io.Copy(os.Stdout, resp.Body)
	fmt.Println(resp.Size, "bytes")

	_, err = f.Get(context.Background(), "file://localhost"+filepath.ToSlash(dir)+"/missing")
	fmt.Println(errors.Is(err, fetch.ErrNotFound))
	// Output:
	// Hello, file.
	// 13 bytes
	// true
}

func ExampleFetcher_Fetch() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)

	// A URL parsed once, in the mode of the caller's choice, is fetched
	// as it is: here a directory, whose Body is its listing.
	u, err := urlkit.Parse("file://" + filepath.ToSlash(dir) + "/")
	if err != nil {
		fmt.Println(err)
		return
	}
	var f fetch.Fetcher
	resp, err := f.Fetch(context.Background(), &u)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println("listing:", resp.Listing)
	io.Copy(os.Stdout, resp.Body)
	// Output:
	// listing: true
	// a.txt
	// sub/
}

func ExampleError() {
	var f fetch.Fetcher
	_, err := f.Get(context.Background(), "ftp://ftp.example/pub/a%0D%0ADELE%20b")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Offset, errors.Is(err, fetch.ErrUnsafe))
	}
	fmt.Println(err)
	// Output:
	// check 23 true
	// fetch: "ftp://ftp.example/pub/a%0D%0ADELE%20b": offset 23: %0D decodes to CR in the FTP RETR or NLST command: CR ends the line, and what follows would be read as a command of its own (RFC 1738 section 6); the access layer refuses this URL
}

func ExampleTransient() {
	for _, err := range []error{
		&fetch.Error{Op: "open", Offset: -1, Kind: fetch.ErrConnect},
		&fetch.Error{Op: "open", Offset: -1, Kind: fetch.ErrNotFound},
		&fetch.Error{Op: "open", Offset: -1, Kind: fetch.ErrStatus, Err: &fetch.StatusError{Code: 503, Status: "503 Service Unavailable", RetryAfter: 2 * time.Second}},
	} {
		again, after := fetch.Transient(err)
		fmt.Println(again, after)
	}
	// Output:
	// true 0s
	// false 0s
	// true 2s
}

func ExampleCheckURL() {
	for _, s := range []string{
		"ftp://host/pub/file.txt",
		"ftp://host/pub/file%0D%0ADELE%20x",                             // CR LF would start a second FTP command
		"gopher://host:25/0HELO%20evil.example",                         // the gopher-to-SMTP attack of RFC 1738 section 6
		"http://host/a%0D%0Ab",                                          // sent escaped: harmless
		"gopher://host/0form%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0A.%0D%0A", // an ASK submission
	} {
		u, _ := urlkit.Parse(s)
		err := fetch.CheckURL(&u, nil)
		var fe *fetch.Error
		if errors.As(err, &fe) {
			fmt.Printf("offset %d: %v\n", fe.Offset, fe.Kind)
		} else {
			fmt.Println("ok")
		}
	}
	// Output:
	// ok
	// offset 19: unsafe URL
	// offset 14: unsafe URL: blocked port
	// ok
	// ok
}

func ExampleParseGateway() {
	scheme, gw, err := fetch.ParseGateway("ftp=http://proxy.example:3128")
	fmt.Println(scheme, gw.URL, gw.Mode == fetch.GatewayProxy, err)
	f := fetch.Fetcher{Gateways: map[string]fetch.Gateway{scheme: gw}}
	_ = f // f fetches ftp: URLs with "GET ftp://... HTTP/1.1" to proxy.example:3128
	// Output:
	// ftp http://proxy.example:3128 true <nil>
}

func ExampleRender() {
	menu := "iWelcome\tfake\t(NULL)\t0\r\n" +
		"0About this server\t/about.txt\tgopher.example\t70\r\n" +
		"1Sub dir\t/sub dir\tgopher.example\t7070\r\n" +
		"7Search\t/search\tgopher.example\t70\r\n" +
		"hHome page\tURL:http://www.example/\tgopher.example\t70\r\n" +
		".\r\n"
	resp := &fetch.Response{Body: io.NopCloser(strings.NewReader(menu)), ContentType: "application/gopher-menu"}
	fetch.Render(os.Stdout, resp)
	// Output:
	//          Welcome
	// [text]   About this server <gopher://gopher.example/0/about.txt>
	// [menu]   Sub dir <gopher://gopher.example:7070/1/sub%20dir>
	// [search] Search <gopher://gopher.example/7/search>
	// [html]   Home page <http://www.example/>
}

// memo serves memo:NAME URLs from a map: an Opener of the program's own.
type memo map[string]string

func (m memo) Open(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	text, ok := m[req.URL.SchemeSpecificPart()]
	if !ok {
		return nil, &fetch.Error{Op: "open", Offset: -1, Kind: fetch.ErrNotFound}
	}
	return &fetch.Response{Body: io.NopCloser(strings.NewReader(text)), Size: int64(len(text)), ContentType: "text/plain"}, nil
}

func ExampleFetcher_Register() {
	f := fetch.Fetcher{IgnoreEnvironment: true}
	f.Register("memo", memo{"hello": "Hello, memo.\n"})
	f.Register("wais", nil) // takes the standard wais opener away
	for _, s := range []string{"memo:hello", "memo:missing", "wais://127.0.0.1/db"} {
		u, _ := urlkit.Parse(s)
		resp, err := f.Fetch(context.Background(), &u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		io.Copy(os.Stdout, resp.Body)
		resp.Body.Close()
	}
	// Output:
	// Hello, memo.
	// fetch: "memo:missing": not found
	// fetch: "wais://127.0.0.1/db": unsupported scheme: no opener for "wais": fetch it through a gateway (wais_proxy, WWW_wais_GATEWAY)
}

func ExampleTransport() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("Hello, file.\n"), 0o644)

	c := &http.Client{Transport: &fetch.Transport{}}
	resp, err := c.Get("file://" + filepath.ToSlash(dir) + "/hello.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("%s %s %s%q\n", resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Length"), b)

	// A refused URL: nothing is sent, the status says why, and the Body
	// carries the *fetch.Error.
	resp, err = c.Get("ftp://ftp.example/pub/a%0D%0ADELE%20b")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var fe *fetch.Error
	if e, ok := resp.Body.(error); ok && errors.As(e, &fe) {
		fmt.Println(resp.StatusCode, fe.Offset, errors.Is(fe, fetch.ErrUnsafe))
	}
	// Output:
	// 200 OK text/plain 13"Hello, file.\n"
	// 403 23 true
}
