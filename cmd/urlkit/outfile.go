package main

import (
	"errors"
	"os"
	"path/filepath"
)

// atomicFile is an output file written under a temporary name in the
// same directory and renamed to its real name only by commit: a failed
// or interrupted transfer leaves nothing behind, and an existing file of
// that name is untouched until the new one is complete.
type atomicFile struct {
	*os.File
	path string
	done bool
}

// createAtomic creates the temporary file for path.
func createAtomic(path string) (*atomicFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" || base == "." || base == ".." {
		return nil, &os.PathError{Op: "create", Path: path, Err: errors.New("not a file name")}
	}
	f, err := os.CreateTemp(dir, "."+base+".urlkit-*.part")
	if err != nil {
		return nil, err
	}
	return &atomicFile{File: f, path: path}, nil
}

// commit flushes the data to stable storage, gives the file the usual
// permissions (0666 less the umask) and renames it into place.
func (f *atomicFile) commit() error {
	if err := f.Sync(); err != nil {
		f.abort()
		return err
	}
	if err := f.Chmod(0o666 &^ umask()); err != nil {
		f.abort()
		return err
	}
	if err := f.Close(); err != nil {
		f.abort()
		return err
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		f.abort()
		return err
	}
	f.done = true
	return nil
}

// abort removes the temporary file; it does nothing after commit.
func (f *atomicFile) abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}
