package pipeline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScanText scans the first benchmark text file (scripts/gendata)
// without Beam: the per-file work of the extract pipeline.
func BenchmarkScanText(b *testing.B) {
	name := "/tmp/urlkit-scale-bench/text/part-00.txt"
	if _, err := os.Stat(name); err != nil {
		b.Skip("no benchmark data: go run ./scripts/gendata")
	}
	o := Options{Pipeline: Extract, Inputs: []string{name}, Output: "x"}
	if err := o.Check(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f, _ := os.Open(name)
		s, _ := newScanner(&o)
		if st, err := f.Stat(); err == nil {
			s.expect(st.Size())
		}
		if err := s.scanFile(name, f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		s.emit(func(int, []byte) {})
		putKeys(s.keys)
	}
}

// BenchmarkMerge merges the runs the benchmark's text files give shard 0
// (one run a file, as the pipeline writes them), as the shard's writer
// does: "rows" drains the merger, "gzip" writes the shard's rows too.
func BenchmarkMerge(b *testing.B) {
	names, _ := filepath.Glob("/tmp/urlkit-scale-bench/text/*.txt")
	if len(names) == 0 {
		b.Skip("no benchmark data: go run ./scripts/gendata")
	}
	o := Options{Pipeline: Extract, Inputs: names, Output: "x"}
	if err := o.Check(); err != nil {
		b.Fatal(err)
	}
	var runs [][]byte
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		s, _ := newScanner(&o)
		if err := s.scanFile(name, f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		s.emit(func(shard int, run []byte) {
			if shard == 0 {
				runs = append(runs, bytes.Clone(run))
			}
		})
	}
	merger := func() *merger {
		srcs := make([]io.Reader, len(runs))
		for i, r := range runs {
			srcs[i] = bytes.NewReader(r)
		}
		m, err := newMerger(srcs, names[:len(runs)])
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			m := merger()
			for {
				ok, err := m.next()
				if err != nil {
					b.Fatal(err)
				}
				if !ok {
					break
				}
			}
		}
	})
	b.Run("gzip", func(b *testing.B) {
		for b.Loop() {
			if err := writeRows(io.Discard, &o, merger(), false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
