package pipeline

import (
	"os"
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
