package fetch

import (
	"bytes"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// fakeProspero answers each ARDP request (one packet) with answer(the
// request message), in one packet with a 3-byte header. It stands in for
// a server whose file has no CONTENTS but an AFTP access method, which
// the real dirsrv of the tests never serves.
func fakeProspero(t *testing.T, answer func(req string) string) string {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n <= 9 {
				continue // an acknowledgement
			}
			reply := append([]byte{3, buf[1], buf[2]}, answer(string(buf[9:n]))...)
			pc.WriteTo(reply, from)
		}
	}()
	return pc.LocalAddr().String()
}

// TestProsperoAFTPTarget: a file whose data is at its AFTP access method
// is fetched from the real ProFTPD through the FTP opener.
func TestProsperoAFTPTarget(t *testing.T) {
	ftpPort := wiretest.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
	var mu sync.Mutex
	var asked []string
	addr := fakeProspero(t, func(req string) string {
		last := req[strings.LastIndex(strings.TrimSuffix(req, "\n"), "\n")+1:]
		mu.Lock()
		asked = append(asked, strings.TrimSpace(last))
		mu.Unlock()
		switch {
		case strings.HasPrefix(last, "LIST"):
			return "FAILURE NOT-A-DIRECTORY\n"
		case strings.Contains(last, "GET-OBJECT-INFO CONTENTS"):
			return "NONE-FOUND\n"
		case strings.Contains(last, "GET-OBJECT-INFO ACCESS-METHOD"):
			return "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D 127.0.0.1(" + ftpPort + ") ASCII /pub/hello.txt BINARY\n"
		}
		return "ERROR unexpected\n"
	})
	f := &Fetcher{Getenv: noEnv(), FTP: FTPOpener{Email: "aftp@example.org"}}
	b, resp, err := getAll(t, f, "prospero://"+addr+"/AFTP/pub/hello.txt")
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		t.Fatalf("%v (asked %q)", err, asked)
	}
	if !bytes.Contains(b, []byte("Hello from anonymous FTP.")) {
		t.Errorf("body %q", b)
	}
	if len(asked) != 3 || !strings.Contains(strings.Join(resp.Warnings, "\n"), "ftp://127.0.0.1:"+ftpPort+"/pub/hello.txt;type=i") {
		t.Errorf("asked %q, warnings %q", asked, resp.Warnings)
	}
}

// TestProsperoForwarded: a FORWARDED reply is followed to the server it
// names (the real dirsrv), through the same checks; a loop ends.
func TestProsperoForwarded(t *testing.T) {
	port := wiretest.ServerEnv(t, "PROSPERO_PORT")["PROSPERO_PORT"]
	addr := fakeProspero(t, func(string) string {
		return "FORWARDED INTERNET-D 127.0.0.1(" + port + ") ASCII 'AFTP/pub/sub' 0\n"
	})
	f := &Fetcher{Getenv: noEnv()}
	b, resp, err := getAll(t, f, "prospero://"+addr+"/moved")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("inner.txt")) || !strings.Contains(strings.Join(resp.Warnings, "\n"), "FORWARDED") {
		t.Errorf("body %q, warnings %q", b, resp.Warnings)
	}
	var selfAddr atomic.Value // the server's own address, set once it is known
	self := fakeProspero(t, func(string) string {
		return "FORWARDED INTERNET-D " + strings.Replace(selfAddr.Load().(string), ":", "(", 1) + ") ASCII 'again' 0\n"
	})
	selfAddr.Store(self)
	if _, _, err := getAll(t, f, "prospero://"+self+"/loop"); !errors.Is(err, ErrRedirect) {
		t.Errorf("a FORWARDED loop: %v, want ErrRedirect", err)
	}
	// A forward to an hsoname with a CR is refused before it is sent.
	evil := fakeProspero(t, func(string) string {
		return "FORWARDED INTERNET-D " + strings.Replace(addr, ":", "(", 1) + ") ASCII 'a\rb' 0\n"
	})
	if _, _, err := getAll(t, f, "prospero://"+evil+"/x"); !errors.Is(err, ErrUnsafe) {
		t.Errorf("a forward to an hsoname with CR: %v, want ErrUnsafe", err)
	}
}
