package wiretest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// maxLine bounds the lines the fake server reads from a client.
const maxLine = 64 << 10

// acceptTimeout bounds how long a step waits for a client connection.
const acceptTimeout = 10 * time.Second

// Server is a scripted TCP server listening on 127.0.0.1 on a free port.
// It plays its script against the first connection it accepts and is shut
// down when the test ends.
type Server struct {
	t     testing.TB
	ln    net.Listener
	quit  chan struct{} // closed when the test ends: releases Stall and drains
	ended chan struct{} // closed when the steps have run (or one failed)
	done  chan struct{} // closed when the server goroutine returns

	mu       sync.Mutex
	received []string
	conns    []io.Closer
	err      error
}

// Step is one action of a script. Steps are run in order by the server's
// goroutine; an error stops the script and fails the test.
type Step func(s *Session) error

// Session is the connection a script is played on. Steps may use it
// directly through [Func].
type Session struct {
	// Conn is the accepted connection.
	Conn   net.Conn
	r      *bufio.Reader
	srv    *Server
	record bool // record lines read (control connection only)
}

// Start starts a server on 127.0.0.1:0 that plays script against the first
// connection it accepts. It is stopped with t.Cleanup.
func Start(t testing.TB, script ...Step) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("wiretest: %v", err)
	}
	s := &Server{t: t, ln: ln, quit: make(chan struct{}), ended: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(s.stop)
	go s.run(script)
	return s
}

// Addr returns the server's address, "127.0.0.1:port".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Received returns the lines the server has read from the client on the
// main connection so far, without line endings.
func (s *Server) Received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.received...)
}

// Wait waits until the script has ended (all steps run, or one failed) and
// returns the failure, if any. It gives up after d.
func (s *Server) Wait(d time.Duration) error {
	select {
	case <-s.ended:
	case <-time.After(d):
		return fmt.Errorf("wiretest: script still running after %v", d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *Server) track(c io.Closer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = append(s.conns, c)
}

func (s *Server) run(script []Step) {
	defer close(s.done)
	c, err := accept(s.ln, s.quit)
	s.ln.Close()
	if err != nil {
		s.fail(fmt.Errorf("accept: %w", err))
		close(s.ended)
		return
	}
	s.track(c)
	defer c.Close()
	sess := &Session{Conn: c, r: bufio.NewReaderSize(c, 4096), srv: s, record: true}
	for i, step := range script {
		if err := step(sess); err != nil {
			s.fail(fmt.Errorf("step %d: %w", i+1, err))
			close(s.ended)
			return
		}
	}
	close(s.ended)
	sess.drain()
}

func (s *Server) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

func (s *Server) stop() {
	close(s.quit)
	s.ln.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		s.t.Errorf("wiretest server: %v (received %q)", s.err, s.received)
	}
}

// accept accepts one connection, giving up when quit is closed or after
// acceptTimeout.
func accept(ln net.Listener, quit <-chan struct{}) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := ln.Accept()
		ch <- result{c, err}
	}()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-quit:
		ln.Close()
		return nil, errors.New("test ended before the client connected")
	case <-time.After(acceptTimeout):
		ln.Close()
		return nil, fmt.Errorf("no connection within %v", acceptTimeout)
	}
}

// ReadLine reads one line from the client, without its line ending.
func (s *Session) ReadLine() (string, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		var long []byte
		long = append(long, line...)
		for errors.Is(err, bufio.ErrBufferFull) && len(long) < maxLine {
			line, err = s.r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		if len(line) > 0 {
			return "", fmt.Errorf("read: %w after partial line %q", err, line)
		}
		return "", fmt.Errorf("read: %w", err)
	}
	str := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
	if s.record {
		s.srv.mu.Lock()
		s.srv.received = append(s.srv.received, str)
		s.srv.mu.Unlock()
	}
	return str, nil
}

// drain reads and records lines until the client closes the connection or
// the test ends.
func (s *Session) drain() {
	go func() {
		<-s.srv.quit
		s.Conn.Close()
	}()
	for {
		if _, err := s.ReadLine(); err != nil {
			return
		}
	}
}

// peerGone reports write and close errors that only mean the client has
// already closed the connection. Clients under test legitimately hang up
// in the middle of a reply (an over-long line, a timeout), so writes
// ignore them; a later Expect still fails, which keeps scripts strict
// about what the client sends.
func peerGone(err error) bool {
	return errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}

// Send writes each line followed by CRLF.
func Send(lines ...string) Step {
	return func(s *Session) error {
		for _, l := range lines {
			if _, err := io.WriteString(s.Conn, l+"\r\n"); err != nil && !peerGone(err) {
				return fmt.Errorf("send %q: %w", l, err)
			}
		}
		return nil
	}
}

// Sendf writes fmt.Sprintf(format, args...) followed by CRLF.
func Sendf(format string, args ...any) Step {
	return Send(fmt.Sprintf(format, args...))
}

// SendRaw writes b exactly as given (no line ending added).
func SendRaw(b string) Step {
	return func(s *Session) error {
		if _, err := io.WriteString(s.Conn, b); err != nil && !peerGone(err) {
			return fmt.Errorf("send raw (%d bytes): %w", len(b), err)
		}
		return nil
	}
}

// Expect reads one line and fails unless it equals line (without its
// line ending).
func Expect(line string) Step {
	return func(s *Session) error {
		got, err := s.ReadLine()
		if err != nil {
			return fmt.Errorf("expecting %q: %w", line, err)
		}
		if got != line {
			return fmt.Errorf("got %q, want %q", got, line)
		}
		return nil
	}
}

// ExpectPrefix reads one line and fails unless it starts with prefix.
func ExpectPrefix(prefix string) Step {
	return func(s *Session) error {
		got, err := s.ReadLine()
		if err != nil {
			return fmt.Errorf("expecting %q...: %w", prefix, err)
		}
		if !strings.HasPrefix(got, prefix) {
			return fmt.Errorf("got %q, want prefix %q", got, prefix)
		}
		return nil
	}
}

// ExpectEOF fails unless the client closes the connection (within
// acceptTimeout) without sending anything more.
func ExpectEOF() Step {
	return func(s *Session) error {
		s.Conn.SetReadDeadline(time.Now().Add(acceptTimeout))
		defer s.Conn.SetReadDeadline(time.Time{})
		b, err := s.r.ReadByte()
		if err == nil {
			rest, _ := s.r.Peek(s.r.Buffered())
			return fmt.Errorf("expecting EOF, got %q", append([]byte{b}, rest...))
		}
		if !errors.Is(err, io.EOF) {
			return fmt.Errorf("expecting EOF: %w", err)
		}
		return nil
	}
}

// Close closes the connection normally (FIN).
func Close() Step {
	return func(s *Session) error {
		if err := s.Conn.Close(); err != nil && !peerGone(err) {
			return err
		}
		return nil
	}
}

// Reset closes the connection abortively: SO_LINGER 0 makes the kernel
// send a TCP RST, so the client's next read fails with ECONNRESET instead
// of a clean EOF.
func Reset() Step {
	return func(s *Session) error {
		if tc, ok := s.Conn.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		if err := s.Conn.Close(); err != nil && !peerGone(err) {
			return err
		}
		return nil
	}
}

// Stall stops answering: it reads and discards whatever the client sends
// until the client closes the connection or the test ends. Use it to test
// timeouts. It ends the script.
func Stall() Step {
	return func(s *Session) error {
		s.drain()
		return nil
	}
}

// Pause sleeps for d (or until the test ends).
func Pause(d time.Duration) Step {
	return func(s *Session) error {
		select {
		case <-time.After(d):
		case <-s.srv.quit:
		}
		return nil
	}
}

// Func runs f as a step.
func Func(f func(s *Session) error) Step { return Step(f) }
