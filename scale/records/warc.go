package records

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// WARCRecord is the header of one WARC record (ISO 28500; WAT and WET
// files are WARC files too): the fields the pipelines use.
type WARCRecord struct {
	Offset      int64  // where the record starts, in the decompressed data
	Type        string // WARC-Type: response, request, metadata, conversion, ...
	TargetURI   string // WARC-Target-URI, without the <> WARC 1.0 allowed
	ContentType string // Content-Type
	Length      int64  // Content-Length: the size of the block
}

// DefaultMaxBody bounds the block Body reads into memory.
const DefaultMaxBody = 64 << 20

// WARCReader reads the records of a WARC, WAT or WET file one by one.
type WARCReader struct {
	in      *Input
	rec     WARCRecord
	left    int64 // bytes of the current block not read yet
	started bool  // a record has been read: its trailer comes next
	body    []byte
	// MaxBody bounds the block Body reads (DefaultMaxBody when 0).
	MaxBody int64
}

// WARC returns a reader of the WARC records of in.
func (in *Input) WARC() *WARCReader { return &WARCReader{in: in} }

var errNotWARC = errors.New(`not a WARC record (want a "WARC/1.x" line)`)

// Next reads the next record's header, skipping what is left of the
// previous record's block; it returns io.EOF after the last record. A
// block shorter than its Content-Length says, or not followed by the
// CRLF CRLF that ends a record, is an *Error at the offset where the
// record went wrong.
func (w *WARCReader) Next() (*WARCRecord, error) {
	in := w.in
	if w.started {
		if err := w.skip(); err != nil {
			return nil, err
		}
		end := in.off
		var trailer [4]byte
		n, err := io.ReadFull(in.r, trailer[:])
		in.off += int64(n)
		if err != nil && !(err == io.EOF && n == 0) || string(trailer[:n]) != "\r\n\r\n" {
			return nil, &Error{File: in.Name, Offset: end, Err: fmt.Errorf("the record at offset %d does not end where its Content-Length %d says (no CRLF CRLF there)", w.rec.Offset, w.rec.Length)}
		}
	}
	// Blank lines between records are tolerated.
	for {
		start := in.off
		l, err := in.Line()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			continue
		}
		if !bytes.HasPrefix(l, []byte("WARC/")) {
			return nil, &Error{File: in.Name, Offset: start, Err: errNotWARC}
		}
		w.rec = WARCRecord{Offset: start, Length: -1}
		break
	}
	for {
		start := in.off
		l, err := in.Line()
		if err == io.EOF {
			return nil, &Error{File: in.Name, Offset: start, Err: ErrTruncated}
		}
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			break
		}
		name, value, ok := bytes.Cut(l, []byte{':'})
		if !ok {
			if l[0] == ' ' || l[0] == '\t' {
				continue // a folded continuation line
			}
			return nil, &Error{File: in.Name, Offset: start, Err: fmt.Errorf("malformed WARC header line %q", truncate(l))}
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("WARC-Type")):
			w.rec.Type = string(value)
		case bytes.EqualFold(name, []byte("WARC-Target-URI")):
			if len(value) >= 2 && value[0] == '<' && value[len(value)-1] == '>' {
				value = value[1 : len(value)-1]
			}
			w.rec.TargetURI = string(value)
		case bytes.EqualFold(name, []byte("Content-Type")):
			w.rec.ContentType = string(value)
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || n < 0 {
				return nil, &Error{File: in.Name, Offset: start, Err: fmt.Errorf("bad Content-Length %q", truncate(value))}
			}
			w.rec.Length = n
		}
	}
	if w.rec.Length < 0 {
		return nil, &Error{File: in.Name, Offset: w.rec.Offset, Err: errors.New("WARC record without Content-Length")}
	}
	w.left = w.rec.Length
	w.started = true
	return &w.rec, nil
}

// Body reads the current record's block, valid until the next call of
// Next or Body. A block longer than MaxBody is an *Error.
func (w *WARCReader) Body() ([]byte, error) {
	max := w.MaxBody
	if max <= 0 {
		max = DefaultMaxBody
	}
	if w.left > max {
		return nil, &Error{File: w.in.Name, Offset: w.rec.Offset, Err: fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, w.left, max)}
	}
	if int64(cap(w.body)) < w.left {
		w.body = make([]byte, w.left)
	}
	b := w.body[:w.left]
	n, err := io.ReadFull(w.in.r, b)
	w.in.off += int64(n)
	w.left -= int64(n)
	if err != nil {
		return nil, w.short(err)
	}
	return b, nil
}

// skip discards what is left of the current block.
func (w *WARCReader) skip() error {
	if w.left == 0 {
		return nil
	}
	n, err := w.in.r.Discard(int(min(w.left, 1<<62)))
	w.in.off += int64(n)
	w.left -= int64(n)
	if err != nil {
		return w.short(err)
	}
	return nil
}

// short is the error of a block cut short by err.
func (w *WARCReader) short(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%w: the record at offset %d has Content-Length %d, %d bytes are missing", ErrTruncated, w.rec.Offset, w.rec.Length, w.left)
	}
	return &Error{File: w.in.Name, Offset: w.in.off, Err: err}
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// AppendRecord appends a WARC/1.1 record of the type, target URI and
// content type holding block to b: the tests and the benchmark data
// generator write their WARC, WAT and WET files with it.
func AppendRecord(b []byte, typ, uri, contentType string, block []byte) []byte {
	b = append(b, "WARC/1.1\r\nWARC-Type: "...)
	b = append(b, typ...)
	if uri != "" {
		b = append(b, "\r\nWARC-Target-URI: "...)
		b = append(b, uri...)
	}
	if contentType != "" {
		b = append(b, "\r\nContent-Type: "...)
		b = append(b, contentType...)
	}
	b = append(b, "\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(len(block)), 10)
	b = append(b, "\r\n\r\n"...)
	b = append(b, block...)
	return append(b, "\r\n\r\n"...)
}
