package prospero

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Defaults used when the corresponding Client field is zero.
const (
	DefaultRetryTimeout = 1 * time.Second  // first retransmission timeout
	DefaultRetries      = 4                // retransmissions before giving up
	DefaultMaxWait      = 30 * time.Second // longest server-requested wait honoured
	DefaultMaxTime      = 60 * time.Second // longest exchange, waits included
	DefaultMaxReply     = 1 << 20          // bytes of one reply message
	DefaultMaxPackets   = 4096             // packets of one reply message
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrTimeout reports an exchange that got no complete reply within
	// the retransmissions allowed or the maximum time.
	ErrTimeout = errors.New("prospero: no reply")
	// ErrRefused reports a server that refused the connection (ARDP
	// option 1), or an ICMP port-unreachable for the server's port.
	ErrRefused = errors.New("prospero: connection refused")
	// ErrTooLarge reports a reply beyond Client.MaxReply or MaxPackets.
	ErrTooLarge = errors.New("prospero: reply too large")
	// ErrUnsafeArg reports an hsoname, component or attribute holding a
	// byte that may not be sent; nothing was sent. The error is an
	// *ArgError.
	ErrUnsafeArg = wire.ErrUnsafeArg
)

// ArgError is the type of the errors reporting an unsafe argument.
type ArgError = wire.ArgError

// Client talks to Prospero directory servers over ARDP/UDP. Its zero value
// is ready to use; a Client holds no sockets (each exchange has its own)
// and may be used concurrently.
type Client struct {
	// RetryTimeout is the time to wait for a reply before the request is
	// sent again; it doubles after every retransmission (default
	// DefaultRetryTimeout). A packet of the reply restarts the timer.
	RetryTimeout time.Duration
	// Retries is the number of retransmissions before an exchange fails
	// with ErrTimeout (default DefaultRetries; negative: none).
	Retries int
	// MaxWait caps the wait a server may ask for with an ARDP wait notice
	// (default DefaultMaxWait).
	MaxWait time.Duration
	// MaxTime bounds one exchange as a whole, whatever the server sends
	// (default DefaultMaxTime); the context may end it sooner.
	MaxTime time.Duration
	// MaxReply bounds the bytes of one reply (default DefaultMaxReply).
	MaxReply int
	// MaxPackets bounds the packets of one reply (default DefaultMaxPackets).
	MaxPackets int
	// User is the name sent in "AUTHENTICATE '' UNAUTHENTICATED user"
	// (default "anonymous"). It must be a plain token.
	User string
	// Trace, if set, receives a transcript of each exchange: "> " and the
	// request's lines exactly as sent, "< " and the reply's lines (control
	// characters Go-escaped), and "# " notes on retransmissions,
	// acknowledgements, wait notices and ignored datagrams.
	Trace io.Writer

	mu sync.Mutex // serializes trace writes
}

func (c *Client) retryTimeout() time.Duration {
	if c.RetryTimeout > 0 {
		return c.RetryTimeout
	}
	return DefaultRetryTimeout
}

func (c *Client) retries() int {
	switch {
	case c.Retries < 0:
		return 0
	case c.Retries == 0:
		return DefaultRetries
	}
	return c.Retries
}

func orDur(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func orInt(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

func (c *Client) tracef(format string, args ...any) {
	if c.Trace == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.Trace, format, args...)
}

// traceLines writes each line of msg with prefix: lines end at unquoted
// LFs, so a quoted LF shows as \n inside its line.
func (c *Client) traceLines(prefix string, msg []byte) {
	if c.Trace == nil {
		return
	}
	s := string(msg)
	for s != "" {
		end := lineEnd(s)
		c.tracef("%s%s\n", prefix, printable(s[:end]))
		if end == len(s) {
			break
		}
		s = s[end+1:]
	}
}

// Exchange sends a request message (lines of the Prospero protocol, each
// ending in LF) to the server at addr ("host:port") and returns the
// reassembled reply message.
//
// The request goes out as ARDP packets with a fresh random connection id;
// only datagrams from addr (the socket is connected to it) that carry that
// connection id and a well-formed header are taken, anything else is
// dropped without effect on timers or memory. Reply packets are
// reassembled in order whatever order they arrive in, duplicates are
// dropped, and every packet the server marks "please acknowledge" is
// acknowledged with the number received through. Without progress the
// request is sent again after RetryTimeout, doubling each time, at most
// Retries times; a wait notice from the server postpones the next
// retransmission (by at most MaxWait). MaxTime and ctx bound it all.
func (c *Client) Exchange(ctx context.Context, addr string, request []byte) ([]byte, error) {
	nc, err := wire.Dial(ctx, nil, "udp", addr)
	if err != nil {
		return nil, fmt.Errorf("prospero: dial %s: %w", addr, err)
	}
	defer nc.Close()
	release := wire.Bind(ctx, nc)
	defer release()
	reply, err := c.exchange(ctx, nc, request)
	if err != nil {
		return nil, wire.ContextError(ctx, err)
	}
	return reply, nil
}

// newConnID returns a random connection id: with the server's address it
// is what tells a reply from spoofed datagrams. Its two bytes differ (so
// neither it nor its byte swap, see ourConn, is 0 or the other).
func newConnID() uint16 {
	var b [2]byte
	for {
		rand.Read(b[:])
		if b[0] != b[1] {
			return binary.BigEndian.Uint16(b[:])
		}
	}
}

// ourConn reports whether a reply's connection id is the one sent. The
// Prospero server (Alpha.5.2a, on 64-bit Linux) sends the packets it
// sends in answer to an acknowledgement or a retransmitted request (after
// the first window of a multi-packet reply) with the two bytes of the
// connection id swapped; with swapped set, that form is accepted too.
func ourConn(got, sent uint16, swapped bool) bool {
	return got == sent || (swapped && got == bits.ReverseBytes16(sent))
}

func (c *Client) exchange(ctx context.Context, nc net.Conn, request []byte) ([]byte, error) {
	maxReply := orInt(c.MaxReply, DefaultMaxReply)
	maxPackets := orInt(c.MaxPackets, DefaultMaxPackets)
	maxWait := orDur(c.MaxWait, DefaultMaxWait)
	start := time.Now()
	end := start.Add(orDur(c.MaxTime, DefaultMaxTime))
	if d, ok := ctx.Deadline(); ok && d.Before(end) {
		end = d
	}
	cid := newConnID()
	timeout := c.retryTimeout()
	retries := c.retries()

	var (
		parts    = map[uint16][]byte{}
		total    uint16 // 0: not known yet
		size     int
		thru     uint16 // packets 1..thru received
		attempts int
		ignored  int
		lastWait uint16
		resent   bool // an acknowledgement or a retransmission went out
	)
	send := func() error {
		pkts, err := Packets(cid, request, thru)
		if err != nil {
			return err
		}
		for _, p := range pkts {
			if _, err := nc.Write(p); err != nil {
				return fmt.Errorf("prospero: sending request: %w", err)
			}
		}
		return nil
	}
	c.traceLines("> ", request)
	if err := send(); err != nil {
		return nil, err
	}
	retryAt := time.Now().Add(timeout)
	buf := make([]byte, maxDatagram)
	for {
		nc.SetReadDeadline(minTime(retryAt, end))
		n, err := nc.Read(buf)
		now := time.Now()
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if ctx.Err() != nil || !now.Before(end) {
					return nil, fmt.Errorf("%w within %v (%d retransmissions, %d of %s packets, %d datagrams ignored)", ErrTimeout, now.Sub(start).Round(time.Millisecond), attempts, len(parts), totalString(total), ignored)
				}
				if now.Before(retryAt) {
					continue
				}
				if attempts >= retries {
					return nil, fmt.Errorf("%w after %d retransmissions (%d of %s packets, %d datagrams ignored)", ErrTimeout, attempts, len(parts), totalString(total), ignored)
				}
				attempts++
				timeout *= 2
				c.tracef("# no reply: sending the request again (received through %d), next timeout %v\n", thru, timeout)
				if err := send(); err != nil {
					return nil, err
				}
				resent = true
				retryAt = now.Add(timeout)
				continue
			}
			if isRefused(err) {
				return nil, fmt.Errorf("%w (ICMP port unreachable): %w", ErrRefused, err)
			}
			return nil, fmt.Errorf("prospero: reading reply: %w", err)
		}
		h, data, ok := decodeHeader(buf[:n])
		if !ok || !ourConn(h.ConnID, cid, resent) {
			ignored++
			continue
		}
		if h.Option == OptionRefused {
			return nil, ErrRefused
		}
		if h.HasWait && h.Wait > 0 && (h.Seq == 0 || h.Flags&FlagSeqControl != 0) {
			w := min(time.Duration(h.Wait)*time.Second, maxWait)
			if h.Wait != lastWait { // one note per value, not per packet
				c.tracef("# the server asks to wait %ds\n", h.Wait)
				lastWait = h.Wait
			}
			retryAt = now.Add(w)
		}
		if h.Seq == 0 { // unsequenced control packet
			continue
		}
		if h.Total > 0 && total == 0 {
			if int(h.Total) > maxPackets {
				return nil, fmt.Errorf("%w: %d packets (limit %d)", ErrTooLarge, h.Total, maxPackets)
			}
			total = h.Total
		}
		if int(h.Seq) > maxPackets || (total > 0 && h.Seq > total) {
			ignored++
			continue
		}
		if _, dup := parts[h.Seq]; !dup {
			if h.Flags&FlagSeqControl != 0 {
				data = nil
			}
			size += len(data)
			if size > maxReply {
				return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, maxReply)
			}
			parts[h.Seq] = slices.Clone(data)
			for {
				if _, ok := parts[thru+1]; !ok {
					break
				}
				thru++
			}
			retryAt = now.Add(timeout) // progress: restart the timer
		}
		done := total > 0 && thru >= total
		if h.Flags&FlagAck != 0 || (done && total > 1) {
			ack := AppendHeader(nil, cid, 0, 0, thru)
			c.tracef("# acknowledging packets through %d\n", thru)
			if _, err := nc.Write(ack); err != nil && !done {
				return nil, fmt.Errorf("prospero: sending acknowledgement: %w", err)
			}
			resent = true
		}
		if done {
			reply := make([]byte, 0, size)
			for i := uint16(1); i <= total; i++ {
				reply = append(reply, parts[i]...)
			}
			if ignored > 0 {
				c.tracef("# %d datagrams ignored (malformed, or another connection id)\n", ignored)
			}
			c.traceLines("< ", reply)
			return reply, nil
		}
	}
}

func totalString(t uint16) string {
	if t == 0 {
		return "?"
	}
	return fmt.Sprint(t)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// isRefused reports an ICMP port unreachable, which a connected UDP
// socket reports as ECONNREFUSED.
func isRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED)
}
