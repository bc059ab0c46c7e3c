//go:build unix

package main

import (
	"os"
	"syscall"
)

// resizeSignal is the signal a terminal sends when its window changes
// size.
var resizeSignal os.Signal = syscall.SIGWINCH
