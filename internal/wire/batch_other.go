//go:build !linux

package wire

import (
	"errors"
	"syscall"
)

// setLowWater is only implemented on Linux: elsewhere BatchReads leaves
// the connection alone.
func setLowWater(rc syscall.RawConn, n int) error { return errors.ErrUnsupported }
