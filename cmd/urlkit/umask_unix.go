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

// keepOwner gives f the owner and group of the file old describes, when
// the process may (as root); otherwise it does nothing.
func keepOwner(f *os.File, old os.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return
	}
	f.Chown(int(st.Uid), int(st.Gid))
}
