//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// TestSignals: whatever urlkit waits for (standard input that never
// comes, a FIFO's writer, a stalled server), SIGINT, SIGTERM and SIGHUP
// end it within a second with status 130, and get -o leaves no file.
// (It used to wait for the next line of input, and get file:///fifo
// ignored SIGTERM.)
func TestSignals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	// A pipe whose write end stays open: reads of it block.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	head := "HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\npartial data"
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for _, tc := range []struct {
			name string
			args func() []string
		}{
			{"parse reading stdin", func() []string { return []string{"parse"} }},
			{"get reading stdin", func() []string { return []string{"get"} }},
			{"get FIFO", func() []string { return []string{"get", "--allow-special-files", "file://" + fifo} }},
			{"get -o stalled server", func() []string {
				srv := wt.Start(t, wt.Func(func(s *wt.Session) error {
					for {
						if l, err := s.ReadLine(); err != nil || l == "" {
							return err
						}
					}
				}), wt.SendRaw(head), wt.Stall())
				return []string{"get", "--timeout", "1m", "-o", filepath.Join(dir, "out"), "http://" + srv.Addr() + "/x"}
			}},
		} {
			t.Run(sig.String()+"/"+tc.name, func(t *testing.T) {
				cmd, stderr := urlkitProcess(t, pr, tc.args()...)
				waitCaught(t, cmd.Process.Pid, sig)
				time.Sleep(300 * time.Millisecond) // into the wait
				sent := time.Now()
				cmd.Process.Signal(sig)
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(3 * time.Second):
					t.Fatalf("still running 3 s after %v; stderr %q", sig, stderr)
				}
				// The command ends 500 ms after the signal at the latest
				// (main's grace for cleanup); the bound leaves room for a
				// machine busy with the rest of the suite.
				if took := time.Since(sent); took > 2*time.Second {
					t.Errorf("took %v to stop", took)
				}
				if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
					t.Errorf("exit %d, want %d; stderr %q", code, exitInterrupted, stderr)
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != "fifo" {
						t.Errorf("left behind: %s", e.Name())
					}
				}
				if strings.Contains(stderr.String(), "panic") {
					t.Errorf("stderr %q", stderr)
				}
			})
		}
	}
}

// waitCaught waits until process pid catches sig (its handler is
// installed: /proc/PID/status SigCgt), so that the signal is not sent
// while the runtime still starts (slow under the race detector).
func waitCaught(t *testing.T, pid int, sig syscall.Signal) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "SigCgt:"); ok {
				mask, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
				if mask&(1<<(uint(sig)-1)) != 0 {
					return
				}
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d never caught %v", pid, sig)
}
