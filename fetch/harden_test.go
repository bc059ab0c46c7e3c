package fetch

// Hardening: data ports named by an FTP server, and the ends of gopher
// data (a "." line, a byte count) that the transfer must reach.

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// portTrap listens on 127.0.0.1:port if it can and counts connections.
func portTrap(t *testing.T, port int) *atomic.Int32 {
	_, n := wt.Trap(t, fmt.Sprintf("127.0.0.1:%d", port))
	return n
}

// ftpLogin is an anonymous login and TYPE I for f.bin, up to its SIZE.
func ftpLogin() []wt.Step {
	return []wt.Step{
		wt.Send("220 fake server"),
		wt.Expect("USER anonymous"), wt.Send("331 send your e-mail address"),
		wt.Expect("PASS fault@example.org"), wt.Send("230 logged in"),
		wt.Expect("TYPE I"), wt.Send("200 type set"),
		wt.Expect("SIZE f.bin"), wt.Send("213 2"),
	}
}

// An EPSV or PASV reply naming a blocked port (SMTP 25, X11 6000) or a
// well-known one: ErrBlockedPort, nothing connects there, and only
// AllowPorts lets it through.
func TestFTPDataPort(t *testing.T) {
	url := func(addr string) string { return "ftp://" + addr + "/f.bin" }
	for _, tc := range []struct {
		name    string
		port    int
		pasv    bool
		allowed bool
	}{
		{"EPSV 25", 25, false, false},
		{"PASV 25", 25, true, false},
		{"EPSV 6000", 6000, false, false},
		{"PASV 6000", 6000, true, false},
		{"EPSV 1023 (well-known, not on the list)", 1023, false, false},
		{"EPSV 6000, --allow-port 6000", 6000, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			passive := []wt.Step{wt.Expect("EPSV"), wt.Sendf("229 Entering Extended Passive Mode (|||%d|)", tc.port)}
			if tc.pasv {
				passive = []wt.Step{wt.Expect("EPSV"), wt.Send("500 EPSV not understood"),
					wt.Expect("PASV"), wt.Sendf("227 Entering Passive Mode (127,0,0,1,%d,%d).", tc.port>>8, tc.port&0xff)}
			}
			f := &Fetcher{Getenv: noEnv(), Timeout: 2 * time.Second}
			f.FTP.Email = "fault@example.org"
			if tc.allowed {
				if err := portFree(tc.port); err != nil {
					t.Skipf("port %d: %v", tc.port, err)
				}
				data := wt.Data{Port: tc.port}
				srv := wt.Start(t, append(ftpLogin(),
					wt.Expect("EPSV"), wt.EPSV(&data),
					wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (2 bytes)"),
					wt.OnData(&data, wt.SendRaw("ok"), wt.Close()),
					wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))...)
				f.AllowPorts = []int{tc.port}
				resp, err := f.Get(testCtx(t), url(srv.Addr()))
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(resp.Body)
				if cerr := resp.Body.Close(); err == nil {
					err = cerr
				}
				if err != nil || string(b) != "ok" {
					t.Fatalf("got %q, %v", b, err)
				}
				return
			}
			hits := portTrap(t, tc.port)
			srv := wt.Start(t, append(append(ftpLogin(), passive...), wt.Expect("QUIT"), wt.Send("221 bye"))...)
			resp, err := f.Get(testCtx(t), url(srv.Addr()))
			if err == nil {
				resp.Body.Close()
				t.Fatal("fetch succeeded")
			}
			var fe *Error
			if !errors.As(err, &fe) || !errors.Is(err, ErrBlockedPort) || !strings.Contains(err.Error(), fmt.Sprintf("port %d", tc.port)) ||
				!strings.Contains(err.Error(), fmt.Sprintf("--allow-port %d", tc.port)) {
				t.Fatalf("err = %v, want an *Error of kind ErrBlockedPort naming port %d and --allow-port", err, tc.port)
			}
			time.Sleep(50 * time.Millisecond)
			if n := hits.Load(); n != 0 {
				t.Errorf("%d connection(s) to port %d", n, tc.port)
			}
		})
	}
}

// portFree reports an error if 127.0.0.1:port cannot be listened on.
func portFree(port int) error {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	return ln.Close()
}

// The end of gopher data: a Gopher+ byte count or "." line that is not
// reached is ErrShortTransfer; a plain menu or text without its "." line
// is complete but warned about, naming the bytes received.
func TestGopherDataEnd(t *testing.T) {
	for _, tc := range []struct {
		name, path, expect, send string
		kind                     error  // nil: success
		warning                  string // expected in Warnings ("" none)
	}{
		{"+-1 text closed before the dot", "/0/t%09%09+", "/t\t+", "+-1\r\nline\r\nline\r\n", ErrShortTransfer, ""},
		{"+-1 menu closed before the dot", "/1/m%09%09+", "/m\t+", "+-1\r\n0a\t/a\th\t70\r\n", ErrShortTransfer, ""},
		{"+-1 text with the dot", "/0/t%09%09+", "/t\t+", "+-1\r\nline\r\n.\r\n", nil, ""},
		{"+N text ends short", "/0/t%09%09+", "/t\t+", "+4096\r\nline\r\n", ErrShortTransfer, ""},
		{"+N menu ends short", "/1/m%09%09+", "/m\t+", "+4096\r\n0a\t/a\th\t70\r\n", ErrShortTransfer, ""},
		{"+N binary ends short", "/9/b%09%09+", "/b\t+", "+4096\r\n\x00\x01", ErrShortTransfer, ""},
		{"+-2 text needs no dot", "/0/t%09%09+", "/t\t+", "+-2\r\nline\r\n", nil, ""},
		{"plain menu without the dot", "/1/m", "/m", "0a\t/a\th\t70\r\n", nil, "after 12 bytes without the \".\" line that ends a Gopher menu"},
		{"plain text without the dot", "/0/t", "/t", "line\r\n", nil, "after 6 bytes without the \".\" line that ends a Gopher text"},
		{"plain menu with the dot", "/1/m", "/m", "0a\t/a\th\t70\r\n.\r\n", nil, ""},
		{"plain binary", "/9/b", "/b", "\x00\x01", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wt.Start(t, wt.Expect(tc.expect), wt.SendRaw(tc.send), wt.Close())
			f := &Fetcher{Getenv: noEnv(), Timeout: 2 * time.Second}
			resp, err := f.Get(testCtx(t), "gopher://"+srv.Addr()+tc.path)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				if cerr := resp.Body.Close(); err == nil {
					err = cerr
				}
			}
			var fe *Error
			if tc.kind == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
			} else if !errors.As(err, &fe) || !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want an *Error of kind %v", err, tc.kind)
			}
			if resp == nil {
				return
			}
			got := strings.Join(resp.Warnings, "\n")
			if (tc.warning == "") != (got == "") || !strings.Contains(got, tc.warning) {
				t.Errorf("warnings %q, want %q", got, tc.warning)
			}
		})
	}
}
