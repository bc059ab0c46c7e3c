package main

// get -C - (--continue-at -) continues a file: urlkit's own partial
// copy, kept beside the target when a transfer fails, or else the
// target itself, as curl -C - and wget -c continue it (fetch.FetchFrom:
// FTP REST, HTTP Range, with If-Range when urlkit stored a validator).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit/fetch"
)

// resumeFlags declares -C and --continue-at; only "-" (the size of the
// bytes held) is taken.
func resumeFlags(fs *flag.FlagSet, on *bool) {
	set := func(v string) error {
		if v != "-" {
			return errors.New(`want "-": continue from the bytes held (the partial copy a failed get -C - kept, else FILE)`)
		}
		*on = true
		return nil
	}
	fs.Func("C", "with `-`: continue the partial copy a failed transfer kept, else FILE itself (FTP REST, HTTP Range)", set)
	fs.Func("continue-at", "with `-`: the same as -C -", set)
}

// resumeHelp is the part of get -h about -C -.
const resumeHelp = `Resume: with -C - (--continue-at -) get continues what is held of FILE:
  - urlkit's own copy: a transfer to a file that fails keeps what arrived
    (also when interrupted) in a hidden partial copy beside the file
    (.NAME.urlkit.part), which appears as FILE only once complete;
  - else FILE itself, when it holds data (another tool's download, as
    curl -C - and wget -c continue it): the rest is appended to it, and
    what arrives before a failure stays there for the next get -C -.
When both exist, the hidden copy wins (FILE is then an older or another
tool's copy, replaced when the hidden one is complete). The rest comes
from the byte after the bytes held: FTP with REST before RETR (TYPE I
only, checked against SIZE), HTTP with Range and, when urlkit stored a
validator with its own copy (the first response's strong ETag, else its
Last-Modified), If-Range, so that a changed resource comes whole; for
FILE urlkit knows no validator and sends Range alone, as curl and wget
do. A FILE as long as the resource is left as it is, and get says so. A
server that sends all of it (HTTP 200, a TYPE A transfer, which cannot
start at a byte), or a FILE longer than the resource, restarts the
transfer into the hidden copy: FILE is replaced only when it is
complete. Gopher has no way to start at a byte: a gopher URL is fetched
again from the start, and get says so. Data past the announced size
(FTP SIZE) spoils what it extends: a hidden copy is removed, FILE cut
back to the bytes it held. -C - does not go with --compressed (the copy
would hold decompressed bytes).`

// maxValidator bounds the validator file.
const maxValidator = 1 << 10

// partName is the partial copy kept for the target final.
func partName(final string) string {
	dir, base := filepath.Split(final)
	return filepath.Join(dir, "."+base+".urlkit.part")
}

// openResume opens what get -C - continues for the -o target path and
// returns where the fetch should continue: urlkit's own partial copy
// when there is one (it wins: FILE, if any, is an older or another
// tool's copy that it will replace), else FILE itself when it is a
// regular file with data (another tool's download, continued in place
// as curl -C - and wget -c do), else a new partial copy. A target that
// is not a regular file (a FIFO, /dev/null) is written in place, from
// the start.
func openResume(path string) (*outputFile, fetch.Resume, error) {
	final, fi, err := outputTarget(path)
	if err != nil {
		return nil, fetch.Resume{}, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return nil, fetch.Resume{}, nil
	}
	if _, err := os.Lstat(partName(final)); errors.Is(err, fs.ErrNotExist) && fi != nil && fi.Size() > 0 {
		// Another user's FILE in /tmp is not appended to (Linux's
		// fs.protected_regular keeps even root from opening it with
		// O_CREAT there): it is fetched whole into the partial copy,
		// then replaced.
		if planted, err := othersInSticky(final, fi); err == nil && !planted {
			return openInPlace(path, final)
		}
	}
	f, err := openPart(path, final)
	if err != nil {
		return nil, fetch.Resume{}, err
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, fetch.Resume{}, nameTarget(err, "open", path)
	}
	r := fetch.Resume{Offset: fi.Size()}
	// The validator goes to the server (If-Range): it is read only from
	// a file of this user's, never through a link.
	if vf, err := os.OpenFile(f.Name()+".validator", os.O_RDONLY|oNoFollow, 0); err == nil {
		if vfi, err := vf.Stat(); err == nil && ownFile(vfi) {
			b, _ := io.ReadAll(io.LimitReader(vf, maxValidator))
			r.Validator = strings.TrimSpace(string(b))
		}
		vf.Close()
	}
	return f, r, nil
}

// openInPlace opens FILE (final, the target path's file) to append the
// rest of the resource to the bytes it holds. urlkit knows no validator
// of another tool's bytes, so none goes with the range (If-Range): as
// with curl -C - and wget -c, the server's length is the only check.
func openInPlace(path, final string) (*outputFile, fetch.Resume, error) {
	f, err := os.OpenFile(final, os.O_WRONLY|oNoFollow, 0)
	if err != nil {
		return nil, fetch.Resume{}, nameTarget(err, "open", path)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		f.Close()
		return nil, fetch.Resume{}, nameTarget(err, "open", path)
	}
	return &outputFile{File: f, target: path, final: final, inPlace: true, held: fi.Size()}, fetch.Resume{Offset: fi.Size()}, nil
}

// openPart opens (or creates) the partial copy of final, the file the
// -o target path names.
func openPart(path, final string) (*outputFile, error) {
	part := partName(final)
	// The name is known in advance: whatever is found there must be the
	// partial copy this user's get made, or root's get -C - -o /tmp/out
	// would write (and then chmod, chown and rename into place) the file
	// a planted link names.
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE|oNoFollow, 0o666)
	if errors.Is(err, syscall.ELOOP) {
		return nil, notOurPart(path, part)
	}
	if err != nil {
		return nil, nameTarget(err, "create", path)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nameTarget(err, "open", path)
	}
	if !ownFile(fi) {
		f.Close()
		return nil, notOurPart(path, part)
	}
	return &outputFile{File: f, target: path, final: final, atomic: true, partial: true}, nil
}

// notOurPart is the error for a partial-copy name that holds something
// get -C - did not make there.
func notOurPart(target, part string) error {
	return &os.PathError{Op: "open", Path: target, Err: fmt.Errorf("the partial copy %s is a link or another user's file, not one get -C - made: remove it to start again", part)}
}

// startAt places the partial copy at offset, where the fetched data
// starts (0: a new copy), and records the validator for the next -C -.
// FILE continued in place is written after the bytes it holds; when the
// resource comes again from the start, f becomes the partial copy, and
// FILE stays as it is until that copy is complete and replaces it.
func (f *outputFile) startAt(offset int64, validator string) error {
	if f.inPlace {
		if offset == f.held {
			_, err := f.Seek(offset, io.SeekStart)
			return nameTarget(err, "write", f.target)
		}
		f.File.Close()
		f.done = true
		part, err := openPart(f.target, f.final)
		if err != nil {
			return err
		}
		*f = *part
	}
	if err := f.Truncate(offset); err != nil {
		return nameTarget(err, "write", f.target)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nameTarget(err, "write", f.target)
	}
	vname := f.Name() + ".validator"
	if validator == "" || len(validator) > maxValidator || strings.ContainsAny(validator, "\r\n") {
		os.Remove(vname)
		return nil
	}
	// A new file, never through a link or into one planted at the name.
	os.Remove(vname)
	vf, err := os.OpenFile(vname, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o666)
	if err != nil {
		return nameTarget(err, "write", f.target)
	}
	_, err = vf.WriteString(validator + "\n")
	if cerr := vf.Close(); err == nil {
		err = cerr
	}
	return nameTarget(err, "write", f.target)
}

// partialNote is what a failed -C - transfer adds to its error.
func partialNote(f *outputFile) string {
	if f == nil || !f.partial && !f.inPlace {
		return ""
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return ""
	}
	return fmt.Sprintf("; %d bytes kept: get -C - continues", fi.Size())
}
