//go:build !linux

package wire

import (
	"net"
	"time"
)

// SetOOBInline is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func SetOOBInline(c net.Conn) error { return ErrUrgentUnsupported }

// WaitUrgent is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func WaitUrgent(c net.Conn, d time.Duration) (bool, error) { return false, ErrUrgentUnsupported }

// ReadUrgent is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func ReadUrgent(c net.Conn) (byte, bool, error) { return 0, false, ErrUrgentUnsupported }

// SendUrgent is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func SendUrgent(c net.Conn, b []byte) error { return ErrUrgentUnsupported }

// AtMark is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func AtMark(c net.Conn) (bool, error) { return false, ErrUrgentUnsupported }

// WaitReadable is only implemented on Linux; elsewhere it returns
// ErrUrgentUnsupported.
func WaitReadable(c net.Conn, d time.Duration) (readable, urgent bool, err error) {
	return false, false, ErrUrgentUnsupported
}
