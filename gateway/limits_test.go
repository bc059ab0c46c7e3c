package gateway

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// stallServer is a gopher upstream on loopback that a real server is
// not: it reads the selector and then sends nothing (stall) or sends
// text for ever (endless), the faults a gateway must survive.
func stallServer(t *testing.T, selector string, endless bool) string {
	t.Helper()
	if !endless {
		return wiretest.Start(t, wiretest.Expect(selector), wiretest.Stall()).Addr()
	}
	line := []byte(strings.Repeat("x", 1023) + "\n")
	return wiretest.Start(t, wiretest.Expect(selector), wiretest.Func(func(s *wiretest.Session) error {
		for {
			if _, err := s.Conn.Write(line); err != nil {
				return nil // the gateway gave up: what the test wants
			}
		}
	})).Addr()
}

// Issue 38 item 3: a stalled upstream cannot hold a request: the idle
// timeout ends it with 504.
func TestStalledUpstream(t *testing.T) {
	addr := stallServer(t, "/stall", false)
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1"}, IdleTimeout: time.Second})
	start := time.Now()
	resp, _ := proxyGet(t, gw, "gopher://"+addr+"/0/stall")
	if resp.StatusCode != http.StatusGatewayTimeout || time.Since(start) > 10*time.Second {
		t.Errorf("a stalled upstream: status %d after %v, want 504 after about 1 s", resp.StatusCode, time.Since(start))
	}
}

// Issue 38 item 3: an endless upstream cannot fill the memory or hold
// the request: the response is cut at the byte limit, and the client
// sees it cut.
func TestEndlessUpstream(t *testing.T) {
	addr := stallServer(t, "/endless", true)
	_, gw := realGateway(t, Config{AllowDest: []string{"127.0.0.1"}, MaxBytes: 1 << 20})
	resp, err := http.DefaultClient.Do(proxyRequest(t, gw, "gopher://"+addr+"/0/endless"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil || n > 1<<20 {
		t.Errorf("an endless upstream: %d bytes, %v; want at most 1 MiB and a broken transfer", n, err)
	}
}

// Issue 38 item 3: the size of a request's header is bounded (431), and
// a client that sends its header slowly is cut off.
func TestRequestBounds(t *testing.T) {
	srv := serveTest(t, newTestHandler(t, Config{IdleTimeout: time.Second}, &fakeUpstream{}))
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /"+strings.Repeat("a", 40<<10)+" HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 40 KiB request line: %v, %v; want 431", resp, err)
	}

	slow, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	io.WriteString(slow, "GET / HTTP/1.1\r\n") // and never the rest
	slow.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	io.Copy(io.Discard, slow)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a client that never finishes its header held the connection %v", d)
	}
}
