package wais

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Default limits used when the corresponding Dialer field is zero.
const (
	DefaultMaxMessage = 1 << 20  // bytes of one response message
	DefaultChunkSize  = 32 << 10 // bytes asked for per retrieval request
	traceLimit        = 4096     // bytes of one message shown in a trace
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrClosed reports an operation on a Conn that was closed, or that
	// broke (a transport or protocol failure leaves it unusable).
	ErrClosed = errors.New("wais: connection closed")
	// ErrTruncated reports a message cut short by the end of the
	// connection.
	ErrTruncated = errors.New("wais: message cut short")
	// ErrNotFound reports a retrieval that returned no document text, or
	// a database without a source record.
	ErrNotFound = errors.New("wais: not found")
	// ErrShortDocument reports a document that ended before the length
	// the server gave for it.
	ErrShortDocument = errors.New("wais: document shorter than its length")
)

// Dialer holds the options for connecting to a WAIS server. Its zero value
// is ready to use.
type Dialer struct {
	// Timeout bounds connection establishment. Zero means no limit besides
	// the context's.
	Timeout time.Duration
	// Trace, if set, receives one line per message: "> " for a request,
	// "< " for a response, each the message's bytes as FormatMessage
	// renders them (responses cut after 4 KiB).
	Trace io.Writer
	// MaxMessage bounds the length of a response message, checked against
	// the WAIS header before it is read (default DefaultMaxMessage).
	MaxMessage int
	// ChunkSize is the number of document bytes asked for per retrieval
	// request by Open (default DefaultChunkSize).
	ChunkSize int64
}

// Conn is a connection to a WAIS server. WAIS is stateless: every request
// is answered on its own, so a Conn serves any number of searches and
// retrievals, one at a time. A Conn is not safe for concurrent use.
type Conn struct {
	d      Dialer
	nc     net.Conn
	br     *bufio.Reader
	broken error
	mu     sync.Mutex // serializes trace writes
}

// Dial connects to the WAIS server at addr ("host:port") with the zero
// Dialer.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d Dialer
	return d.Dial(ctx, addr)
}

// Dial connects to the WAIS server at addr ("host:port"). No Init is sent:
// freeWAIS answers searches without one (call Init to ask anyway).
func (d *Dialer) Dial(ctx context.Context, addr string) (*Conn, error) {
	nc, err := wire.Dial(ctx, &net.Dialer{Timeout: d.Timeout}, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("wais: dial %s: %w", addr, err)
	}
	c := &Conn{d: *d, nc: nc, br: bufio.NewReader(nc)}
	if c.d.MaxMessage <= 0 {
		c.d.MaxMessage = DefaultMaxMessage
	}
	if c.d.ChunkSize <= 0 {
		c.d.ChunkSize = DefaultChunkSize
	}
	return c, nil
}

// Close closes the connection.
func (c *Conn) Close() error {
	if c.broken == nil {
		c.broken = ErrClosed
	}
	if err := c.nc.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// FormatMessage renders a message's bytes as one printable line, the form
// Dialer.Trace shows: printable ASCII as is, a backslash as \\, every
// other byte as \xNN. It is reversible, so a trace and a plan that
// renders the same request bytes compare byte for byte.
func FormatMessage(msg []byte) string {
	var b strings.Builder
	for _, c := range msg {
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

func (c *Conn) trace(prefix string, msg []byte) {
	if c.d.Trace == nil {
		return
	}
	note := ""
	if prefix == "< " && len(msg) > traceLimit {
		note = fmt.Sprintf(" [%d more bytes]", len(msg)-traceLimit)
		msg = msg[:traceLimit]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	io.WriteString(c.d.Trace, prefix+FormatMessage(msg)+note+"\n")
}

// RoundTrip sends a request message (from a Marshal method) and returns
// the decoded response: an *InitResponse or a *SearchResponse. The other
// methods are built on it.
func (c *Conn) RoundTrip(ctx context.Context, req []byte) (any, error) {
	if c.broken != nil {
		return nil, c.broken
	}
	release := wire.Bind(ctx, c.nc)
	defer release()
	c.trace("> ", req)
	if _, err := c.nc.Write(req); err != nil {
		return nil, c.fail(fmt.Errorf("wais: sending request: %w", wire.ContextError(ctx, err)))
	}
	msg, err := c.readMessage()
	if err != nil {
		return nil, c.fail(wire.ContextError(ctx, err))
	}
	c.trace("< ", msg)
	resp, err := ParseResponse(msg)
	if err != nil {
		return nil, c.fail(err)
	}
	return resp, nil
}

// fail marks the connection unusable: after a transport or protocol error
// the next message boundary is unknown.
func (c *Conn) fail(err error) error {
	c.broken = fmt.Errorf("%w (after: %w)", ErrClosed, err)
	c.nc.Close()
	return err
}

// readMessage reads one message, bounded by MaxMessage: the header is
// checked before the body is read, and the body buffer grows only as
// bytes arrive.
func (c *Conn) readMessage() ([]byte, error) {
	var h [HeaderLen]byte
	if n, err := io.ReadFull(c.br, h[:]); err != nil {
		if n > 0 || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: WAIS header: %d of %d bytes", ErrTruncated, n, HeaderLen)
		}
		if err == io.EOF {
			return nil, fmt.Errorf("wais: the server closed the connection without a response: %w", err)
		}
		return nil, fmt.Errorf("wais: reading response: %w", err)
	}
	n, err := ParseHeader(h[:], c.d.MaxMessage)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Write(h[:])
	got, err := io.CopyN(&buf, c.br, int64(n))
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%w: %d of %d bytes of the APDU", ErrTruncated, got, n)
		}
		return nil, fmt.Errorf("wais: reading response: %w", err)
	}
	return buf.Bytes(), nil
}

// Init sends an InitRequest (nil: the defaults) and returns the answer.
func (c *Conn) Init(ctx context.Context, req *InitRequest) (*InitResponse, error) {
	if req == nil {
		req = &InitRequest{ImplementationName: "urlkit"}
	}
	msg, err := req.Marshal()
	if err != nil {
		return nil, err
	}
	resp, err := c.RoundTrip(ctx, msg)
	if err != nil {
		return nil, err
	}
	ir, ok := resp.(*InitResponse)
	if !ok {
		return nil, c.fail(&DecodeError{Offset: HeaderLen + 2, Msg: fmt.Sprintf("got a %T to an InitRequest", resp)})
	}
	return ir, nil
}

// Search sends a search and returns the response. A response that holds
// diagnostics and no hits fails with the first *Diagnostic (the response
// is returned too).
func (c *Conn) Search(ctx context.Context, req *SearchRequest) (*SearchResponse, error) {
	msg, err := req.Marshal()
	if err != nil {
		return nil, err
	}
	return c.search(ctx, msg)
}

func (c *Conn) search(ctx context.Context, msg []byte) (*SearchResponse, error) {
	resp, err := c.RoundTrip(ctx, msg)
	if err != nil {
		return nil, err
	}
	sr, ok := resp.(*SearchResponse)
	if !ok {
		return nil, c.fail(&DecodeError{Offset: HeaderLen + 2, Msg: fmt.Sprintf("got a %T to a search", resp)})
	}
	if len(sr.Diagnostics) > 0 && len(sr.Hits) == 0 && len(sr.Texts) == 0 {
		return sr, &sr.Diagnostics[0]
	}
	return sr, nil
}

// Text retrieves one byte range of a document. It returns the text the
// server sent, which may be shorter than asked at the end of the document;
// a response with no text record fails with ErrNotFound (or the server's
// *Diagnostic), one with more bytes than asked fails as malformed.
func (c *Conn) Text(ctx context.Context, req *TextRequest) ([]byte, error) {
	msg, err := req.Marshal()
	if err != nil {
		return nil, err
	}
	return c.text(ctx, msg, req)
}

// text sends msg, the encoding of req, and reads the text it gets.
func (c *Conn) text(ctx context.Context, msg []byte, req *TextRequest) ([]byte, error) {
	sr, err := c.search(ctx, msg)
	if err != nil {
		return nil, err
	}
	if len(sr.Texts) == 0 {
		return nil, fmt.Errorf("%w: no text for bytes [%d, %d) of the document", ErrNotFound, req.Start, req.End)
	}
	var text []byte
	for _, t := range sr.Texts {
		text = append(text, t.Text...)
	}
	if int64(len(text)) > req.End-req.Start {
		return nil, &DecodeError{Offset: HeaderLen, Msg: fmt.Sprintf("%d bytes of text for a range of %d", len(text), req.End-req.Start)}
	}
	return text, nil
}

// Open returns a reader of a whole document, retrieved in chunks of
// ChunkSize bytes with one TextRequest each, as the reader is read. length
// is the document's length from its Hit, or -1 if unknown: the document
// then ends at the first chunk shorter than asked (or at a chunk past the
// end, which the server refuses). With a known length, a
// document that ends early fails with ErrShortDocument.
//
// ctx governs every retrieval the reader makes. Close does not close the
// Conn; the Conn must not be used for anything else until the reader is
// read to its end or closed.
func (c *Conn) Open(ctx context.Context, database string, docID []byte, typ string, length int64) io.ReadCloser {
	return &docReader{c: c, ctx: ctx, req: TextRequest{Database: database, DocID: docID, Type: typ}, length: length}
}

// OpenRequest is Open with the requests as the caller wrote them (an
// access plan's bytes). first, the encoded TextRequest of the first
// chunk (from byte 0), is sent as it is. next, the encoded TextRequest of
// the second chunk, is sent as it is when its range is the one due, and
// is the template of every chunk after it: decoded, its range moved on,
// encoded again; so whatever next asks besides the range (database,
// DocID, type) is asked for every later chunk. A nil next makes first
// the template.
func (c *Conn) OpenRequest(ctx context.Context, first, next []byte, length int64) (io.ReadCloser, error) {
	tr, err := parseRetrieval(first)
	if err != nil {
		return nil, err
	}
	if tr.Start != 0 {
		return nil, fmt.Errorf("%w: the first request of a document is no retrieval from byte 0", ErrMalformed)
	}
	r := &docReader{c: c, ctx: ctx, req: *tr, length: length, first: first, chunk: tr.End}
	if next != nil {
		nr, err := parseRetrieval(next)
		if err != nil {
			return nil, err
		}
		if nr.Start != tr.End {
			return nil, fmt.Errorf("%w: the second request of a document does not start where the first ends (%d, not %d)", ErrMalformed, nr.Start, tr.End)
		}
		r.next, r.nextReq = next, *nr
	}
	return r, nil
}

// parseRetrieval decodes msg, which must be a TextRequest.
func parseRetrieval(msg []byte) (*TextRequest, error) {
	req, err := ParseRequest(msg)
	if err != nil {
		return nil, err
	}
	tr, ok := req.(*TextRequest)
	if !ok {
		return nil, fmt.Errorf("%w: a document's request is a %T, not a retrieval", ErrMalformed, req)
	}
	return tr, nil
}

type docReader struct {
	c      *Conn
	ctx    context.Context
	req    TextRequest
	length int64  // -1: unknown
	first  []byte // the first chunk's request as the caller wrote it, until sent
	chunk  int64  // the chunk size of first; 0: Dialer.ChunkSize
	// next is the second chunk's request as the caller wrote it, until
	// sent, and nextReq its decoding: the template of the later chunks.
	next    []byte
	nextReq TextRequest
	pos     int64
	buf     []byte
	eof     bool
	err     error
}

// Read returns document bytes, fetching the next chunk when needed.
func (r *docReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.eof || (r.length >= 0 && r.pos >= r.length) {
			return 0, io.EOF
		}
		r.fetch()
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *docReader) fetch() {
	size := r.c.d.ChunkSize
	if r.chunk > 0 {
		size = r.chunk
	}
	end := r.pos + size
	if r.length >= 0 && end > r.length {
		end = r.length
	}
	start := r.pos
	var text []byte
	var err error
	switch {
	case r.first != nil:
		r.req.Start, r.req.End = r.pos, end
		text, err = r.c.text(r.ctx, r.first, &r.req)
		r.first = nil
		if r.next != nil {
			r.req = r.nextReq // the template from now on
		}
	case r.next != nil && r.nextReq.Start == r.pos && r.nextReq.End == end:
		text, err = r.c.text(r.ctx, r.next, &r.nextReq)
		r.next = nil
	default:
		r.next = nil
		r.req.Start, r.req.End = r.pos, end
		text, err = r.c.Text(r.ctx, &r.req)
	}
	switch {
	case r.pos > 0 && r.length < 0 && (errors.Is(err, ErrNotFound) || errors.Is(err, ErrDiagnostic)):
		// The previous chunk ended exactly at the end of the document:
		// freeWAIS answers a range past the end with diagnostic "SF"
		// (request out of range).
		r.eof = true
		return
	case err != nil:
		r.err = err
		return
	}
	r.pos += int64(len(text))
	r.buf = text
	if int64(len(text)) < end-start {
		if r.length >= 0 && r.pos < r.length {
			r.err = fmt.Errorf("%w: %d of %d bytes", ErrShortDocument, r.pos, r.length)
			if len(text) > 0 {
				return // deliver what came, then the error
			}
		}
		r.eof = true
	}
}

// Close ends the reader; the Conn stays open.
func (r *docReader) Close() error {
	if r.err == nil {
		r.err = errors.New("wais: read after Close")
	}
	return nil
}

// Source is a database's source record: the description a WAIS server
// keeps for it (the "name.src" document of its INFO database).
type Source struct {
	Text         string // the record as the server sent it
	DatabaseName string // :database-name
	Description  string // :description
	Maintainer   string // :maintainer
}

// maxSource bounds the source record.
const maxSource = 64 << 10

// Source returns the source record of database, found the way WAIS
// clients found it: a search of the server's INFO database for the
// database's name, whose hit "database.src" (type WSRC) is retrieved. A
// server without one answers ErrNotFound.
func (c *Conn) Source(ctx context.Context, database string) (*Source, error) {
	msg, err := (&SearchRequest{Database: "INFO", SeedWords: database}).Marshal()
	if err != nil {
		return nil, err
	}
	return c.SourceRequest(ctx, msg, nil, database)
}

// SourceRequest is Source with the requests as the caller wrote them (an
// access plan's bytes): search, the encoded search of the INFO database,
// is sent as it is; retrieve, the encoded retrieval of the hit's first
// chunk with an empty DocID, is the template of the record's retrieval:
// decoded, the hit's DocID set, encoded again (the chunks after it, if
// any, move its range on). A nil retrieve asks as Source does, for the
// hit's first type.
func (c *Conn) SourceRequest(ctx context.Context, search, retrieve []byte, database string) (*Source, error) {
	sr, err := c.search(ctx, search)
	if err != nil {
		return nil, err
	}
	for _, h := range sr.Hits {
		if h.Headline != database+".src" {
			continue
		}
		typ := "WSRC"
		if len(h.Types) > 0 {
			typ = h.Types[0]
		}
		// Never cut short: a record longer than maxSource, announced or
		// found, is refused; one of unknown length is read to its end.
		tooLong := func(n int64) error {
			return fmt.Errorf("%w: the source record of %q has %d bytes or more, more than a source record holds (%d)", ErrMalformed, printable(database), n, maxSource)
		}
		if h.Length > maxSource {
			return nil, tooLong(h.Length)
		}
		rc := c.Open(ctx, "INFO", h.DocID, typ, h.Length)
		if retrieve != nil {
			tr, err := parseRetrieval(retrieve)
			if err != nil {
				return nil, err
			}
			tr.DocID = h.DocID
			first, err := tr.Marshal()
			if err != nil {
				return nil, err
			}
			if rc, err = c.OpenRequest(ctx, first, nil, h.Length); err != nil {
				return nil, err
			}
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxSource+1))
		if err != nil {
			return nil, err
		}
		if len(b) > maxSource {
			return nil, tooLong(int64(len(b)))
		}
		return parseSource(string(b)), nil
	}
	return nil, fmt.Errorf("%w: no source record for database %q", ErrNotFound, printable(database))
}

// parseSource reads the keyword values of a source record, a Lisp-style
// list: (:source :version 3 :database-name "x" :description "..." ...).
// Strings may hold \" and \\ escapes.
func parseSource(text string) *Source {
	s := &Source{Text: text}
	for i := 0; i < len(text); i++ {
		if text[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' {
			j++
		}
		key := text[i+1 : j]
		for j < len(text) && (text[j] == ' ' || text[j] == '\n' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != '"' {
			i = j - 1
			continue
		}
		var val strings.Builder
		k := j + 1
		for ; k < len(text) && text[k] != '"'; k++ {
			if text[k] == '\\' && k+1 < len(text) {
				k++
			}
			val.WriteByte(text[k])
		}
		switch key {
		case "database-name":
			s.DatabaseName = val.String()
		case "description":
			s.Description = val.String()
		case "maintainer":
			s.Maintainer = val.String()
		}
		i = k
	}
	return s
}
