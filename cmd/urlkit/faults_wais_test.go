package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/fetch"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// waisProsperoFaults: WAIS replies broken off or absurd, a Prospero
// server that never answers.
func waisProsperoFaults() []faultRow {
	waisReply := func(reply string) func() []wt.Step {
		return func() []wt.Step {
			return []wt.Step{wt.Func(func(s *wt.Session) error {
				buf := make([]byte, 4096)
				s.Conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				if _, err := s.Conn.Read(buf); err != nil {
					return err
				}
				_, err := s.Conn.Write([]byte(reply))
				s.Conn.Close() // the reply ends here
				return err
			})}
		}
	}
	return []faultRow{
		{proto: "wais", fault: "absurd APDU length", kind: fetch.ErrProtocol, exit: exitFail, stderr: "wais",
			serve: fake("wais://", "/test?gopher", waisReply("9999999999z2wais        0"))},
		{proto: "wais", fault: "APDU cut short", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "cut short",
			serve: fake("wais://", "/test?gopher", waisReply("0000000200z2wais        0\x00\x17"))},
		{proto: "wais", fault: "document broken off in its second chunk (real freeWAIS)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: func(t *testing.T) string { return waisBrokenDocument(t) }},
		{proto: "prospero", fault: "a server that never answers", kind: fetch.ErrTimeout, exit: exitTimeout, stderr: "timed out",
			serve: func(t *testing.T) string {
				pc := udpListen(t)
				go io.Copy(io.Discard, packetReader{pc})
				return "prospero://" + pc.LocalAddr().String() + "/AFTP/pub"
			}},
		// A reply past the client's own bounds is the server's fault, not
		// one --max-filesize could lift: no such hint.
		{proto: "prospero", fault: "a reply of 60000 packets", kind: fetch.ErrProtocol, exit: exitFail, stderr: "60000 packets (limit 4096)",
			serve: func(t *testing.T) string {
				pc := udpListen(t)
				go func() {
					buf := make([]byte, 2048)
					n, from, err := pc.ReadFrom(buf)
					if err != nil || n < 3 {
						return
					}
					// ARDP: header length 7, the request's connection ID,
					// packet 1 of 60000.
					pc.WriteTo([]byte{7, buf[1], buf[2], 0, 1, 0xea, 0x60, 'x'}, from)
				}()
				return "prospero://" + pc.LocalAddr().String() + "/AFTP/pub"
			}},
	}
}

// udpListen opens a UDP socket on loopback for the test's length.
func udpListen(t *testing.T) net.PacketConn {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	return pc
}

type packetReader struct{ pc net.PacketConn }

func (r packetReader) Read(p []byte) (int, error) {
	n, _, err := r.pc.ReadFrom(p)
	return n, err
}

// waisBrokenDocument returns the URL of the real server's 80 KB document
// through a relay that closes the connection after 40000 bytes of the
// server's replies.
func waisBrokenDocument(t *testing.T) string {
	addr := "127.0.0.1:" + wt.ServerEnv(t, "WAIS_PORT")["WAIS_PORT"]
	f := &fetch.Fetcher{IgnoreEnvironment: true, Getenv: func(string) string { return "" }}
	f.WAIS.JSON = true
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	resp, err := f.Get(ctx, "wais://"+addr+"/test?zeppelin")
	if err != nil {
		t.Fatal(err)
	}
	var hit struct{ URL string } // the first line: the first hit, {"url": ...}
	err = json.NewDecoder(resp.Body).Decode(&hit)
	resp.Body.Close()
	if err != nil || hit.URL == "" {
		t.Fatalf("hit: %v %v", hit, err)
	}
	cut := (&wt.Relay{Target: addr, CutAfter: 40000}).Start(t)
	return strings.Replace(hit.URL, addr, cut.Addr(), 1)
}
