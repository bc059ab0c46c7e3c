package ftp

import (
	"context"
	"strings"
	"time"
)

// Feat returns the features the server lists in reply to FEAT (RFC 2389),
// each line trimmed ("MDTM", "SIZE", "MLST type*;size*;modify*;"). A
// server without FEAT fails with a *ReplyError (500 or 502).
func (c *Conn) Feat(ctx context.Context) ([]string, error) {
	r, err := c.simple(ctx, "FEAT", "", 2)
	if err != nil {
		return nil, err
	}
	return Reply{r.code, r.msg}.Features(), nil
}

// Mdtm returns the modification time of name (RFC 3659 3, reply 213
// YYYYMMDDHHMMSS[.sss], in UTC).
func (c *Conn) Mdtm(ctx context.Context, name string) (time.Time, error) {
	r, err := c.simple(ctx, "MDTM", name, 2)
	if err != nil {
		return time.Time{}, err
	}
	return Reply{r.code, r.msg}.Time()
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
	return Reply{r.code, r.msg}.Facts()
}
