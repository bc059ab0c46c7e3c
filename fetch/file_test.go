package fetch

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/percent"
)

// fileURL returns a file: URL for the local path p.
func fileURL(host, p string) string {
	return "file://" + host + percent.Escape(filepath.ToSlash(p), percent.Path, false)
}

func readAll(t *testing.T, resp *Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("reading %s: %v", resp.URL, err)
	}
	return string(b)
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello\n"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub dir"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "sub dir", "100%;x"), []byte("odd name"), 0o644))
	f := &Fetcher{File: FileOpener{Hostname: func() (string, error) { return "myhost.example.org", nil }}}
	ctx := t.Context()

	tests := []struct {
		url     string
		want    string
		listing bool
		kind    error
	}{
		{url: fileURL("", filepath.Join(dir, "hello.txt")), want: "hello\n"},
		{url: fileURL("localhost", filepath.Join(dir, "hello.txt")), want: "hello\n"},
		{url: fileURL("LOCALHOST", filepath.Join(dir, "hello.txt")), want: "hello\n"},
		{url: fileURL("myhost.example.org", filepath.Join(dir, "hello.txt")), want: "hello\n"},
		{url: fileURL("MyHost", filepath.Join(dir, "hello.txt")), want: "hello\n"},
		{url: fileURL("", filepath.Join(dir, "sub dir", "100%;x")), want: "odd name"},
		{url: fileURL("", dir) + "/", want: "hello.txt\nsub dir/\n", listing: true},
		{url: fileURL("", dir), want: "hello.txt\nsub dir/\n", listing: true},
		{url: fileURL("", filepath.Join(dir, "missing")), kind: ErrNotFound},
		{url: fileURL("otherhost", filepath.Join(dir, "hello.txt")), kind: ErrRemoteFile},
		{url: "file://" + percent.Escape(filepath.ToSlash(dir), percent.Path, false) + "/sub%2Fdir", kind: ErrInvalidURL},
	}
	for _, tt := range tests {
		resp, err := f.Get(ctx, tt.url)
		if tt.kind != nil {
			if !errors.Is(err, tt.kind) {
				t.Errorf("Get(%q) = %v, want %v", tt.url, err, tt.kind)
			}
			continue
		}
		if err != nil {
			t.Errorf("Get(%q): %v", tt.url, err)
			continue
		}
		if got := readAll(t, resp); got != tt.want || resp.Listing != tt.listing {
			t.Errorf("Get(%q) = %q (listing %v), want %q (listing %v)", tt.url, got, resp.Listing, tt.want, tt.listing)
		}
		if resp.Size != int64(len(tt.want)) {
			t.Errorf("Get(%q): Size %d, want %d", tt.url, resp.Size, len(tt.want))
		}
	}
}

// TestFileQuestionMark: RFC 1738's fsegment allows "?", so it is part of
// the file name, as explain says (found in review: the query was dropped
// and the file "a" was opened for "a?b").
func TestFileQuestionMark(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"a": "just a\n", "a?b": "a, question mark, b\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var f Fetcher
	resp, err := f.Get(t.Context(), "file://"+filepath.ToSlash(dir)+"/a?b")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "a, question mark, b\n" {
		t.Errorf("got %q, want the file named a?b", got)
	}
}

func TestFileEncodedSlash(t *testing.T) {
	var f Fetcher
	_, err := f.Get(t.Context(), "file:///tmp/a%2Fb")
	var fe *Error
	if !errors.As(err, &fe) || fe.Offset != 13 || !strings.Contains(err.Error(), "%2F") {
		t.Errorf("err = %v, want an error at offset 13 about %%2F", err)
	}
}

func TestFileCancelled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 1<<16)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var f Fetcher
	resp, err := f.Get(ctx, fileURL("", p))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
}

// A file that shrinks while it is read ends in a short transfer, not in
// a shorter file that looks whole; a directory's name holding a line feed
// stays one line of the listing.
func TestFileChangesUnderfoot(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	var f Fetcher
	resp, err := f.Get(testCtx(t), fileURL("", p))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 2000); err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	if !errors.Is(err, ErrShortTransfer) || !strings.Contains(err.Error(), "2000 of the 1048576 bytes the file had when it was opened") {
		t.Errorf("shrunk: %v, want a short transfer", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a\nb"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err = f.Get(testCtx(t), fileURL("", dir)+"/")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "a\\nb\nf\n" {
		t.Errorf("listing %q", got)
	}
}

// --render shows every body safe for a terminal, not only Gopher's: a
// file (or an HTTP, FTP or news body) holding ESC, OSC, C1 and bidi
// controls comes out with them escaped, its CR LF line ends as LF; a
// directory listing's file names likewise.
func TestRenderFileVisible(t *testing.T) {
	dir := t.TempDir()
	body := "title\x1b]0;PWNED\x07 clear\x1b[2J c1\u009b31m bidi\u202ex\r\nnext\tline\n"
	if err := os.WriteFile(filepath.Join(dir, "esc.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "e\x1b]0;T\x07"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{}
	for _, tc := range []struct{ url, want string }{
		{fileURL("", filepath.Join(dir, "esc.txt")), `title\x1b]0;PWNED\x07 clear\x1b[2J c1\u009b31m bidi\u202ex` + "\nnext\tline\n"},
		{fileURL("", dir) + "/", `e\x1b]0;T\x07` + "\nesc.txt\n"},
	} {
		resp, err := f.Get(t.Context(), tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := render(t, resp); got != tc.want {
			t.Errorf("Render %s:\n got %q\nwant %q", tc.url, got, tc.want)
		}
	}
}
