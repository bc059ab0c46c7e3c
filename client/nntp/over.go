package nntp

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// Overview is one line of overview data (RFC 3977 section 8.3): the
// article number and the values of its Subject, From, Date, Message-ID
// and References fields, its size in octets and lines, and any further
// fields the server adds (as "Name: value", e.g. "Xref: host group:1").
// Values come unfolded, with TAB, CR and LF replaced by spaces, and are
// not otherwise decoded: they may hold RFC 2047 encoded-words and any
// bytes the server sent (make them safe before printing).
type Overview struct {
	Number     int64
	Subject    string
	From       string
	Date       string
	MessageID  string
	References string
	Bytes      int64 // 0 when the server left it empty
	Lines      int64 // 0 when the server left it empty
	Extra      []string
}

// ParseOverview parses one overview line: at least eight TAB-separated
// fields, the first the article number. Empty Bytes and Lines fields read
// as 0; other non-numeric values in these three fields are an error
// matching ErrMalformedReply.
func ParseOverview(line string) (Overview, error) {
	f := strings.Split(line, "\t")
	if len(f) < 8 {
		return Overview{}, fmt.Errorf("%w: overview line with %d fields, want at least 8: %q", ErrMalformedReply, len(f), wire.Clip(line))
	}
	o := Overview{Subject: f[1], From: f[2], Date: f[3], MessageID: f[4], References: f[5]}
	var ok bool
	if o.Number, ok = parseNum(f[0]); !ok {
		return Overview{}, fmt.Errorf("%w: overview article number %q", ErrMalformedReply, wire.Clip(f[0]))
	}
	for _, p := range [...]struct {
		s string
		n *int64
	}{{f[6], &o.Bytes}, {f[7], &o.Lines}} {
		if p.s == "" {
			continue
		}
		if *p.n, ok = parseNum(p.s); !ok {
			return Overview{}, fmt.Errorf("%w: overview size %q of article %d", ErrMalformedReply, wire.Clip(p.s), o.Number)
		}
	}
	if len(f) > 8 {
		o.Extra = f[8:]
	}
	return o, nil
}

// String formats o as an overview line (without line ending), the
// inverse of ParseOverview for values without TAB, CR or LF.
func (o Overview) String() string {
	num := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	f := append([]string{strconv.FormatInt(o.Number, 10), o.Subject, o.From, o.Date, o.MessageID,
		o.References, num(o.Bytes), num(o.Lines)}, o.Extra...)
	return strings.Join(f, "\t")
}

// overMode is how Overview gets the data: the first command the server
// knows, in this order.
type overMode int

const (
	overUnknown   overMode = iota
	overOVER               // RFC 3977 OVER
	overXOVER              // RFC 2980 XOVER
	overLISTGROUP          // LISTGROUP for the numbers, HEAD for each
	overHEAD               // HEAD for every number of the range
)

// OverviewScanner iterates over the overview data of a range of
// articles, asking the server for at most Dialer.OverviewBatch articles
// at a time and holding only the current line, so memory stays constant
// whatever the size of the group. Use it like bufio.Scanner:
//
//	s := c.Overview(ctx, g.Low, g.High)
//	for s.Next() {
//		o := s.Item()
//	}
//	if err := s.Err(); err != nil { ... }
//
// The connection is busy until Next returns false or Close is called.
type OverviewScanner struct {
	// Lines, set before the first Next, are the beginnings of the lines
	// the scanner sends, as given: an access plan's bytes.
	Lines OverviewLines

	c       *Conn
	ctx     context.Context
	release func()
	cur     int64 // first number of the next batch
	low     int64
	high    int64
	blk     *block  // the open OVER/XOVER response
	nums    []int64 // LISTGROUP numbers of the batch still to HEAD
	item    Overview
	err     error
	done    bool
	// batches asked for in a row that gave no article, and whether the
	// current one gave one
	emptyRun int
	asked    bool
	gotItem  bool
}

// OverviewLines are the beginnings of the lines an OverviewScanner
// sends, each of which it ends with the batch's range "LOW-HIGH" (HEAD:
// an article's number) and CR LF. An empty one is the command and a
// space ("OVER "; LISTGROUP's names the group: "LISTGROUP GROUP "). A
// line with CR, LF or NUL is refused (ErrUnsafeArg).
type OverviewLines struct {
	Over, XOver, ListGroup, Head string
}

// line returns the line of the method m for rng.
func (l *OverviewLines) line(m overMode, group, rng string) (string, error) {
	var start string
	switch m {
	case overOVER:
		start = cmp.Or(l.Over, "OVER ")
	case overXOVER:
		start = cmp.Or(l.XOver, "XOVER ")
	case overLISTGROUP:
		start = cmp.Or(l.ListGroup, "LISTGROUP "+group+" ")
	default:
		start = cmp.Or(l.Head, "HEAD ")
	}
	body, err := wire.CheckLine(start + rng + "\r\n")
	if err != nil {
		return "", opErr(strings.TrimSpace(start), err)
	}
	return body, nil
}

// maxEmptyBatches bounds the batches in a row that give no article: a
// GROUP reply may claim any range ("211 2 1 999999999999999999"), and its
// batches, each answered at once, would go on for ever. Past it the
// listing ends with an error, not silently.
const maxEmptyBatches = 100

// Overview starts scanning the overview data of the articles low to high
// (inclusive) of the group selected with Group. It uses OVER when the
// server lists it among its capabilities, XOVER otherwise (RFC 2980),
// and when that is unknown (500 or 503), LISTGROUP and a HEAD per
// article; a server without LISTGROUP gets a HEAD for every number.
// Missing articles are skipped. Errors are reported by Err after Next
// returns false; a refusal of the range (412: no group selected) is a
// *ReplyError.
func (c *Conn) Overview(ctx context.Context, low, high int64) *OverviewScanner {
	s := &OverviewScanner{c: c, ctx: ctx, cur: max(low, 1), low: low, high: high}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		s.err, s.done = err, true
		return s
	}
	s.release = release
	c.sess.Busy = true
	if c.over == overUnknown {
		c.over = overXOVER
		if c.caps.Has("OVER") {
			c.over = overOVER
		}
	}
	return s
}

// Next advances to the next article's overview, false at the end or on
// an error.
func (s *OverviewScanner) Next() bool {
	for !s.done {
		if s.blk != nil {
			line, err := s.blk.next()
			if err == nil {
				o, perr := ParseOverview(line)
				if perr != nil {
					s.finish(s.c.sess.Fail(s.ctx, s.blk.op, perr))
					return false
				}
				s.item, s.gotItem = o, true
				return true
			}
			s.blk.closed = true
			s.blk = nil
			if err != io.EOF {
				s.finish(err)
				return false
			}
			continue
		}
		if len(s.nums) > 0 {
			n := s.nums[0]
			s.nums = s.nums[1:]
			o, found, err := s.head(n)
			if err != nil {
				s.finish(err)
				return false
			}
			if found {
				s.item, s.gotItem = o, true
				return true
			}
			continue
		}
		if s.cur > s.high {
			s.finish(nil)
			return false
		}
		if s.asked && !s.gotItem {
			s.emptyRun++
		} else {
			s.emptyRun = 0
		}
		s.asked, s.gotItem = true, false
		if s.emptyRun >= maxEmptyBatches {
			s.finish(opErr("OVER", fmt.Errorf("%w: %d batches in a row without an article, up to %d of the range %d-%d the server gave: stopped", ErrMalformedReply, s.emptyRun, s.cur-1, s.low, s.high)))
			return false
		}
		if err := s.request(); err != nil {
			s.finish(err)
			return false
		}
	}
	return false
}

// request asks for the next batch, falling back to the next method when
// the server does not know a command.
func (s *OverviewScanner) request() error {
	c := s.c
	lo := s.cur
	hi := min(s.high, lo+int64(c.d.OverviewBatch)-1)
	rng := strconv.FormatInt(lo, 10) + "-" + strconv.FormatInt(hi, 10)
	for {
		switch c.over {
		case overOVER, overXOVER:
			verb := "OVER"
			if c.over == overXOVER {
				verb = "XOVER"
			}
			line, err := s.Lines.line(c.over, c.group, rng)
			if err != nil {
				return err
			}
			r, err := c.cmd(s.ctx, verb, line)
			if err != nil {
				return err
			}
			switch r.code {
			case 224:
				s.blk = &block{c: c, ctx: s.ctx, op: verb, lines: dotLines{lr: c.lr}, release: func() {}}
			case 423, 420: // no articles in the range
			case 500, 503:
				c.over++
				continue
			default:
				return &ReplyError{Cmd: verb, Code: r.code, Msg: safe(r.msg)}
			}
		case overLISTGROUP:
			if c.group == "" {
				return opErr("LISTGROUP", fmt.Errorf("%w: no group selected with Group", ErrNoGroupSelected))
			}
			line, err := s.Lines.line(overLISTGROUP, c.group, rng)
			if err != nil {
				return err
			}
			r, err := c.cmd(s.ctx, "LISTGROUP", line)
			if err != nil {
				return err
			}
			switch r.code {
			case 211:
			case 500, 501, 503: // no LISTGROUP, or no range argument (RFC 2980)
				c.over++
				continue
			default:
				return &ReplyError{Cmd: "LISTGROUP", Code: r.code, Msg: safe(r.msg)}
			}
			d := &dotLines{lr: c.lr}
			for {
				line, err := d.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					return c.sess.Fail(s.ctx, "LISTGROUP", err)
				}
				n, ok := parseNum(strings.TrimSpace(line))
				if !ok {
					return c.sess.Fail(s.ctx, "LISTGROUP", fmt.Errorf("%w: article number %q", ErrMalformedReply, wire.Clip(line)))
				}
				if n >= lo && n <= hi && len(s.nums) < c.d.OverviewBatch {
					s.nums = append(s.nums, n)
				}
			}
		default: // overHEAD
			for n := lo; n <= hi; n++ {
				s.nums = append(s.nums, n)
			}
		}
		s.cur = hi + 1
		return nil
	}
}

// head builds an overview entry from HEAD n; found is false for a
// missing article (423).
func (s *OverviewScanner) head(n int64) (Overview, bool, error) {
	c := s.c
	line, err := s.Lines.line(overHEAD, c.group, strconv.FormatInt(n, 10))
	if err != nil {
		return Overview{}, false, err
	}
	r, err := c.cmd(s.ctx, "HEAD", line)
	if err != nil {
		return Overview{}, false, err
	}
	switch r.code {
	case 221:
	case 423, 430:
		return Overview{}, false, nil
	default:
		return Overview{}, false, &ReplyError{Cmd: "HEAD", Code: r.code, Msg: safe(r.msg)}
	}
	d := &dotLines{lr: c.lr}
	h, err := readHeader(d, DefaultMaxHeaderBytes)
	if err != nil {
		return Overview{}, false, c.sess.Fail(s.ctx, "HEAD", err)
	}
	o := Overview{Number: n, Subject: h.Get("Subject"), From: h.Get("From"), Date: h.Get("Date"),
		MessageID: h.Get("Message-Id"), References: h.Get("References")}
	o.Bytes, _ = parseNum(h.Get("Bytes"))
	o.Lines, _ = parseNum(h.Get("Lines"))
	if x := h.Get("Xref"); x != "" {
		o.Extra = []string{"Xref: " + x}
	}
	return o, true, nil
}

// readHeader reads a header block (unfolding continuation lines, TABs
// made spaces as in overview data) of at most max bytes, and the rest of
// the data block.
func readHeader(d *dotLines, max int) (textproto.MIMEHeader, error) {
	h := textproto.MIMEHeader{}
	total := 0
	var last string
	for {
		line, err := d.next()
		if err == io.EOF {
			return h, nil
		}
		if err != nil {
			return nil, err
		}
		if total += len(line) + 1; total > max {
			return nil, fmt.Errorf("%w: header over %d bytes", ErrLineTooLong, max)
		}
		line = strings.ReplaceAll(line, "\t", " ")
		if line != "" && line[0] == ' ' && last != "" {
			vs := h[last]
			vs[len(vs)-1] += line
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue // not a field: ignored, as overview data would
		}
		last = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name))
		h[last] = append(h[last], strings.TrimSpace(value))
	}
}

// Item returns the current article's overview.
func (s *OverviewScanner) Item() Overview { return s.item }

// Err returns the error that ended the scan, or nil.
func (s *OverviewScanner) Err() error { return s.err }

// Close ends the scan early; the rest of an open response is read so the
// connection stays usable. It returns Err's value.
func (s *OverviewScanner) Close() error {
	if s.done {
		return s.err
	}
	var err error
	if s.blk != nil {
		s.blk.release = func() {}
		err = s.blk.close()
		s.blk = nil
	}
	s.finish(err)
	return s.err
}

func (s *OverviewScanner) finish(err error) {
	if s.done {
		return
	}
	s.done = true
	s.err = err
	s.c.sess.Busy = false
	if s.release != nil {
		s.release()
	}
}
