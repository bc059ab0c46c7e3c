package fsctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestOpenFileRegular(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFile(context.Background(), name, os.O_RDONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 2)
	if n, _ := f.Read(b); n != 1 || b[0] != 'x' {
		t.Errorf("read %q", b[:n])
	}
	if _, err := OpenFile(context.Background(), name+".none", os.O_RDONLY); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// A FIFO with no writer blocks its reader's open: the context ends it.
func TestOpenFileFIFOGivesUp(t *testing.T) {
	name := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	f, err := OpenFile(ctx, name, os.O_RDONLY)
	if f != nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, %v; want the context's deadline", f, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
	// The open still waiting completes when a writer comes, and is closed.
	w, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}
