package main

// get -C - (--continue-at -): the data of a transfer that failed is kept
// in a partial copy beside the target, and the next get -C - continues
// it (fetch.FetchFrom: FTP REST, HTTP Range with If-Range); the target
// itself still appears only whole.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit/fetch"
)

// resumeFlags declares -C and --continue-at; only "-" (the size of the
// partial copy) is taken.
func resumeFlags(fs *flag.FlagSet, on *bool) {
	set := func(v string) error {
		if v != "-" {
			return errors.New(`want "-": continue from the partial copy that a failed get -C - kept`)
		}
		*on = true
		return nil
	}
	fs.Func("C", "with `-`: continue the partial copy a failed transfer kept (FTP REST, HTTP Range)", set)
	fs.Func("continue-at", "with `-`: the same as -C -", set)
}

// resumeHelp is the part of get -h about -C -.
const resumeHelp = `Resume: with -C - (--continue-at -) a transfer to a file that fails keeps
what arrived (also when interrupted) in a hidden partial copy beside the
file (.NAME.urlkit.part),
and the next get -C - continues it: FTP with REST before RETR (TYPE I
only, checked against SIZE), HTTP with Range and, when the first response
named a validator (a strong ETag or Last-Modified), If-Range, so that a
changed resource comes whole; a server that sends all of it (200) is
followed cleanly from the start. Gopher has no way to start at a byte: a
gopher URL is fetched again from the start, and get says so. The file
appears only once complete, as without -C -. A copy that data past the
announced size has spoiled (FTP SIZE) is removed, and -C - does not go
with --compressed (the copy would hold decompressed bytes).`

// maxValidator bounds the validator file.
const maxValidator = 1 << 10

// partName is the partial copy kept for the target final.
func partName(final string) string {
	dir, base := filepath.Split(final)
	return filepath.Join(dir, "."+base+".urlkit.part")
}

// openPart opens (or creates) the partial copy for the -o target path
// and returns where the fetch should continue. A target that is not a
// regular file (a FIFO, /dev/null) is written in place, from the start.
func openPart(path string) (*outputFile, fetch.Resume, error) {
	final, fi, err := outputTarget(path)
	if err != nil {
		return nil, fetch.Resume{}, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return nil, fetch.Resume{}, nil
	}
	part := partName(final)
	// The name is known in advance: whatever is found there must be the
	// partial copy this user's get made, or root's get -C - -o /tmp/out
	// would write (and then chmod, chown and rename into place) the file
	// a planted link names.
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE|oNoFollow, 0o666)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fetch.Resume{}, notOurPart(path, part)
	}
	if err != nil {
		return nil, fetch.Resume{}, nameTarget(err, "create", path)
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, fetch.Resume{}, nameTarget(err, "open", path)
	}
	if !ownFile(fi) {
		f.Close()
		return nil, fetch.Resume{}, notOurPart(path, part)
	}
	r := fetch.Resume{Offset: fi.Size()}
	// The validator goes to the server (If-Range): it is read only from
	// a file of this user's, never through a link.
	if vf, err := os.OpenFile(part+".validator", os.O_RDONLY|oNoFollow, 0); err == nil {
		if vfi, err := vf.Stat(); err == nil && ownFile(vfi) {
			b, _ := io.ReadAll(io.LimitReader(vf, maxValidator))
			r.Validator = strings.TrimSpace(string(b))
		}
		vf.Close()
	}
	return &outputFile{File: f, target: path, final: final, atomic: true, partial: true}, r, nil
}

// notOurPart is the error for a partial-copy name that holds something
// get -C - did not make there.
func notOurPart(target, part string) error {
	return &os.PathError{Op: "open", Path: target, Err: fmt.Errorf("the partial copy %s is a link or another user's file, not one get -C - made: remove it to start again", part)}
}

// startAt places the partial copy at offset, where the fetched data
// starts (0: a new copy), and records the validator for the next -C -.
func (f *outputFile) startAt(offset int64, validator string) error {
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
	if f == nil || !f.partial {
		return ""
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return ""
	}
	return fmt.Sprintf("; %d bytes kept: get -C - continues", fi.Size())
}
