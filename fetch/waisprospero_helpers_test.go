package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/client/prospero"
	"github.com/urlkit/urlkit/client/wais"
)

// waisDocPath searches the test database of the WAIS server at addr for
// words and returns the document URL path of the first hit: the DocID's
// bytes percent-encoded (RFC 1738), or with lynx the "length/" segment
// and the DocID's fields as "type=value;" the way Lynx wrote them.
func waisDocPath(t *testing.T, addr, words string, lynx bool) string {
	t.Helper()
	c, err := wais.Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sr, err := c.Search(testCtx(t), &wais.SearchRequest{Database: "test", SeedWords: words})
	if err != nil || len(sr.Hits) == 0 {
		t.Fatalf("search %q: %v, %d hits", words, err, len(sr.Hits))
	}
	h := sr.Hits[0]
	if !lynx {
		return "/test/TEXT/" + pctAll(h.DocID)
	}
	fields, err := wais.ParseDocID(h.DocID)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("/test/TEXT/" + strconv.FormatInt(h.Length, 10) + "/")
	for _, f := range fields {
		b.WriteString(strconv.FormatUint(f.Type, 10) + "=" + pctAll(f.Value) + ";")
	}
	return b.String()
}

// pctAll percent-encodes every byte but letters, digits and ".".
func pctAll(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' {
			s.WriteByte(c)
			continue
		}
		s.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
	}
	return s.String()
}

// newUDPRelay forwards datagrams between one client and the Prospero
// server at target, recording the request messages the client sent: the
// data after each 9-byte ARDP header, once per (connection id, packet
// number), acknowledgements (no data) left out.
func newUDPRelay(t *testing.T, target string) *udpRelay {
	ln, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := net.Dial("udp", target)
	if err != nil {
		t.Fatal(err)
	}
	r := &udpRelay{udp: ln}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); ln.Close(); srv.Close() })
	var client net.Addr
	seen := map[[4]byte]bool{}
	var cur *bytes.Buffer
	go func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := ln.ReadFrom(buf)
			if err != nil {
				return
			}
			p := buf[:n]
			r.mu.Lock()
			client = from
			if h, data, err := prospero.ParseHeader(p); err == nil && len(data) > 0 && h.Len == 9 {
				key := [4]byte{p[1], p[2], p[3], p[4]} // connection id and packet number
				if !seen[key] {
					seen[key] = true
					if h.Seq <= 1 {
						cur = new(bytes.Buffer)
						r.conns = append(r.conns, cur)
					}
					cur.Write(data)
				}
			}
			r.mu.Unlock()
			srv.Write(p)
		}
	}()
	go func() {
		buf := make([]byte, 65536)
		for ctx.Err() == nil {
			srv.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			n, err := srv.Read(buf)
			if err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					continue
				}
				return
			}
			r.mu.Lock()
			to := client
			r.mu.Unlock()
			if to != nil {
				ln.WriteTo(buf[:n], to)
			}
		}
	}()
	return r
}

// udpRelay is the Prospero relay of newUDPRelay.
type udpRelay struct {
	udp   *net.UDPConn
	mu    sync.Mutex
	conns []*bytes.Buffer // the request messages of each ARDP connection
}

// Addr returns the relay's address.
func (r *udpRelay) Addr() string { return r.udp.LocalAddr().String() }

// Sent returns the request messages the client sent, in order.
func (r *udpRelay) Sent(testing.TB) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []byte
	for _, b := range r.conns {
		all = append(all, b.Bytes()...)
	}
	return all
}

// decodeLines decodes JSON objects, one per line.
func decodeLines[T any](t *testing.T, b []byte) []T {
	t.Helper()
	var out []T
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, v)
	}
	return out
}
