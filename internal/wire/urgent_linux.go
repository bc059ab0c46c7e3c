//go:build linux

package wire

import (
	"errors"
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// TCP urgent data ("out-of-band", RFC 793, RFC 6093) carries telnet's
// Synch (RFC 854) and rlogin's control bytes (RFC 1282). Go's net package
// never reads it: the runtime poller waits for readability only, and a
// lone urgent byte does not make a socket readable. These helpers reach it
// through the descriptor of the connection (syscall.Conn's RawConn): poll
// for POLLPRI to learn that urgent data is pending, recv with MSG_OOB to
// fetch the byte, and SO_OOBINLINE to keep the byte in the normal stream
// instead (telnet's DM must stay in the stream to be parsed).

// rawConn returns the syscall.RawConn of c, or ErrUrgentUnsupported.
func rawConn(c net.Conn) (syscall.RawConn, error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil, ErrUrgentUnsupported
	}
	return sc.SyscallConn()
}

// SetOOBInline sets SO_OOBINLINE on c: urgent bytes stay in the normal data
// stream (where [UrgentPending] still announces them until they are read).
func SetOOBInline(c net.Conn) error {
	rc, err := rawConn(c)
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_OOBINLINE, 1)
	}); err != nil {
		return err
	}
	return serr
}

// WaitUrgent waits up to d (0: no wait) for urgent data on c and reports
// whether some is pending: the kernel signals POLLPRI from the moment a
// segment with an urgent pointer arrives until the urgent byte is read.
func WaitUrgent(c net.Conn, d time.Duration) (bool, error) {
	rc, err := rawConn(c)
	if err != nil {
		return false, err
	}
	var pending bool
	var perr error
	if err := rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLPRI}}
		for {
			n, err := unix.Poll(fds, int(d/time.Millisecond))
			if errors.Is(err, unix.EINTR) {
				continue
			}
			perr = err
			pending = n > 0 && fds[0].Revents&unix.POLLPRI != 0
			return
		}
	}); err != nil {
		return false, err
	}
	return pending, perr
}

// ReadUrgent fetches the urgent byte of c (recv with MSG_OOB, not
// blocking). ok is false when there is none, or when its segment has been
// announced but has not arrived yet: poll again with [WaitUrgent]. With
// SO_OOBINLINE set there is never one to fetch this way.
func ReadUrgent(c net.Conn) (b byte, ok bool, err error) {
	rc, err := rawConn(c)
	if err != nil {
		return 0, false, err
	}
	var buf [1]byte
	var n int
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		n, _, rerr = unix.Recvfrom(int(fd), buf[:], unix.MSG_OOB|unix.MSG_DONTWAIT)
	}); err != nil {
		return 0, false, err
	}
	switch {
	case errors.Is(rerr, unix.EINVAL), errors.Is(rerr, unix.EAGAIN):
		// EINVAL: no urgent byte (or already read); EAGAIN: not arrived yet.
		return 0, false, nil
	case rerr != nil:
		return 0, false, rerr
	case n == 0:
		return 0, false, nil
	}
	return buf[0], true, nil
}

// SendUrgent writes b with MSG_OOB: its last byte becomes TCP's urgent
// byte (the urgent pointer points at it, BSD style).
func SendUrgent(c net.Conn, b []byte) error {
	rc, err := rawConn(c)
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Write(func(fd uintptr) bool {
		_, serr = unix.SendmsgN(int(fd), b, nil, nil, unix.MSG_OOB)
		return !errors.Is(serr, unix.EAGAIN)
	}); err != nil {
		return err
	}
	return serr
}

// AtMark reports whether the next byte to read from c is the urgent mark
// (SIOCATMARK): all data sent before the urgent byte has been read.
func AtMark(c net.Conn) (bool, error) {
	rc, err := rawConn(c)
	if err != nil {
		return false, err
	}
	var v int
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		v, ierr = unix.IoctlGetInt(int(fd), unix.SIOCATMARK)
	}); err != nil {
		return false, err
	}
	return v != 0, ierr
}

// WaitReadable waits up to d for c to have data, urgent data, an end of
// file or an error to report. A reader that must not read past an unread
// urgent byte (on Linux a read past it discards it) waits here, fetches
// the urgent byte when urgent is set, and reads only when it is not.
func WaitReadable(c net.Conn, d time.Duration) (readable, urgent bool, err error) {
	rc, err := rawConn(c)
	if err != nil {
		return false, false, err
	}
	var perr error
	if err := rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN | unix.POLLPRI}}
		for {
			n, err := unix.Poll(fds, int(d/time.Millisecond))
			if errors.Is(err, unix.EINTR) {
				continue
			}
			perr = err
			if n > 0 {
				urgent = fds[0].Revents&unix.POLLPRI != 0
				readable = fds[0].Revents&^unix.POLLPRI != 0
			}
			return
		}
	}); err != nil {
		return false, false, err
	}
	return readable, urgent, perr
}
