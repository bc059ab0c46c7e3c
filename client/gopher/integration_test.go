package gopher

// Integration tests against the real pygopherd (GOPHER_PORT) and
// Gophernicus (GOPHERNICUS_PORT) started by scripts/servers (see
// scripts/with-servers.sh). Without the variables they skip, or fail with
// URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type server struct {
	addr, port string
	log        string // request log, may be empty
}

func pygopherd(t *testing.T) server {
	t.Helper()
	env := wiretest.ServerEnv(t, "GOPHER_PORT")
	return server{"127.0.0.1:" + env["GOPHER_PORT"], env["GOPHER_PORT"], os.Getenv("GOPHER_LOG")}
}

func gophernicus(t *testing.T) server {
	t.Helper()
	env := wiretest.ServerEnv(t, "GOPHERNICUS_PORT")
	return server{"127.0.0.1:" + env["GOPHERNICUS_PORT"], env["GOPHERNICUS_PORT"], os.Getenv("GOPHERNICUS_LOG")}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

func str(s string) *string { return &s }

// fetch sends the request, failing the test on an error, and closes the
// response when the test ends.
func fetch(t *testing.T, addr, sel string, search, plus *string) *Response {
	t.Helper()
	var c Client
	return wiretest.Open(t, func(ctx context.Context) (*Response, error) {
		r, err := c.Fetch(ctx, addr, sel, search, plus)
		if err != nil {
			return nil, fmt.Errorf("Fetch(%q): %w", sel, err)
		}
		return r, nil
	})
}

func menu(t *testing.T, r *Response) []Item {
	t.Helper()
	var items []Item
	m := r.Menu()
	for m.Next() {
		items = append(items, m.Item())
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lines(items []Item) []string {
	var s []string
	for _, it := range items {
		s = append(s, it.String())
	}
	return s
}

func TestRealPygopherdMenu(t *testing.T) {
	s := pygopherd(t)
	raw := readAll(t, fetch(t, s.addr, "", nil, nil))
	if strings.HasSuffix(raw, ".\r\n") {
		t.Errorf("pygopherd now ends menus with '.': %q", raw)
	}
	items := menu(t, fetch(t, s.addr, "", nil, nil))
	want := []string{
		"1bin\t/bin\t127.0.0.1\t" + s.port + "\t+",
		"1docs\t/docs\t127.0.0.1\t" + s.port + "\t+",
		"1empty\t/empty\t127.0.0.1\t" + s.port + "\t+",
		"0form\t/form.txt\t127.0.0.1\t" + s.port + "\t+",
		"0hello\t/hello.txt\t127.0.0.1\t" + s.port + "\t+",
		"1map\t/map\t127.0.0.1\t" + s.port + "\t+",
	}
	if got := lines(items); !slices.Equal(got, want) {
		t.Errorf("menu:\n%q\nwant\n%q", got, want)
	}
	if len(items) > 0 && (!items[0].IsPlus() || items[0].Addr() != s.addr) {
		t.Errorf("first item %#v", items[0])
	}
	if items := menu(t, fetch(t, s.addr, "/empty", nil, nil)); len(items) != 0 {
		t.Errorf("/empty: %q", lines(items))
	}
}

func TestRealPygopherdGophermap(t *testing.T) {
	s := pygopherd(t)
	items := menu(t, fetch(t, s.addr, "/map", nil, nil))
	var types string
	for _, it := range items {
		types += string(rune(it.Type))
	}
	if types != "i0179h8" {
		t.Fatalf("types %q, items %q", types, lines(items))
	}
	// gophermap quirk: info lines and empty selectors get "/map/<name>".
	if items[0].Selector != "/map/Hand-written menu for tests" || items[0].Host != "error.host" {
		t.Errorf("info line %#v", items[0])
	}
	if items[3].Selector != "/map/search" || items[4].Selector != "/bin/data.bin" || items[5].Selector != "URL:http://127.0.0.1/" {
		t.Errorf("selectors %q", lines(items))
	}
	if items[6].Port != "2323" || items[6].Selector != "/map/Telnet item" {
		t.Errorf("telnet item %#v", items[6])
	}
	for _, it := range items {
		if it.IsPlus() {
			t.Errorf("gophermap items carry no Gopher+ flag, got %#v", it)
		}
	}
}

func TestRealPygopherdText(t *testing.T) {
	s := pygopherd(t)
	if got := readAll(t, fetch(t, s.addr, "/hello.txt", nil, nil)); got != "Hello from gopher.\r\n" {
		t.Errorf("raw = %q (the file itself has CRLF; no '.' follows)", got)
	}
	if got := readAll(t, fetch(t, s.addr, "/hello.txt", nil, nil).Text()); got != "Hello from gopher.\n" {
		t.Errorf("Text = %q", got)
	}
	if got := readAll(t, fetch(t, s.addr, "/docs/sub dir/file with space.txt", nil, nil).Text()); got != "spaces in names\n" {
		t.Errorf("selector with spaces: %q", got)
	}
}

func TestRealPygopherdBinary(t *testing.T) {
	s := pygopherd(t)
	got := readAll(t, fetch(t, s.addr, "/bin/data.bin", nil, nil))
	if got != strings.Repeat("\x01", 4096) {
		t.Errorf("got %d bytes", len(got))
	}
	gif := readAll(t, fetch(t, s.addr, "/bin/pixel.gif", nil, nil))
	if !strings.HasPrefix(gif, "GIF89a") {
		t.Errorf("gif %q", gif)
	}
}

func TestRealPygopherdSearch(t *testing.T) {
	s := pygopherd(t)
	items := menu(t, fetch(t, s.addr, "/map/search", str("foo bar"), nil))
	if len(items) != 2 || items[0].Display != "results for: foo bar" || items[1].Display != "match for foo bar" || items[1].Selector != "/hello.txt" {
		t.Errorf("search menu %q", lines(items))
	}
	// With Gopher+: "+-2" header, yet the script's "." still ends the menu.
	r := fetch(t, s.addr, "/map/search", str("foo bar"), str("+"))
	if !r.Plus || r.Length != LengthClose {
		t.Errorf("Plus %v Length %d", r.Plus, r.Length)
	}
	if items := menu(t, r); len(items) != 2 {
		t.Errorf("gopher+ search menu %q", lines(items))
	}
}

func TestRealPygopherdPlus(t *testing.T) {
	s := pygopherd(t)
	r := fetch(t, s.addr, "/hello.txt", nil, str("+"))
	if !r.Plus || r.Length != 20 {
		t.Errorf("Plus %v Length %d, want true 20", r.Plus, r.Length)
	}
	if got := readAll(t, r); got != "Hello from gopher.\r\n" {
		t.Errorf("body %q", got)
	}
	r = fetch(t, s.addr, "/bin/data.bin", nil, str("+"))
	if got := readAll(t, r); r.Length != 4096 || got != strings.Repeat("\x01", 4096) {
		t.Errorf("Length %d, %d bytes", r.Length, len(got))
	}
	r = fetch(t, s.addr, "", nil, str("+"))
	if r.Length != LengthClose || len(menu(t, r)) != 6 {
		t.Errorf("gopher+ root menu: Length %d", r.Length)
	}

	var c Client
	_, err := c.Fetch(testCtx(t), s.addr, "/nonexist", nil, str("+"))
	var pe *PlusError
	if !errors.As(err, &pe) || pe.Code != 1 || pe.Contact != "Test Admin <admin@example.invalid>" || !strings.Contains(pe.Msg, "does not exist") {
		t.Fatalf("err = %#v (%v), want PlusError code 1", pe, err)
	}
	// Plain Gopher: the error comes as a type 3 menu item.
	items := menu(t, fetch(t, s.addr, "/nonexist", nil, nil))
	if len(items) != 1 || items[0].Type != TypeError {
		t.Errorf("plain error %q", lines(items))
	}
}

func TestRealPygopherdAttributes(t *testing.T) {
	s := pygopherd(t)
	blocks, err := fetch(t, s.addr, "/hello.txt", nil, str("!")).Attributes()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range blocks {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, []string{"INFO", "ADMIN", "VIEWS", "ABSTRACT"}) {
		t.Fatalf("blocks %q", names)
	}
	if it, err := blocks[0].Item(); err != nil || it.Selector != "/hello.txt" || it.Port != s.port {
		t.Errorf("INFO %#v, %v", it, err)
	}
	if !slices.Contains(blocks[1].Lines, "Admin: Test Admin <admin@example.invalid>") {
		t.Errorf("ADMIN %q", blocks[1].Lines)
	}
	if !slices.Equal(blocks[3].Lines, []string{"This is the abstract of hello.txt"}) {
		t.Errorf("ABSTRACT %q", blocks[3].Lines)
	}

	blocks, err = fetch(t, s.addr, "/form.txt", nil, str("!")).Attributes()
	if err != nil || len(blocks) != 4 || blocks[3].Name != "ASK" {
		t.Fatalf("form attributes %#v, %v", blocks, err)
	}
	qs := blocks[3].Questions()
	if len(qs) != 2 || qs[0].Kind != "Ask" || qs[0].Prompt != "What is your name?" ||
		qs[1].Kind != "Choose" || !slices.Equal(qs[1].Defaults, []string{"red", "green", "blue"}) {
		t.Errorf("questions %#v", qs)
	}

	// "$": the attributes of every item of the menu.
	blocks, err = fetch(t, s.addr, "", nil, str("$")).Attributes()
	if err != nil {
		t.Fatal(err)
	}
	var infos []string
	for _, b := range blocks {
		if b.Name == "INFO" {
			it, _ := b.Item()
			infos = append(infos, it.Selector)
		}
	}
	if !slices.Equal(infos, []string{"/bin", "/docs", "/empty", "/form.txt", "/hello.txt", "/map"}) {
		t.Errorf("$ INFO selectors %q", infos)
	}
}

// pygopherd serves +ASK blocks but does not process submissions: it
// answers "sel TAB + TAB 1" like a plain request, without a Gopher+ header.
func TestRealPygopherdSubmitAsk(t *testing.T) {
	s := pygopherd(t)
	var c Client
	r, err := c.SubmitAsk(testCtx(t), s.addr, "/form.txt", []string{"Joe", "red"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := readAll(t, r); r.Plus || got != "A form document.\n" {
		t.Errorf("Plus %v body %q", r.Plus, got)
	}
}

func TestRealGophernicusMenu(t *testing.T) {
	s := gophernicus(t)
	raw := readAll(t, fetch(t, s.addr, "", nil, nil))
	if !strings.HasSuffix(raw, "\r\n.\r\n") {
		t.Errorf("gophernicus menu does not end with '.': %q", raw)
	}
	items := menu(t, fetch(t, s.addr, "", nil, nil))
	if len(items) != 7 {
		t.Fatalf("items %q", lines(items))
	}
	want := []string{
		"iTest gophernicus server\t\tnull.host\t1",
		"0Hello\t/hello.txt\t127.0.0.1\t" + s.port,
		"1Docs\t/docs/\t127.0.0.1\t" + s.port,
		"9Binary\t/bin/data.bin\t127.0.0.1\t" + s.port,
		"7Search\t/cgi-bin/search\t127.0.0.1\t" + s.port,
	}
	if got := lines(items)[:5]; !slices.Equal(got, want) {
		t.Errorf("menu:\n%q\nwant\n%q", got, want)
	}
	if it := items[6]; it.Type != TypeInfo || !strings.Contains(it.Display, "Gophered by Gophernicus") {
		t.Errorf("footer %#v", it)
	}
}

// Gophernicus encodes spaces in generated selectors as "#040", only in
// the last path element; both forms are accepted in requests.
func TestRealGophernicusEncodedSelectors(t *testing.T) {
	s := gophernicus(t)
	var dir Item
	for _, it := range menu(t, fetch(t, s.addr, "/docs/", nil, nil)) {
		if strings.HasPrefix(it.Display, "sub dir") {
			dir = it
		}
	}
	if dir.Selector != "/docs/sub#040dir/" {
		t.Fatalf("sub dir item %#v", dir)
	}
	var file Item
	for _, it := range menu(t, fetch(t, s.addr, dir.Selector, nil, nil)) {
		if it.Type == TypeText {
			file = it
		}
	}
	if file.Selector != "/docs/sub dir/file#040with#040space.txt" {
		t.Fatalf("file item %#v", file)
	}
	for _, sel := range []string{file.Selector, "/docs/sub dir/file with space.txt"} {
		if got := readAll(t, fetch(t, s.addr, sel, nil, nil).Text()); got != "spaces in names\n" {
			t.Errorf("%q: %q", sel, got)
		}
	}
}

func TestRealGophernicusTextBinarySearch(t *testing.T) {
	s := gophernicus(t)
	if got := readAll(t, fetch(t, s.addr, "/hello.txt", nil, nil)); got != "Hello from gophernicus.\r\n" {
		t.Errorf("raw text %q (no '.' expected)", got)
	}
	if got := readAll(t, fetch(t, s.addr, "/hello.txt", nil, nil).Text()); got != "Hello from gophernicus.\n" {
		t.Errorf("Text %q", got)
	}
	if got := readAll(t, fetch(t, s.addr, "/bin/data.bin", nil, nil)); got != strings.Repeat("\x01", 4096) {
		t.Errorf("binary: %d bytes", len(got))
	}
	items := menu(t, fetch(t, s.addr, "/cgi-bin/search", str("foo bar"), nil))
	if len(items) != 2 || items[0].Display != "results for: foo bar" || items[1].Selector != "/hello.txt" {
		t.Errorf("search %q", lines(items))
	}
}

// Gophernicus has no Gopher+: the header is absent and the plain document
// comes back, which Response reports with Plus false.
func TestRealGophernicusIgnoresPlus(t *testing.T) {
	s := gophernicus(t)
	r := fetch(t, s.addr, "/hello.txt", nil, str("+"))
	if got := readAll(t, r); r.Plus || r.Length != LengthClose || got != "Hello from gophernicus.\r\n" {
		t.Errorf("Plus %v Length %d body %q", r.Plus, r.Length, got)
	}
	_, err := fetch(t, s.addr, "/hello.txt", nil, str("!")).Attributes()
	if !errors.Is(err, ErrMalformedAttributes) {
		t.Errorf("attributes from a plain server: %v, want ErrMalformedAttributes", err)
	}
}

func TestRealTrace(t *testing.T) {
	s := pygopherd(t)
	var buf bytes.Buffer
	c := Client{Trace: &buf}
	r, err := c.Fetch(testCtx(t), s.addr, "/map/search", str("a b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, r)
	r.Close()
	tr := buf.String()
	for _, want := range []string{"> /map/search\\ta b\n", "< iresults for: a b\\tfake\\t(NULL)\\t0\n", "< .\n"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%s", want, tr)
		}
	}
}

// Injection attempts are refused before connecting: the servers' request
// logs must not grow.
func TestRealInjectionRefused(t *testing.T) {
	marker := fmt.Sprintf("INJECTED%d", time.Now().UnixNano())
	attempts := []struct {
		sel          string
		search, plus *string
		offset       int
	}{
		{"/hello.txt\r\n/" + marker, nil, nil, 10},
		{"/hello.txt\n" + marker, nil, nil, 10},
		{"/hello.txt\t" + marker, nil, nil, 10}, // would become a search field
		{"/hello.txt\x00" + marker, nil, nil, 10},
		{"/map/search", str("x\t+"), nil, 1}, // would turn into Gopher+
		{"/map/search", str("x\r\n" + marker), nil, 1},
		{"/hello.txt", nil, str("+\t1"), 1}, // would turn into a data submission
	}
	for _, srv := range []func(*testing.T) server{pygopherd, gophernicus} {
		s := srv(t)
		before := logSize(t, s.log)
		var c Client
		for _, a := range attempts {
			r, err := c.Fetch(testCtx(t), s.addr, a.sel, a.search, a.plus)
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Offset != a.offset || !errors.Is(err, ErrUnsafeArg) {
				t.Errorf("Fetch(%q, %v, %v) = %v, want ArgError at %d", a.sel, a.search, a.plus, err, a.offset)
			}
			if r != nil {
				r.Close()
			}
		}
		if _, err := c.SubmitAsk(testCtx(t), s.addr, "/form.txt", []string{"ok", "x\r\n.\r\n" + marker}); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("SubmitAsk with CRLF in a value: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
		if after := logSize(t, s.log); after != before {
			t.Errorf("%s grew from %d to %d bytes: a refused request reached the server", s.log, before, after)
		}
		if b, _ := os.ReadFile(s.log); bytes.Contains(b, []byte(marker)) {
			t.Errorf("marker in %s", s.log)
		}
	}
}

func logSize(t *testing.T, path string) int64 {
	t.Helper()
	if path == "" {
		return 0
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
