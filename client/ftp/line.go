package ftp

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Reply is a server reply to a line sent with Cmd.
type Reply struct {
	// Code is the three-digit reply code.
	Code int
	// Msg is the reply text; lines of a multi-line reply are joined
	// with "\n".
	Msg string
}

// Cmd writes line, one command line exactly as the caller wrote it
// (an access plan's step), and reads the reply. line must end in CR LF
// and hold no other CR, LF or NUL; it is not changed in any way (a 0xFF
// of an argument must already be doubled, RFC 959 4.1). Only transport
// and protocol failures are errors: the caller judges the reply.
//
// The client reads the replies it needs for later commands: a 229 reply
// to EPSV or a 227 to PASV gives the data address of the next RetrLine
// or ListLine (its port judged as Dialer.CheckDataPort says), a 350 to
// REST its restart offset, a 2xx to TYPE the transfer type Retr and
// RetrLine convert by. After QUIT the connection is closed.
func (c *Conn) Cmd(ctx context.Context, line string) (Reply, error) {
	body, err := wire.CheckLine(line)
	verb, arg, _ := strings.Cut(body, " ")
	verb = strings.ToUpper(verb)
	if err != nil {
		return Reply{}, opErr(verb, err)
	}
	if verb == "QUIT" {
		var r reply
		err := c.sess.Quit(ctx, func() error {
			r, err = c.exchange(ctx, verb, body)
			return err
		})
		return Reply{r.code, r.msg}, err
	}
	release, err := c.sess.Begin(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer release()
	r, err := c.exchange(ctx, verb, body)
	if err != nil {
		return Reply{}, err
	}
	switch {
	case verb == "TYPE" && r.class() == 2:
		c.typ = strings.ToUpper(arg)
	case verb == "REST" && r.code == 350:
		c.rest, _ = strconv.ParseInt(arg, 10, 64)
	case verb == "EPSV" && r.code == 229:
		port, err := parseEPSV(r.msg)
		if err != nil {
			return Reply{r.code, r.msg}, opErr(verb, err)
		}
		err = c.passiveAt(verb, netip.AddrPortFrom(c.peer, port))
		return Reply{r.code, r.msg}, err
	case verb == "PASV" && r.code == 227:
		ip, port, err := parsePASV(r.msg)
		if err != nil {
			return Reply{r.code, r.msg}, opErr(verb, err)
		}
		err = c.passiveAt(verb, netip.AddrPortFrom(pasvHost(ip, c.peer, c.d.TrustPASVAddr), port))
		return Reply{r.code, r.msg}, err
	}
	return Reply{r.code, r.msg}, nil
}

// passiveAt keeps addr, of a passive reply, for the next transfer, once
// its port passes the check.
func (c *Conn) passiveAt(verb string, addr netip.AddrPort) error {
	if err := c.checkDataPort(int(addr.Port())); err != nil {
		return opErr(verb, err)
	}
	c.pasv = addr
	return nil
}

// RetrLine starts a retrieval with line, a RETR command line as Cmd
// takes it, and returns the data as Retr does. The data connection is
// the one a passive reply to Cmd named (else the client sets one up
// as Retr does); a REST accepted just before sets where the data
// starts, and the size of the 150 reply is then not checked.
func (c *Conn) RetrLine(ctx context.Context, line string) (io.ReadCloser, error) {
	t, err := c.startLine(ctx, line)
	if err != nil {
		return nil, err
	}
	return c.retrReader(t), nil
}

// ListLine starts a listing with line, an NLST, LIST or MLSD command
// line as Cmd takes it, on the data connection RetrLine would use.
func (c *Conn) ListLine(ctx context.Context, line string) (*Listing, error) {
	t, err := c.startLine(ctx, line)
	if err != nil {
		return nil, err
	}
	return c.listingOf(t), nil
}

func (c *Conn) startLine(ctx context.Context, line string) (*transfer, error) {
	body, err := wire.CheckLine(line)
	verb, _, _ := strings.Cut(body, " ")
	verb = strings.ToUpper(verb)
	if err != nil {
		return nil, opErr(verb, err)
	}
	offset := c.rest
	c.rest = 0
	return c.start(ctx, verb, body, offset, false)
}

// Size returns the size a 213 reply to SIZE gives (RFC 3659 4).
func (r Reply) Size() (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(r.Msg), 10, 64)
	if err != nil || n < 0 || r.Code != 213 {
		return 0, opErr("SIZE", malformed(r))
	}
	return n, nil
}

// Time returns the time a 213 reply to MDTM gives (RFC 3659 3, UTC).
func (r Reply) Time() (time.Time, error) {
	t, err := ParseTimeVal(strings.TrimSpace(r.Msg))
	if err != nil || r.Code != 213 {
		return time.Time{}, opErr("MDTM", malformed(r))
	}
	return t, nil
}

// Features returns the features a reply to FEAT lists (RFC 2389), each
// line trimmed ("MDTM", "MLST type*;size*;").
func (r Reply) Features() []string {
	lines := strings.Split(r.Msg, "\n")
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
	return feats
}

// Facts returns the fact line of a 250 reply to MLST (RFC 3659 7),
// without its leading space.
func (r Reply) Facts() (string, error) {
	lines := strings.Split(r.Msg, "\n")
	if len(lines) < 3 {
		return "", opErr("MLST", malformed(r))
	}
	return strings.TrimPrefix(lines[1], " "), nil
}

// Dir returns the directory a 257 reply to PWD names.
func (r Reply) Dir() (string, error) {
	dir, err := parsePWD(r.Msg)
	if err != nil {
		return "", opErr("PWD", err)
	}
	return dir, nil
}

// malformed reports a reply that does not say what its command asks.
func malformed(r Reply) error {
	return fmt.Errorf("%w: %d %q", ErrMalformedReply, r.Code, wire.Clip(r.Msg))
}
