package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urlkit/urlkit/internal/fsctx"
	"github.com/urlkit/urlkit/internal/safetext"
)

// An outputFile is where get -o writes. What happens to the target
// depends on what it is:
//
//   - absent, or a regular file: the data is written under a hidden
//     temporary name in the same directory and renamed to the target only
//     by commit, so a failed or interrupted transfer leaves nothing behind
//     and an existing file is untouched until the new one is complete. A
//     replaced file keeps its permission bits (and, as root, its owner).
//   - a symbolic link: it is followed (to any depth) and the file it
//     points to is treated as above; the link itself stays.
//   - a character device, FIFO or socket (/dev/null, a named pipe): it is
//     opened and written in place, as curl does: a reader of the FIFO sees
//     the bytes, and /dev/null stays a device.
//
// Every error names the target as the user gave it, never the temporary
// file.
type outputFile struct {
	*os.File
	target  string // the name the user gave, for messages
	final   string // the file renamed into place (the symlink's target)
	atomic  bool   // written under a temporary name
	partial bool   // the temporary file is get -C -'s partial copy: kept on failure
	inPlace bool   // get -C - appends to the target itself (another tool's copy)
	held    int64  // with inPlace: the bytes the target held before
	done    bool
}

// pendingTemps holds the temporary files not yet committed or removed,
// for removal when the process must exit on a signal before the command
// returns.
var pendingTemps sync.Map // name -> struct{}

// removePendingTemps removes every temporary file still pending.
func removePendingTemps() {
	pendingTemps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		pendingTemps.Delete(k)
		return true
	})
}

// createOutput opens the -o target path (see outputFile). The open of a
// FIFO waits for a reader; ctx ends the wait.
func createOutput(ctx context.Context, path string) (*outputFile, error) {
	final, fi, err := outputTarget(path)
	switch {
	case err != nil:
		return nil, err
	case fi != nil && fi.IsDir():
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("is a directory")}
	case fi != nil && !fi.Mode().IsRegular():
		f, err := fsctx.OpenFile(ctx, final, os.O_WRONLY)
		if err != nil {
			return nil, nameTarget(err, "open", path)
		}
		return &outputFile{File: f, target: path, final: final}, nil
	}
	dir, base := filepath.Split(final)
	if dir == "" {
		dir = "."
	}
	if base == "" || base == "." || base == ".." {
		return nil, &os.PathError{Op: "create", Path: path, Err: errors.New("not a file name")}
	}
	f, err := os.CreateTemp(dir, "."+base+".urlkit-*.part")
	if err != nil {
		return nil, nameTarget(err, "create", path)
	}
	pendingTemps.Store(f.Name(), struct{}{})
	return &outputFile{File: f, target: path, final: final, atomic: true}, nil
}

// outputTarget returns the file the -o target path names (followLinks)
// and what is there, nil when nothing is. An existing regular file must
// be one the user may write: the copy is renamed over it, which needs
// only the directory's permission, and > and curl -o refuse such a file.
// Errors name path.
func outputTarget(path string) (final string, fi fs.FileInfo, err error) {
	if final, err = followLinks(path); err != nil {
		return "", nil, nameTarget(err, "open", path)
	}
	switch fi, err = os.Stat(final); {
	case errors.Is(err, fs.ErrNotExist):
		return final, nil, nil
	case err != nil:
		return "", nil, nameTarget(err, "open", path)
	case fi.Mode().IsRegular():
		if err := mayWrite(final); err != nil {
			return "", nil, nameTarget(err, "open", path)
		}
	}
	return final, fi, nil
}

// followLinks resolves the symbolic links of path's last element (to 40
// levels, like the kernel) and returns the name of the file they lead
// to, which need not exist. It follows only the links the kernel's
// protected_symlinks would (mayFollow), whatever that setting is here:
// following by hand must not undo that protection; and it checks the
// links of the directories on the way the same way (dirLinksAllowed),
// which the kernel follows when the file is created there.
func followLinks(path string) (string, error) {
	for range 40 {
		if err := dirLinksAllowed(filepath.Dir(path)); err != nil {
			return "", err
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if err := mayFollow(path, fi); err != nil {
			return "", err
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// dirLinksAllowed walks dir component by component as the kernel's path
// lookup does, following its symbolic links, and refuses one that
// mayFollow refuses. A component that does not exist ends the walk: the
// create there fails on its own.
func dirLinksAllowed(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	comps := strings.Split(abs, string(filepath.Separator))
	cur := string(filepath.Separator)
	if v := filepath.VolumeName(abs); v != "" {
		cur, comps = v+string(filepath.Separator), comps[1:]
	}
	for hops := 0; len(comps) > 0; {
		c := comps[0]
		comps = comps[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if err := mayFollow(next, fi); err != nil {
			return err
		}
		if hops++; hops > 40 {
			return errors.New("too many levels of symbolic links")
		}
		link, err := os.Readlink(next)
		if err != nil {
			return err
		}
		if filepath.IsAbs(link) {
			cur = filepath.VolumeName(link) + string(filepath.Separator)
		}
		comps = append(strings.Split(link, string(filepath.Separator)), comps...)
	}
	return nil
}

// nameTarget returns err as an *os.PathError naming the user's target
// instead of whatever file the failing call named.
func nameTarget(err error, op, target string) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: target, Err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return &fs.PathError{Op: op, Path: target, Err: le.Err}
	}
	return &fs.PathError{Op: op, Path: target, Err: err}
}

// Write writes to the file; an error names the target.
func (f *outputFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	if err != nil {
		err = nameTarget(err, "write", f.target)
	}
	return n, err
}

// commit finishes the output: for a temporary file, flushes it to stable
// storage, gives it the replaced file's mode and owner (else 0666 less
// the umask) and renames it into place.
func (f *outputFile) commit() error {
	if f.inPlace {
		err := f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		f.done = true
		return nameTarget(err, "write", f.target)
	}
	if !f.atomic {
		f.done = true
		return nameTarget(f.Close(), "close", f.target)
	}
	err := f.Sync()
	if err == nil {
		err = f.Chmod(0o666 &^ umask())
		if old, serr := os.Stat(f.final); serr == nil && old.Mode().IsRegular() {
			err = f.Chmod(old.Mode().Perm())
			keepOwner(f.File, old)
		}
	}
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = os.Rename(f.Name(), f.final)
	}
	if err == nil && f.partial {
		os.Remove(f.Name() + ".validator")
	}
	if err != nil {
		f.abort()
		return nameTarget(err, "write", f.target)
	}
	pendingTemps.Delete(f.Name())
	f.done = true
	return nil
}

// discard is abort for data that is not the resource (fetch's
// ErrLongTransfer): a partial copy for -C - is removed too, since it
// cannot be continued, and a target continued in place is cut back to
// the bytes it held. It returns what the error message adds.
func (f *outputFile) discard() string {
	switch {
	case f.done:
		return ""
	case f.inPlace:
		err := f.Truncate(f.held)
		f.abort()
		if err != nil {
			return fmt.Sprintf("; cutting %s back to its %d bytes failed: %s", safetext.Visible(f.target), f.held, safetext.Visible(unwrapPath(err).Error()))
		}
		return fmt.Sprintf("; %s is cut back to the %d bytes it held", safetext.Visible(f.target), f.held)
	case f.partial:
		f.partial = false
		os.Remove(f.Name() + ".validator")
		f.abort()
		return "; the partial copy is removed: it cannot be continued"
	}
	f.abort()
	return ""
}

// abort removes the temporary file (a special file is just closed); it
// does nothing after commit.
func (f *outputFile) abort() {
	if f.done {
		return
	}
	f.done = true
	if f.inPlace {
		// What arrived continues the bytes held: the next -C - goes on.
		f.Close()
		return
	}
	if f.partial {
		// Kept for the next -C -, unless nothing arrived.
		if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
			os.Remove(f.Name())
			os.Remove(f.Name() + ".validator")
		}
		f.Close()
		return
	}
	f.Close()
	if f.atomic {
		os.Remove(f.Name())
		pendingTemps.Delete(f.Name())
	}
}
