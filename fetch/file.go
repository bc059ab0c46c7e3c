package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/fsctx"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/listing"
	"github.com/urlkit/urlkit/scheme"
)

// FileOpener opens file: URLs (RFC 1738 section 3.10) on this machine,
// for a Fetcher (its File field): the host must be empty, "localhost" or this machine's host name (or its
// first label), compared without regard to case. Its zero value is ready
// to use.
//
// The path is decoded by package scheme's file view, so get opens the file
// explain names; a segment holding an encoded "/" (%2F) is refused, since
// no file name can contain one. A directory
// gives a listing: one entry per line, sorted, directories with a
// trailing "/".
//
// Only regular files and directories are opened unless AllowSpecial is
// set: a FIFO, a device or a socket could block for ever or never end.
type FileOpener struct {
	// Hostname returns this machine's name; nil means os.Hostname.
	Hostname func() (string, error)
	// AllowSpecial lets FIFOs, devices and sockets be read. Opening and
	// reading them still end when the fetch's context does.
	AllowSpecial bool
}

// open opens the file or directory.
func (o *FileOpener) open(ctx context.Context, req *Request) (*Response, error) {
	// The plan's Open step names the file: the one explain prints.
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient})
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	fv, err := viewOf[*scheme.File](req.URL, urlkit.Lenient)
	if err != nil {
		return nil, err
	}
	if !o.isLocal(fv.Host) {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrRemoteFile,
			Rule: fmt.Sprintf("host %q is not this machine (a file URL names a local file by the host \"\", \"localhost\" or this machine's name)", fv.Host)}
	}
	var name string
	for _, st := range plan.Steps {
		if st.Kind == scheme.Open {
			name = st.Text
			break
		}
	}
	if name == "" {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the file access plan opens nothing"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Opened without blocking (a FIFO would wait for a writer), then
	// checked on the descriptor itself, so no rename in between can slip
	// a FIFO in place of the file that was checked.
	f, err := openNonBlocking(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		f.Close()
		if !o.AllowSpecial {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrSpecialFile,
				Rule: fmt.Sprintf("%s is a %s, not a regular file or directory", safetext.Visible(name), fileKind(fi.Mode()))}
		}
		if f, err = fsctx.OpenFile(ctx, name, os.O_RDONLY); err != nil {
			return nil, err
		}
		// A read that waits (a FIFO without a writer yet) ends when the
		// fetch does: closing the file unblocks it.
		stop := context.AfterFunc(ctx, func() { f.Close() })
		resp := &Response{Size: -1, ModTime: fi.ModTime(), Reply: fi.Mode().String()}
		resp.Body = &ctxReader{ctx: ctx, r: f, c: closerFunc(func() error { stop(); return f.Close() })}
		return resp, nil
	}
	resp := &Response{Size: -1, ModTime: fi.ModTime(), Reply: fi.Mode().String()}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			resp.Size = -1
		} else {
			resp.Size = fi.Size()
		}
		resp.ContentType = mime.TypeByExtension(path.Ext(name))
		resp.Body = &ctxReader{ctx: ctx, r: &sizedFile{r: f, size: resp.Size}, c: f}
		return resp, nil
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	// The entries have FTP's columns (name, type, size, time): the
	// Transport's structured listing of a directory is the same for
	// file: as for ftp:.
	es := make([]listing.Entry, 0, len(entries))
	for _, e := range entries {
		le := listing.Entry{Name: e.Name(), Kind: "file", Size: -1}
		if i, err := e.Info(); err == nil {
			le.Time = i.ModTime()
			if i.Mode().IsRegular() {
				le.Size = i.Size()
			}
		}
		switch t := e.Type(); {
		case t.IsDir():
			le.Kind = "dir"
		case t&fs.ModeSymlink != 0:
			le.Kind = "link"
		case !t.IsRegular():
			le.Kind = "other"
		}
		es = append(es, le)
	}
	slices.SortFunc(es, func(a, b listing.Entry) int { return strings.Compare(dirName(a), dirName(b)) })
	var b bytes.Buffer
	if req.json {
		listing.WriteJSON(&b, listing.FromSlice(listing.Header{Format: listing.FTP, Of: name}, es))
		resp.ContentType = "application/json"
	} else {
		// One name a line, a directory's with a "/" (as before listings
		// had types).
		for _, e := range es {
			b.WriteString(dirName(e))
			b.WriteByte('\n')
		}
		resp.ContentType = "text/plain; charset=utf-8"
	}
	resp.Listing = true
	resp.Entries = listing.FromSlice(listing.Header{Format: listing.FTP, Of: name}, es)
	resp.Size = int64(b.Len())
	resp.Body = &ctxReader{ctx: ctx, r: &b, c: io.NopCloser(nil)}
	return resp, nil
}

// dirName is e's line in a file: directory's text listing: its name, a
// directory's with a "/", control bytes shown escaped (a line feed in a
// name would make two lines).
func dirName(e listing.Entry) string {
	n := e.Name
	if strings.IndexFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		n = safetext.Visible(n)
	}
	if e.Kind == "dir" {
		n += "/"
	}
	return n
}

// sizedFile ends a regular file's data with an error when it is shorter
// than the size the file had when it was opened: the file shrank during
// the transfer, and what was read is not it.
type sizedFile struct {
	r       io.Reader
	size, n int64
}

func (s *sizedFile) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if err == io.EOF && s.n < s.size {
		return n, fmt.Errorf("%d of the %d bytes the file had when it was opened: it shrank during the transfer: %w", s.n, s.size, io.ErrUnexpectedEOF)
	}
	return n, err
}

// isLocal reports whether a file: URL's host means this machine.
func (o *FileOpener) isLocal(host string) bool {
	if host == "" || strings.EqualFold(host, "localhost") {
		return true
	}
	hostname := o.Hostname
	if hostname == nil {
		hostname = osHostname
	}
	me, err := hostname()
	if err != nil || me == "" {
		return false
	}
	short, _, _ := strings.Cut(me, ".")
	return strings.EqualFold(host, me) || strings.EqualFold(host, short)
}

// osHostname is os.Hostname, asked once.
var osHostname = sync.OnceValues(os.Hostname)

// ctxReader reads r until ctx is done, then fails with ctx's error. It
// serves local sources, which no connection deadline can interrupt.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
	c   io.Closer
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func (c *ctxReader) Close() error { return c.c.Close() }

// fileOverFTP is a FileOpener that fetches a file: URL naming another
// host as the ftp: URL with the same host and path, as early clients did
// (Mosaic, Lynx; Fetcher.FileOverFTP).
type fileOverFTP struct{ *FileOpener }

func (o *fileOverFTP) open(ctx context.Context, req *Request) (*Response, error) {
	resp, err := o.FileOpener.open(ctx, req)
	if !errors.Is(err, ErrRemoteFile) || req.Reopen == nil {
		return resp, err
	}
	v := *req.URL
	v.Scheme = "ftp"
	resp, err = req.Reopen(ctx, &v)
	if err == nil {
		resp.Warnings = append(resp.Warnings, "file: URL for another host fetched over FTP")
	}
	return resp, err
}

// fileKind names the type of a special file.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "FIFO"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "block device"
	}
	return "special file (" + m.Type().String() + ")"
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
