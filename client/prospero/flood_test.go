package prospero

import (
	"context"
	"encoding/binary"
	"net"
	"testing"
	"time"
)

// floodConn is an in-memory datagram connection: it answers a request
// with n bogus datagrams (another connection id, or a malformed header),
// then the real one-packet reply. Unlike a UDP socket it drops nothing,
// so every bogus datagram reaches the client.
type floodConn struct {
	net.Conn // nil: only the methods below are used
	n, read  int
	cid      uint16
	bogus    [2][]byte
}

func (c *floodConn) Write(p []byte) (int, error) {
	if h, _, err := ParseHeader(p); err == nil && h.Seq != 0 {
		c.cid = h.ConnID
		other := c.cid ^ 0x5555
		if ourConn(other, c.cid, true) {
			other ^= 1
		}
		c.bogus[0] = binary.BigEndian.AppendUint16([]byte{3}, other)
		c.bogus[0] = append(c.bogus[0], make([]byte, 1400)...)
		c.bogus[1] = append([]byte{0xff}, make([]byte, 1400)...)
	}
	return len(p), nil
}

func (c *floodConn) Read(p []byte) (int, error) {
	c.read++
	if c.read <= c.n {
		return copy(p, c.bogus[c.read%2]), nil
	}
	return copy(p, single(c.cid, "VERSION 5 real\n")), nil
}

func (c *floodConn) SetReadDeadline(time.Time) error { return nil }

// The bogus datagrams cost no memory: allocations do not grow with their
// number (a client that kept or copied them would allocate per datagram).
func TestFloodAllocations(t *testing.T) {
	c := &Client{}
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			fc := &floodConn{n: n}
			got, err := c.exchange(context.Background(), fc, []byte("VERSION\n"))
			if err != nil || string(got) != "VERSION 5 real\n" || fc.read != n+1 {
				t.Fatalf("%q, %v after %d reads", got, err, fc.read)
			}
		})
	}
	few, many := allocs(10), allocs(20000)
	if many > few+5 {
		t.Errorf("%v allocations with 20000 bogus datagrams, %v with 10", many, few)
	}
	t.Logf("allocations: %v (10 bogus datagrams), %v (20000)", few, many)
}
