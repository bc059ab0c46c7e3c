//go:build !unix

package main

import "os"

// umask is the conventional 022 where there is no umask.
func umask() os.FileMode { return 0o022 }

// oNoFollow is no flag where there is none.
const oNoFollow = 0

// ownFile reports whether fi is a regular file; there is no owner to check.
func ownFile(fi os.FileInfo) bool { return fi.Mode().IsRegular() }

// mayFollow follows every link where there are no owners.
func mayFollow(link string, fi os.FileInfo) error { return nil }

// othersInSticky finds no other user's file where there are no owners.
func othersInSticky(path string, fi os.FileInfo) (bool, error) { return false, nil }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(f *os.File, old os.FileInfo) {}

// mayWrite lets the open or the rename decide where there is no access(2).
func mayWrite(path string) error { return nil }
