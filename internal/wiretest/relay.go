package wiretest

import (
	"bytes"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Relay forwards the TCP connections made to it to a real server and
// records the bytes each client sends: a test then sees the wire itself,
// and how many connections were made, with a real server answering.
// Configure the exported fields, then Start it (or use NewRelay).
type Relay struct {
	// Target is the server's "host:port".
	Target string
	// EndWithClient closes the server's side when the client closes
	// (for servers that keep a half-closed session open).
	EndWithClient bool
	// Privileged connects to Target from a port in 600-1023 (as root),
	// for servers that trust only those (rlogind).
	Privileged bool
	// CutAfter > 0 closes each connection once the server has sent that
	// many bytes: a server that breaks off mid-reply.
	CutAfter int64

	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []*bytes.Buffer
	open  []net.Conn // both sides of every relayed connection
}

// NewRelay starts a relay to target on a port of its own, stopped when
// the test ends.
func NewRelay(t testing.TB, target string) *Relay {
	return (&Relay{Target: target}).Start(t)
}

// Start starts r, configured, listening on 127.0.0.1 on a port of its
// own, stopped when the test ends.
func (r *Relay) Start(t testing.TB) *Relay {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.ln = ln
	t.Cleanup(func() { ln.Close() })
	go r.serve()
	return r
}

// Addr returns the relay's address, "127.0.0.1:port".
func (r *Relay) Addr() string { return r.ln.Addr().String() }

// Cut closes every relayed connection, as a server ending idle sessions.
func (r *Relay) Cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.open {
		c.Close()
	}
	r.open = nil
}

func (r *Relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		s, err := r.dial()
		if err != nil {
			c.Close()
			continue
		}
		var rec bytes.Buffer
		r.mu.Lock()
		r.conns = append(r.conns, &rec)
		r.open = append(r.open, c, s)
		r.mu.Unlock()
		r.wg.Add(2)
		go func() { // client -> server, recorded
			defer r.wg.Done()
			io.Copy(s, io.TeeReader(c, lockedWriter{&rec, &r.mu}))
			if tc, ok := s.(*net.TCPConn); ok {
				tc.CloseWrite()
			}
			if r.EndWithClient {
				s.Close()
			}
		}()
		go func() { // server -> client
			defer r.wg.Done()
			// Plain reads, not splice (io.Copy between TCP conns): Linux's
			// splice stops for good at TCP urgent data (rlogind's window
			// request after a login), which a read steps over.
			from := struct{ io.Reader }{s}
			if r.CutAfter > 0 {
				io.CopyN(c, from, r.CutAfter)
			} else {
				io.Copy(c, from)
			}
			c.Close()
			s.Close()
		}()
	}
}

// dial connects to the target, from a privileged port if r.Privileged.
func (r *Relay) dial() (net.Conn, error) {
	if !r.Privileged {
		return net.Dial("tcp", r.Target)
	}
	var err error
	for port := 1023; port >= 600; port-- {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}}
		var c net.Conn
		if c, err = d.Dial("tcp", r.Target); err == nil {
			return c, nil
		}
	}
	return nil, err
}

// lockedWriter records under the relay's lock.
type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Conns waits (at most 10 s) for the relayed connections to end and
// returns the bytes the client sent on each, in the order they were
// opened.
func (r *Relay) Conns(t testing.TB) [][]byte {
	t.Helper()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the relayed connections did not end")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var all [][]byte
	for _, b := range r.conns {
		all = append(all, bytes.Clone(b.Bytes()))
	}
	return all
}

// Sent is Conns, the connections' bytes one after the other.
func (r *Relay) Sent(t testing.TB) []byte {
	t.Helper()
	return bytes.Join(r.Conns(t), nil)
}

// Trap listens on addr ("127.0.0.1:0": any free port) and counts the
// connections made to it, closing each, until the test ends: a test that
// something must not connect there checks that the count stays 0. It
// returns the address listened on, or "" (and a count that stays 0) when
// addr cannot be listened on, a fixed port in use, say.
func Trap(t testing.TB, addr string) (string, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Logf("cannot watch %s: %v", addr, err)
		return "", &n
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().String(), &n
}
