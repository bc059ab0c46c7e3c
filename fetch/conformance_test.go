package fetch

// The conformance suite every opener passes (in the manner of restic's
// backend tests): the same properties checked against each scheme's real
// server, so that a new opener is held to what the others promise.

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/wiretest"
)

// conformanceCase describes one opener and resources on its server.
type conformanceCase struct {
	fetcher   func() *Fetcher
	small     string // URL of a small resource
	smallBody string // its exact content
	sizeKnown bool   // Response.Size must equal len(smallBody)
	missing   string // URL of a resource that does not exist
	noMissing string // why there is none: the protocol cannot say
	dir       string // URL of a directory or menu (Response.Listing)
	dirHas    string // a substring of the listing
	// noListing: the protocol cannot tell a directory (HTTP), so
	// Response.Listing stays false.
	noListing bool
	// network openers only: the URL of a resource on a server at addr
	// ("127.0.0.1:port"), and of the same with an injection attempt.
	at       func(addr string) string
	unsafeAt func(addr string) string
}

func runConformance(t *testing.T, c conformanceCase) {
	t.Run("Small", func(t *testing.T) {
		resp, err := c.fetcher().Get(testCtx(t), c.small)
		if err != nil {
			t.Fatal(err)
		}
		if c.sizeKnown && resp.Size != int64(len(c.smallBody)) {
			t.Errorf("Size = %d, want %d", resp.Size, len(c.smallBody))
		}
		if !c.sizeKnown && resp.Size != -1 && resp.Size != int64(len(c.smallBody)) {
			t.Errorf("Size = %d, want -1 or %d", resp.Size, len(c.smallBody))
		}
		if resp.Listing {
			t.Error("Listing set for a file")
		}
		if pw := passwordOf(c.small); pw != "" && (strings.Contains(resp.URL, ":"+pw+"@") || !strings.Contains(resp.URL, ":xxxxx@")) {
			t.Errorf("Response.URL %q is not redacted", resp.URL)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.smallBody {
			t.Errorf("body %q, want %q", b, c.smallBody)
		}
		if err := resp.Body.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := resp.Body.Read(make([]byte, 1)); err == nil {
			t.Error("Read after Close succeeded")
		}
	})
	t.Run("Missing", func(t *testing.T) {
		if c.missing == "" {
			t.Skip(c.noMissing)
		}
		_, err := c.fetcher().Get(testCtx(t), c.missing)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want an *Error with ErrNotFound", err)
		}
		if p := passwordOf(c.missing); p != "" && strings.Contains(err.Error(), p) {
			t.Errorf("password in %q", err)
		}
	})
	t.Run("Directory", func(t *testing.T) {
		resp, err := c.fetcher().Get(testCtx(t), c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, resp); resp.Listing == c.noListing || !strings.Contains(got, c.dirHas) {
			t.Errorf("Listing %v, body %q; want a listing with %q", resp.Listing, got, c.dirHas)
		}
	})
	t.Run("EarlyClose", func(t *testing.T) {
		resp, err := c.fetcher().Get(testCtx(t), c.small)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Read(make([]byte, 1))
		done := make(chan error, 1)
		go func() { done <- resp.Body.Close() }()
		select {
		case <-done: // an error is allowed (the transfer was aborted); a hang is not
		case <-time.After(10 * time.Second):
			t.Fatal("Close after a partial read hangs")
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := c.fetcher().Get(ctx, c.small)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want an *Error wrapping context.Canceled", err)
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		f := c.fetcher()
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				resp, err := f.Get(testCtx(t), c.small)
				if err != nil {
					t.Error(err)
					return
				}
				if got := readAll(t, resp); got != c.smallBody {
					t.Errorf("concurrent body %q", got)
				}
			})
		}
		wg.Wait()
	})
	if c.at == nil {
		return
	}
	t.Run("Stall", func(t *testing.T) {
		srv := wiretest.Start(t, wiretest.Stall())
		f := c.fetcher()
		f.Timeout = 300 * time.Millisecond
		start := time.Now()
		_, err := f.Get(testCtx(t), c.at(srv.Addr()))
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("err = %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("gave up after %v", d)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		_, err = c.fetcher().Get(testCtx(t), c.at(addr))
		if !errors.Is(err, ErrConnect) {
			t.Errorf("err = %v, want ErrConnect", err)
		}
	})
	t.Run("UnsafeSendsNothing", func(t *testing.T) {
		l := countingListener(t)
		_, err := c.fetcher().Get(testCtx(t), c.unsafeAt(l.addr))
		var fe *Error
		if !errors.Is(err, ErrUnsafe) || !errors.As(err, &fe) || fe.Offset < 0 || fe.Op != "check" {
			t.Errorf("err = %v, want ErrUnsafe with an offset, from the check", err)
		}
		if n := l.accepted(); n != 0 {
			t.Errorf("%d connections made for an unsafe URL", n)
		}
	})
	t.Run("BlockedPort", func(t *testing.T) {
		u := c.at("127.0.0.1:25")
		_, err := c.fetcher().Get(testCtx(t), u)
		if !errors.Is(err, ErrBlockedPort) {
			t.Errorf("err = %v, want ErrBlockedPort", err)
		}
		f := c.fetcher()
		f.AllowPorts = []int{25}
		f.Timeout = 300 * time.Millisecond
		if _, err := f.Get(testCtx(t), u); errors.Is(err, ErrBlockedPort) {
			t.Errorf("AllowPorts 25: still blocked: %v", err)
		}
	})
}

// passwordOf returns the password of a URL string, or "".
func passwordOf(s string) string {
	u, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
	if err != nil {
		return ""
	}
	p, _ := u.DecodedPassword()
	return p
}

// listener counts the connections made to it.
type listener struct {
	addr string
	n    atomic.Int32
}

func (l *listener) accepted() int {
	time.Sleep(100 * time.Millisecond) // let a stray connection arrive
	return int(l.n.Load())
}

func countingListener(t *testing.T) *listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	l := &listener{addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.n.Add(1)
			c.Close()
		}
	}()
	return l
}

func TestConformanceFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte("small file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     fileURL("", filepath.Join(dir, "small.txt")),
		smallBody: "small file\n",
		sizeKnown: true,
		missing:   fileURL("", filepath.Join(dir, "missing.txt")),
		dir:       fileURL("", dir) + "/",
		dirHas:    "small.txt\n",
	})
}

func TestConformanceHTTP(t *testing.T) {
	e := realHTTP(t)
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     e.base + "/hello.txt",
		smallBody: "Hello from HTTP.\n",
		sizeKnown: true,
		missing:   e.base + "/missing",
		dir:       e.base + "/dir/",
		dirHas:    "a%20file.txt",
		noListing: true,
		at:        func(addr string) string { return "http://" + addr + "/hello.txt" },
		// HTTP sends the path as written and the userinfo in base64: only
		// the host is decoded (RFC 3986 allows escapes in a reg-name).
		unsafeAt: func(addr string) string { return "http://" + strings.Replace(addr, ":", "%0D%0A:", 1) + "/hello.txt" },
	})
}
