package wiretest

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// A script joined from parts plays its steps in order; Open closes the
// connection when the test ends, so the script's ExpectEOF is met.
func TestScriptAndOpen(t *testing.T) {
	opening := Steps(Send("220 hi"), Expect("HELLO"))
	srv := Start(t, Script(opening, Steps(Send("250 ok"), ExpectEOF()))...)
	t.Run("client", func(t *testing.T) {
		c := Open(t, func(ctx context.Context) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", srv.Addr())
		})
		buf := make([]byte, 64)
		n, _ := c.Read(buf)
		c.Write([]byte("HELLO\r\n"))
		m, _ := c.Read(buf[n:])
		if got := string(buf[:n+m]); got != "220 hi\r\n250 ok\r\n" {
			t.Errorf("read %q", got)
		}
	})
	if err := srv.Wait(5 * time.Second); err != nil {
		t.Error(err)
	}
	if got := strings.Join(srv.Received(), "|"); got != "HELLO" {
		t.Errorf("received %q", got)
	}
}

func TestContextEnds(t *testing.T) {
	ctx := Context(t, 10*time.Millisecond)
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("err = %v", ctx.Err())
	}
}

// Buffer takes writes from several goroutines (run with -race) and
// WaitFor sees them.
func TestBufferConcurrent(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				b.Write([]byte("x"))
			}
		}()
	}
	go func() { wg.Wait(); b.Write([]byte("done")) }()
	WaitFor(t, &b, "done")
	if got := b.String(); len(got) != 404 || strings.Count(got, "x") != 400 {
		t.Errorf("buffer holds %d bytes", len(got))
	}
}
