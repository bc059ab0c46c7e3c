package prospero

// Fault injection with a scripted UDP server: what dirsrv does not do on
// demand (lose, duplicate and reorder packets, answer with another
// connection id or from another address, flood, ask to wait, refuse).
// Normal behaviour is tested against the real server in
// integration_test.go.

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake is a scripted ARDP server on 127.0.0.1: script runs in its own
// goroutine with the fake, and the test waits for it at the end.
type fake struct {
	t     *testing.T
	conn  *net.UDPConn // the server's address
	other *net.UDPConn // another address on the same host
	peer  *net.UDPAddr // the client, learnt from its first datagram
	cid   uint16
	mu    sync.Mutex
	got   [][]byte // datagrams received
	done  chan struct{}
}

func startFake(t *testing.T, script func(f *fake)) *fake {
	t.Helper()
	listen := func() *net.UDPConn {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	f := &fake{t: t, conn: listen(), other: listen(), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		script(f)
	}()
	t.Cleanup(func() {
		f.conn.Close()
		<-f.done
	})
	return f
}

func (f *fake) addr() string { return f.conn.LocalAddr().String() }

// recv waits for a datagram from the client (2 s at most) and returns its
// header and data; ok is false on timeout or close.
func (f *fake) recv() (Header, []byte, bool) {
	buf := make([]byte, maxDatagram)
	f.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, from, err := f.conn.ReadFromUDP(buf)
	if err != nil {
		return Header{}, nil, false
	}
	f.mu.Lock()
	f.got = append(f.got, buf[:n])
	f.peer = from
	f.mu.Unlock()
	h, data, err := ParseHeader(buf[:n])
	if err != nil {
		f.t.Errorf("fake: bad datagram from the client: %v", err)
		return h, nil, false
	}
	if h.Seq != 0 {
		f.cid = h.ConnID
	}
	return h, data, true
}

func (f *fake) send(p []byte) { f.conn.WriteToUDP(p, f.peer) }

func (f *fake) received() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.got...)
}

// pkt builds a reply packet: a 7-byte header (packet number and total),
// or a 12-byte one when flags are set.
func pkt(cid, seq, total uint16, flags byte, data string) []byte {
	hl := byte(7)
	if flags != 0 {
		hl = 12
	}
	b := []byte{hl}
	b = binary.BigEndian.AppendUint16(b, cid)
	b = binary.BigEndian.AppendUint16(b, seq)
	b = binary.BigEndian.AppendUint16(b, total)
	if flags != 0 {
		b = append(b, 0, 0, 0, 0, flags)
	}
	return append(b, data...)
}

// single builds a one-packet reply with the 3-byte header dirsrv uses.
func single(cid uint16, data string) []byte {
	return append([]byte{3, byte(cid >> 8), byte(cid)}, data...)
}

func fastClient() *Client {
	return &Client{RetryTimeout: 50 * time.Millisecond, Retries: 3, MaxTime: 5 * time.Second}
}

func exchange(t *testing.T, c *Client, f *fake) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	return c.Exchange(ctx, f.addr(), []byte("VERSION\n"))
}

func TestARDPLostRequest(t *testing.T) {
	f := startFake(t, func(f *fake) {
		f.recv() // lost
		if _, _, ok := f.recv(); ok {
			f.send(single(f.cid, "VERSION 5 fake\n"))
		}
	})
	got, err := exchange(t, fastClient(), f)
	if err != nil || string(got) != "VERSION 5 fake\n" {
		t.Fatalf("%q, %v", got, err)
	}
	rs := f.received()
	if len(rs) != 2 || string(rs[0]) != string(rs[1]) {
		t.Errorf("requests %q, want the same request twice", rs)
	}
}

func TestARDPReorderedAndDuplicated(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		for _, seq := range []uint16{3, 1, 1, 2, 3, 2} {
			f.send(pkt(f.cid, seq, 3, 0, strings.Repeat(string(rune('A'+seq-1)), 3)+"\n"))
		}
	})
	got, err := exchange(t, fastClient(), f)
	if err != nil || string(got) != "AAA\nBBB\nCCC\n" {
		t.Fatalf("%q, %v", got, err)
	}
}

// A lost packet in a window: the client acknowledges what it has, the
// server sends the rest.
func TestARDPLostPacketAcknowledged(t *testing.T) {
	var ack Header
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		f.send(pkt(f.cid, 1, 3, 0, "one\n"))
		f.send(pkt(f.cid, 3, 3, FlagAck, "three\n"))
		h, _, ok := f.recv()
		if !ok {
			return
		}
		ack = h
		f.send(pkt(f.cid, 2, 3, 0, "two\n"))
	})
	got, err := exchange(t, &Client{RetryTimeout: 5 * time.Second}, f)
	if err != nil || string(got) != "one\ntwo\nthree\n" {
		t.Fatalf("%q, %v", got, err)
	}
	<-f.done
	if ack.Seq != 0 || ack.RcvdThru != 1 || ack.Len != 9 {
		t.Errorf("acknowledgement %+v, want an unsequenced packet received through 1", ack)
	}
}

func TestARDPWrongConnectionID(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		f.send(single(f.cid+1, "FAKE 1\n"))
		f.send(single(f.cid>>8|f.cid<<8, "SWAPPED before any acknowledgement\n"))
		f.send(single(0, "FAKE 2\n"))
		f.send([]byte{0xc3, 1, 2, 'x'}) // ARDP version 3
		f.send([]byte{40, 1})           // header longer than the datagram
		f.send([]byte{})
		f.send(single(f.cid, "VERSION 5 real\n"))
	})
	got, err := exchange(t, fastClient(), f)
	if err != nil || string(got) != "VERSION 5 real\n" {
		t.Fatalf("%q, %v", got, err)
	}
}

func TestARDPOtherAddress(t *testing.T) {
	f := startFake(t, func(f *fake) {
		for {
			if _, _, ok := f.recv(); !ok {
				return
			}
			f.other.WriteToUDP(single(f.cid, "SPOOFED\n"), f.peer)
		}
	})
	c := fastClient()
	c.Retries = 1
	got, err := exchange(t, c, f)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("%q, %v; want ErrTimeout (replies from another address ignored)", got, err)
	}
}

// A flood of bogus datagrams neither stalls the exchange nor grows memory
// beyond the limits.
func TestARDPFlood(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		junk := make([]byte, 1400)
		bogus := f.cid ^ 0x5555
		if ourConn(bogus, f.cid, true) {
			bogus ^= 1
		}
		for i := range 5000 {
			switch i % 3 {
			case 0:
				f.send(pkt(bogus, 1, 1, 0, string(junk)))
			case 1:
				f.send(append([]byte{0xff}, junk...))
			case 2:
				f.other.WriteToUDP(single(f.cid, "SPOOFED\n"), f.peer)
			}
		}
		f.send(single(f.cid, "VERSION 5 real\n"))
	})
	start := time.Now()
	c := &Client{RetryTimeout: time.Second}
	got, err := exchange(t, c, f)
	if err != nil || string(got) != "VERSION 5 real\n" {
		t.Fatalf("%q, %v", got, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestARDPTooLarge(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		data := strings.Repeat("x", 1000)
		for seq := uint16(1); seq < 200; seq++ {
			f.send(pkt(f.cid, seq, 0, 0, data))
		}
	})
	c := fastClient()
	c.MaxReply = 50000
	_, err := exchange(t, c, f)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}

	f = startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); ok {
			f.send(pkt(f.cid, 1, 60000, 0, "x"))
		}
	})
	if _, err := exchange(t, fastClient(), f); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("60000 packets announced: err = %v, want ErrTooLarge", err)
	}
}

// A wait notice postpones retransmission.
func TestARDPWaitNotice(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		// unsequenced control packet, wait 1 s
		f.send([]byte{11, byte(f.cid >> 8), byte(f.cid), 0, 0, 0, 0, 0, 0, 0, 1})
		time.Sleep(700 * time.Millisecond)
		f.send(single(f.cid, "VERSION 5 slow\n"))
	})
	var trace strings.Builder
	c := &Client{RetryTimeout: 100 * time.Millisecond, Trace: &trace}
	got, err := exchange(t, c, f)
	if err != nil || string(got) != "VERSION 5 slow\n" {
		t.Fatalf("%q, %v", got, err)
	}
	if n := len(f.received()); n != 1 {
		t.Errorf("%d requests, want 1 (no retransmission during the wait)\n%s", n, trace.String())
	}
	if !strings.Contains(trace.String(), "# the server asks to wait 1s") {
		t.Errorf("trace %q", trace.String())
	}
}

func TestARDPRefused(t *testing.T) {
	f := startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); ok {
			f.send([]byte{13, byte(f.cid >> 8), byte(f.cid), 0, 0, 0, 0, 0, 0, 0, 0, 0, OptionRefused})
		}
	})
	if _, err := exchange(t, fastClient(), f); !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	// nobody on the port: ICMP port unreachable
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	start := time.Now()
	_, err = fastClient().Exchange(t.Context(), addr, []byte("VERSION\n"))
	if !errors.Is(err, ErrRefused) || time.Since(start) > 2*time.Second {
		t.Fatalf("closed port: %v after %v, want ErrRefused at once", err, time.Since(start))
	}
}

func TestARDPTimeBounds(t *testing.T) {
	// silence: 3 retransmissions at 50, 100, 200 ms, then ErrTimeout
	f := startFake(t, func(f *fake) {
		for {
			if _, _, ok := f.recv(); !ok {
				return
			}
		}
	})
	start := time.Now()
	_, err := exchange(t, fastClient(), f)
	d := time.Since(start)
	if !errors.Is(err, ErrTimeout) || d < 700*time.Millisecond || d > 3*time.Second {
		t.Errorf("silent server: %v after %v", err, d)
	}
	if n := len(f.received()); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}

	// endless wait notices: MaxTime ends it
	f = startFake(t, func(f *fake) {
		if _, _, ok := f.recv(); !ok {
			return
		}
		for range 20 {
			f.send([]byte{11, byte(f.cid >> 8), byte(f.cid), 0, 0, 0, 0, 0, 0, 0xff, 0xff})
			time.Sleep(50 * time.Millisecond)
		}
	})
	c := fastClient()
	c.MaxTime = 500 * time.Millisecond
	start = time.Now()
	_, err = exchange(t, c, f)
	if d := time.Since(start); !errors.Is(err, ErrTimeout) || d > 2*time.Second {
		t.Errorf("endless waits: %v after %v", err, d)
	}

	// cancellation
	f = startFake(t, func(f *fake) { f.recv() })
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := fastClient().Exchange(ctx, f.addr(), []byte("VERSION\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
