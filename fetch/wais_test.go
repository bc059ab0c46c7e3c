package fetch

// The wais and prospero openers against the real servers
// (scripts/servers/start-wais.sh, start-prospero.sh), and their faults:
// a relay that breaks the real server's replies off, servers that send
// what no real one does.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/prospero"
	"github.com/urlkit/urlkit/internal/wiretest"
)

func getAll(t *testing.T, f *Fetcher, raw string) ([]byte, *Response, error) {
	t.Helper()
	u, _, err := urlkit.ParseMode(raw, urlkit.RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.Fetch(testCtx(t), &u)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	return b, resp, err
}

func TestWAISSearchThenDocument(t *testing.T) {
	env := wiretest.ServerEnv(t, "WAIS_PORT", "WAIS_DIR", "WAIS_BIG_SIZE")
	addr := "127.0.0.1:" + env["WAIS_PORT"]
	f := &Fetcher{Getenv: noEnv(), WAIS: WAISOpener{JSON: true}}
	b, resp, err := getAll(t, f, "wais://"+addr+"/test?zeppelin")
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Listing || resp.ContentType != "application/json" {
		t.Errorf("listing %v, type %q", resp.Listing, resp.ContentType)
	}
	hits := decodeLines[struct {
		Length int64
		URL    string
	}](t, b)
	if len(hits) != 1 {
		t.Fatalf("hits %s", b)
	}
	want, err := os.ReadFile(filepath.Join(env["WAIS_DIR"], "corpus", "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if hits[0].Length != int64(len(want)) || !strings.HasPrefix(hits[0].URL, "wais://"+addr+"/test/TEXT/%") {
		t.Fatalf("hit %+v, want length %d", hits[0], len(want))
	}
	// The hit's URL retrieves the whole document (three chunks).
	var trace bytes.Buffer
	f.Trace = &trace
	doc, resp, err := getAll(t, f, hits[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, want) {
		t.Errorf("document: %d bytes, want the %d of big.txt", len(doc), len(want))
	}
	if n := strings.Count("\n"+trace.String(), "\n> "); n != 3 {
		t.Errorf("%d requests for an %d-byte document in chunks of 32 KiB", n, len(want))
	}
	if resp.ContentType != "text/plain" {
		t.Errorf("type %q", resp.ContentType)
	}
	// The same document in Lynx's form, with its length.
	path := waisDocPath(t, addr, "zeppelin", true)
	doc2, resp, err := getAll(t, f, "wais://"+addr+path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc2, want) || resp.Size != int64(len(want)) {
		t.Errorf("Lynx form: %d bytes (size %d), want %d", len(doc2), resp.Size, len(want))
	}
}

func TestWAISSearchText(t *testing.T) {
	env := wiretest.ServerEnv(t, "WAIS_PORT")
	f := &Fetcher{Getenv: noEnv()}
	b, _, err := getAll(t, f, "wais://127.0.0.1:"+env["WAIS_PORT"]+"/test?gopher")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"2 hits", "Alpha document about gophers", "score ", "3 lines", "137 bytes", "wais://127.0.0.1:" + env["WAIS_PORT"] + "/test/TEXT/%01"} {
		if !bytes.Contains(b, []byte(w)) {
			t.Errorf("hit list lacks %q:\n%s", w, b)
		}
	}
}

func TestWAISDatabaseAsks(t *testing.T) {
	env := wiretest.ServerEnv(t, "WAIS_PORT")
	var asked []string
	f := &Fetcher{Getenv: noEnv(), Prompt: func(_ context.Context, p Prompt) (string, error) {
		asked = append(asked, p.Text)
		return "web", nil
	}}
	b, _, err := getAll(t, f, "wais://127.0.0.1:"+env["WAIS_PORT"]+"/test")
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || !bytes.Contains(b, []byte("Gamma document about the web")) {
		t.Errorf("asked %q, got %s", asked, b)
	}
}

// breakingRelay relays to target and closes the connection once the
// server has sent after bytes.
func breakingRelay(t *testing.T, target string, after int) string {
	return (&wiretest.Relay{Target: target, CutAfter: int64(after)}).Start(t).Addr()
}

func TestWAISFaults(t *testing.T) {
	env := wiretest.ServerEnv(t, "WAIS_PORT")
	addr := "127.0.0.1:" + env["WAIS_PORT"]
	path := waisDocPath(t, addr, "zeppelin", false)
	// The real server's answer broken off in the second chunk.
	cut := breakingRelay(t, addr, 40000)
	f := &Fetcher{Getenv: noEnv()}
	b, _, err := getAll(t, f, "wais://"+cut+path)
	if !errors.Is(err, ErrShortTransfer) {
		t.Errorf("document broken off: %v (%d bytes), want ErrShortTransfer", err, len(b))
	}
	// A search reply cut inside its APDU.
	cut = breakingRelay(t, addr, 60)
	if _, _, err := getAll(t, f, "wais://"+cut+"/test?gopher"); !errors.Is(err, ErrShortTransfer) {
		t.Errorf("search reply cut: %v, want ErrShortTransfer", err)
	}
	// Headers no server sends: an absurd length, a malformed header.
	for _, tc := range []struct {
		name, reply string
		kind        error
	}{
		{"absurd length", "9999999999z2wais        0", ErrProtocol},
		{"not a WAIS header", "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nhello", ErrProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeWAIS(t, tc.reply)
			_, _, err := getAll(t, f, "wais://"+srv+"/test?gopher")
			if !errors.Is(err, tc.kind) {
				t.Errorf("%v, want %v", err, tc.kind)
			}
		})
	}
}

// fakeWAIS reads a request, answers it with reply and closes.
func fakeWAIS(t *testing.T, reply string) string {
	readRequest := wiretest.Func(func(s *wiretest.Session) error {
		_, err := s.Conn.Read(make([]byte, 4096))
		return err
	})
	return wiretest.Start(t, readRequest, wiretest.SendRaw(reply), wiretest.Close()).Addr()
}

func TestProsperoListingAndFile(t *testing.T) {
	env := wiretest.ServerEnv(t, "PROSPERO_PORT", "PROSPERO_MANY")
	addr := "127.0.0.1:" + env["PROSPERO_PORT"]
	f := &Fetcher{Getenv: noEnv(), Prospero: ProsperoOpener{JSON: true}}
	b, resp, err := getAll(t, f, "prospero://"+addr+"/AFTP/pub/many")
	if err != nil {
		t.Fatal(err)
	}
	entries := decodeLines[map[string]string](t, b)
	if !resp.Listing || len(entries) != 300 || env["PROSPERO_MANY"] != "300" {
		t.Errorf("%d entries of %s, listing %v", len(entries), env["PROSPERO_MANY"], resp.Listing)
	}
	// The same as the client's own listing (the client is compared with
	// vls in its tests).
	var c prospero.Client
	links, err := c.List(testCtx(t), addr, "AFTP/pub", nil, []string{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err = getAll(t, f, "prospero://"+addr+"/AFTP/pub")
	if err != nil {
		t.Fatal(err)
	}
	entries = decodeLines[map[string]string](t, b)
	if len(entries) != len(links) {
		t.Fatalf("%d entries, the client lists %d", len(entries), len(links))
	}
	for i, e := range entries {
		if e["name"] != links[i].Name || e["hsoname"] != links[i].Hsoname || e["target"] != links[i].Target || e["size"] == "" || e["modified"] == "" {
			t.Errorf("entry %+v, link %+v", e, links[i])
		}
		if e["url"] == "" {
			t.Errorf("entry %q has no URL", e["name"])
		}
	}
	// Each file's URL gives its contents.
	for _, e := range entries {
		if e["name"] != "it's here.txt" {
			continue
		}
		b, _, err := getAll(t, f, e["url"])
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %q, %v", e["url"], b, err)
		}
	}
}

func TestProsperoRefusals(t *testing.T) {
	// A silent server: nothing may reach it for a refused URL.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	var mu sync.Mutex
	got := 0
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			mu.Lock()
			got++
			mu.Unlock()
		}
	}()
	addr := pc.LocalAddr().String()
	f := &Fetcher{Getenv: noEnv(), Prospero: ProsperoOpener{Client: &prospero.Client{RetryTimeout: 50 * time.Millisecond, Retries: 1}}}
	for _, tc := range []struct {
		path string
		kind error
	}{
		{"/AFTP/pub/a%0Db", ErrUnsafe},
		{"/AFTP/pub/a%0Ab", ErrUnsafe},
		{"/AFTP/pub/x;version=two", ErrUnsupportedScheme},
		{"/AFTP/pub/x;owner=me", ErrUnsupportedScheme},
		{"/AFTP/pub/x%00one", ErrUnsupportedScheme},
		{"/AFTP/pub/x%00%00attr", ErrUnsupportedScheme},
	} {
		if _, _, err := getAll(t, f, "prospero://"+addr+tc.path); !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.path, err, tc.kind)
		}
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	if got != 0 {
		t.Errorf("%d datagrams sent for refused URLs", got)
	}
	mu.Unlock()
	// version 0 is the current version: sent, and unanswered.
	if _, _, err := getAll(t, f, "prospero://"+addr+"/AFTP/pub;version=0"); !errors.Is(err, ErrTimeout) {
		t.Errorf("a silent server: %v, want ErrTimeout", err)
	}
	mu.Lock()
	if got == 0 {
		t.Error("nothing sent for ;version=0")
	}
	mu.Unlock()
}

func TestFTPTarget(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{[]string{"AFTP", "INTERNET-D", "127.0.0.1", "ASCII", "/pub/it's here.txt", "BINARY"}, "ftp://127.0.0.1/pub/it%27s%20here.txt;type=i"},
		{[]string{"AFTP", "INTERNET-D", "ftp.example(2121)", "ASCII", "/a/b", "TEXT"}, "ftp://ftp.example:2121/a/b;type=a"},
		{[]string{"LOCAL", "", "", "", ""}, ""},
		{[]string{"AFTP", "INTERNET-D", "h(x)", "ASCII", "/a", "TEXT"}, ""},
		{[]string{"AFTP", "INTERNET-D", "h", "ASCII", "relative", "TEXT"}, ""},
		{[]string{"FTP", "INTERNET-D", "h", "ASCII", "/a", "TEXT"}, ""},
	} {
		got := ftpTarget([]prospero.Attribute{{Name: "ACCESS-METHOD", Values: tc.values}})
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.values, got, tc.want)
		}
		if got != "" {
			if _, err := urlkit.Parse(got); err != nil {
				t.Errorf("%q: %v", got, err)
			}
		}
	}
}
