package gopher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnsafeArg reports a selector, search or Gopher+ string holding
	// CR, LF, NUL or TAB; nothing was sent. The error is an *ArgError.
	ErrUnsafeArg = wire.ErrUnsafeArg
	// ErrLineTooLong reports a menu, header or attribute line longer
	// than the limit.
	ErrLineTooLong = wire.ErrLineTooLong
	// ErrShortTransfer reports a Gopher+ response that ended before the
	// byte count of its header ("+N"), or before the "." line that ends a
	// "+-1" response, or whose connection broke.
	ErrShortTransfer = errors.New("gopher: short transfer")
)

// ArgError is the type of the errors reporting an unsafe argument: the
// offset and value of the first CR, LF, NUL or TAB byte.
type ArgError = wire.ArgError

// maxErrorBody bounds the text of a Gopher+ error response.
const maxErrorBody = 64 << 10

// traceLimit bounds what Client.Trace gets per direction and request.
const traceLimit = 4096

// Client fetches Gopher and Gopher+ items. Its zero value is ready to use.
// A Client holds no connections (Gopher opens one per request) and may be
// used concurrently.
type Client struct {
	// Timeout bounds connection establishment. Zero means no limit
	// besides the context's (and the operating system's).
	Timeout time.Duration
	// MaxLine bounds menu, header and attribute lines read through a
	// Response (default DefaultMaxLine).
	MaxLine int
	// MaxLines bounds the number of attribute lines of one response
	// (default DefaultMaxLines).
	MaxLines int
	// Trace, if set, receives a transcript of each exchange: "> " for the
	// request, "< " for the response, with TABs shown as \t; at most
	// 4 KiB per direction and request.
	Trace io.Writer
}

// Fetch sends a request to the Gopher server at addr ("host:port") and
// returns the response. The request line is
//
//	selector [TAB search [TAB plus]] CRLF    (RFC 1436, Gopher+)
//
// with the search field present when search is not nil and the Gopher+
// field when plus is not nil; with plus but no search the search field is
// omitted ("selector TAB +"), as Gopher+ specifies for non-search items.
// plus is "+" for the item's data, "+VIEW" for a given view, "!" for its
// attribute blocks, "$" for those of every item of a menu.
//
// The strings are sent as given (they are never decoded or escaped), after
// checking that none holds CR, LF, NUL or TAB: a TAB would start another
// field and CR/LF another request, so they fail with an *ArgError before
// anything is sent.
//
// With plus set, a Gopher+ response header is expected: the body is then
// framed by it (Response.Length) and an error header ("-N", "--1",
// "--2") makes Fetch return a *PlusError. A server that ignores Gopher+
// (Gophernicus) answers with the plain document; Response.Plus reports
// which happened.
//
// ctx governs the whole exchange, including reading the body: its deadline
// applies to the connection, and cancelling it closes the connection.
// The Response must be closed.
func (c *Client) Fetch(ctx context.Context, addr, selector string, search, plus *string) (*Response, error) {
	req, err := requestLine(selector, search, plus)
	if err != nil {
		return nil, err
	}
	return c.exchange(ctx, addr, req+"\r\n", plus != nil && *plus != "")
}

// Send sends request, the bytes of a whole request exactly as the
// caller wrote them (an access plan's lines), to the Gopher server at
// addr and returns the response as Fetch does; plus says whether a
// Gopher+ header is expected. request must be lines each ending in CR
// LF, with no other CR or LF and no NUL (only an ASK submission has
// more than one line); it fails with an *ArgError before anything is
// sent otherwise.
func (c *Client) Send(ctx context.Context, addr, request string, plus bool) (*Response, error) {
	if err := checkRequest(request); err != nil {
		return nil, fmt.Errorf("gopher: request: %w", err)
	}
	return c.exchange(ctx, addr, request, plus)
}

// checkRequest checks that request is whole CR LF lines without NUL.
func checkRequest(request string) error {
	if !strings.HasSuffix(request, "\r\n") {
		return wire.ErrNoLineEnd
	}
	for line := range strings.Lines(request) {
		if err := wire.CheckArg(strings.TrimSuffix(line, "\r\n"), false); err != nil {
			return err
		}
	}
	return nil
}

// requestLine checks the fields and joins them with TABs.
func requestLine(selector string, search, plus *string) (string, error) {
	fields := []struct {
		name string
		v    *string
	}{{"selector", &selector}, {"search", search}, {"gopher+ field", plus}}
	var b strings.Builder
	for i, f := range fields {
		if f.v == nil {
			continue
		}
		if err := wire.CheckArg(*f.v, true); err != nil {
			return "", fmt.Errorf("gopher: %s: %w", f.name, err)
		}
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(*f.v)
	}
	return b.String(), nil
}

// SubmitAsk sends the answers to an item's ASK form (Gopher+ section 2.6)
// and returns the server's response:
//
//	selector TAB + TAB 1 CRLF
//	+-1 CRLF
//	value CRLF  (one line per answer, in the order of the questions,
//	...          dot-stuffed)
//	. CRLF
//
// This is the only request with CRLF inside it, and only in this
// structured form: the selector may not hold CR, LF, NUL or TAB, and the
// values may not hold CR, LF or NUL (a TAB is harmless inside the data
// block). Nothing is sent if a check fails.
func (c *Client) SubmitAsk(ctx context.Context, addr, selector string, values []string) (*Response, error) {
	req, err := askRequest(selector, values)
	if err != nil {
		return nil, err
	}
	return c.exchange(ctx, addr, req, true)
}

// askRequest builds the bytes of an ASK submission.
func askRequest(selector string, values []string) (string, error) {
	if err := wire.CheckArg(selector, true); err != nil {
		return "", fmt.Errorf("gopher: selector: %w", err)
	}
	for i, v := range values {
		if err := wire.CheckArg(v, false); err != nil {
			return "", fmt.Errorf("gopher: ASK value %d: %w", i+1, err)
		}
	}
	var b strings.Builder
	b.WriteString(selector + "\t+\t1\r\n+-1\r\n")
	w := textproto.NewWriter(bufio.NewWriter(&b))
	dw := w.DotWriter()
	for _, v := range values {
		io.WriteString(dw, v+"\n") // DotWriter: LF -> CRLF, leading "." doubled
	}
	dw.Close() // writes ".\r\n"
	w.W.Flush()
	return b.String(), nil
}

// exchange dials, writes the request (the one writer of a request) and, if plus, reads the Gopher+
// header.
func (c *Client) exchange(ctx context.Context, addr, request string, plus bool) (*Response, error) {
	nc, err := wire.Dial(ctx, &net.Dialer{Timeout: c.Timeout}, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("gopher: dial %s: %w", addr, err)
	}
	// Responses are read to the server's close (or a "." line, which
	// BatchPatience then delays a little at most): wake for big batches.
	conn := (&wire.Tracer{W: c.Trace, Limit: traceLimit}).Conn(wire.BatchReads(nc))
	release := wire.Bind(ctx, conn)
	r := &Response{c: c, ctx: ctx, conn: conn, release: release, Length: LengthClose}
	r.br = bufio.NewReader(conn)
	r.body = r.br
	if _, err := io.WriteString(conn, request); err != nil {
		r.Close()
		return nil, fmt.Errorf("gopher: sending request: %w", wire.ContextError(ctx, err))
	}
	if !plus {
		return r, nil
	}
	if err := r.readHeader(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Response is the answer to a Gopher request: a stream of the body bytes,
// plus what the Gopher+ header said. It must be closed.
type Response struct {
	// Plus reports whether the response started with a Gopher+ header.
	Plus bool
	// Length is the data length from the Gopher+ header: a byte count,
	// LengthDot or LengthClose. Without a header it is LengthClose: the
	// body is whatever arrives until the server closes (a text or menu
	// body may still end with a "." line; Text and Menu handle that).
	Length int64

	c       *Client
	ctx     context.Context
	conn    net.Conn
	release func()
	br      *bufio.Reader
	body    io.Reader
	tail    lineTail // the end of the body read so far
	dotSeen bool     // the "." line of a "+-1" body was read: the end
	closed  bool
}

// Terminated reports whether the body read so far ends with a line holding
// only "." (RFC 1436's terminator of menus and text), which is what a
// caller checks at the end of a response without a Gopher+ byte count to
// tell a complete menu or text from one cut short. Many servers never
// send the "." (pygopherd, Gophernicus for files and CGI output), so its
// absence is a doubt, not a proof, there. A Gopher+ "+-1" response must end
// with it: Read fails with ErrShortTransfer if it does not.
func (r *Response) Terminated() bool { return r.tail.terminated() }

// BytesRead returns the number of body bytes read so far (after the
// Gopher+ header).
func (r *Response) BytesRead() int64 { return r.tail.n }

// headerMax is more than the longest header line, "+" and 19 digits.
const headerMax = 32

// readHeader consumes a Gopher+ header line if the response starts with
// one. A server without Gopher+ sends the plain document: its first line
// is left in the body.
func (r *Response) readHeader() error {
	var line []byte
	for n := 1; n <= headerMax; n++ {
		b, err := r.br.Peek(n)
		if len(b) == n && b[n-1] == '\n' {
			line = b
			break
		}
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, bufio.ErrBufferFull) {
				return nil // too short or no newline: not a header
			}
			return fmt.Errorf("gopher: reading response header: %w", wire.ContextError(r.ctx, err))
		}
	}
	if line == nil {
		return nil
	}
	length, isErr, ok := parseHeader(strings.TrimRight(string(line), "\r\n"))
	if !ok {
		return nil
	}
	r.br.Discard(len(line))
	r.Plus, r.Length = true, length
	if isErr {
		return r.readError()
	}
	if length >= 0 {
		r.body = &countedReader{r: r.br, n: length}
	}
	return nil
}

// readError reads a bounded error body and returns it as a *PlusError.
func (r *Response) readError() error {
	var body []byte
	var err error
	switch {
	case r.Length >= 0:
		body, err = io.ReadAll(io.LimitReader(r.br, min(r.Length, maxErrorBody)))
	case r.Length == LengthDot:
		var b strings.Builder
		lr := wire.NewLineReader(io.LimitReader(r.br, maxErrorBody), r.c.maxLine())
		for {
			line, lerr := lr.ReadLine()
			if lerr != nil || line == "." {
				if lerr != nil && lerr != io.EOF && lerr != io.ErrUnexpectedEOF {
					err = lerr
				}
				b.WriteString(line)
				break
			}
			b.WriteString(line + "\n")
		}
		body = []byte(b.String())
	default:
		body, err = io.ReadAll(io.LimitReader(r.br, maxErrorBody))
	}
	if err != nil {
		return fmt.Errorf("gopher: reading error response: %w", wire.ContextError(r.ctx, err))
	}
	return parsePlusError(string(body))
}

func (c *Client) maxLine() int {
	if c.MaxLine > 0 {
		return c.MaxLine
	}
	return DefaultMaxLine
}

func (c *Client) maxLines() int {
	if c.MaxLines > 0 {
		return c.MaxLines
	}
	return DefaultMaxLines
}

// Read reads raw body bytes: the document, menu or attribute text as the
// server sent it (after the Gopher+ header, if any). With a Gopher+ byte
// count, Read stops after that many bytes, and fails with an error
// matching ErrShortTransfer if the connection ends before; with a "+-1"
// header, Read stops after the line holding only "." (which it returns
// too), and fails with ErrShortTransfer if the connection ends before it.
// Use Text or Menu to interpret the bytes.
func (r *Response) Read(p []byte) (int, error) {
	if r.closed {
		return 0, errors.New("gopher: read after Close")
	}
	if r.dotSeen {
		return 0, io.EOF
	}
	n, err := r.body.Read(p)
	if r.Plus && r.Length == LengthDot {
		// The data ends at the "." line, whether or not the server then
		// closes the connection.
		for i, b := range p[:n] {
			r.tail.add(p[i : i+1])
			if b == '\n' && r.tail.terminated() {
				r.dotSeen = true
				return i + 1, nil
			}
		}
	} else {
		r.tail.add(p[:n])
	}
	if err == io.EOF && r.Plus && r.Length == LengthDot && !r.tail.terminated() {
		return n, fmt.Errorf("%w: the connection closed after %d bytes, before the \".\" line that ends a Gopher+ +-1 response", ErrShortTransfer, r.tail.n)
	}
	if err != nil && err != io.EOF {
		err = wire.ContextError(r.ctx, err)
		if !errors.Is(err, ErrShortTransfer) {
			err = fmt.Errorf("gopher: reading response: %w", err)
		}
	}
	return n, err
}

// Close closes the connection. It is safe to call more than once.
func (r *Response) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.release()
	if err := r.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// Menu returns an iterator over the body as a menu (types 1 and 7).
func (r *Response) Menu() *MenuReader { return NewMenuReader(r, r.c.maxLine()) }

// Text returns the body as text (type 0 and the other text types), see
// NewTextReader.
func (r *Response) Text() io.Reader { return NewTextReader(r) }

// Attributes parses the body as Gopher+ attribute blocks, the response
// to a "!" or "$" request.
func (r *Response) Attributes() ([]Block, error) {
	return parseAttributes(wire.NewLineReader(r, r.c.maxLine()), r.c.maxLines())
}

// countedReader reads exactly n bytes, reporting an early end.
type countedReader struct {
	r    io.Reader
	n    int64 // still to read
	read int64
}

func (c *countedReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	c.read += int64(n)
	if err == io.EOF && c.n > 0 {
		return n, fmt.Errorf("%w: %d of %d bytes", ErrShortTransfer, c.read, c.read+c.n)
	}
	if err != nil && err != io.EOF {
		return n, fmt.Errorf("%w after %d of %d bytes: %w", ErrShortTransfer, c.read, c.read+c.n, err)
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// lineTail remembers the last bytes of a stream: enough to tell whether it
// ends with a "." line (".\r\n", ".\n", or a final "." without line end).
type lineTail struct {
	last [4]byte // the last min(n, 4) bytes, oldest first
	n    int64   // bytes seen
}

func (t *lineTail) add(p []byte) {
	for _, b := range p[max(0, len(p)-len(t.last)):] {
		copy(t.last[:], t.last[1:])
		t.last[len(t.last)-1] = b
	}
	t.n += int64(len(p))
}

func (t *lineTail) terminated() bool {
	s := string(t.last[max(0, int64(len(t.last))-t.n):])
	for _, end := range []string{".\r\n", ".\n", "."} {
		if strings.HasSuffix(s, end) {
			// The "." must start a line: the stream's first byte, or after LF.
			i := len(s) - len(end)
			if i > 0 && s[i-1] == '\n' || i == 0 && t.n == int64(len(end)) {
				return true
			}
		}
	}
	return false
}

// bufioReader returns r as a *bufio.Reader, wrapping it if needed.
func bufioReader(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	return bufio.NewReader(r)
}
