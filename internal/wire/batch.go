package wire

import (
	"net"
	"sync/atomic"
	"syscall"
	"time"
)

// Batching of bulk reads; see BatchReads.
const (
	// BatchSize is the number of queued bytes that wakes a batched
	// reader: half of the 256 KiB buffers the copy loops read into.
	BatchSize = 128 << 10
	// BatchPatience is how long a batched read waits for BatchSize bytes
	// before it takes what there is.
	BatchPatience = 20 * time.Millisecond
)

// BatchReads returns c with reads that wake up only once BatchSize bytes
// are queued (SO_RCVLOWAT), or at the end of the stream or an error,
// instead of at every segment: for a download read to its end from a
// server that writes 4 KiB at a time (pygopherd, Gophernicus), a third of
// the CPU time and of the context switches, which on a busy machine is
// time the server gets. So that a slow sender's bytes are never held back
// for long, the threshold drops to one byte whenever a read has waited
// BatchPatience, and goes back up at the next read. Where the socket
// option is missing (not Linux, not a socket), c is returned as it is.
func BatchReads(c net.Conn) net.Conn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	rc, err := sc.SyscallConn()
	if err != nil || setLowWater(rc, BatchSize) != nil {
		return c
	}
	b := &batchConn{Conn: c, set: func(n int) { setLowWater(rc, n) }}
	b.timer = time.AfterFunc(time.Hour, b.giveUp)
	b.timer.Stop()
	return b
}

type batchConn struct {
	net.Conn
	set   func(lowWater int)
	timer *time.Timer // runs giveUp when a read waits too long
	low   atomic.Bool // the threshold is down to one byte
}

func (b *batchConn) Read(p []byte) (int, error) {
	if b.low.Load() {
		b.low.Store(false)
		b.set(BatchSize)
	}
	b.timer.Reset(BatchPatience)
	n, err := b.Conn.Read(p)
	b.timer.Stop()
	return n, err
}

// giveUp lets the waiting read return with what is queued: lowering
// SO_RCVLOWAT wakes it when the queued bytes now suffice.
func (b *batchConn) giveUp() {
	b.low.Store(true)
	b.set(1)
}

func (b *batchConn) Close() error {
	b.timer.Stop()
	return b.Conn.Close()
}
