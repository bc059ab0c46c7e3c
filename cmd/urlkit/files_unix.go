//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
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

// oNoFollow makes an open fail on a symbolic link (ELOOP) instead of
// following it, and not wait on a FIFO: get -C -'s files have fixed names
// in the target's directory, where another user may have planted either.
const oNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownFile reports whether fi is a regular file of this process's user
// with one name: what get -C - made, not a link (hard or symbolic) to
// someone else's file planted under its name.
func ownFile(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && int(st.Uid) == os.Geteuid() && st.Nlink == 1
}

// mayFollow refuses, as Linux's fs.protected_symlinks does, to follow a
// symbolic link in a sticky world-writable directory (/tmp) when the
// link belongs neither to this user nor to the directory's owner: another
// user's link there would have root's get -o /tmp/out replace the file
// it names.
func mayFollow(link string, fi os.FileInfo) error {
	if planted, err := othersInSticky(link, fi); err != nil || !planted {
		return err
	}
	return &os.PathError{Op: "open", Path: link, Err: errors.New("a symbolic link of another user in a sticky world-writable directory: not followed (as fs.protected_symlinks)")}
}

// othersInSticky reports whether the file at path (fi: its Lstat)
// belongs to another user, in a sticky world-writable directory (/tmp)
// that user does not own either: there, anyone may have put it.
func othersInSticky(path string, fi os.FileInfo) (bool, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() {
		return false, nil
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return false, err
	}
	ds, ok := dir.Sys().(*syscall.Stat_t)
	return ok && dir.Mode()&os.ModeSticky != 0 && dir.Mode().Perm()&0o002 != 0 && ds.Uid != st.Uid, nil
}

// keepOwner gives f the owner and group of the file old describes, when
// the process may (as root); otherwise it does nothing.
func keepOwner(f *os.File, old os.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return
	}
	f.Chown(int(st.Uid), int(st.Gid))
}

// mayWrite reports whether this process's user may write the file at
// path (access(2), W_OK), as an open for writing would find.
func mayWrite(path string) error {
	if err := syscall.Access(path, 2); err != nil { // W_OK
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	return nil
}
