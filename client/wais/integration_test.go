package wais

// Integration tests against the real freeWAIS-sf waisserver started by
// scripts/servers/start-wais.sh (WAIS_PORT, WAIS_DIR, WAIS_BIN). Without
// the variables they skip, or fail with URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type server struct {
	addr, port, dir, bin string
}

func waisServer(t *testing.T) server {
	t.Helper()
	env := wiretest.ServerEnv(t, "WAIS_PORT", "WAIS_DIR", "WAIS_BIN")
	return server{"127.0.0.1:" + env["WAIS_PORT"], env["WAIS_PORT"], env["WAIS_DIR"], env["WAIS_BIN"]}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

func dial(t *testing.T, d *Dialer, addr string) *Conn {
	t.Helper()
	c, err := d.Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func headlines(hits []Hit) []string {
	var hs []string
	for _, h := range hits {
		hs = append(hs, h.Headline)
	}
	return hs
}

func hitFor(t *testing.T, sr *SearchResponse, headline string) Hit {
	t.Helper()
	for _, h := range sr.Hits {
		if h.Headline == headline {
			return h
		}
	}
	t.Fatalf("no hit %q in %q", headline, headlines(sr.Hits))
	return Hit{}
}

// searchHit searches the test database for words and returns the hit
// with that headline.
func searchHit(t *testing.T, c *Conn, words, headline string) Hit {
	t.Helper()
	sr, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: words})
	if err != nil {
		t.Fatal(err)
	}
	return hitFor(t, sr, headline)
}

func TestIntegrationSearch(t *testing.T) {
	srv := waisServer(t)
	var trace bytes.Buffer
	c := dial(t, &Dialer{Trace: &trace}, srv.addr)
	req := &SearchRequest{Database: "test", SeedWords: "gopher"}
	sr, err := c.Search(testCtx(t), req)
	if err != nil {
		t.Fatal(err)
	}
	got := headlines(sr.Hits)
	slices.Sort(got)
	if want := []string{"Alpha document about gophers", "Gamma document about the web"}; !slices.Equal(got, want) {
		t.Fatalf("hits %q, want %q", got, want)
	}
	alpha := hitFor(t, sr, "Alpha document about gophers")
	file, err := os.ReadFile(filepath.Join(srv.dir, "corpus", "alpha.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if alpha.Length != int64(len(file)) || alpha.Lines != 3 || !slices.Equal(alpha.Types, []string{"TEXT"}) || alpha.Score <= 0 {
		t.Errorf("alpha hit %+v (file: %d bytes)", alpha, len(file))
	}
	fs, err := ParseDocID(alpha.DocID)
	if err != nil || len(fs) == 0 || !strings.HasSuffix(string(fs[0].Value), ":"+srv.port) {
		t.Errorf("DocID fields %+v, %v", fs, err)
	}
	// the trace shows exactly the bytes Marshal gives (the plan's view)
	msg, _ := req.Marshal()
	if first, _, _ := strings.Cut(trace.String(), "\n"); first != "> "+FormatMessage(msg) {
		t.Errorf("trace %q\nwant  %q", first, "> "+FormatMessage(msg))
	}
	if r := sr.Hits; r[0].Score < r[len(r)-1].Score {
		t.Errorf("hits not by score: %+v", r)
	}
}

// The server's own client, waissearch, sees the same hits.
func TestIntegrationSearchMatchesWaissearch(t *testing.T) {
	srv := waisServer(t)
	cmd := exec.CommandContext(testCtx(t), filepath.Join(srv.bin, "waissearch"), "-h", "127.0.0.1", "-p", srv.port, "-d", "test", "wais")
	cmd.Stdin = strings.NewReader("q\nq\n")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("waissearch: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`(?m)^\s+\d+: Score:\s+(\d+), lines:\s+(\d+) '(.*)'$`)
	var theirs []string
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		theirs = append(theirs, m[3]+" "+m[1]+" "+m[2])
	}
	c := dial(t, &Dialer{}, srv.addr)
	sr, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "wais"})
	if err != nil {
		t.Fatal(err)
	}
	var ours []string
	for _, h := range sr.Hits {
		ours = append(ours, h.Headline+" "+strconv.FormatInt(h.Score, 10)+" "+strconv.FormatInt(h.Lines, 10))
	}
	if len(ours) < 2 || !slices.Equal(ours, theirs) {
		t.Errorf("urlkit: %q\nwaissearch: %q\n%s", ours, theirs, out)
	}
}

func TestIntegrationInit(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	ir, err := c.Init(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ir.Accepted || ir.MaximumRecordSize <= 0 || !strings.Contains(ir.ImplementationVersion, "2.2") {
		t.Errorf("init response %+v", ir)
	}
	// and the connection goes on
	if _, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "wais"}); err != nil {
		t.Fatal(err)
	}
}

func TestIntegrationRetrieve(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{ChunkSize: 10000}, srv.addr)
	for _, word := range []string{"gopher", "zeppelin"} {
		sr, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: word})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range sr.Hits {
			_, local, _ := bytes.Cut(h.DocID, []byte("/corpus/"))
			file, err := os.ReadFile(filepath.Join(srv.dir, "corpus", string(local[:bytes.IndexByte(local, 0x04)])))
			if err != nil {
				t.Fatal(err)
			}
			for _, length := range []int64{h.Length, -1} {
				got, err := io.ReadAll(c.Open(testCtx(t), "test", h.DocID, h.Types[0], length))
				if err != nil {
					t.Fatalf("%s (length %d): %v", h.Headline, length, err)
				}
				if !bytes.Equal(got, file) {
					t.Errorf("%s (length %d): %d bytes, want the %d of the file", h.Headline, length, len(got), len(file))
				}
			}
		}
	}
}

// OpenRequest sends the caller's requests: the first chunk's as it is,
// the second's as it is, and for each chunk after it the second's with
// its range moved on, what it asks besides the range (here a reference
// ID) kept. The big document takes three chunks of 32 KiB.
func TestIntegrationOpenRequest(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	big := searchHit(t, c, "zeppelin", "Big document for chunked retrieval")
	const chunk = 32 << 10
	req := TextRequest{Database: "test", DocID: big.DocID, Type: "TEXT", Start: 0, End: chunk}
	first, _ := req.Marshal()
	req.Start, req.End, req.ReferenceID = chunk, 2*chunk, []byte("second")
	next, _ := req.Marshal()
	req.Start, req.End = 2*chunk, 3*chunk
	third, _ := req.Marshal()

	rel := wiretest.NewRelay(t, srv.addr)
	c2 := dial(t, &Dialer{}, rel.Addr())
	rc, err := c2.OpenRequest(testCtx(t), first, next, -1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	c2.Close()
	file, err := os.ReadFile(filepath.Join(srv.dir, "corpus", "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(file) <= 2*chunk || len(file) > 3*chunk {
		t.Fatalf("big.txt has %d bytes, not three chunks", len(file))
	}
	if !bytes.Equal(got, file) {
		t.Errorf("%d bytes, want the %d of big.txt", len(got), len(file))
	}
	if wire, want := rel.Sent(t), slices.Concat(first, next, third); !bytes.Equal(wire, want) {
		t.Errorf("the wire:\n%q\nwant:\n%q", wire, want)
	}
	// A second chunk that does not follow the first is refused.
	if _, err := c.OpenRequest(testCtx(t), first, third, -1); !errors.Is(err, ErrMalformed) {
		t.Errorf("OpenRequest with a gap: %v", err)
	}
}

func TestIntegrationRetrieveRange(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	alpha := searchHit(t, c, "gopher", "Alpha document about gophers")
	text, err := c.Text(testCtx(t), &TextRequest{Database: "test", DocID: alpha.DocID, Type: "TEXT", Start: 6, End: 14})
	if err != nil || string(text) != "document" {
		t.Errorf("bytes [6, 14): %q, %v", text, err)
	}
	_, err = c.Text(testCtx(t), &TextRequest{Database: "test", DocID: alpha.DocID, Type: "TEXT", Start: 5000, End: 6000})
	var d *Diagnostic
	if !errors.As(err, &d) || d.Code != "SF" {
		t.Errorf("range past the end: %v, want diagnostic SF", err)
	}
}

func TestIntegrationDiagnostic(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	_, err := c.Search(testCtx(t), &SearchRequest{Database: "nosuch", SeedWords: "x"})
	var d *Diagnostic
	if !errors.As(err, &d) || !errors.Is(err, ErrDiagnostic) || d.Code != "S1" || !strings.Contains(d.AddInfo, "nosuch") {
		t.Fatalf("err = %v", err)
	}
	// a diagnostic is an answer, not a broken connection
	if _, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "wais"}); err != nil {
		t.Fatal(err)
	}
}

func TestIntegrationRelevanceFeedback(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	sr, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if got := headlines(sr.Hits); !slices.Equal(got, []string{"Gamma document about the web"}) {
		t.Fatalf("web: %q", got)
	}
	sr, err = c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "rodents"})
	if err != nil {
		t.Fatal(err)
	}
	alpha := hitFor(t, sr, "Alpha document about gophers")
	// "web" plus alpha as relevant: alpha's words pull it in, and first
	for _, ref := range []DocRef{{DocID: alpha.DocID, Type: "TEXT"}, {DocID: alpha.DocID, Type: "TEXT", Start: 0, End: alpha.Length}} {
		sr, err = c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "web", Documents: []DocRef{ref}})
		if err != nil {
			t.Fatal(err)
		}
		if got := headlines(sr.Hits); len(got) < 2 || got[0] != "Alpha document about gophers" || !slices.Contains(got, "Gamma document about the web") {
			t.Errorf("web + alpha %+v: %q", ref, got)
		}
	}
}

func TestIntegrationSource(t *testing.T) {
	srv := waisServer(t)
	c := dial(t, &Dialer{}, srv.addr)
	src, err := c.Source(testCtx(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(src.DatabaseName, "/test") || !strings.Contains(src.Description, "alpha.txt") || !strings.Contains(src.Text, "(:source") {
		t.Errorf("source %+v", src)
	}
	if _, err := c.Source(testCtx(t), "nosuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("source of a missing database: %v", err)
	}
}
