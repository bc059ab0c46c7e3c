//go:build linux

package fetch

// The curl-spelled limits (Fetcher.ConnectTimeout, MaxTime, SpeedLimit
// and SpeedTime, MaxSize) and HTTP compression, against wiretest's
// scripted servers: a trickle of 1 byte per second and a stall are what
// no real server does on demand. Without the limits a trickle is never
// given up on: the idle timeout sees progress every second.

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// trickle sends one byte per second until the client hangs up.
func trickle() wt.Step {
	return wt.Func(func(s *wt.Session) error {
		for {
			if _, err := s.Conn.Write([]byte("t")); err != nil {
				return nil
			}
			time.Sleep(time.Second)
		}
	})
}

// slowServers returns, per scheme, the URL of a server that sends the
// start of a resource and then does what tail says.
func slowServers(t *testing.T, tail func() wt.Step) map[string]string {
	var d wt.Data
	head := "HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\nstart"
	return map[string]string{
		"http":   "http://" + wt.Start(t, httpRequest(), wt.SendRaw(head), tail()).Addr() + "/f",
		"ftp":    "ftp://" + wt.Start(t, ftpScript(&d, wt.OnData(&d, wt.SendRaw("start"), tail()))...).Addr() + "/f.bin",
		"gopher": "gopher://" + wt.Start(t, wt.Expect("/f.bin"), wt.SendRaw("start"), tail()).Addr() + "/9/f.bin",
	}
}

func TestLimitTrickleAndStall(t *testing.T) {
	for _, tail := range []struct {
		name string
		step func() wt.Step
	}{{"trickle", trickle}, {"stall", wt.Stall}} {
		for _, lim := range []struct {
			name   string
			set    func(*Fetcher)
			kind   error
			within time.Duration
		}{
			{"max-time", func(f *Fetcher) { f.MaxTime = 1500 * time.Millisecond }, ErrMaxTime, 3 * time.Second},
			{"speed-limit", func(f *Fetcher) { f.SpeedLimit = 100; f.SpeedTime = time.Second }, ErrTooSlow, 3 * time.Second},
		} {
			for scheme, url := range slowServers(t, tail.step) {
				t.Run(scheme+"/"+tail.name+"/"+lim.name, func(t *testing.T) {
					t.Parallel()
					// The idle timeout is longer than the test: only the
					// limit can end a stall in time, and a trickle
					// never trips it.
					f := &Fetcher{Getenv: noEnv(), Timeout: time.Minute}
					f.FTP.Email = "fault@example.org"
					lim.set(f)
					start := time.Now()
					_, err := fetchAll(t, f, url)
					took := time.Since(start)
					if !errors.Is(err, lim.kind) || !errors.Is(err, ErrTimeout) {
						t.Fatalf("err = %v, want %v", err, lim.kind)
					}
					if took > lim.within || took < 900*time.Millisecond {
						t.Errorf("gave up after %v", took)
					}
				})
			}
		}
	}
}

// A fast transfer is not slowed down by the speed check.
func TestSpeedLimitFastEnough(t *testing.T) {
	body := strings.Repeat("b", 100<<10)
	srv := wt.Start(t, httpRequest(), wt.SendRaw(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)), wt.Close())
	f := &Fetcher{Getenv: noEnv(), SpeedLimit: 1000, SpeedTime: 200 * time.Millisecond, MaxTime: 10 * time.Second}
	b, err := fetchAll(t, f, "http://"+srv.Addr()+"/f")
	if err != nil || len(b) != len(body) {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
}

// unresponsive returns an address whose listen queue is full, so that a
// new connection is never established (the SYN is dropped).
func unresponsive(t *testing.T) string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Skip(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Skip(err)
	}
	sa, _ := syscall.Getsockname(fd)
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	// Fill the queue: the connections the kernel completes on its own.
	for i := 0; i < 8; i++ {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return addr
		}
		t.Cleanup(func() { c.Close() })
	}
	t.Skip("the listen queue never filled")
	return ""
}

func TestConnectTimeout(t *testing.T) {
	addr := unresponsive(t)
	for _, url := range []string{"http://" + addr + "/f", "ftp://" + addr + "/f", "gopher://" + addr + "/0/f"} {
		t.Run(url[:strings.Index(url, ":")], func(t *testing.T) {
			f := &Fetcher{Getenv: noEnv(), Timeout: time.Minute, ConnectTimeout: 700 * time.Millisecond}
			start := time.Now()
			_, err := fetchAll(t, f, url)
			if !errors.Is(err, ErrConnectTimeout) {
				t.Fatalf("err = %v, want ErrConnectTimeout", err)
			}
			if took := time.Since(start); took > 10*time.Second { // far below Timeout (a minute), with room for a loaded machine
				t.Errorf("gave up after %v", took)
			}
		})
	}
}

func TestMaxSize(t *testing.T) {
	big := strings.Repeat("x", 10000)
	var d1, d2 wt.Data
	for _, tc := range []struct {
		name   string
		url    string
		inBody bool // the size is not announced
	}{
		{"http announced", "http://" + wt.Start(t, httpRequest(), wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n"+big), wt.Close()).Addr() + "/f", false},
		{"http unannounced", "http://" + wt.Start(t, httpRequest(), wt.SendRaw("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"+big), wt.Close()).Addr() + "/f", true},
		{"ftp announced (SIZE)", "ftp://" + wt.Start(t, ftpScript(&d1, wt.OnData(&d1, wt.SendRaw(big), wt.Close()), wt.Send("226 ok"), wt.Expect("QUIT"), wt.Send("221 bye"))...).Addr() + "/f.bin", false},
		{"ftp unannounced (ASCII)", "ftp://" + wt.Start(t,
			wt.Send("220 fake server"),
			wt.Expect("USER anonymous"), wt.Send("331 e-mail"),
			wt.Expect("PASS fault@example.org"), wt.Send("230 in"),
			wt.Expect("TYPE A"), wt.Send("200 ok"),
			wt.Expect("EPSV"), wt.EPSV(&d2),
			wt.Expect("RETR f.txt"), wt.Send("150 here it comes"),
			wt.OnData(&d2, wt.SendRaw(big), wt.Close()), wt.Send("226 ok"), wt.Expect("QUIT"), wt.Send("221 bye")).Addr() + "/f.txt", true},
		{"gopher+ announced", "gopher://" + wt.Start(t, wt.Expect("/f.bin\t+"), wt.SendRaw("+10000\r\n"+big), wt.Close()).Addr() + "/9/f.bin%09%09+", false},
		{"gopher unannounced", "gopher://" + wt.Start(t, wt.Expect("/f.bin"), wt.SendRaw(big), wt.Close()).Addr() + "/9/f.bin", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &Fetcher{Getenv: noEnv(), MaxSize: 4096}
			f.FTP.Email = "fault@example.org"
			resp, err := f.Get(testCtx(t), tc.url)
			if err == nil {
				if !tc.inBody {
					t.Errorf("the announced size was not refused up front")
				}
				var n int64
				n, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if n > 4096 {
					t.Errorf("%d bytes passed the limit", n)
				}
			}
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
		})
	}
	// At the limit exactly: fine.
	srv := wt.Start(t, httpRequest(), wt.SendRaw("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"+big[:4096]), wt.Close())
	if b, err := fetchAll(t, &Fetcher{Getenv: noEnv(), MaxSize: 4096}, "http://"+srv.Addr()+"/f"); err != nil || len(b) != 4096 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
}

// TestHTTPNoTransparentGzip: a gzip body is saved as the server sent it
// (net/http used to ask for gzip and inflate it silently: a 4 MB bomb
// became 4 GiB); Compressed asks for gzip and inflates it.
func TestHTTPNoTransparentGzip(t *testing.T) {
	plain := strings.Repeat("0", 1<<20)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(plain))
	zw.Close()
	gz := z.String()
	serve := func(wantAE string) string {
		return "http://" + wt.Start(t, wt.Func(func(s *wt.Session) error {
			ae := ""
			for {
				line, err := s.ReadLine()
				if err != nil {
					return err
				}
				if line == "" {
					break
				}
				if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Accept-Encoding") {
					ae = strings.TrimSpace(v)
				}
			}
			if ae != wantAE {
				return fmt.Errorf("Accept-Encoding %q, want %q", ae, wantAE)
			}
			_, err := fmt.Fprintf(s.Conn, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(gz), gz)
			return err
		}), wt.Close()).Addr() + "/bomb"
	}
	b, err := fetchAll(t, &Fetcher{Getenv: noEnv()}, serve(""))
	if err != nil || string(b) != gz {
		t.Errorf("without Compressed: %d bytes (%v), want the %d compressed bytes", len(b), err, len(gz))
	}
	f := &Fetcher{Getenv: noEnv()}
	f.HTTP.Compressed = true
	b, err = fetchAll(t, f, serve("gzip"))
	if err != nil || string(b) != plain {
		t.Errorf("with Compressed: %d bytes (%v), want %d", len(b), err, len(plain))
	}
	// Compressed and MaxSize: the bomb is stopped at the limit.
	f.MaxSize = 64 << 10
	if _, err := fetchAll(t, f, serve("gzip")); !errors.Is(err, ErrTooLarge) {
		t.Errorf("bomb with MaxSize: %v", err)
	}
}

// TestFileSpecial: a FIFO is refused unless AllowSpecial; allowed, the
// wait for its writer ends with the context.
func TestFileSpecial(t *testing.T) {
	fifo := t.TempDir() + "/fifo"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	start := time.Now()
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), "file://"+fifo)
	if !errors.Is(err, ErrSpecialFile) || time.Since(start) > time.Second {
		t.Fatalf("err = %v after %v, want ErrSpecialFile at once", err, time.Since(start))
	}
	if _, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), "file:///dev/null"); !errors.Is(err, ErrSpecialFile) {
		t.Errorf("/dev/null: %v", err)
	}
	// Allowed: no writer ever comes; the idle timeout ends the wait.
	f := &Fetcher{Getenv: noEnv(), Timeout: 500 * time.Millisecond}
	f.File.AllowSpecial = true
	start = time.Now()
	if _, err := f.Get(testCtx(t), "file://"+fifo); err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("allowed FIFO without a writer: %v after %v", err, time.Since(start))
	}
	// With a writer that stalls after a few bytes: the read ends too.
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write([]byte("some"))
			time.Sleep(3 * time.Second)
			w.Close()
		}
	}()
	start = time.Now()
	_, err = fetchAll(t, f, "file://"+fifo)
	if !errors.Is(err, ErrTimeout) || time.Since(start) > 2500*time.Millisecond {
		t.Fatalf("stalled FIFO: %v after %v", err, time.Since(start))
	}
}
