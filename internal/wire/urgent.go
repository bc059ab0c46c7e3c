package wire

import "errors"

// ErrUrgentUnsupported is returned by the urgent-data helpers for a
// connection without a socket descriptor (net.Pipe, a wrapped conn) or on
// a system where they are not implemented.
var ErrUrgentUnsupported = errors.New("tcp urgent data not supported on this connection")
