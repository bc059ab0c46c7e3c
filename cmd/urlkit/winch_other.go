//go:build !unix

package main

import "os"

// resizeSignal is nil where the terminal sends no signal on a resize:
// the session keeps the size it started with.
var resizeSignal os.Signal
