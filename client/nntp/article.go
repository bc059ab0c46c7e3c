package nntp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// block is an open multi-line response: the connection is busy, and
// bound to the response's context, until it is closed.
type block struct {
	c       *Conn
	ctx     context.Context
	op      string
	lines   dotLines
	release func()
	closed  bool
	err     error // set by close
}

// open starts reading a data block after a positive status line.
func (c *Conn) open(ctx context.Context, op string, release func()) *block {
	c.sess.Busy = true
	return &block{c: c, ctx: ctx, op: op, lines: dotLines{lr: c.lr}, release: release}
}

// next returns the next line, or io.EOF at the end of the block. A read
// failure breaks the connection.
func (b *block) next() (string, error) {
	if b.closed {
		return "", opErr(b.op, errors.New("read after Close"))
	}
	if b.c.sess.Broken() != nil && b.lines.err == nil && !b.lines.done {
		return "", b.c.sess.Broken()
	}
	line, err := b.lines.next()
	if err != nil && err != io.EOF {
		if b.c.sess.Broken() == nil {
			return "", b.c.sess.Fail(b.ctx, b.op, err)
		}
		return "", b.c.sess.Broken()
	}
	return line, err
}

// close reads what is left of the block, so the connection is ready for
// the next command, and frees the connection.
func (b *block) close() error {
	if b.closed {
		return b.err
	}
	b.closed = true
	defer b.release()
	b.c.sess.Busy = false
	if b.c.sess.Broken() != nil {
		if b.lines.done {
			return nil // Quit/Close after the whole block was read
		}
		b.err = b.c.sess.Broken()
		return b.err
	}
	if err := b.lines.drain(); err != nil {
		b.err = b.c.sess.Fail(b.ctx, b.op, err)
	}
	return b.err
}

// Article is an article (or its head or body) being read from the
// server: Read returns its lines, unstuffed, each ended with LF (the
// network's CRLF is converted). It must be closed before the next
// command; Close reads whatever is left.
type Article struct {
	// Number is the article number from the reply; 0 when the article
	// was selected by message-id (RFC 3977 section 6.2.1.2).
	Number int64
	// MessageID is the message-id from the reply, "<...>".
	MessageID string

	b *block
	r *dotReader
}

// Read reads the article text.
func (a *Article) Read(p []byte) (int, error) {
	if a.b.closed {
		return 0, opErr(a.b.op, errors.New("read after Close"))
	}
	n, err := a.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, ErrClosed) && a.b.c.sess.Broken() == nil {
		err = a.b.c.sess.Fail(a.b.ctx, a.b.op, err)
	}
	return n, err
}

// Close finishes the response; see Article.
func (a *Article) Close() error { return a.b.close() }

// Article retrieves the whole article ref (ARTICLE, RFC 3977 section
// 6.2.1): ref is a message-id "<...>", an article number of the selected
// group as decimal digits, or "" for the current article. A missing
// article is a *ReplyError matching ErrNoSuchArticle (420, 423, 430);
// a number without a selected group gets 412 (ErrNoGroupSelected).
//
// ctx governs the whole response, including the reads and Close.
func (c *Conn) Article(ctx context.Context, ref string) (*Article, error) {
	return c.fetch(ctx, "ARTICLE", ref, 220)
}

// Head is Article for the header only (HEAD, reply 221).
func (c *Conn) Head(ctx context.Context, ref string) (*Article, error) {
	return c.fetch(ctx, "HEAD", ref, 221)
}

// Body is Article for the body only (BODY, reply 222).
func (c *Conn) Body(ctx context.Context, ref string) (*Article, error) {
	return c.fetch(ctx, "BODY", ref, 222)
}

// CheckRef reports whether ref is something Article, Head and Body
// accept: "" (the current article), an article number (1 to 18 decimal
// digits), or a message-id per RFC 3977 section 3.6 (3 to 250 octets of
// printable US-ASCII, beginning with "<", ending with ">" and with no ">"
// in between).
func CheckRef(ref string) error {
	if ref == "" {
		return nil
	}
	if ref[0] != '<' {
		if _, ok := parseNum(ref); !ok {
			return fmt.Errorf("%w: article reference %q is neither a message-id nor a number", ErrUnsafeArg, wire.Clip(ref))
		}
		return nil
	}
	return CheckMessageID(ref)
}

// CheckMessageID checks a message-id per RFC 3977 section 3.6: 3 to 250
// octets, "<" first, ">" last and nowhere else, printable US-ASCII only
// (no space or control). The offset of the first offending byte is
// reported.
func CheckMessageID(id string) error {
	if len(id) < 3 || len(id) > 250 {
		return fmt.Errorf("%w: message-id %q must be 3 to 250 octets", ErrUnsafeArg, wire.Clip(id))
	}
	if id[0] != '<' || id[len(id)-1] != '>' {
		return fmt.Errorf("%w: message-id %q must be enclosed in <>", ErrUnsafeArg, wire.Clip(id))
	}
	for i := 1; i < len(id)-1; i++ {
		if b := id[i]; b <= ' ' || b >= 0x7f || b == '>' {
			if b == '\r' || b == '\n' || b == 0 || b == ' ' || b == '\t' {
				return fmt.Errorf("message-id: %w", &ArgError{Offset: i, Byte: b})
			}
			return fmt.Errorf("%w: message-id %q: byte 0x%02x at offset %d is not allowed", ErrUnsafeArg, wire.Clip(id), b, i)
		}
	}
	return nil
}

func (c *Conn) fetch(ctx context.Context, verb, ref string, want int) (*Article, error) {
	if err := CheckRef(ref); err != nil {
		return nil, opErr(verb, err)
	}
	line := verb
	if ref != "" {
		line += " " + ref
	}
	return c.fetchLine(ctx, verb, line, want)
}

// ArticleLine is Article with line, an ARTICLE command line as Cmd takes
// it.
func (c *Conn) ArticleLine(ctx context.Context, line string) (*Article, error) {
	body, err := wire.CheckLine(line)
	if err != nil {
		return nil, opErr("ARTICLE", err)
	}
	return c.fetchLine(ctx, "ARTICLE", body, 220)
}

func (c *Conn) fetchLine(ctx context.Context, verb, line string, want int) (*Article, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.cmd(ctx, verb, line)
	if err != nil {
		release()
		return nil, err
	}
	if r.code != want {
		release()
		return nil, &ReplyError{Cmd: verb, Code: r.code, Msg: safe(r.msg)}
	}
	a := &Article{b: c.open(ctx, verb, release)}
	a.r = &dotReader{lines: &a.b.lines}
	// "220 n <message-id> ...": lenient, the text after the id is free
	f := strings.Fields(r.msg)
	if len(f) >= 1 {
		a.Number, _ = parseNum(f[0])
	}
	if len(f) >= 2 && CheckMessageID(f[1]) == nil {
		a.MessageID = f[1]
	}
	return a, nil
}

// Post sends the article read from article with POST (RFC 3977 section
// 6.3.1): the server answers 340 (send it) or 440 (posting not allowed,
// ErrPostingNotAllowed); the article is sent dot-stuffed with CRLF line
// ends (LF or CRLF in the input), ended with ".", and accepted with 240
// or refused with 441 (ErrPostingFailed). It returns the server's 240
// text, which often names the message-id.
//
// Post sends the article as it is: check it first with CheckArticle,
// which adds a Message-ID and Date. A read error from article aborts the
// connection (the server would take a partial article as whole).
func (c *Conn) Post(ctx context.Context, article io.Reader) (string, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	r, err := c.cmd(ctx, "POST", "POST")
	if err != nil {
		return "", err
	}
	if r.code != 340 {
		return "", &ReplyError{Cmd: "POST", Code: r.code, Msg: safe(r.msg)}
	}
	if err := writeDotStuffed(c.sess.W, article); err != nil {
		return "", c.sess.Fail(ctx, "POST", err)
	}
	if r, err = c.read(ctx, "POST"); err != nil {
		return "", err
	}
	if r.code != 240 {
		return "", &ReplyError{Cmd: "POST", Code: r.code, Msg: safe(r.msg)}
	}
	return safe(r.msg), nil
}

// writeDotStuffed copies r to w as an RFC 3977 data block: every line
// ends with CRLF (a bare LF becomes CRLF; the final line gets one if it
// has none), a line starting with "." gets another ".", and the block
// ends with ".\r\n".
func writeDotStuffed(w *bufio.Writer, r io.Reader) error {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 || err == bufio.ErrBufferFull {
			// a line longer than the buffer comes in pieces; only the
			// first piece of a line may need its dot doubled
			if len(line) > 0 && line[0] == '.' {
				w.WriteByte('.')
			}
			// A piece may end with the CR of the line's CRLF: it is
			// held back until the next piece shows whether an LF
			// follows, or the line would end in CR CR LF.
			heldCR := false
			for err == bufio.ErrBufferFull {
				if heldCR {
					w.WriteByte('\r')
				}
				heldCR = len(line) > 0 && line[len(line)-1] == '\r'
				if heldCR {
					line = line[:len(line)-1]
				}
				w.Write(line)
				line, err = br.ReadSlice('\n')
			}
			if heldCR && !(len(line) > 0 && line[0] == '\n') {
				w.WriteByte('\r') // a CR inside the line, as it came
			}
			body := line
			if n := len(body); n > 0 && body[n-1] == '\n' {
				body = body[:n-1]
				if n := len(body); n > 0 && body[n-1] == '\r' {
					body = body[:n-1]
				}
			}
			w.Write(body)
			w.WriteString("\r\n")
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the article: %w", err)
		}
	}
	w.WriteString(".\r\n")
	return w.Flush()
}

// Number formats an article number for Article, Head and Body.
func Number(n int64) string { return strconv.FormatInt(n, 10) }
