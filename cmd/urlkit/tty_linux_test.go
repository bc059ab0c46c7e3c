//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the master side and the name of the
// terminal (its slave side).
func openPTY(t *testing.T) (*os.File, string) {
	t.Helper()
	// Non-blocking, so that os.File reads it through the poller and its
	// read deadlines work.
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	m := os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	return m, fmt.Sprintf("/dev/pts/%d", n)
}

// TestUntrustedBodyToNamedTerminal: -o naming a terminal (/dev/tty,
// /dev/stdout on one) gets the body escaped, and binary data refused, as
// standard output on a terminal does; --raw gets the bytes unchanged.
func TestUntrustedBodyToNamedTerminal(t *testing.T) {
	master, tty := openPTY(t)
	keep, err := os.OpenFile(tty, os.O_RDWR|syscall.O_NOCTTY, 0) // the terminal stays open between runs
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	dir := t.TempDir()
	text := "line one\n" + forged + "\n"
	binary := "GIF89a\x00\x01\x1b[2J"
	for name, body := range map[string]string{"text": text, "binary": binary} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shown := func() string {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			if err := master.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			n, err := master.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				return b.String()
			}
		}
	}
	get := func(args ...string) (int, string, string) {
		st, _, errOut := TestStreams("")
		code := run(context.Background(), append([]string{"get", "-q", "-o", tty}, args...), st)
		return code, shown(), errOut.String()
	}
	code, out, stderr := get("file://" + dir + "/text")
	if code != exitOK || !strings.Contains(out, `\x1b]8;;http://evil/\x07click`) || strings.ContainsAny(out, "\x1b\x07\u009b") {
		t.Errorf("text: exit %d, %q: %s", code, out, stderr)
	}
	code, out, stderr = get("file://" + dir + "/binary")
	if code != exitWrite || out != "" || !strings.Contains(stderr, "binary data not shown on the terminal") {
		t.Errorf("binary: exit %d, %q: %s", code, out, stderr)
	}
	code, out, stderr = get("--raw", "file://"+dir+"/binary")
	if code != exitOK || !strings.Contains(out, "\x1b[2J") {
		t.Errorf("--raw: exit %d, %q: %s", code, out, stderr)
	}
}
