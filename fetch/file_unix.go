//go:build unix

package fetch

import (
	"os"
	"syscall"
)

// openNonBlocking opens name for reading without waiting for the writer
// of a FIFO.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
