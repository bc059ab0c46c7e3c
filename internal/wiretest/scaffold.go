package wiretest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// The scaffolding every client's tests share: a context per test, a
// connection closed when the test ends, scripts built from parts, and a
// buffer other goroutines may write to.

// Context returns a context that ends with the test or after d, whichever
// comes first: an upper bound on a hang, not a timing assertion.
func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// openTimeout bounds the connection establishment of [Open].
const openTimeout = 30 * time.Second

// Open calls open with a context bounded by the test (and 30 s), fails the
// test if it returns an error and closes what it returned when the test
// ends. open is typically a client Dialer's Dial with its address.
func Open[C io.Closer](t testing.TB, open func(ctx context.Context) (C, error)) C {
	t.Helper()
	c, err := open(Context(t, openTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// WantDeadline fails the test unless err, from an operation started at
// start under a context whose deadline was limit away, matches
// context.DeadlineExceeded and came within limit plus 2 seconds: a stalled
// server is cut off by the deadline, in bounded time.
func WantDeadline(t testing.TB, start time.Time, limit time.Duration, err error) {
	t.Helper()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > limit+2*time.Second {
		t.Errorf("took %v with a %v deadline", d, limit)
	}
}

// Script joins parts of a script (an opening shared by a package's tests,
// then the steps of one test) into the list [Start] takes.
func Script(parts ...[]Step) []Step {
	var all []Step
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// Steps returns its arguments as one part of a [Script].
func Steps(s ...Step) []Step { return s }

// Buffer is a bytes.Buffer safe for concurrent use: a trace sink, or a
// session's output written by another goroutine while the test reads it.
// The zero value is ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WaitFor waits until out holds s, and fails the test (showing what out
// holds) when 20 seconds pass without it: a real server's login (PAM,
// a shell starting on a pty) can take seconds on a busy machine.
func WaitFor(t testing.TB, out *Buffer, s string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in output:\n%q", s, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
