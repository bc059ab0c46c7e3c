// Package records reads the files crawl researchers hold: URL lists, plain
// text, CDX index lines (the classic space-separated form and the
// "SURT timestamp {json}" form), and WARC, WAT and WET records, each plain
// or gzip-compressed (multi-member gzip included, as WARC files are).
//
// The readers are our own, written for these pipelines: they stream with
// bounded memory, and every error names the file and the offset in the
// decompressed data where the input went wrong (a line longer than the
// limit, binary data, a WARC record whose Content-Length lies, a truncated
// gzip member), so that no input is lost silently.
package records

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Format is the kind of records a file holds.
type Format int

// The input formats.
const (
	URLs Format = iota // one URL per line
	Text               // free text, URLs found by urlkit's extractor
	CDX                // CDX index lines, classic or "SURT timestamp {json}"
	WARC               // WARC records (record URIs)
	WAT                // WAT metadata records (JSON with the links)
	WET                // WET conversion records (extracted text)
)

var formatNames = [...]string{URLs: "urls", Text: "text", CDX: "cdx", WARC: "warc", WAT: "wat", WET: "wet"}

func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// ParseFormat returns the format named s (urls, text, cdx, warc, wat, wet).
func ParseFormat(s string) (Format, error) {
	for f, n := range formatNames {
		if n == s {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want urls, text, cdx, warc, wat or wet)", s)
}

// FormatOf tells the format from a file name as Common Crawl and
// web archives name their files (x.warc.gz, x.warc.wat.gz, x.wet.gz,
// x.cdx, x.cdxj, any of them with .gz); ok is false for other names.
func FormatOf(name string) (f Format, ok bool) {
	base := strings.ToLower(filepath.Base(name))
	base = strings.TrimSuffix(base, ".gz")
	switch {
	case strings.HasSuffix(base, ".wat"):
		return WAT, true
	case strings.HasSuffix(base, ".wet"):
		return WET, true
	case strings.HasSuffix(base, ".warc"), strings.HasSuffix(base, ".arc"):
		return WARC, true
	case strings.HasSuffix(base, ".cdx"), strings.HasSuffix(base, ".cdxj"):
		return CDX, true
	}
	return 0, false
}

// Error is a bad input: the file, the offset in its decompressed data
// where the problem lies, and what is wrong.
type Error struct {
	File   string
	Offset int64
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: offset %d: %v", e.File, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// The causes an Error wraps.
var (
	ErrLineTooLong = errors.New("line longer than the limit")
	ErrBinary      = errors.New("binary data (a NUL byte) where text was expected")
	ErrTruncated   = errors.New("the data ends inside a record (truncated file)")
	ErrTooLarge    = errors.New("WARC record block too large") // Next skips it

)

// DefaultMaxLine is the longest line the line readers accept.
const DefaultMaxLine = 1 << 20

// Input is a decompressed input file with the offset reached.
type Input struct {
	Name string
	r    *bufio.Reader
	off  int64
	// MaxLine bounds a line (DefaultMaxLine when 0).
	MaxLine int
	closer  io.Closer
	pending bool // the rest of a refused long line is still to skip
}

// NewInput reads r, the file name, decompressing it when it starts with
// gzip's magic number (every member of a multi-member file).
func NewInput(name string, r io.Reader) (*Input, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	in := &Input{Name: name}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Err: fmt.Errorf("gzip: %w", err)}
		}
		in.closer = zr
		br = bufio.NewReaderSize(zr, 256<<10)
	}
	in.r = br
	return in, nil
}

// NewRange reads r, the bytes of the file name from offset off on, as
// plain data: a range of a file told not to be gzip.
func NewRange(name string, r io.Reader, off int64) *Input {
	return &Input{Name: name, r: bufio.NewReaderSize(r, 256<<10), off: off}
}

// Offset is how many decompressed bytes have been consumed.
func (in *Input) Offset() int64 { return in.off }

// Close releases the decompressor; it does not close the file.
func (in *Input) Close() error {
	if in.closer != nil {
		return in.closer.Close()
	}
	return nil
}

// errAt wraps err as the Error at offset off; a truncated gzip stream is
// ErrTruncated.
func (in *Input) errAt(off int64, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%w: %v", ErrTruncated, err)
	}
	return &Error{File: in.Name, Offset: off, Err: err}
}

// Line returns the next line without its end of line (LF or CRLF), valid
// until the next call, and io.EOF at the end. A line longer than MaxLine,
// or holding a NUL byte, is an *Error; SkipLine then passes over it.
func (in *Input) Line() ([]byte, error) {
	max := in.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	start := in.off
	line, err := in.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// Longer than the buffer: gather it, up to the limit.
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull && len(buf) <= max+2 {
			line, err = in.r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		in.pending = err == bufio.ErrBufferFull
		line = buf
	}
	in.off += int64(len(line))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, in.errAt(in.off, err)
	}
	if len(line) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(line) > max || in.pending {
		return nil, &Error{File: in.Name, Offset: start, Err: ErrLineTooLong}
	}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		return nil, &Error{File: in.Name, Offset: start + int64(i), Err: ErrBinary}
	}
	return line, nil
}

// SkipLine passes over the rest of a line Line refused as too long.
func (in *Input) SkipLine() error {
	for in.pending {
		line, err := in.r.ReadSlice('\n')
		in.off += int64(len(line))
		if err != bufio.ErrBufferFull {
			in.pending = false
			if err != nil && err != io.EOF {
				return in.errAt(in.off, err)
			}
		}
	}
	return nil
}

// Reader is the decompressed data itself, for the text extractor; it
// counts the offset as it goes, and wraps a read error as an *Error.
func (in *Input) Reader() io.Reader { return inputReader{in} }

type inputReader struct{ in *Input }

func (r inputReader) Read(p []byte) (int, error) {
	n, err := r.in.r.Read(p)
	r.in.off += int64(n)
	if err != nil && err != io.EOF {
		err = r.in.errAt(r.in.off, err)
	}
	return n, err
}
