package wire

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// listen returns a loopback listener whose connections are accepted and
// held open, silent, until the test ends.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln
}

func TestDial(t *testing.T) {
	ln := listen(t)
	c, err := Dial(t.Context(), nil, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

func TestDialCanceled(t *testing.T) {
	ln := listen(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Dial(ctx, &net.Dialer{Timeout: time.Second}, "tcp", ln.Addr().String())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestBindDeadline(t *testing.T) {
	ln := listen(t)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	release := Bind(ctx, c)
	defer release()
	start := time.Now()
	_, err = c.Read(make([]byte, 1)) // the peer never writes
	err = ContextError(ctx, err)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("err = %v, want a net.Error with Timeout() true", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("read returned after %v", d)
	}
}

func TestBindCancelClosesConn(t *testing.T) {
	ln := listen(t)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context()) // no deadline: only the close can unblock
	release := Bind(ctx, c)
	defer release()
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Read(make([]byte, 1))
	if err == nil {
		t.Fatal("read succeeded")
	}
	if err := ContextError(ctx, err); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestBindReleaseClearsDeadline(t *testing.T) {
	ln := listen(t)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	release := Bind(ctx, c)
	release()
	release() // idempotent
	cancel()
	time.Sleep(100 * time.Millisecond) // past the old deadline, ctx cancelled
	// c must be open and without deadline: a short read deadline of our own
	// is the only thing that ends this read.
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	_, err = c.Read(make([]byte, 1))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want our own deadline error (conn open)", err)
	}
}

func TestBindListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	release := Bind(ctx, ln)
	defer release()
	_, err = ln.Accept()
	if err := ContextError(ctx, err); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
}

func TestContextError(t *testing.T) {
	plain := errors.New("boom")
	if got := ContextError(t.Context(), plain); got != plain {
		t.Errorf("live ctx: got %v, want the error unchanged", got)
	}
	if ContextError(t.Context(), nil) != nil {
		t.Error("nil error not kept nil")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if got := ContextError(ctx, plain); !errors.Is(got, context.Canceled) || !errors.Is(got, plain) {
		t.Errorf("cancelled ctx: got %v, want both causes", got)
	}
	if got := ContextError(ctx, context.Canceled); got != context.Canceled {
		t.Errorf("already the ctx error: got %v", got)
	}
}
