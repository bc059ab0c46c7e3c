package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// chunkReader returns its data in reads of at most n bytes, with the
// error at the end returned with the last bytes when withLast.
type chunkReader struct {
	data     string
	n        int
	err      error
	withLast bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	k := copy(p[:min(len(p), r.n)], r.data)
	r.data = r.data[k:]
	if r.data == "" && r.withLast {
		return k, r.err
	}
	return k, nil
}

// referenceLines is what batchReader and splitLines together must find
// in data, written the plain way: each line, numbered, without its
// "\n" or "\r\n"; too long past limit+2 bytes with its "\n".
func referenceLines(data string, limit int, blankIsInput bool) []inputLine {
	var lines []inputLine
	for i, line := range strings.SplitAfter(data, "\n") {
		if line == "" {
			break // after the last "\n"
		}
		s := trimEOL(line)
		switch {
		case len(line) > limit+2:
			lines = append(lines, inputLine{lineNo: i + 1, tooLong: true})
		case s != "" || blankIsInput && strings.HasSuffix(line, "\n"):
			lines = append(lines, inputLine{s: s, lineNo: i + 1, atSign: strings.Contains(s, "@")})
		}
	}
	return lines
}

// FuzzBatchLines checks that the lines of an input read in batches are
// those of the input read whole, for reads of any size and a line limit
// small enough to be met: each batch whole lines (the last may lack
// "\n"), within its memory bound, placed after the lines before it, and
// the read error reported once the input is consumed.
func FuzzBatchLines(f *testing.F) {
	f.Add("http://a/\nftp://b/\r\n\n\r\nlast", uint8(3), uint8(10), false)
	f.Add("x\n"+strings.Repeat("y", 50)+"\nz\n\n", uint8(7), uint8(20), true)
	f.Add(strings.Repeat("long line without end ", 10), uint8(1), uint8(5), false)
	f.Add("\r", uint8(1), uint8(0), true)
	f.Add("ftp://u:p@h/\nno\n@\n\n@@x\r\n@", uint8(2), uint8(40), true)
	f.Fuzz(func(t *testing.T, data string, chunk, limit uint8, withLast bool) {
		lim := int(limit % 64)
		readErr := io.EOF
		if chunk%5 == 0 {
			readErr = errors.New("device gone")
		}
		for _, blankIsInput := range []bool{false, true} {
			want := referenceLines(data, lim, blankIsInput)
			in := batchReader{in: &chunkReader{data: data, n: 1 + int(chunk), err: readErr, withLast: withLast}, limit: lim}
			var got []inputLine
			var raw []byte
			lines := 0
			for {
				var err error
				raw, err = in.next(raw)
				if len(raw) > max(batchBytes, lim+3) {
					t.Fatalf("a batch of %d bytes, limit %d", len(raw), lim)
				}
				if n := len(raw); n > 0 && raw[n-1] != '\n' && err == nil && n <= lim+2 {
					t.Fatalf("batch %q ends within a line, the input not ended", raw)
				}
				var items []inputLine
				var k int
				items, k = splitLines(nil, string(raw), lim, blankIsInput)
				for _, it := range items {
					it.lineNo += lines
					got = append(got, it)
				}
				lines += k
				if err != nil {
					if err != readErr {
						t.Fatalf("error %v, want %v", err, readErr)
					}
					break
				}
			}
			if len(got) != len(want) {
				t.Fatalf("blank is input %v: %d lines %+v, want %d %+v", blankIsInput, len(got), got, len(want), want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("blank is input %v: line %d is %+v, want %+v", blankIsInput, i, got[i], want[i])
				}
			}
		}
	})
}

// TestBatchLinesLong checks a line of more than the limit, as read from a
// pipe: reported once, the lines around it kept, memory bounded.
func TestBatchLinesLong(t *testing.T) {
	data := "a\n" + strings.Repeat("x", maxLine+10) + "\nb\n" + strings.Repeat("y", maxLine) + "\r\n"
	in := batchReader{in: &chunkReader{data: data, n: 4096, err: io.EOF}, limit: maxLine}
	var got []inputLine
	lines := 0
	for {
		raw, err := in.next(nil)
		if len(raw) > maxLine+3 {
			t.Fatalf("a batch of %d bytes", len(raw))
		}
		items, k := splitLines(nil, string(raw), maxLine, false)
		for _, it := range items {
			it.lineNo += lines
			got = append(got, it)
		}
		lines += k
		if err != nil {
			break
		}
	}
	want := []inputLine{{s: "a", lineNo: 1}, {lineNo: 2, tooLong: true}, {s: "b", lineNo: 3}, {s: strings.Repeat("y", maxLine), lineNo: 4}}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("line %d: %.40q %d %v, want %.40q %d %v", i, got[i].s, got[i].lineNo, got[i].tooLong, want[i].s, want[i].lineNo, want[i].tooLong)
		}
	}
}
