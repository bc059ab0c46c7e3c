package fetch

// Fault injection with wiretest's scripted servers: what real servers do
// not do on demand (a reset in the middle of the data, a stall, garbage,
// an endless line). Each must end in a typed error, in bounded time and
// memory.

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// endless is a step that sends n bytes of 'x' without a line end, in
// chunks, stopping quietly when the client hangs up.
func endless(n int) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for sent := 0; sent < n; sent += len(chunk) {
			if _, err := s.Conn.Write(chunk); err != nil {
				return nil
			}
		}
		return nil
	})
}

// httpRequest reads a request head (up to the empty line).
func httpRequest() wt.Step {
	return wt.Func(func(s *wt.Session) error {
		for {
			line, err := s.ReadLine()
			if err != nil {
				return err
			}
			if line == "" {
				return nil
			}
		}
	})
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// faultCase is one fault: the server's script, the error kind, and
// whether it strikes while the body is read (else in Fetch).
type faultCase struct {
	name   string
	script []wt.Step
	kind   error
	inBody bool
}

// runFault fetches url from a server playing the script and checks the
// error, the time taken and the memory used.
func runFault(t *testing.T, tc faultCase, url func(addr string) string) {
	t.Run(tc.name, func(t *testing.T) {
		srv := wt.Start(t, tc.script...)
		f := &Fetcher{Getenv: noEnv(), Timeout: 500 * time.Millisecond}
		start := time.Now()
		var err error
		mem := allocated(func() {
			var resp *Response
			resp, err = f.Get(testCtx(t), url(srv.Addr()))
			if err != nil {
				return
			}
			if !tc.inBody {
				t.Errorf("Fetch succeeded (%s)", resp.Reply)
			}
			_, err = io.Copy(io.Discard, resp.Body)
			if cerr := resp.Body.Close(); err == nil {
				err = cerr
			}
		})
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, tc.kind) {
			t.Fatalf("err = %v, want an *Error of kind %v", err, tc.kind)
		}
		if tc.inBody && fe.Op != "read" && fe.Op != "close" {
			t.Errorf("error from %q, want it from reading the body", fe.Op)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Errorf("took %v", d)
		}
		if mem > 32<<20 {
			t.Errorf("allocated %d MiB", mem>>20)
		}
	})
}

func TestFaultHTTP(t *testing.T) {
	url := func(addr string) string { return "http://" + addr + "/f" }
	head := "HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n"
	for _, tc := range []faultCase{
		{name: "reset mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Pause(20 * time.Millisecond), wt.Reset()},
			kind: ErrShortTransfer, inBody: true},
		{name: "close mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Close()},
			kind: ErrShortTransfer, inBody: true},
		{name: "stall mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Stall()},
			kind: ErrTimeout, inBody: true},
		{name: "stall before the head", script: []wt.Step{httpRequest(), wt.Stall()}, kind: ErrTimeout},
		{name: "garbage status line", script: []wt.Step{httpRequest(), wt.SendRaw("220 ProFTPD ready\r\n\r\n"), wt.Close()}, kind: ErrProtocol},
		{name: "endless header line", script: []wt.Step{httpRequest(), wt.SendRaw("HTTP/1.1 200 OK\r\nX-Long: "), endless(100 << 20)}, kind: ErrProtocol},
	} {
		runFault(t, tc, url)
	}
}
