package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/normalize"
	"github.com/urlkit/urlkit/scale/records"
)

// scan runs one pipeline's per-file work (the scanFn DoFn's, without
// Beam) over data named name.
func scan(t *testing.T, o Options, name string, data []byte) (*scanner, error) {
	t.Helper()
	o.Inputs, o.Output = []string{name}, "x"
	if err := o.Check(); err != nil {
		t.Fatal(err)
	}
	s, err := newScanner(&o)
	if err != nil {
		t.Fatal(err)
	}
	return s, s.scanFile(name, bytes.NewReader(data))
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestScanHosts(t *testing.T) {
	s, err := scan(t, Options{Pipeline: Hosts}, "list.txt", []byte("HTTP://WWW.Example.COM:80/a\nhttp://www.example.com/b\n\nmailto:a@b.example\nhttp://exa mple/\nhttps://me.blogspot.com/\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.rows.n["www.example.com"] != 2 || s.rows.n["me.blogspot.com"] != 1 || s.rows.len() != 2 || s.stats.Invalid != 2 || s.stats.URLs != 3 {
		t.Fatalf("rows %v stats %+v", s.rows.n, s.stats)
	}
	s, _ = scan(t, Options{Pipeline: Hosts, By: "suffix"}, "list.txt", []byte("http://a.example.co.uk/\nhttp://b.example.co.uk/\nhttp://me.blogspot.com/\n"))
	if s.rows.n["co.uk"] != 2 || s.rows.n["com"] != 1 {
		t.Fatalf("suffixes %v", s.rows.n)
	}
}

func TestDomains(t *testing.T) {
	for host, want := range map[string][3]string{
		"www.example.co.uk": {"co.uk", "example.co.uk", "example.co.uk"},
		"me.blogspot.com":   {"com", "blogspot.com", "me.blogspot.com"},
		"blogspot.com":      {"com", "blogspot.com", "blogspot.com"},
		"192.0.2.1":         {"192.0.2.1", "192.0.2.1", "192.0.2.1"},
		"[2001:db8::1]":     {"[2001:db8::1]", "[2001:db8::1]", "[2001:db8::1]"},
		"localhost":         {"localhost", "localhost", "localhost"},
	} {
		s, r, p := domains(host)
		if [3]string{s, r, p} != want {
			t.Errorf("domains(%s) = %s %s %s, want %v", host, s, r, p, want)
		}
	}
	if got := reverseHost("www.example.com"); got != "com.example.www" {
		t.Errorf("reverseHost: %s", got)
	}
}

func TestScanCanonRow(t *testing.T) {
	s, err := scan(t, Options{Pipeline: Canon}, "list.txt", []byte("HTTP://WWW.Example.COM:8080/a/./b?z=1&a=2#f\n"))
	if err != nil {
		t.Fatal(err)
	}
	row := s.rows.aux["HTTP://WWW.Example.COM:8080/a/./b?z=1&a=2#f"] + "}"
	want := `{"url":"HTTP://WWW.Example.COM:8080/a/./b?z=1\u0026a=2#f","canonical":"http://www.example.com:8080/a/b?z=1\u0026a=2#f","surt":"com,example:8080)/a/b?a=2\u0026z=1","host_name":"www.example.com","host_name_reversed":"com.example.www","registered_domain":"example.com","registry_suffix":"com","private_domain":"example.com","protocol":"http","port":8080,"path":"/a/b","query":"z=1\u0026a=2"}`
	if row != want {
		t.Fatalf("row\n %s\nwant\n %s", row, want)
	}
}

// TestScanBadInput: each bad input stops the scan with an error naming
// the file and the offset, or with --skip-bad is counted.
func TestScanBadInput(t *testing.T) {
	list := strings.Repeat("http://example.com/page\n", 20000)
	cut := gzipped(list)
	cut = cut[:len(cut)/2]
	long := "http://a.example/\n" + strings.Repeat("x", 10<<20) + "\nhttp://b.example/\n"
	binary := []byte("http://a.example/\n\x00\x01\x02\xff\xfe binary\nhttp://b.example/\n")
	rec := string(records.AppendRecord(nil, "response", "http://example.com/", "application/http", []byte("0123456789")))
	lying := strings.Replace(rec, "Content-Length: 10", "Content-Length: 7", 1) + rec
	for _, c := range []struct {
		name, file string
		data       []byte
		o          Options
		cause      error
		// with --skip-bad: URLs counted, skipped, unread
		urls, skipped, unread int64
	}{
		{"truncated gzip", "cut.txt.gz", cut, Options{Pipeline: Hosts}, records.ErrTruncated, -1, 0, 1},
		{"10 MB line", "long.txt", []byte(long), Options{Pipeline: Hosts}, records.ErrLineTooLong, 2, 1, 0},
		{"binary", "bin.txt", binary, Options{Pipeline: Canon}, records.ErrBinary, 2, 1, 0},
		{"lying Content-Length", "bad.warc", []byte(lying), Options{Pipeline: Hosts}, nil, 1, 0, 1},
		{"truncated text", "cut.txt.gz", cut, Options{Pipeline: Extract}, records.ErrTruncated, -1, 0, 1},
	} {
		_, err := scan(t, c.o, c.file, c.data)
		var e *records.Error
		if !errors.As(err, &e) || e.File != c.file || e.Offset <= 0 || c.cause != nil && !errors.Is(err, c.cause) {
			t.Errorf("%s: got %v, want an error naming %s and an offset", c.name, err, c.file)
		}
		c.o.SkipBad = true
		s, err := scan(t, c.o, c.file, c.data)
		if err != nil {
			t.Errorf("%s with --skip-bad: %v", c.name, err)
			continue
		}
		if c.urls >= 0 && s.stats.URLs != c.urls || c.urls < 0 && s.stats.URLs == 0 || s.stats.Skipped != c.skipped || s.stats.Unread != c.unread {
			t.Errorf("%s with --skip-bad: %+v", c.name, s.stats)
		}
	}
}

// TestPipelineBadInput runs a pipeline on Prism over a truncated file:
// the run fails, its error names the file, and no shard is written.
func TestPipelineBadInput(t *testing.T) {
	dir := t.TempDir()
	c := gzipped(strings.Repeat("http://example.com/page\n", 20000))
	name := filepath.Join(dir, "cut.txt.gz")
	write(t, name, c[:len(c)/2])
	out := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Options{Pipeline: Hosts, Inputs: []string{name}, Output: out}); err != nil {
		t.Fatal(err)
	}
	_, err := beam.Run(context.Background(), "prism", p)
	if err == nil || !strings.Contains(err.Error(), name+": offset ") {
		t.Fatalf("got %v, want the file and offset", err)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Fatalf("a failed run left %v", ents)
	}
}

// TestWriteShard: the shard appears under its final name only when
// complete, and a failure leaves nothing.
func TestWriteShard(t *testing.T) {
	dir := t.TempDir()
	o := Options{Pipeline: Hosts, Inputs: []string{"x"}, Output: dir, Shards: 2}
	if err := o.Check(); err != nil {
		t.Fatal(err)
	}
	c := newCounts()
	c.add("b.example", 2, "")
	c.add("a.example", 1, "")
	runs, err := newRunWriter(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	defer runs.close()
	var names []string
	c.runs(1, 0, func(_ int, b []byte) {
		name, ok := runs.write(context.Background(), 1, b)
		if !ok {
			t.Fatal(runs.err)
		}
		names = append(names, name)
	})
	name, err := writeShard(context.Background(), &o, 1, names)
	if err != nil || name != filepath.Join(dir, "part-00001-of-00002.tsv.gz") {
		t.Fatalf("%s %v", name, err)
	}
	f, _ := os.Open(name)
	zr, _ := gzip.NewReader(f)
	var b bytes.Buffer
	b.ReadFrom(zr)
	f.Close()
	if b.String() != "a.example\t1\nb.example\t2\n" {
		t.Fatalf("shard holds %q", b.String())
	}
	if _, err := os.Stat(names[0]); err == nil {
		t.Errorf("the run %s merged is still there", names[0])
	}
	bad, _ := runs.write(context.Background(), 0, []byte{0xff})
	if _, err := writeShard(context.Background(), &o, 0, []string{bad}); err == nil {
		t.Fatal("a corrupt run is written")
	}
	if _, err := writeShard(context.Background(), &o, 0, []string{filepath.Join(dir, RunsDir, "gone.run")}); err == nil {
		t.Fatal("a missing run is written")
	}
	os.Remove(bad)
	os.Remove(filepath.Join(dir, RunsDir))
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("the directory holds %v", ents)
	}
}

// FuzzFoundParsed: for any text, every URL the extractor finds reads the
// same when normalized as the extractor parsed it (the pipeline's path in
// the RFC3986 and Lenient modes) and when its canonical text is parsed
// again in the mode, as urlkit normalize does after urlkit extract; and
// that text is valid in the mode.
func FuzzFoundParsed(f *testing.F) {
	for _, s := range []string{
		"see http://Example.COM:80/a/./b/../%7Euser?q=%41#F and <URL:ftp://h/p;type=a>",
		"<http://exa\n  mple.com/long/\n  path> and http://xn--bcher-kva.example/ä?ä",
		"http://[::FFFF:1.2.3.4]:8080/ mailto:A@B.example news:comp.lang.go telnet://u:p@h/",
		"http://h/%zz%2f%2F%2e%2E/ http://h:/ http://h:0080/ https://h/a b",
		`"http://h/q?a=1&b=2"; (http://h/x), http://h/y. http://h/é`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sc := (&extract.Config{}).NewScanner(strings.NewReader(text))
		for sc.Next() {
			canonical := string(sc.AppendURL(nil))
			for _, m := range []urlkit.Mode{urlkit.RFC3986, urlkit.Lenient} {
				fast := normalize.Normalize(sc.Parsed(), m)
				u, _, err := urlkit.ParseMode(canonical, m)
				if err != nil {
					t.Fatalf("%v: %q found, invalid: %v", m, canonical, err)
				}
				slow := normalize.Normalize(&u, m)
				if fast.String() != slow.String() {
					t.Fatalf("%v: %q normalizes to %q as parsed, %q parsed again", m, canonical, fast.String(), slow.String())
				}
			}
		}
	})
}
