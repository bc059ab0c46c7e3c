package mailbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxHeaderBytes bounds the header read from each message while
// searching; a longer header is searched in its first MaxHeaderBytes.
const MaxHeaderBytes = 256 << 10

// ErrNotFound reports that no mailbox holds the message or part asked for.
var ErrNotFound = errors.New("mailbox: not found")

// ErrBadMailbox reports a path that is neither a Maildir nor an mbox.
var ErrBadMailbox = errors.New("mailbox: not a Maildir or mbox")

// Format is a mailbox format.
type Format int

// The formats Find reads.
const (
	Maildir Format = iota + 1 // a directory with cur/ and new/
	Mbox                      // a file of messages after "From " lines
)

// Message locates a message found by Find.
type Message struct {
	// ID is the Message-ID as found, with its angle brackets.
	ID string
	// Format is the mailbox's format.
	Format Format
	// File is the Maildir file, or the mbox file, holding the message.
	File string
	// Offset and Length give the message's bytes in an mbox file (after
	// its "From " line, before the blank line that ends it); for a
	// Maildir file they span the whole file.
	Offset, Length int64
}

// Open returns the message's bytes: the Maildir file as it is, or the
// mbox range with the mboxrd quoting of "From " lines undone (one ">"
// removed from lines that start with ">From ", ">>From ", ...).
func (m *Message) Open() (io.ReadCloser, error) {
	f, err := os.Open(m.File)
	if err != nil {
		return nil, fmt.Errorf("mailbox: %w", err)
	}
	if m.Format == Maildir {
		return f, nil
	}
	sr := io.NewSectionReader(f, m.Offset, m.Length)
	return &mboxReader{f: f, br: bufio.NewReader(sr), bol: true}, nil
}

// mboxReader undoes the ">From " quoting of mboxrd.
type mboxReader struct {
	f   *os.File
	br  *bufio.Reader
	bol bool // at the beginning of a line
	gt  int  // ">"s read at the start of the line, still to give
}

func (r *mboxReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if r.bol {
			// a quoted "From ": ">" repeated, then "From ". The ">"s are
			// counted as they are read, not peeked: a run of them can be
			// longer than any peek.
			for {
				b, err := r.br.ReadByte()
				if err != nil {
					break
				}
				if b != '>' {
					r.br.UnreadByte()
					break
				}
				r.gt++
			}
			if peek, _ := r.br.Peek(5); r.gt > 0 && string(peek) == "From " {
				r.gt--
			}
			r.bol = false
		}
		if r.gt > 0 {
			p[n] = '>'
			n++
			r.gt--
			continue
		}
		b, err := r.br.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		p[n] = b
		n++
		r.bol = b == '\n'
		if r.br.Buffered() == 0 {
			break
		}
	}
	return n, nil
}

func (r *mboxReader) Close() error { return r.f.Close() }

// NormalizeID returns id with surrounding spaces removed and enclosed in
// angle brackets, as Message-ID and Content-ID fields write it.
func NormalizeID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	return "<" + id + ">"
}

// sameID compares two normalized ids: the part left of the last "@"
// exactly, the domain without regard to ASCII case.
func sameID(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := strings.LastIndexByte(a, '@')
	j := strings.LastIndexByte(b, '@')
	if i != j || i < 0 {
		return a == b
	}
	return a[:i] == b[:i] && strings.EqualFold(a[i:], b[i:])
}

// Find looks for the message whose Message-ID is id (with or without
// angle brackets) in the mailboxes at paths, in order, and returns the
// first match, or an error matching ErrNotFound. Each path is a Maildir
// directory or an mbox file. ctx is checked between messages.
func Find(ctx context.Context, id string, paths ...string) (*Message, error) {
	want := NormalizeID(id)
	if len(want) < 3 || strings.ContainsAny(want, "\r\n\x00") {
		return nil, fmt.Errorf("mailbox: bad message-id %q", id)
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("mailbox: %w", err)
		}
		var m *Message
		if st.IsDir() {
			m, err = findMaildir(ctx, p, want)
		} else {
			m, err = findMbox(ctx, p, want)
		}
		if err != nil || m != nil {
			return m, err
		}
	}
	return nil, fmt.Errorf("%w: message %s in %s", ErrNotFound, want, strings.Join(paths, ", "))
}

func findMaildir(ctx context.Context, dir, want string) (*Message, error) {
	var files []string
	found := false
	for _, sub := range []string{"cur", "new"} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("mailbox: %w", err)
		}
		found = true
		for _, e := range ents {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				files = append(files, filepath.Join(dir, sub, e.Name()))
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: %s has no cur/ or new/", ErrBadMailbox, dir)
	}
	sort.Strings(files)
	br := bufio.NewReader(nil)
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("mailbox: %w", err)
		}
		f, err := os.Open(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // moved by a mail reader meanwhile
			}
			return nil, fmt.Errorf("mailbox: %w", err)
		}
		br.Reset(f)
		h := &headerScan{}
		for !h.done {
			line, err := readLine(br, nil)
			if err != nil && len(line) == 0 {
				break
			}
			h.line(line)
		}
		size := int64(0)
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		f.Close()
		if h.id != "" && sameID(NormalizeID(h.id), want) {
			return &Message{ID: NormalizeID(h.id), Format: Maildir, File: name, Length: size}, nil
		}
	}
	return nil, nil
}

// readLine reads one line (with its LF) into buf[:0]; a line longer than
// MaxHeaderBytes is cut there (the rest is skipped), which is all a
// header scan needs.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		frag, err := br.ReadSlice('\n')
		if len(buf)+len(frag) <= MaxHeaderBytes {
			buf = append(buf, frag...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}

// headerScan follows header lines and keeps the Message-ID value,
// unfolded, within MaxHeaderBytes.
type headerScan struct {
	n     int
	inID  bool
	id    string
	done  bool
	gotID bool
}

func (h *headerScan) line(line []byte) {
	h.n += len(line)
	l := bytes.TrimRight(line, "\r\n")
	if len(l) == 0 || h.n > MaxHeaderBytes {
		h.done = true
		return
	}
	if l[0] == ' ' || l[0] == '\t' {
		if h.inID {
			h.id += " " + string(bytes.TrimSpace(l))
		}
		return
	}
	h.inID = false
	name, value, ok := bytes.Cut(l, []byte(":"))
	if ok && !h.gotID && strings.EqualFold(string(bytes.TrimSpace(name)), "Message-ID") {
		h.id = string(bytes.TrimSpace(value))
		h.inID, h.gotID = true, true
	}
}

// isFromLine reports an mbox separator line.
func isFromLine(line []byte) bool { return bytes.HasPrefix(line, []byte("From ")) }

func findMbox(ctx context.Context, path, want string) (*Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mailbox: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var (
		off       int64 // offset of the next line
		start     int64 = -1
		h         *headerScan
		prevBlank = true // the start of the file counts as after a blank line
		prevLen   int64  // length of the previous line
		match     *Message
		buf       []byte
		lines     int
	)
	for {
		lineStart := off
		// a body line of any length is skipped without being held
		line, err := readLineCounted(br, buf, &off)
		buf = line
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				return nil, fmt.Errorf("mailbox: %s: %w", path, err)
			}
			if match != nil {
				end := off
				if prevBlank && off-prevLen >= match.Offset {
					end -= prevLen // the blank line that ends the last message
				}
				match.Length = end - match.Offset
				return match, nil
			}
			return nil, nil
		}
		lines++
		thisLen := off - lineStart
		if lines&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("mailbox: %w", err)
			}
		}
		if prevBlank && isFromLine(line) {
			if match != nil {
				end := lineStart
				if lineStart-prevLen >= match.Offset {
					end -= prevLen // the blank line before the separator
				}
				match.Length = end - match.Offset
				return match, nil
			}
			start = off
			h = &headerScan{}
			prevBlank, prevLen = false, thisLen
			continue
		}
		if start < 0 && lines == 1 {
			return nil, fmt.Errorf(`%w: %s does not start with a "From " line`, ErrBadMailbox, path)
		}
		prevBlank, prevLen = len(bytes.TrimRight(line, "\r\n")) == 0, thisLen
		if h != nil && !h.done {
			h.line(line)
			if h.done && match == nil && h.id != "" && sameID(NormalizeID(h.id), want) {
				match = &Message{ID: NormalizeID(h.id), Format: Mbox, File: path, Offset: start}
			}
		}
	}
}

// readLineCounted is readLine that also advances *off by the bytes read.
func readLineCounted(br *bufio.Reader, buf []byte, off *int64) ([]byte, error) {
	buf = buf[:0]
	for {
		frag, err := br.ReadSlice('\n')
		*off += int64(len(frag))
		if len(buf)+len(frag) <= MaxHeaderBytes {
			buf = append(buf, frag...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}
