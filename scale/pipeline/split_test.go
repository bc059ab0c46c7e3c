package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"

	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/scale/records"
)

// splitText is prose with URLs, wrappers broken across lines, markup
// with "<" near line ends, and long lines without a cut.
func splitText(n int) []byte {
	rnd := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		switch rnd.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "see <URL:http://w%d.example/a/\n   b/%d> and more\n", i%50, i)
		case 1:
			fmt.Fprintf(&b, "text <http://x%d.example/\nlong/%d?q=%d\n> end\n", i%9, i, i%4)
		case 2:
			fmt.Fprintf(&b, "<p>markup <a href=\"http://m.example/%d\">x</a></p>\n", i%30)
		case 3:
			fmt.Fprintf(&b, "an open wrapper <http:%s\n", strings.Repeat("y", rnd.IntN(300)))
		case 4:
			fmt.Fprintf(&b, "%s http://long.example/%d\n", strings.Repeat("word ", rnd.IntN(2000)), i)
		default:
			fmt.Fprintf(&b, "plain http://p%d.example/x/%d, then ftp://f.example/%d.\n", i%20, i%700, i%3)
		}
	}
	return b.Bytes()
}

// TestBoundaryText: the boundary found from cutReach bytes before an
// offset is the first cut after it that Cut finds over the text from its
// start; and the boundaries grow with the offset.
func TestBoundaryText(t *testing.T) {
	text := splitText(600 << 10)
	size := int64(len(text))
	cfg := &extract.Config{}
	first := func(at int64) int64 { // over the whole text, line by line
		if at == 0 {
			return 0
		}
		for nl := at - 1; nl < size; nl++ {
			if text[nl] == '\n' && cfg.Cut(text[:nl+1], int(nl)) > 0 {
				return nl + 1
			}
		}
		return size
	}
	prev := int64(0)
	for at := int64(0); at <= size; at += 997 {
		got, err := boundary(bytes.NewReader(text), records.Text, at, size)
		if err != nil {
			t.Fatal(err)
		}
		if want := first(at); got != want {
			t.Fatalf("boundary(%d) = %d, want %d", at, got, want)
		}
		if got < prev {
			t.Fatalf("boundary(%d) = %d, before %d", at, got, prev)
		}
		prev = got
	}
	if got, _ := boundary(bytes.NewReader([]byte("a\nbb\nccc")), records.URLs, 3, 8); got != 5 {
		t.Fatalf("URL list boundary at 3: %d", got)
	}
}

// TestSplitScan: a file scanned split by split counts what it counts
// scanned whole: text (extract) and URL lists (hosts); and gzip stays
// whole.
func TestSplitScan(t *testing.T) {
	defer func(n int64) { splitBytes = n }(splitBytes)
	splitBytes = 10 << 10
	dir := t.TempDir()
	var list bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&list, "http://h%d.example/%d\n", i%300, i)
	}
	for _, c := range []struct {
		o    Options
		name string
		data []byte
		many bool
	}{
		{Options{Pipeline: Extract}, "a.txt", splitText(400 << 10), true},
		{Options{Pipeline: Hosts}, "l.txt", list.Bytes(), true},
		{Options{Pipeline: Extract}, "z.txt", gzipped(string(splitText(100 << 10))), false},
	} {
		name := filepath.Join(dir, c.name)
		write(t, name, c.data)
		whole, err := scan(t, c.o, name, c.data)
		if err != nil {
			t.Fatal(err)
		}
		o := c.o
		o.Inputs, o.Output = []string{name}, dir
		o.Check()
		var splits []Split
		if err := (&splitFn{O: o}).ProcessElement(context.Background(), fileio.FileMetadata{Path: name, Size: int64(len(c.data))}, func(s Split) { splits = append(splits, s) }); err != nil {
			t.Fatal(err)
		}
		if c.many != (len(splits) > 1) {
			t.Fatalf("%s: %d splits", c.name, len(splits))
		}
		got := map[string]int64{}
		var st Stats
		for _, sp := range splits {
			format, _ := o.formatOf(name)
			r, off, closeFile, err := openSplit(context.Background(), sp, format)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := newScanner(&o)
			err = s.scan(name, r, off, sp.Whole)
			closeFile()
			if err != nil {
				t.Fatal(err)
			}
			for k, n := range rowsOf(t, s) {
				got[k] += n
			}
			st.Files += s.stats.Files
			st.URLs += s.stats.URLs
			st.Invalid += s.stats.Invalid
		}
		want := rowsOf(t, whole)
		if len(want) < 100 || !maps.Equal(got, want) || st.Files != 1 || st.URLs != whole.stats.URLs || st.Invalid != whole.stats.Invalid {
			t.Errorf("%s: %d splits count %d keys, %+v; whole %d keys, %+v", c.name, len(splits), len(got), st, len(want), whole.stats)
		}
	}
	var sizes []int64
	for _, size := range []int64{splitBytes + 13, 2*splitBytes + splitBytes/2} {
		name := filepath.Join(dir, fmt.Sprintf("%d.txt", size))
		write(t, name, bytes.Repeat([]byte("x\n"), int(size/2)))
		(&splitFn{O: Options{Pipeline: Extract, Inputs: []string{name}, Output: dir}}).ProcessElement(context.Background(), fileio.FileMetadata{Path: name, Size: size}, func(s Split) { sizes = append(sizes, s.End-s.Start) })
	}
	if want := []int64{splitBytes + 13, 8534, 8534, 8532}; !slices.Equal(sizes, want) {
		t.Errorf("split sizes %v, want %v (no sliver)", sizes, want)
	}
}
