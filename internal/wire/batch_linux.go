//go:build linux

package wire

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setLowWater sets SO_RCVLOWAT: a read wakes when n bytes are queued.
func setLowWater(rc syscall.RawConn, n int) error {
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVLOWAT, n)
	}); err != nil {
		return err
	}
	return serr
}
