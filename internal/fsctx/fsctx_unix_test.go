//go:build unix

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
