//go:build !unix

package main

import "os"

// umask is the conventional 022 where there is no umask.
func umask() os.FileMode { return 0o022 }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(f *os.File, old os.FileInfo) {}
