package fsctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
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
