package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/scale/records"
)

// splitBytes is about the size of the byte ranges a large plain text
// file or URL list is split into, so that the workers (both cores of one
// machine) scan one file at once. Gzip input, WARC, WAT, WET and CDX
// (whose header names the fields of every line after it) stay one unit
// per file. (A variable for the tests.)
var splitBytes int64 = 64 << 20

// Split is the part of a file one scanning call reads: the records that
// start in [Start, End) as the format's boundary rule moves them (see
// boundary). A file that is not split is one Split from 0 to its size.
type Split struct {
	Path       string
	Size       int64
	Start, End int64
	Whole      bool // the file itself, read to its end (gzip detected)
}

// splitFn cuts each matched file into Splits.
type splitFn struct {
	O Options
}

// ProcessElement splits one file.
func (f *splitFn) ProcessElement(ctx context.Context, m fileio.FileMetadata, emit func(Split)) error {
	whole := Split{Path: m.Path, Size: m.Size, End: m.Size, Whole: true}
	format, err := f.O.formatOf(m.Path)
	// Ranges of even size, about splitBytes each: a file a few bytes
	// over splitBytes is not split into itself and a sliver.
	n := (m.Size + splitBytes/2) / splitBytes
	if err != nil || n <= 1 || format != records.Text && format != records.URLs {
		emit(whole) // the scan reports a format error
		return nil
	}
	fs, err := filesystem.New(ctx, m.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, m.Path)
	if err != nil {
		return fmt.Errorf("opening %s: %w", m.Path, err)
	}
	var magic [2]byte
	_, err = io.ReadFull(rc, magic[:])
	_, ranges := rc.(io.ReaderAt)
	rc.Close()
	if err != nil {
		return fmt.Errorf("reading %s: %w", m.Path, err)
	}
	if magic == [2]byte{0x1f, 0x8b} || !ranges {
		// A gzip stream is read from its start; a file system that
		// reads no byte ranges (Beam's GCS reader) reads it all.
		emit(whole)
		return nil
	}
	step := (m.Size + n - 1) / n
	for start := int64(0); start < m.Size; start += step {
		emit(Split{Path: m.Path, Size: m.Size, Start: start, End: min(start+step, m.Size)})
	}
	return nil
}

// cutReach is how far before a line's end extract.Config.Cut looks for a
// wrapper that may cross it ("as far as a wrapper reaches": MaxLength,
// 8 KiB for the pipelines' Config, and a few bytes), with room to spare:
// a boundary computed from cutReach bytes before it is the one computed
// from the file's start (TestBoundaryText).
const cutReach = 64 << 10

// boundary is where the records of the split that starts at nominal
// offset at begin, and those of the split before it end: the first line
// start at or after at for URL lists; for text, the first cut at or after
// at (extract.Config.Cut: a line end after which a Scanner may start
// afresh, the rule urlkit extract -j follows), so that no URL is found
// twice or lost. 0 at 0, size when there is none. It is the same
// function of the file for both neighbours, and grows with at, so that
// the splits tile the file.
func boundary(r io.ReaderAt, format records.Format, at, size int64) (int64, error) {
	if at <= 0 || at >= size {
		return min(max(at, 0), size), nil
	}
	from := at - 1 // the line end before at may be the boundary
	if format == records.Text {
		from = max(0, at-1-cutReach)
	}
	cfg := &extract.Config{}
	for window := int64(1 << 20); ; window *= 2 {
		end := min(size, at+window)
		buf := make([]byte, end-from)
		if _, err := r.ReadAt(buf, from); err != nil && err != io.EOF {
			return 0, err
		}
		for i := int(at - 1 - from); ; {
			nl := bytes.IndexByte(buf[i:], '\n')
			if nl < 0 {
				break
			}
			nl += i
			// Cut over the text up to this line's end, from it: this
			// line end or none.
			if format != records.Text || cfg.Cut(buf[:nl+1], nl) > 0 {
				return from + int64(nl) + 1, nil
			}
			i = nl + 1
		}
		if end == size {
			return size, nil
		}
	}
}

// openSplit opens the part of a file a Split covers: the whole file, or
// the bytes between its two boundaries, with the offset they start at.
func openSplit(ctx context.Context, sp Split, format records.Format) (r io.Reader, off int64, closer func() error, err error) {
	fs, err := filesystem.New(ctx, sp.Path)
	if err != nil {
		return nil, 0, nil, err
	}
	rc, err := fs.OpenRead(ctx, sp.Path)
	if err != nil {
		fs.Close()
		return nil, 0, nil, fmt.Errorf("opening %s: %w", sp.Path, err)
	}
	closer = func() error { rc.Close(); return fs.Close() }
	if sp.Whole {
		return rc, 0, closer, nil
	}
	ra, ok := rc.(io.ReaderAt)
	if !ok {
		closer()
		return nil, 0, nil, fmt.Errorf("%s: the file system reads no byte ranges", sp.Path)
	}
	start, err := boundary(ra, format, sp.Start, sp.Size)
	var end int64
	if err == nil {
		end, err = boundary(ra, format, sp.End, sp.Size)
	}
	if err != nil {
		closer()
		return nil, 0, nil, &records.Error{File: sp.Path, Offset: sp.Start, Err: err}
	}
	return io.NewSectionReader(ra, start, end-start), start, closer, nil
}
