package prospero

// Integration tests against the real Prospero dirsrv started by
// scripts/servers/start-prospero.sh (PROSPERO_PORT, PROSPERO_BIN,
// PROSPERO_LOG, PROSPERO_MANY). The server's own vls client is a second,
// independent implementation: listings are compared with its output.
// Without the variables the tests skip, or fail with
// URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type server struct {
	addr, port, bin, log string
	many                 int
}

func prosperoServer(t *testing.T) server {
	t.Helper()
	env := wiretest.ServerEnv(t, "PROSPERO_PORT", "PROSPERO_BIN", "PROSPERO_LOG", "PROSPERO_MANY")
	many, err := strconv.Atoi(env["PROSPERO_MANY"])
	if err != nil {
		t.Fatal(err)
	}
	return server{"127.0.0.1:" + env["PROSPERO_PORT"], env["PROSPERO_PORT"], env["PROSPERO_BIN"], env["PROSPERO_LOG"], many}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 30*time.Second) }

// vls lists hsoname AFTP/dir with the server's own client; each line is
// "D name host hsoname" (D for a directory, - otherwise).
func vls(t *testing.T, srv server, dir string) []string {
	t.Helper()
	h := "127.0.0.1(" + srv.port + ")"
	cmd := exec.CommandContext(testCtx(t), filepath.Join(srv.bin, "vls"), dir)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "VSWORK_HOST="+h, "VSWORK_FILE=AFTP", "VSWORK=/", "VSROOT_HOST="+h,
		"VSROOT_FILE=AFTP", "VSHOME_HOST="+h, "VSHOME_FILE=AFTP", "VSHOME=/")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("vls %s: %v\n%s", dir, err, out)
	}
	// vls prints "%c  %-20s %-15s %s": the name and the hsoname may hold
	// spaces, the host does not.
	re := regexp.MustCompile(`^(.)  (.*?) +(127\.0\.0\.1(?:\(\d+\))?) +(.*)$`)
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("vls line %q", l)
		}
		kind := "-"
		if m[1] == "D" {
			kind = "D"
		}
		lines = append(lines, kind+" "+m[2]+" "+m[3]+" "+m[4])
	}
	slices.Sort(lines)
	return lines
}

func ours(links []Link) []string {
	var lines []string
	for _, l := range links {
		kind := "-"
		if strings.Contains(l.Target, "DIRECTORY") {
			kind = "D"
		}
		lines = append(lines, kind+" "+l.Name+" "+l.Host+" "+l.Hsoname)
	}
	slices.Sort(lines)
	return lines
}

// Not /pub/many: its reply is longer than dirsrv's 16-packet window, and
// vls times out on it ("Timed out (ardp)"): after the first window dirsrv
// swaps the bytes of the connection id, which vls does not accept.
// TestIntegrationMultiPacket covers that listing.
func TestIntegrationListMatchesVls(t *testing.T) {
	srv := prosperoServer(t)
	for _, dir := range []string{"/pub", "/links", "/pub/sub"} {
		var c Client
		links, err := c.List(testCtx(t), srv.addr, "AFTP"+dir, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		got, want := ours(links), vls(t, srv, dir)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\nurlkit %q\nvls    %q", dir, got, want)
		}
	}
}

func TestIntegrationList(t *testing.T) {
	srv := prosperoServer(t)
	var trace bytes.Buffer
	c := Client{Trace: &trace}
	links, err := c.List(testCtx(t), srv.addr, "AFTP/pub", nil, []string{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Link{}
	for _, l := range links {
		byName[l.Name] = l
	}
	hello, quoted := byName["hello.txt"], byName["it's here.txt"]
	if hello.Target != "FILE" || hello.Hsoname != "AFTP/pub/hello.txt" || byName["sub"].Target != "DIRECTORY" {
		t.Errorf("links %+v", links)
	}
	if quoted.Hsoname != "AFTP/pub/it's here.txt" {
		t.Errorf("quoted name: %+v", quoted)
	}
	size := ""
	for _, a := range hello.Attributes {
		if a.Name == "SIZE" {
			size = strings.Join(a.Values, " ")
		}
	}
	if size != "15 bytes" {
		t.Errorf("hello.txt SIZE %q (attributes %+v)", size, hello.Attributes)
	}
	// the trace's request lines are ListRequest's, byte for byte
	req, _ := c.ListRequest("AFTP/pub", nil, []string{})
	var sent []string
	for _, l := range strings.Split(trace.String(), "\n") {
		if s, ok := strings.CutPrefix(l, "> "); ok {
			sent = append(sent, s)
		}
	}
	if want := strings.Split(strings.TrimSuffix(string(req), "\n"), "\n"); !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

// A listing longer than the server's window of 16 packets: it stops after
// each window until the client acknowledges.
func TestIntegrationMultiPacket(t *testing.T) {
	srv := prosperoServer(t)
	var trace bytes.Buffer
	c := Client{Trace: &trace}
	links, err := c.List(testCtx(t), srv.addr, "AFTP/pub/many", nil, []string{})
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != srv.many {
		t.Fatalf("%d links, want %d", len(links), srv.many)
	}
	names := map[string]bool{}
	for _, l := range links {
		names[l.Name] = true
	}
	for i := 1; i <= srv.many; i++ {
		if n := fmt.Sprintf("file-%03d-with-a-longish-name.txt", i); !names[n] {
			t.Errorf("missing %s", n)
		}
	}
	acks := strings.Count(trace.String(), "# acknowledging")
	if acks < 2 || strings.Contains(trace.String(), "# no reply") {
		t.Errorf("%d acknowledgements; trace notes:\n%s", acks, grepNotes(trace.String()))
	}
}

func grepNotes(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "# ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func TestIntegrationContents(t *testing.T) {
	srv := prosperoServer(t)
	var c Client
	for hs, want := range map[string]string{
		"AFTP/pub/hello.txt":     "hello prospero\n",
		"AFTP/pub/it's here.txt": "quoted\n",
		"AFTP/pub/sub/inner.txt": "inner\n",
	} {
		got, err := c.Contents(testCtx(t), srv.addr, hs)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", hs, got, err, want)
		}
	}
	attrs, err := c.ObjectInfo(testCtx(t), srv.addr, "AFTP/pub/hello.txt", "#ALL")
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, a := range attrs {
		if a.Name == "ACCESS-METHOD" && len(a.Values) > 0 {
			methods = append(methods, a.Values[0])
		}
	}
	if !slices.Contains(methods, "AFTP") {
		t.Errorf("access methods %q", methods)
	}
}

func TestIntegrationFailures(t *testing.T) {
	srv := prosperoServer(t)
	var c Client
	for hs, code := range map[string]string{
		"AFTP/pub/hello.txt": "NOT-A-DIRECTORY",
		"/etc":               "NOT-AUTHORIZED",
	} {
		_, err := c.List(testCtx(t), srv.addr, hs, nil, nil)
		var f *Failure
		if !errors.As(err, &f) || f.Code != code {
			t.Errorf("%s: %v, want FAILURE %s", hs, err, code)
		}
	}
	// garbage: an ERROR reply, and the server keeps running
	reply, err := c.Exchange(testCtx(t), srv.addr, []byte("GARBAGE 'x\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseReply(reply)
	var pe *ProtocolError
	if err != nil || !errors.As(r.Err(), &pe) {
		t.Errorf("garbage: %q -> %+v, %v", reply, r, err)
	}
	if _, err := c.List(testCtx(t), srv.addr, "AFTP/pub/sub", nil, nil); err != nil {
		t.Errorf("after garbage: %v", err)
	}
}

// An hsoname with CR, LF or NUL is refused before anything is sent: the
// server's log has no new request.
func TestIntegrationUnsafeHsoname(t *testing.T) {
	srv := prosperoServer(t)
	before, _ := os.ReadFile(srv.log)
	var trace bytes.Buffer
	c := Client{Trace: &trace}
	for _, hs := range []string{"AFTP/pub\nLIST '' COMPONENTS", "AFTP/pub\r", "AFTP/\x00pub"} {
		_, err := c.List(testCtx(t), srv.addr, hs, nil, nil)
		var ae *ArgError
		if !errors.Is(err, ErrUnsafeArg) || !errors.As(err, &ae) {
			t.Errorf("%q: %v", hs, err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	after, _ := os.ReadFile(srv.log)
	if !bytes.Equal(before, after) || trace.Len() != 0 {
		t.Errorf("something was sent: log grew by %q, trace %q", after[len(before):], trace.String())
	}
}

// lossyProxy relays datagrams between one client and the real server,
// and plays tricks on the server's reply packets: fate(n, pkt) is called
// for the n-th reply datagram (from 1) and returns the datagrams to pass
// on in its place (none: lost; two: duplicated).
func lossyProxy(t *testing.T, server string, fate func(n int, pkt []byte) [][]byte) string {
	t.Helper()
	front, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	saddr, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		t.Fatal(err)
	}
	back, err := net.DialUDP("udp", nil, saddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { front.Close(); back.Close() })
	var client atomic.Pointer[net.UDPAddr]
	go func() { // client -> server
		buf := make([]byte, maxDatagram)
		for {
			n, from, err := front.ReadFromUDP(buf)
			if err != nil {
				return
			}
			client.Store(from)
			back.Write(buf[:n])
		}
	}()
	go func() { // server -> client, through fate
		buf := make([]byte, maxDatagram)
		for i := 1; ; i++ {
			n, err := back.Read(buf)
			if err != nil {
				return
			}
			for _, p := range fate(i, slices.Clone(buf[:n])) {
				front.WriteToUDP(p, client.Load())
			}
		}
	}()
	return front.LocalAddr().String()
}

// Lost, duplicated and reordered reply packets between the client and
// the real dirsrv: the listing still arrives whole, through the client's
// acknowledgements and retransmissions and the server's own.
func TestIntegrationLossyNetwork(t *testing.T) {
	srv := prosperoServer(t)
	var held []byte
	addr := lossyProxy(t, srv.addr, func(n int, p []byte) [][]byte {
		switch n {
		case 3, 20, 21: // lost (the 16th packet asks for an acknowledgement)
			return nil
		case 5: // duplicated
			return [][]byte{p, p}
		case 7: // held back, sent after the 8th
			held = p
			return nil
		case 8:
			return [][]byte{p, held}
		}
		return [][]byte{p}
	})
	var trace bytes.Buffer
	c := Client{RetryTimeout: 200 * time.Millisecond, Trace: &trace}
	links, err := c.List(testCtx(t), addr, "AFTP/pub/many", nil, []string{})
	if err != nil {
		t.Fatalf("%v\n%s", err, grepNotes(trace.String()))
	}
	if len(links) != srv.many {
		t.Fatalf("%d links, want %d", len(links), srv.many)
	}
	t.Logf("notes:\n%s", grepNotes(trace.String()))
}

// The whole (one-packet) reply lost: the client sends the request again,
// the server answers again.
func TestIntegrationLostReply(t *testing.T) {
	srv := prosperoServer(t)
	addr := lossyProxy(t, srv.addr, func(n int, p []byte) [][]byte {
		if n == 1 {
			return nil
		}
		return [][]byte{p}
	})
	var trace bytes.Buffer
	c := Client{RetryTimeout: 200 * time.Millisecond, Trace: &trace}
	links, err := c.List(testCtx(t), addr, "AFTP/pub/sub", nil, nil)
	if err != nil || len(links) != 1 || links[0].Name != "inner.txt" {
		t.Fatalf("%+v, %v", links, err)
	}
	if !strings.Contains(trace.String(), "# no reply: sending the request again") {
		t.Errorf("no retransmission in the trace:\n%s", trace.String())
	}
}

// A request longer than one packet (1250 bytes) goes out in several; the
// server reassembles it: its log shows the whole LIST line.
func TestIntegrationMultiPacketRequest(t *testing.T) {
	srv := prosperoServer(t)
	comps := make([]string, 0, 101)
	for i := range 100 {
		comps = append(comps, fmt.Sprintf("missing-component-%03d", i))
	}
	comps = append(comps, "last-component")
	var c Client
	req, err := c.ListRequest("AFTP/pub", comps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(req) <= maxPacketData*2 {
		t.Fatalf("request of %d bytes fits in two packets", len(req))
	}
	links, err := c.List(testCtx(t), srv.addr, "AFTP/pub", comps, nil)
	if err != nil || len(links) != 0 {
		t.Fatalf("%+v, %v", links, err)
	}
	log, err := os.ReadFile(srv.log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "'missing-component-000' 'missing-component-001'") || !strings.Contains(string(log), "'missing-component-099' 'last-component'") {
		t.Errorf("the server did not log the whole request:\n%s", log[max(0, len(log)-2000):])
	}
}
