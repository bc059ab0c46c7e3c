package ftp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Feat returns the features the server lists in reply to FEAT (RFC 2389),
// each line trimmed ("MDTM", "SIZE", "MLST type*;size*;modify*;"). A
// server without FEAT fails with a *ReplyError (500 or 502).
func (c *Conn) Feat(ctx context.Context) ([]string, error) {
	r, err := c.simple(ctx, "FEAT", "", 2)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(r.msg, "\n")
	var feats []string
	// The first and last lines are the reply's own text ("Features:",
	// "End"); the features are between, each starting with a space.
	for i, l := range lines {
		if i == 0 || i == len(lines)-1 {
			continue
		}
		if f := strings.TrimSpace(l); f != "" {
			feats = append(feats, f)
		}
	}
	return feats, nil
}

// Mdtm returns the modification time of name (RFC 3659 3, reply 213
// YYYYMMDDHHMMSS[.sss], in UTC).
func (c *Conn) Mdtm(ctx context.Context, name string) (time.Time, error) {
	r, err := c.simple(ctx, "MDTM", name, 2)
	if err != nil {
		return time.Time{}, err
	}
	t, perr := ParseTimeVal(strings.TrimSpace(r.msg))
	if perr != nil || r.code != 213 {
		return time.Time{}, opErr("MDTM", fmt.Errorf("%w: %d %q", ErrMalformedReply, r.code, wire.Clip(r.msg)))
	}
	return t, nil
}

// ParseTimeVal parses RFC 3659's time-val: YYYYMMDDHHMMSS with an
// optional fraction, in UTC.
func ParseTimeVal(s string) (time.Time, error) {
	whole, _, _ := strings.Cut(s, ".")
	return time.Parse("20060102150405", whole)
}

// Mlst returns the facts of name (RFC 3659 7, reply 250): the fact line
// the server sends ("type=file;size=26;modify=20240101120000; name"),
// without its leading space.
func (c *Conn) Mlst(ctx context.Context, name string) (string, error) {
	r, err := c.simple(ctx, "MLST", name, 2)
	if err != nil {
		return "", err
	}
	lines := strings.Split(r.msg, "\n")
	if len(lines) < 3 {
		return "", opErr("MLST", fmt.Errorf("%w: no fact line in %q", ErrMalformedReply, wire.Clip(r.msg)))
	}
	return strings.TrimPrefix(lines[1], " "), nil
}
