package fetch

import (
	"bytes"
	"net"
	"strings"
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
	var asked []string
	addr := fakeProspero(t, func(req string) string {
		last := req[strings.LastIndex(strings.TrimSuffix(req, "\n"), "\n")+1:]
		asked = append(asked, strings.TrimSpace(last))
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
