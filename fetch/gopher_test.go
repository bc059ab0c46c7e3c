package fetch

// Tests against the real pygopherd (Gopher and Gopher+) and Gophernicus
// (plain Gopher) of scripts/servers. Their logs (GOPHER_LOG: one line per
// request; GOPHERNICUS_LOG: the selector) show what reached them.

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/wiretest"
)

func realGopher(t *testing.T) string {
	return "gopher://127.0.0.1:" + wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
}

func realGophernicus(t *testing.T) string {
	return "gopher://127.0.0.1:" + wiretest.ServerEnv(t, "GOPHERNICUS_PORT")["GOPHERNICUS_PORT"]
}

// render returns what Render makes of resp, and closes it.
func render(t *testing.T, resp *Response) string {
	t.Helper()
	var b bytes.Buffer
	err := Render(&b, resp)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("Render %s: %v", resp.URL, err)
	}
	return b.String()
}

func TestRealGopher(t *testing.T) {
	base := realGopher(t)
	tests := []struct {
		name     string
		path     string
		want     string // exact raw body, or a substring of the rendered one
		rendered bool
		ctype    string
		gtype    gopher.ItemType
		plus     bool
		size     int64
		kind     error
	}{
		{name: "empty path: the top menu", path: "", want: "[menu]   docs <" + base + "/1/docs>", rendered: true, ctype: gopherMenuType, gtype: '1'},
		{name: "slash only", path: "/", want: "[text]   hello <" + base + "/0/hello.txt>", rendered: true, ctype: gopherMenuType, gtype: '1'},
		{name: "text, as sent", path: "/0/hello.txt", want: "Hello from gopher.\r\n", ctype: "text/plain", gtype: '0'},
		{name: "text, rendered", path: "/0/hello.txt", want: "Hello from gopher.\n", rendered: true},
		{name: "escaped spaces in the selector", path: "/0/docs/sub%20dir/file%20with%20space.txt", want: "spaces in names\n"},
		{name: "binary", path: "/9/bin/data.bin", want: strings.Repeat("\x01", 4096), ctype: "application/octet-stream", gtype: '9'},
		{name: "gif", path: "/g/bin/pixel.gif", want: "GIF89a\x01\x00\x01\x00\x00\x00\x00;", ctype: "image/gif"},
		{name: "menu", path: "/1/docs", want: "[text]   readme <" + base + "/0/docs/readme.txt>", rendered: true},
		// (pygopherd gives the telnet item's empty selector as "/map/Telnet item":
		// the selector of a telnet item is the user name to log in with)
		{name: "gophermap: telnet item", path: "/1/map", want: "[telnet] Telnet item <telnet://%2Fmap%2FTelnet%20item@127.0.0.1:2323/>", rendered: true},
		{name: "gophermap: info item", path: "/1/map", want: "         Hand-written menu for tests\n", rendered: true},
		{name: "gophermap: h URL: link", path: "/1/map", want: "[html]   HTML link <http://127.0.0.1/>", rendered: true},
		{name: "type 7 search", path: "/7/map/search%09hello%20world", want: "results for: hello world", rendered: true, ctype: gopherMenuType},
		{name: "Gopher+ data: +N header", path: "/0/hello.txt%09%09+", want: "Hello from gopher.\r\n", plus: true, size: 20},
		{name: "Gopher+ view", path: "/0/hello.txt%09%09+text/plain", want: "Hello from gopher.\r\n", plus: true, size: 20},
		{name: "Gopher+ item attributes", path: "/0/hello.txt%09%09!", want: "+ABSTRACT:\n    This is the abstract of hello.txt\n", rendered: true, ctype: gopherAttributesType, plus: true},
		{name: "Gopher+ menu attributes", path: "/1/docs%09%09$", want: "+INFO: 0readme\t/docs/readme.txt", rendered: true, ctype: gopherAttributesType, plus: true},
		{name: "missing: a type 3 error item", path: "/0/nope", kind: ErrNotFound},
		{name: "missing: a Gopher+ error", path: "/0/nope%09%09+", kind: ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), base+tt.path)
			if tt.kind != nil {
				if !errors.Is(err, tt.kind) {
					t.Fatalf("err = %v, want %v", err, tt.kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.ctype != "" && resp.ContentType != tt.ctype {
				t.Errorf("ContentType %q, want %q", resp.ContentType, tt.ctype)
			}
			if tt.gtype != 0 && resp.DotStuffed != (!tt.gtype.IsBinary() && !tt.gtype.IsMenu() && resp.ContentType != gopherAttributesType) {
				t.Errorf("type %q: DotStuffed %v", tt.gtype, resp.DotStuffed)
			}
			if plus := strings.HasPrefix(resp.Reply, "+"); tt.plus != plus || tt.size != 0 && resp.Size != tt.size {
				t.Errorf("Gopher+ %v Size %d Reply %q", plus, resp.Size, resp.Reply)
			}
			if tt.rendered {
				if got := render(t, resp); !strings.Contains(got, tt.want) {
					t.Errorf("rendered:\n%s\nwant it to hold %q", got, tt.want)
				}
			} else if got := readAll(t, resp); got != tt.want {
				t.Errorf("body %q, want %q", got, tt.want)
			}
		})
	}
}

// An item with an ASK form ("?"): the questions of its +ASK block are
// asked, and the answers submitted (pygopherd answers the submission like
// a plain request).
func TestRealGopherAskForm(t *testing.T) {
	base := realGopher(t)
	log := followLog(t, "GOPHER_LOG")
	var asked []Prompt
	f := &Fetcher{Getenv: noEnv(), Prompt: func(ctx context.Context, p Prompt) (string, error) {
		asked = append(asked, p)
		if len(p.Choices) > 0 {
			return p.Choices[1], nil
		}
		return "Joe", nil
	}}
	resp, err := f.Get(testCtx(t), base+"/0/form.txt%09%09?")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); !strings.Contains(got, "A form document.") {
		t.Errorf("body %q", got)
	}
	if len(asked) != 2 || asked[0].Text != "What is your name?" || strings.Join(asked[1].Choices, ",") != "red,green,blue" {
		t.Errorf("questions %+v", asked)
	}
	if lines := log.newLines(t, "/form.txt", 2); strings.Count(lines, "/form.txt") < 2 {
		t.Errorf("server log, want the attribute request and the submission:\n%s", lines)
	}

	// Without a terminal: a clear error, nothing submitted.
	_, err = (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), base+"/0/form.txt%09%09?")
	if !errors.Is(err, ErrNeedInput) || !strings.Contains(err.Error(), "What is your name?") {
		t.Errorf("err = %v, want ErrNeedInput naming the question", err)
	}
	// A filled-in form in the URL (RFC 1738 3.4) is sent as it is.
	resp, err = (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), base+"/0/form.txt%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0Ared%0D%0A.%0D%0A")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); !strings.Contains(got, "A form document.") {
		t.Errorf("submission: body %q", got)
	}
}

// Injection attempts are refused before connecting: nothing of them
// reaches the server's log (which other packages' tests write to at the
// same time: the check looks for the attempts' own mark).
func TestRealGopherInjection(t *testing.T) {
	base := realGopher(t)
	for _, p := range []string{
		"/0/inject1.txt%0D%0A/docs",
		"/7/inject2%09a%0Ab",
		"/0/inject3.txt%09%09+%0D%0A/x",
		"/0/inject4.txt%00",
		"/0/inject5.txt%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0A",           // a submission without its final "."
		"/0/inject6.txt%09%09+%091%0D%0A+-1%0D%0AJ%0Aoe%0D%0A.%0D%0A", // a bare LF inside a value
	} {
		log := followLog(t, "GOPHER_LOG")
		_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), base+p)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrUnsafe) || fe.Op != "check" || fe.Offset < 0 {
			t.Errorf("%s: err = %v, want ErrUnsafe from the check", p, err)
		}
		settle()
		if lines := log.newLines(t, "", 0); strings.Contains(lines, "inject") {
			t.Errorf("%s: the server saw:\n%s", p, lines)
		}
	}
	if _, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), "gopher://127.0.0.1:25/0HELO"); !errors.Is(err, ErrBlockedPort) {
		t.Errorf("port 25: err = %v, want ErrBlockedPort", err)
	}
}

// Gophernicus: plain Gopher, menus ending with ".", no Gopher+.
func TestRealGophernicus(t *testing.T) {
	base := realGophernicus(t)
	f := &Fetcher{Getenv: noEnv()}
	get := func(path string) *Response {
		t.Helper()
		resp, err := f.Get(testCtx(t), base+path)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if got := render(t, get("/")); !strings.Contains(got, "[text]   Hello <"+base+"/0/hello.txt>") || !strings.Contains(got, "Test gophernicus server") {
		t.Errorf("menu:\n%s", got)
	}
	if raw := readAll(t, get("/1/")); !strings.HasSuffix(raw, ".\r\n") {
		t.Errorf("raw menu does not end with the \".\" line: %q", raw)
	}
	if got := readAll(t, get("/0/hello.txt")); got != "Hello from gophernicus.\r\n" {
		t.Errorf("text %q", got)
	}
	if got := readAll(t, get("/9/bin/data.bin")); got != strings.Repeat("\x01", 4096) {
		t.Errorf("binary: %d bytes", len(got))
	}
	if got := render(t, get("/7/cgi-bin/search%09foo%20bar")); !strings.Contains(got, "results for: foo bar") {
		t.Errorf("search:\n%s", got)
	}
	resp := get("/0/hello.txt%09%09+")
	if got := readAll(t, resp); resp.Reply != "" || got != "Hello from gophernicus.\r\n" {
		t.Errorf("Gopher+ to a plain server: reply %q, %q", resp.Reply, got)
	}
}

func TestConformanceGopher(t *testing.T) {
	base := realGopher(t)
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     base + "/0/hello.txt",
		smallBody: "Hello from gopher.\r\n",
		missing:   base + "/0/missing.txt",
		dir:       base + "/1/docs",
		dirHas:    "/docs/readme.txt",
		at:        func(addr string) string { return "gopher://" + addr + "/0/hello.txt" },
		unsafeAt:  func(addr string) string { return "gopher://" + addr + "/0/hello.txt%0D%0A/x" },
	})
}

func TestConformanceGopherPlus(t *testing.T) {
	base := realGopher(t)
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     base + "/0/hello.txt%09%09+",
		smallBody: "Hello from gopher.\r\n",
		sizeKnown: true,
		missing:   base + "/0/missing.txt%09%09+",
		dir:       base + "/1/docs%09%09+",
		dirHas:    "/docs/readme.txt",
		at:        func(addr string) string { return "gopher://" + addr + "/0/hello.txt%09%09+" },
		unsafeAt:  func(addr string) string { return "gopher://" + addr + "/0/hello.txt%09%09+%0A" },
	})
}

func TestConformanceGophernicus(t *testing.T) {
	base := realGophernicus(t)
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     base + "/0/hello.txt",
		smallBody: "Hello from gophernicus.\r\n", // the file has LF: Gophernicus sends text with CRLF
		noMissing: "Gophernicus reports a missing item as plain text, which no client can tell from a document",
		dir:       base + "/1/docs/",
		dirHas:    "readme.txt",
		at:        func(addr string) string { return "gopher://" + addr + "/0/hello.txt" },
		unsafeAt:  func(addr string) string { return "gopher://" + addr + "/7/search%09a%0Db" },
	})
}

// A search item without search words: the user is asked for them; a
// telnet item is not a document.
func TestRealGopherSearchPromptAndTelnet(t *testing.T) {
	base := realGopher(t)
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), base+"/7/map/search")
	if !errors.Is(err, ErrNeedInput) {
		t.Errorf("no prompt: err = %v, want ErrNeedInput", err)
	}
	f := &Fetcher{Getenv: noEnv(), Prompt: func(context.Context, Prompt) (string, error) { return "asked words", nil }}
	resp, err := f.Get(testCtx(t), base+"/7/map/search")
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, resp); !strings.Contains(got, "results for: asked words") {
		t.Errorf("search with prompted words:\n%s", got)
	}
	f.Prompt = func(context.Context, Prompt) (string, error) { return "a\r\nb", nil }
	if _, err := f.Get(testCtx(t), base+"/7/map/search"); !errors.Is(err, ErrUnsafe) {
		t.Errorf("prompted CR LF: err = %v, want ErrUnsafe", err)
	}
	if _, err := f.Get(testCtx(t), base+"/8"); !errors.Is(err, ErrUnsupportedScheme) || !strings.Contains(err.Error(), "telnet session") {
		t.Errorf("type 8: err = %v", err)
	}
}
