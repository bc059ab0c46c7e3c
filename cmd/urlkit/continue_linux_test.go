//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// A get -C - that continues another tool's 30% of FTP_BIG's big.bin
// from the real ProFTPD and is interrupted (SIGINT) leaves FILE intact:
// the bytes it held, then those that arrived, nothing else and no other
// file. The next get -C - continues from there, and ProFTPD's xferlog
// shows that it sent exactly the missing bytes.
func TestGetContinueInterruptedFTPBig(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_XFERLOG")
	if os.Getenv("FTP_BIG_PATH") == "" {
		t.Skip("$FTP_BIG_PATH not set: start the servers with FTP_BIG=1")
	}
	size, err := strconv.ParseInt(os.Getenv("FTP_BIG_SIZE"), 10, 64)
	if err != nil || size < 64<<20 {
		t.Skipf("FTP_BIG_SIZE %q: want at least 64 MiB, for a transfer long enough to interrupt", os.Getenv("FTP_BIG_SIZE"))
	}
	url := "ftp://127.0.0.1:" + e["FTP_PORT"] + os.Getenv("FTP_BIG_PATH")
	held := size * 3 / 10
	dir := t.TempDir()
	out := filepath.Join(dir, "big.bin")
	// big.bin is zero bytes (start-ftp.sh): its first 30%, sparse.
	if err := os.WriteFile(out, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(out, held); err != nil {
		t.Fatal(err)
	}

	cmd, stderr := urlkitProcess(t, nil, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, url)
	waitCaught(t, cmd.Process.Pid, syscall.SIGINT)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if fi, err := os.Stat(out); err == nil && fi.Size() > held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("FILE did not grow; stderr %q", stderr)
		}
	}
	// Stopped, it reads no more; the SIGINT is handled as it goes on.
	cmd.Process.Signal(syscall.SIGSTOP)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Process.Signal(syscall.SIGCONT)
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Fatalf("exit %d (%v), want %d; stderr %q", cmd.ProcessState.ExitCode(), err, exitInterrupted, stderr)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Size() <= held || fi.Size() >= size {
		t.Fatalf("after the interruption FILE has %v bytes (%v), want between %d and %d", fi.Size(), err, held, size)
	}
	kept := fi.Size()
	allZero(t, out, kept)
	onlyFile(t, dir, "big.bin")

	tail := logTail(t, e["FTP_XFERLOG"])
	code, _, errs := runCLI(t, "", false, "get", "-q", "--email", "continue@example.org", "-C", "-", "-o", out, url)
	if code != exitOK {
		t.Fatalf("continued: exit %d: %s", code, errs)
	}
	allZero(t, out, size)
	onlyFile(t, dir, "big.bin")
	log := tail()
	t.Logf("%d bytes held, %d after the interruption; xferlog:\n%s", held, kept, log)
	if n := xferBytes(log, "big.bin"); len(n) != 1 || n[0] != fmt.Sprint(size-kept) {
		t.Errorf("xferlog: transfers of %v bytes, want [%d] (the file's %d less the %d held)", n, size-kept, size, kept)
	}
}

// allZero fails unless the file at path has size bytes, all zero (the
// content of start-ftp.sh's big.bin).
func allZero(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	zero := make([]byte, len(buf))
	var n int64
	for {
		m, err := f.Read(buf)
		if !bytes.Equal(buf[:m], zero[:m]) {
			t.Fatalf("%s: a byte other than zero in [%d, %d)", path, n, n+int64(m))
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != size {
		t.Fatalf("%s: %d bytes, want %d", path, n, size)
	}
}

// Another user's FILE in a sticky world-writable directory (/tmp) is
// not appended to, even by root: anyone may have put it there. get -C -
// fetches the resource whole into its partial copy and replaces FILE,
// as get -o does.
func TestGetContinueOthersFileInSticky(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: another user's file")
	}
	const nobody = 65534
	body := randomBytes(t, 40000)
	var ranges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ranges = append(ranges, r.Header.Get("Range"))
		http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(body))
	}))
	defer srv.Close()
	dir, out := heldFile(t, "f.bin", body[:12000], 0o666)
	if err := os.Chmod(dir, os.ModeSticky|0o777); err != nil || os.Chown(out, nobody, nobody) != nil {
		t.Fatal("cannot make the sticky directory or give FILE away")
	}
	code, _, stderr := runCLI(t, "", false, "get", "-q", "-C", "-", "-o", out, srv.URL+"/f.bin")
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, body) {
		t.Fatalf("exit %d, %d bytes: %s", code, len(got), stderr)
	}
	if len(ranges) != 1 || ranges[0] != "" {
		t.Errorf("requests with Range %q, want one for the whole resource", ranges)
	}
	onlyFile(t, dir, "f.bin")
}
