//go:build linux

package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// getTo runs "urlkit get -q -o out URL" and returns the exit status and
// standard error.
func getTo(t *testing.T, out, url string, flags ...string) (int, string) {
	t.Helper()
	st, _, errOut := TestStreams("")
	args := append([]string{"get", "-q", "-o", out}, flags...)
	code := run(context.Background(), append(args, url), st)
	return code, errOut.String()
}

// TestOutputFIFO: -o onto a FIFO writes into it (a reader sees the
// bytes); it stays a FIFO (it used to be replaced by a regular file).
func TestOutputFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	code, stderr := getTo(t, fifo, source(t, "through the pipe\n"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	select {
	case s := <-got:
		if s != "through the pipe\n" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Error("the FIFO's reader got nothing")
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the reader go
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v (%v)", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(fifo)); len(entries) != 1 {
		t.Errorf("the directory holds %v", entries)
	}
}

// A FIFO nobody reads: --max-time bounds the wait for a reader as it
// bounds the rest of the transfer (exit 28, curl's timeout status).
func TestOutputFIFONoReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	start := time.Now()
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--max-time", "300ms", "-o", fifo, source(t, "never read\n"))
	if code != exitTimeout || !strings.Contains(stderr, "waiting for a reader of the FIFO; --max-time sets the limit") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
}

// TestOutputDevice: as root, -o onto a character device (a null device
// made with mknod, standing in for /dev/null) writes to it and leaves the
// device node in place.
func TestOutputDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a device node")
	}
	dev := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil { // 1,3: /dev/null
		t.Skipf("mknod: %v", err)
	}
	if f, err := os.OpenFile(dev, os.O_WRONLY, 0); err != nil {
		t.Skipf("the file system refuses devices: %v", err)
	} else {
		f.Close()
	}
	code, stderr := getTo(t, dev, source(t, "discarded\n"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fi, err := os.Lstat(dev)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("the device became %v (%v)", fi.Mode(), err)
	}
	// And the real /dev/null, read-only check: it is a device here too.
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is %v (%v)", fi.Mode(), err)
	}
	if code, stderr := getTo(t, "/dev/null", source(t, "x")); code != exitOK {
		t.Fatalf("-o /dev/null: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null became %v (%v)", fi.Mode(), err)
	}
}

// TestOutputSymlinkOtherUser: as root, -o onto another user's link in a
// sticky world-writable directory (/tmp) is refused, as the kernel's
// fs.protected_symlinks refuses to open through it, and the file it
// names stays as it was; root's own link there is followed.
func TestOutputSymlinkOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a link another owner")
	}
	shared := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("root's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(shared, "out")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(planted, 65534, 65534); err != nil { // nobody
		t.Fatal(err)
	}
	code, stderr := getTo(t, planted, source(t, "attacker's\n"))
	if code == exitOK || !strings.Contains(stderr, "not followed (as fs.protected_symlinks)") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "root's\n" {
		t.Errorf("the victim holds %q", b)
	}
	// The same link to a directory, as a component of the path: the
	// kernel would follow it to create the file there.
	plantedDir := filepath.Join(shared, "dir")
	if err := os.Symlink(filepath.Dir(victim), plantedDir); err != nil || os.Lchown(plantedDir, 65534, 65534) != nil {
		t.Fatal(err)
	}
	code, stderr = getTo(t, filepath.Join(plantedDir, "victim"), source(t, "attacker's\n"))
	if code == exitOK || !strings.Contains(stderr, "not followed (as fs.protected_symlinks)") {
		t.Errorf("through a directory link: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "root's\n" {
		t.Errorf("the victim holds %q", b)
	}
	own := filepath.Join(shared, "own")
	if err := os.Symlink(victim, own); err != nil {
		t.Fatal(err)
	}
	if code, stderr := getTo(t, own, source(t, "new\n")); code != exitOK {
		t.Errorf("root's own link: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "new\n" {
		t.Errorf("through root's own link: %q", b)
	}
}

// TestOutputSymlink: -o onto a symlink replaces the file it points to
// (atomically, keeping its mode) and keeps the link.
func TestOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "sub", "real.txt")
	os.Mkdir(filepath.Dir(real), 0o755)
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(real, 0o600)
	link := filepath.Join(dir, "link")
	if err := os.Symlink("sub/real.txt", link); err != nil {
		t.Fatal(err)
	}
	code, stderr := getTo(t, link, source(t, "new"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link became %v (%v)", fi.Mode(), err)
	}
	b, _ := os.ReadFile(real)
	fi, _ := os.Stat(real)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("target holds %q, mode %v; want \"new\", 0600", b, fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(real)); len(entries) != 1 {
		t.Errorf("temporary file left: %v", entries)
	}
	// A dangling link: the file it names is created.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("sub/created.txt", dangling)
	if code, stderr := getTo(t, dangling, source(t, "made")); code != exitOK {
		t.Fatalf("dangling: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "created.txt")); string(b) != "made" {
		t.Errorf("dangling link's target holds %q", b)
	}
}

// TestOutputKeepsMode: a replaced file keeps its mode 0600 (it was reset
// to 0644), and as root its owner.
func TestOutputKeepsMode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(out, []byte("old"), 0o600)
	os.Chmod(out, 0o600)
	root := os.Geteuid() == 0
	if root {
		if err := os.Chown(out, 4321, 4322); err != nil {
			t.Fatal(err)
		}
	}
	if code, stderr := getTo(t, out, source(t, "new")); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if st := fi.Sys().(*syscall.Stat_t); root && (st.Uid != 4321 || st.Gid != 4322) {
		t.Errorf("owner %d:%d, want 4321:4322", st.Uid, st.Gid)
	}
}

// TestOutputMissingDir: the error names the target the user gave, not
// the hidden temporary file.
func TestOutputMissingDir(t *testing.T) {
	out := filepath.Join(t.TempDir(), "newdir", "x")
	code, stderr := getTo(t, out, source(t, "data"))
	if code != exitWrite {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stderr, out+":") || strings.Contains(stderr, ".part") || strings.Contains(stderr, ".urlkit-") {
		t.Errorf("message %q does not name %s alone", stderr, out)
	}
}

// TestOutputFullDisk: on a full file system (a 64 KiB tmpfs, mounted as
// root) the transfer fails, names the target, and leaves no file.
func TestOutputFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("mount not permitted: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	out := filepath.Join(mnt, "big.bin")
	code, stderr := getTo(t, out, source(t, strings.Repeat("z", 1<<20)))
	if code != exitWrite {
		t.Fatalf("exit %d on a full disk", code)
	}
	if !strings.Contains(stderr, out) || strings.Contains(stderr, ".part") || !strings.Contains(stderr, "no space") {
		t.Errorf("message %q", stderr)
	}
	if entries, _ := os.ReadDir(mnt); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}
