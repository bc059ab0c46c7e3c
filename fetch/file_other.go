//go:build !unix

package fetch

import "os"

// openNonBlocking opens name for reading.
func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }
