package extract

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestGolden extracts from each testdata/NAME.input and compares the
// items and problems, in input order, with NAME.golden. The same text
// with CRLF line ends must give the same URLs, lines and columns.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.input"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := goldenLog(string(data))
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run Golden -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", in, golden, diffLines(string(want), got))
			}

			lf := strings.ReplaceAll(string(data), "\r\n", "\n")
			a, b := FindAll(lf), FindAll(strings.ReplaceAll(lf, "\n", "\r\n"))
			if len(a) != len(b) {
				t.Fatalf("LF: %d URLs, CRLF: %d", len(a), len(b))
			}
			for i := range a {
				if a[i].URL != b[i].URL || a[i].Line != b[i].Line || a[i].Column != b[i].Column {
					t.Errorf("LF %q at %d:%d, CRLF %q at %d:%d", a[i].URL, a[i].Line, a[i].Column, b[i].URL, b[i].Line, b[i].Column)
				}
			}
		})
	}
}

// goldenLog lists what a Scanner reports on text, one entry per line:
//
//	LINE:COL @OFFSET [START,END) FORM URL
//	    alternative: URL
//	    repair @OFFSET: MESSAGE
//	problem LINE:COL @OFFSET: "TEXT": RULE
func goldenLog(text string) string {
	var b strings.Builder
	c := &Config{Problem: func(p Problem) {
		fmt.Fprintf(&b, "problem %d:%d @%d: %q: %s\n", p.Line, p.Column, p.Offset, p.Text, p.Rule())
	}}
	s := c.NewScanner(strings.NewReader(text))
	for s.Next() {
		it := s.Item()
		form := "bare"
		switch {
		case it.Wrapped && it.Prefixed:
			form = "<URL:>"
		case it.Wrapped:
			form = "<>"
		case it.Prefixed:
			form = "URL:"
		}
		fmt.Fprintf(&b, "%d:%d @%d [%d,%d) %s %s\n", it.Line, it.Column, it.Offset, it.Start, it.End, form, it.URL)
		if it.Alternative != "" {
			fmt.Fprintf(&b, "    alternative: %s\n", it.Alternative)
		}
		for _, r := range it.Repairs {
			fmt.Fprintf(&b, "    repair @%d: %s\n", r.Offset, r.Message)
		}
	}
	return b.String()
}

// diffLines shows the first lines where two texts differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(g) {
			y = g[i]
		}
		if x != y {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, x, y)
			shown++
		}
	}
	return b.String()
}
