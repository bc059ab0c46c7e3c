package records

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

func gz(t testing.TB, members ...string) []byte {
	var b bytes.Buffer
	for _, m := range members {
		w := gzip.NewWriter(&b)
		w.Write([]byte(m))
		w.Close()
	}
	return b.Bytes()
}

func lines(t *testing.T, name string, data []byte) ([]string, error) {
	in, err := NewInput(name, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var got []string
	for {
		l, err := in.Line()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, string(l))
	}
}

func TestLinesPlainAndMultiMemberGzip(t *testing.T) {
	want := []string{"http://a/", "http://b/", "", "http://c/"}
	for name, data := range map[string][]byte{
		"plain":        []byte("http://a/\r\nhttp://b/\n\nhttp://c/"),
		"gzip":         gz(t, "http://a/\r\nhttp://b/\n\nhttp://c/"),
		"multi-member": gz(t, "http://a/\r\nhttp://", "b/\n\n", "http://c/"),
	} {
		got, err := lines(t, name, data)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: got %q, %v; want %q", name, got, err, want)
		}
	}
}

func TestTruncatedGzipNamesFileAndOffset(t *testing.T) {
	data := gz(t, strings.Repeat("http://example.com/page\n", 10000))
	_, err := lines(t, "cut.gz", data[:len(data)/2])
	var e *Error
	if !errors.As(err, &e) || e.File != "cut.gz" || e.Offset <= 0 || !errors.Is(err, ErrTruncated) {
		t.Fatalf("truncated gzip: got %v", err)
	}
}

func TestLongLineAndBinary(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	in, _ := NewInput("long.txt", strings.NewReader("http://a/\n"+long+"\nhttp://b/\n"))
	if l, err := in.Line(); err != nil || string(l) != "http://a/" {
		t.Fatalf("first line: %q %v", l, err)
	}
	_, err := in.Line()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrLineTooLong) || e.Offset != 10 {
		t.Fatalf("10 MB line: got %v", err)
	}
	if err := in.SkipLine(); err != nil {
		t.Fatal(err)
	}
	if l, err := in.Line(); err != nil || string(l) != "http://b/" {
		t.Fatalf("after the skipped line: %q %v", l, err)
	}
	in, _ = NewInput("bin", strings.NewReader("ok\nab\x00cd\n"))
	in.Line()
	if _, err := in.Line(); !errors.Is(err, ErrBinary) || !errors.As(err, &e) || e.Offset != 5 {
		t.Fatalf("binary: got %v", err)
	}
}

func TestWARC(t *testing.T) {
	var b []byte
	b = AppendRecord(b, "warcinfo", "", "application/warc-fields", []byte("software: test\r\n"))
	b = AppendRecord(b, "response", "<http://example.com/>", "application/http", []byte("HTTP/1.1 200 OK\r\n\r\nhello"))
	b = AppendRecord(b, "conversion", "http://example.org/x", "text/plain", []byte("see http://a.example/ now"))
	for _, data := range [][]byte{b, gz(t, string(b[:100]), string(b[100:]))} {
		in, err := NewInput("x.warc.gz", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		w := in.WARC()
		var got []string
		for {
			r, err := w.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r.Type+" "+r.TargetURI)
			if r.Type == "conversion" {
				body, err := w.Body()
				if err != nil || string(body) != "see http://a.example/ now" {
					t.Fatalf("body %q %v", body, err)
				}
			}
		}
		want := "warcinfo |response http://example.com/|conversion http://example.org/x"
		if strings.Join(got, "|") != want {
			t.Errorf("got %q want %q", got, want)
		}
	}
}

func TestWARCContentLengthLies(t *testing.T) {
	rec := string(AppendRecord(nil, "response", "http://example.com/", "", []byte("0123456789")))
	for name, data := range map[string]string{
		"too short": strings.Replace(rec, "Content-Length: 10", "Content-Length: 8", 1),
		"too long":  strings.Replace(rec, "Content-Length: 10", "Content-Length: 99", 1),
		"missing":   strings.Replace(rec, "Content-Length: 10\r\n", "", 1),
	} {
		w := func() *WARCReader { in, _ := NewInput("bad.warc", strings.NewReader(data)); return in.WARC() }()
		var err error
		for err == nil {
			_, err = w.Next()
		}
		var e *Error
		if !errors.As(err, &e) || e.File != "bad.warc" {
			t.Errorf("%s: got %v, want an *Error naming the file", name, err)
		}
	}
}

func TestCDX(t *testing.T) {
	var c CDXReader
	for _, v := range []struct{ line, url string }{
		{`com,example)/ 20240101000000 {"url": "https://www.example.com/", "mime": "text/html", "status": "200"}`, "https://www.example.com/"},
		{`org,archive)/a 20240101000000 http://archive.org/a text/html 200 AAAA - - 123 456 f.warc.gz`, "http://archive.org/a"},
		{` CDX N b m a s`, ""},
		{`org,archive)/b 20240101000000 text/html http://archive.org/b 200`, "http://archive.org/b"},
	} {
		u, ok, err := c.URL([]byte(v.line))
		if err != nil || ok != (v.url != "") || string(u) != v.url {
			t.Errorf("%s: got %q %v %v", v.line, u, ok, err)
		}
	}
	if _, _, err := c.URL([]byte("lonely")); err == nil {
		t.Error("a one-field line is accepted")
	}
}

func TestParseWAT(t *testing.T) {
	w, err := ParseWAT([]byte(`{"Envelope":{"WARC-Header-Metadata":{"WARC-Target-URI":"http://a.example/p"},
	"Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Head":{"Base":"http://b.example/",
	"Link":[{"path":"LINK@/href","url":"/style.css"}]},"Links":[{"path":"A@/href","url":"http://c.example/"},{"path":"A@/href"}]}}}}}`))
	if err != nil || w.TargetURI != "http://a.example/p" || w.Base != "http://b.example/" || strings.Join(w.Links, " ") != "/style.css http://c.example/" {
		t.Fatalf("got %+v %v", w, err)
	}
	if _, err := ParseWAT([]byte("not json")); err == nil {
		t.Error("not JSON is accepted")
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]Format{
		"CC-MAIN-x.warc.gz": WARC, "CC-MAIN-x.warc.wat.gz": WAT, "CC-MAIN-x.warc.wet.gz": WET,
		"cdx-00000.gz": 0, "index.cdx": CDX, "a.cdxj.gz": CDX,
	} {
		f, ok := FormatOf(name)
		if ok != (name != "cdx-00000.gz") || f != want {
			t.Errorf("%s: %v %v", name, f, ok)
		}
	}
}
