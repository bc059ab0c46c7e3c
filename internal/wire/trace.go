package wire

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/urlkit/urlkit/internal/safetext"
)

// Mask is what a transcript shows in place of a secret (a PASS
// argument, a password typed at a login prompt): safetext.Mask, the one
// mark every message and trace of urlkit uses.
const Mask = safetext.Mask

// Tracer copies the traffic of connections to W as a readable transcript:
// one line per protocol line, prefixed "> " for bytes the client sent and
// "< " for bytes it received. Non-printable bytes other than the line
// ending are shown Go-escaped (a TAB appears as \t), so a transcript never
// contains raw control characters from the peer. A zero Tracer traces
// nothing; a Tracer may be shared by connections used concurrently.
type Tracer struct {
	// W receives the transcript. If nil, Conn returns its argument unchanged.
	W io.Writer
	// Mask, if set, rewrites every sent line before it is written to W.
	// Clients use it to hide secrets: the FTP client masks "PASS xxx".
	// It is applied to partial lines too (see Limit).
	Mask func(line string) string
	// MaskReceived applies Mask to received lines too: a peer may echo a
	// secret back (a telnet server's pty echoing a password typed ahead).
	MaskReceived bool
	// Limit caps the bytes traced per direction and connection; zero means
	// no cap. When the cap is reached a note is written and the rest of
	// that direction is skipped (bodies of big transfers, binary data).
	Limit int64

	mu sync.Mutex
}

// Conn returns a net.Conn that behaves like c and copies its traffic to
// the transcript. It returns c itself when t or t.W is nil.
func (t *Tracer) Conn(c net.Conn) net.Conn {
	if t == nil || t.W == nil {
		return c
	}
	tc := &traceConn{Conn: c, t: t, in: traceDir{prefix: "< "}, out: traceDir{prefix: "> ", mask: t.Mask}}
	if t.MaskReceived {
		tc.in.mask = t.Mask
	}
	return tc
}

// maxPending bounds the partial line a direction keeps before flushing it.
const maxPending = 1024

type traceDir struct {
	mu      sync.Mutex
	prefix  string
	mask    func(string) string
	pending []byte
	n       int64 // bytes seen
	cut     bool  // Limit reached, note written
	closed  bool  // the conn was closed: partial lines are written at once
}

type traceConn struct {
	net.Conn
	t       *Tracer
	in, out traceDir
}

func (c *traceConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.t.feed(&c.in, p[:n])
	}
	return n, err
}

func (c *traceConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.t.feed(&c.out, p[:n])
	}
	return n, err
}

func (c *traceConn) Close() error {
	c.t.flush(&c.in)
	c.t.flush(&c.out)
	return c.Conn.Close()
}

// feed adds p to d's pending line and writes the complete lines.
func (t *Tracer) feed(d *traceDir, p []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cut {
		return
	}
	cut := false
	if t.Limit > 0 && d.n+int64(len(p)) > t.Limit {
		p = p[:t.Limit-d.n]
		cut = true
	}
	d.n += int64(len(p))
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			d.pending = append(d.pending, p...)
			if len(d.pending) >= maxPending {
				t.emit(d, d.pending)
				d.pending = d.pending[:0]
			}
			break
		}
		line := p[:i+1]
		p = p[i+1:]
		if len(d.pending) > 0 {
			line = append(d.pending, line...)
			d.pending = d.pending[:0]
		}
		t.emit(d, line)
	}
	if d.closed && len(d.pending) > 0 {
		// A write that finished as the conn was closed (the peer
		// answered and a reader closed it first) is fed late.
		t.emit(d, d.pending)
		d.pending = d.pending[:0]
	}
	if cut {
		if len(d.pending) > 0 {
			t.emit(d, d.pending)
			d.pending = nil
		}
		d.cut = true
		t.write(fmt.Sprintf("%s[trace limit of %d bytes reached]\n", d.prefix, t.Limit))
	}
}

func (t *Tracer) flush(d *traceDir) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	if len(d.pending) > 0 && !d.cut {
		t.emit(d, d.pending)
		d.pending = nil
	}
}

// emit writes one transcript line for raw (a line with or without its LF).
func (t *Tracer) emit(d *traceDir, raw []byte) {
	s := string(trimEOL(raw))
	if d.mask != nil {
		s = d.mask(s)
	}
	t.write(d.prefix + printable(s) + "\n")
}

func (t *Tracer) write(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	io.WriteString(t.W, s)
}

// printable returns s with non-printable bytes Go-escaped, or s itself
// when there is nothing to escape. It escapes byte by byte (\xNN above
// 0x7e, never \uNNNN for a UTF-8 sequence), so a transcript of a binary
// protocol (telnet negotiation, 3270 records) shows every byte as sent;
// ASCII is escaped as strconv.Quote does.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return safetext.EscapeBytes(s)
		}
	}
	return s
}

// Secrets is the list of secrets a session client has sent (a password
// typed at a login prompt), which its trace masks from then on. The
// zero value is empty and ready; it may be used concurrently, since a
// tracer's Mask runs inside writes.
type Secrets struct {
	mu   sync.Mutex
	list []string
}

// Add masks s in the trace from now on.
func (s *Secrets) Add(secret string) {
	s.mu.Lock()
	s.list = append(s.list, secret)
	s.mu.Unlock()
}

// Mask returns line with every secret replaced by Mask: a Tracer's Mask.
func (s *Secrets) Mask(line string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sec := range s.list {
		if sec != "" {
			line = strings.ReplaceAll(line, sec, Mask)
		}
	}
	return line
}
