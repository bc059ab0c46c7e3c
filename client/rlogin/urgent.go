package rlogin

// TCP urgent data: the server's control bytes (RFC 1282), read through
// the socket because Go's net package does not.

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Control bytes of the server's urgent data (RFC 1282; BSD TIOCPKT_*).
const (
	ctlFlushWrite = 0x02 // discard output received up to the urgent mark
	ctlNoStop     = 0x10 // raw mode: pass ^S/^Q to the server
	ctlDoStop     = 0x20 // cooked mode: handle ^S/^Q locally
	ctlWindow     = 0x80 // send the window size, now and on changes
)

// checkUrgent fetches and obeys a pending urgent control byte and
// reports whether there was one.
func (c *Conn) checkUrgent() bool {
	c.umu.Lock()
	defer c.umu.Unlock()
	b, ok, err := wire.ReadUrgent(c.raw)
	if err != nil || !ok {
		return false
	}
	if c.trace != nil {
		fmt.Fprintf(c.trace, "< [urgent 0x%02x]\n", b)
	}
	if b&ctlFlushWrite != 0 {
		c.flushing = true
	}
	if b&ctlNoStop != 0 {
		c.rawMode = true
	}
	if b&ctlDoStop != 0 {
		c.rawMode = false
	}
	if b&ctlWindow != 0 {
		c.wmu.Lock()
		c.windowAsked = true
		if c.width > 0 && c.height > 0 {
			c.conn.Write(AppendWindowSize(nil, c.width, c.height))
		}
		c.wmu.Unlock()
	}
	return true
}

// pollInterval bounds each wait of Read, so Close and deadlines are
// noticed.
const pollInterval = 100 * time.Millisecond

// Read reads the server's output, obeying the urgent control bytes on
// the way (a flush request discards the output up to the urgent mark).
//
// Go's reads never report urgent data, and on Linux a read that passes
// an urgent byte not yet fetched discards it. So Read waits with poll for
// data or urgent data, fetches a pending urgent byte first (recv with
// MSG_OOB), and reads only when none is pending: a read then stops at the
// mark. Where this is not available (not Linux, not a socket), Read is a
// plain read and control bytes are not seen.
func (c *Conn) Read(p []byte) (int, error) {
	for {
		if c.r.Buffered() > 0 {
			// Buffered data precedes any mark (a read stops there), but
			// a flush request may have come since it was read.
			if _, urgent, _ := wire.WaitReadable(c.raw, 0); urgent {
				c.checkUrgent()
			}
			if !c.isFlushing() {
				return c.r.Read(p)
			}
			c.r.Discard(c.r.Buffered())
			continue
		}
		select {
		case <-c.done:
			return 0, net.ErrClosed
		default:
		}
		if dl, ok := c.readDeadline.Load().(time.Time); ok && !dl.IsZero() && time.Now().After(dl) {
			return 0, os.ErrDeadlineExceeded
		}
		readable, urgent, err := wire.WaitReadable(c.raw, pollInterval)
		if errors.Is(err, wire.ErrUrgentUnsupported) {
			return c.r.Read(p)
		}
		if err != nil {
			return 0, err
		}
		if urgent {
			if !c.checkUrgent() {
				// Reported but not fetchable (yet): do not spin.
				time.Sleep(time.Millisecond)
			}
			continue
		}
		if !readable {
			continue
		}
		if c.isFlushing() {
			if at, _ := wire.AtMark(c.raw); at {
				c.umu.Lock()
				c.flushing = false
				c.umu.Unlock()
				continue
			}
			if _, err := c.r.Discard(max(c.r.Buffered(), 1)); err != nil {
				return 0, err
			}
			continue
		}
		return c.r.Read(p)
	}
}

func (c *Conn) isFlushing() bool {
	c.umu.Lock()
	defer c.umu.Unlock()
	return c.flushing
}
