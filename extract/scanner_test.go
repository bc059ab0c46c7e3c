package extract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urlkit/urlkit"
)

// scanAll runs a Scanner over r and returns its items and problems.
func scanAll(t testing.TB, c Config, r io.Reader) ([]Item, []Problem, error) {
	t.Helper()
	var problems []Problem
	c.Problem = func(p Problem) { problems = append(problems, p) }
	s := c.NewScanner(r)
	var items []Item
	for s.Next() {
		if s.URL() != s.Item().URL {
			t.Fatalf("URL() %q != Item().URL %q", s.URL(), s.Item().URL)
		}
		items = append(items, s.Item())
	}
	return items, problems, s.Err()
}

// chunkReader returns its data in reads of the given sizes, in turn.
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(r.sizes[r.i%len(r.sizes)], len(p), len(r.data))
	r.i++
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// streamText is text whose candidates straddle many read boundaries.
func streamText() string {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "Line %d: see http://host%d.example/path/%s?q=%d, and <URL:ftp://info.cern.ch/pub/www/doc;\r\n   type=d> or (news:comp.infosystems.www).\n", i, i, strings.Repeat("x", i%37), i)
		fmt.Fprintf(&b, "%s e.g.https://a.example/ <http://ds.inter-\n   nic.net/> mailto:timbl@info.cern.ch. 12:30 <p> <timbl@info.cern.ch>\n", strings.Repeat("word ", i%11))
		if i%10 == 3 {
			b.WriteString("> quoted: <URL:ftp://ds.internic.net/internet-drafts/draft-ietf-uri-url-\r\n>\u00a0 08.txt>\n")
		}
		if i%50 == 7 {
			b.WriteString("<URL:http://never.closed/ " + strings.Repeat("y", 300) + "\n")
			b.WriteString("http://long.example/" + strings.Repeat("z", 300) + " ok\n")
		}
	}
	return b.String()
}

// TestChunking: the result does not depend on how the reader splits the
// input, nor on whether the text comes from FindAll or a Scanner.
func TestChunking(t *testing.T) {
	text := streamText()
	for _, max := range []int{0, 100, 257} {
		c := Config{MaxLength: max}
		var want []Problem
		c.Problem = func(p Problem) { want = append(want, p) }
		wantItems := c.FindAll(text)
		if len(wantItems) < 500 || (max > 0 && len(want) == 0) {
			t.Fatalf("max %d: only %d items, %d problems", max, len(wantItems), len(want))
		}
		readers := map[string]func() io.Reader{
			"whole":      func() io.Reader { return strings.NewReader(text) },
			"one byte":   func() io.Reader { return iotest.OneByteReader(strings.NewReader(text)) },
			"half":       func() io.Reader { return iotest.HalfReader(strings.NewReader(text)) },
			"data+EOF":   func() io.Reader { return iotest.DataErrReader(strings.NewReader(text)) },
			"odd chunks": func() io.Reader { return &chunkReader{data: []byte(text), sizes: []int{1, 7, 3, 64, 2, 1000, 5}} },
		}
		for name, r := range readers {
			items, problems, err := scanAll(t, Config{MaxLength: max}, r())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(items, wantItems) {
				for i := range min(len(items), len(wantItems)) {
					if !reflect.DeepEqual(items[i], wantItems[i]) {
						t.Fatalf("max %d, %s: item %d = %+v, want %+v", max, name, i, items[i], wantItems[i])
					}
				}
				t.Fatalf("max %d, %s: %d items, want %d", max, name, len(items), len(wantItems))
			}
			if !reflect.DeepEqual(problems, want) {
				t.Fatalf("max %d, %s: problems %v, want %v", max, name, problems, want)
			}
		}
	}
}

// TestLentURLs: a Scanner lends an unrepaired URL from its buffer until
// URL or Item asks for it. Whichever of URL, Item and AppendURL a caller
// uses, and in whatever order, what it kept is still the URL FindAll
// gives after the buffer has been read into again, as are the problems.
func TestLentURLs(t *testing.T) {
	// Several times the buffer, with candidates the parser rejects: the
	// error names the candidate.
	text := strings.Repeat(streamText()+"see http://host:port/x or http://${req.url}/ or x-y:a/%zz\n", 12)
	var wantProblems []Problem
	want := (&Config{Problem: func(p Problem) { wantProblems = append(wantProblems, p) }}).FindAll(text)
	rejected := 0
	for _, p := range wantProblems {
		var ue *urlkit.Error
		if errors.As(p.Err, &ue) {
			rejected++
		}
	}
	if len(want) < 6000 || rejected < 24 {
		t.Fatalf("only %d items, %d rejected", len(want), rejected)
	}
	readers := map[string]func() io.Reader{
		"whole":      func() io.Reader { return strings.NewReader(text) },
		"odd chunks": func() io.Reader { return &chunkReader{data: []byte(text), sizes: []int{1, 7, 3, 64, 2, 1000, 5}} },
	}
	for name, r := range readers {
		// scan runs a Scanner to the end, calling use on each item.
		scan := func(use func(i int, s *Scanner)) []Problem {
			var problems []Problem
			s := (&Config{Problem: func(p Problem) { problems = append(problems, p) }}).NewScanner(r())
			i := 0
			for s.Next() {
				use(i, s)
				i++
			}
			if err := s.Err(); err != nil || i != len(want) {
				t.Fatalf("%s: %d items, %v", name, i, err)
			}
			return problems
		}
		urls := make([]string, len(want))
		scan(func(i int, s *Scanner) { urls[i] = s.URL() })
		var line []byte
		appended := make([]string, len(want))
		problems := scan(func(i int, s *Scanner) {
			line = s.AppendURL(line[:0])
			appended[i] = string(line)
		})
		for i := range want {
			if urls[i] != want[i].URL || appended[i] != want[i].URL {
				t.Fatalf("%s: item %d: URL kept %q, appended %q, want %q", name, i, urls[i], appended[i], want[i].URL)
			}
		}
		if !reflect.DeepEqual(problems, wantProblems) {
			t.Fatalf("%s: problems of a scan that only appends differ", name)
		}
		// An Item asked for after URLs were only appended (lent), then
		// kept while the scan reads on.
		for _, k := range []int{0, 1, 17, len(want) / 2, len(want) - 1} {
			var kept Item
			scan(func(i int, s *Scanner) {
				if i == k {
					kept = s.Item()
				} else {
					line = s.AppendURL(line[:0])
				}
			})
			if !reflect.DeepEqual(kept, want[k]) || kept.Parsed.String() != want[k].URL {
				t.Fatalf("%s: item %d kept as %+v, want %+v", name, k, kept, want[k])
			}
		}
	}
}

// TestCRLF: CRLF text gives the same URLs, lines and columns as LF text;
// offsets differ by the carriage returns before them.
func TestCRLF(t *testing.T) {
	lf := strings.ReplaceAll(streamText(), "\r\n", "\n")
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, b := FindAll(lf), FindAll(crlf)
	if len(a) != len(b) {
		t.Fatalf("LF %d items, CRLF %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.URL != y.URL || x.Alternative != y.Alternative || x.Line != y.Line || x.Column != y.Column ||
			y.Offset != x.Offset+int64(x.Line-1) {
			t.Fatalf("item %d: LF %+v, CRLF %+v", i, x, y)
		}
		if crlf[y.Offset] != lf[x.Offset] {
			t.Fatalf("item %d: offsets point at %q and %q", i, crlf[y.Offset], lf[x.Offset])
		}
	}
}

// endless is a reader of n bytes of one repeated pattern.
type endless struct {
	block []byte
	n     int64
}

func newEndless(pattern string, n int64) *endless {
	return &endless{block: []byte(strings.Repeat(pattern, (64<<10)/len(pattern))), n: n}
}

func (r *endless) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(int64(len(p)), r.n)], r.block)
	r.n -= int64(k)
	return k, nil
}

// TestBoundedMemory: a wrapper that never closes, and a URL that never
// ends, over 32 MiB: each is reported once, the scanner keeps its one
// buffer, and what follows is still found.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MiB of input")
	}
	for _, tc := range []struct {
		name, head, fill string
		cause            error
	}{
		{"unclosed wrapper", "<URL:http://a.example/", "aaaaaaaa ", ErrUnclosed},
		{"endless URL", "http://a.example/", "aaaaaaaaa", ErrTooLong},
	} {
		r := io.MultiReader(strings.NewReader(tc.head), newEndless(tc.fill, 32<<20), strings.NewReader(" and http://after.example/ ok"))
		var problems []Problem
		c := &Config{Problem: func(p Problem) { problems = append(problems, p) }}
		s := c.NewScanner(r)
		var got []string
		bufCap := -1
		for s.Next() {
			got = append(got, s.URL())
			if bufCap < 0 {
				bufCap = cap(s.buf)
			} else if cap(s.buf) != bufCap {
				t.Fatalf("%s: buffer grew from %d to %d", tc.name, bufCap, cap(s.buf))
			}
		}
		if cap(s.buf) > DefaultMaxLength+chunk+keepBehind+slack {
			t.Errorf("%s: buffer of %d bytes", tc.name, cap(s.buf))
		}
		if len(problems) != 1 || !errors.Is(problems[0].Err, tc.cause) || problems[0].Offset != 0 {
			t.Errorf("%s: problems %v", tc.name, problems)
		}
		want := "http://after.example/"
		if tc.name == "unclosed wrapper" {
			// The wrapper's URL is found bare, up to the first space.
			want = "http://a.example/aaaaaaaa " + want
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: found %q", tc.name, got)
		}
	}
}

// TestReadError: what came before the error is scanned; Err returns it.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("see http://a.example/ and <URL:ftp://b.example/>"), iotest.ErrReader(boom))
	items, _, err := scanAll(t, Config{}, r)
	if !errors.Is(err, boom) || fmt.Sprint(urls(items)) != "[http://a.example/ ftp://b.example/]" {
		t.Errorf("items %q, err %v", urls(items), err)
	}
	// A reader that returns nothing forever.
	items, _, err = scanAll(t, Config{}, iotest.TimeoutReader(&stuck{}))
	if !errors.Is(err, io.ErrNoProgress) && !errors.Is(err, iotest.ErrTimeout) || len(items) != 0 {
		t.Errorf("stuck reader: items %v, err %v", items, err)
	}
}

type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

// TestLongLookback: a run of scheme characters longer than the look back
// before ':' is no scheme, except for a qualifying part after a dot.
func TestLongLookback(t *testing.T) {
	long := strings.Repeat("a", 100)
	tests := []struct{ in, want string }{
		{long + "://host.example/", "[]"},
		{long + ".http://host.example/", "[http://host.example/]"},
		{strings.Repeat("a", lookback-1) + "://host.example/", "[" + strings.Repeat("a", lookback-1) + "://host.example/]"},
	}
	for _, tc := range tests {
		for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
			items, _, _ := scanAll(t, Config{}, r)
			if got := fmt.Sprint(urls(items)); got != tc.want {
				t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
			}
		}
	}
}

// TestEmpty: no input, no URL, no error.
func TestEmpty(t *testing.T) {
	for _, r := range []io.Reader{strings.NewReader(""), bytes.NewReader(nil), iotest.DataErrReader(strings.NewReader(""))} {
		if items, problems, err := scanAll(t, Config{}, r); len(items)+len(problems) != 0 || err != nil {
			t.Errorf("%v %v %v", items, problems, err)
		}
	}
	if FindAll("") != nil {
		t.Error("FindAll(\"\") != nil")
	}
	s := NewScanner(strings.NewReader(""))
	//lint:ignore SA4000 Next at the end, then once more
	if s.Next() || s.Next() || s.URL() != "" {
		t.Error("Next after the end")
	}
}

// TestCutMarkup: a "<" that may not start a wrapper ("</p>", "<a
// href=", "<!--") does not keep a line from being a cut, which HTML
// lines, with a "<" in nearly every one, would otherwise never be; one
// followed by whitespace and scheme characters to the line's end or to
// a ":" does, as the wrapper it may start goes on past the line.
func TestCutMarkup(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"<p><a href=\"x\">a</a></p>\n", 25},
		{"a\n<!-- b -->\n", 13},
		{"a\n<li>see the\n", 2},    // "<li>see the" may go on: "<li>see the\nhttp:"
		{"a\n<URL:http://b/\n", 2}, // a wrapper started
		{"a\n<br> x\n", 2},         // ">" is a quotation mark
		{"a\n<br/> x\n", 10},       // "/" ends the run
		{"a\n<ftp: x>\n", 2},       // a ":" after scheme characters: a wrapper, closed or not
		{"a\n<a b=c> d <e f=g>\n", 20},
	} {
		if got := (*Config)(nil).Cut([]byte(tc.text), 0); got != tc.want {
			t.Errorf("Cut(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
