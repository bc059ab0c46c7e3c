//go:build unix

package main

import (
	"os"
	"sync"
	"syscall"
)

// umask returns the process's file mode creation mask. Reading it means
// setting it, so it is read once, before any file is created.
var umask = sync.OnceValue(func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
})
