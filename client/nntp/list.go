package nntp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// ActiveGroup is one line of LIST ACTIVE or NEWGROUPS (RFC 3977 section
// 7.6.3): the group's name, its reported high and low water marks, and
// its status: "y" (posting permitted), "n" (not), "m" (moderated), or
// another value some servers use ("x", "j", "=other.group").
type ActiveGroup struct {
	Name   string
	High   int64
	Low    int64
	Status string
}

// ParseActive parses "name high low status" (fields separated by one or
// more spaces). Water marks must be decimal numbers.
func ParseActive(line string) (ActiveGroup, error) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return ActiveGroup{}, fmt.Errorf("%w: active line with %d fields, want 4: %q", ErrMalformedReply, len(f), wire.Clip(line))
	}
	g := ActiveGroup{Name: f[0], Status: f[3]}
	var ok1, ok2 bool
	g.High, ok1 = parseNum(f[1])
	g.Low, ok2 = parseNum(f[2])
	if !ok1 || !ok2 {
		return ActiveGroup{}, fmt.Errorf("%w: active line water marks %q %q", ErrMalformedReply, wire.Clip(f[1]), wire.Clip(f[2]))
	}
	return g, nil
}

// String formats g as an active line, the inverse of ParseActive.
func (g ActiveGroup) String() string {
	return fmt.Sprintf("%s %d %d %s", g.Name, g.High, g.Low, g.Status)
}

// GroupScanner iterates over the groups of a LIST ACTIVE or NEWGROUPS
// response, one line at a time. The connection is busy until Next
// returns false or Close is called.
type GroupScanner struct {
	blk  *block
	item ActiveGroup
	err  error
	done bool
}

// Next advances to the next group, false at the end or on an error.
func (s *GroupScanner) Next() bool {
	if s.done {
		return false
	}
	line, err := s.blk.next()
	if err == nil {
		g, perr := ParseActive(line)
		if perr == nil {
			s.item = g
			return true
		}
		err = s.blk.c.sess.Fail(s.blk.ctx, s.blk.op, perr)
	}
	if err == io.EOF {
		err = nil
	}
	s.err = err
	s.blk.close()
	s.done = true
	return false
}

// Item returns the current group.
func (s *GroupScanner) Item() ActiveGroup { return s.item }

// Err returns the error that ended the scan, or nil.
func (s *GroupScanner) Err() error { return s.err }

// Close ends the scan early, reading the rest of the response so the
// connection stays usable.
func (s *GroupScanner) Close() error {
	if !s.done {
		s.done = true
		s.err = s.blk.close()
	}
	return s.err
}

// ListActive lists the groups matching wildmat (all groups when it is
// ""), with LIST ACTIVE (RFC 3977 section 7.6.3). A server that does not
// know the keyword (RFC 977: 500 or 501) is asked with plain LIST when
// wildmat is "". The wildmat may not hold spaces or control characters.
func (c *Conn) ListActive(ctx context.Context, wildmat string) (*GroupScanner, error) {
	line := "LIST ACTIVE"
	if wildmat != "" {
		if err := checkWord("LIST ACTIVE", wildmat); err != nil {
			return nil, err
		}
		line += " " + wildmat
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.cmd(ctx, "LIST ACTIVE", line)
	if err == nil && wildmat == "" && (r.code == 500 || r.code == 501) {
		r, err = c.cmd(ctx, "LIST", "LIST")
	}
	return c.groupList(ctx, "LIST ACTIVE", r, err, 215, release)
}

// ListLine lists groups with line, a LIST ACTIVE or LIST command line
// as Cmd takes it (reply 215), as ListActive does.
func (c *Conn) ListLine(ctx context.Context, line string) (*GroupScanner, error) {
	body, err := wire.CheckLine(line)
	if err != nil {
		return nil, opErr("LIST", err)
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.cmd(ctx, "LIST", body)
	return c.groupList(ctx, "LIST", r, err, 215, release)
}

// NewGroups lists the groups created since the given time, with
// NEWGROUPS in the RFC 3977 form "NEWGROUPS yyyymmdd hhmmss GMT"
// (section 7.3).
func (c *Conn) NewGroups(ctx context.Context, since time.Time) (*GroupScanner, error) {
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.cmd(ctx, "NEWGROUPS", "NEWGROUPS "+since.UTC().Format("20060102 150405")+" GMT")
	return c.groupList(ctx, "NEWGROUPS", r, err, 231, release)
}

func (c *Conn) groupList(ctx context.Context, op string, r reply, err error, want int, release func()) (*GroupScanner, error) {
	if err != nil {
		release()
		return nil, err
	}
	if r.code != want {
		release()
		return nil, &ReplyError{Cmd: op, Code: r.code, Msg: safe(r.msg)}
	}
	return &GroupScanner{blk: c.open(ctx, op, release)}, nil
}
