//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGetOutputNotWritable: -o over a file the user may not write (read
// only, or another user's, in a directory the user owns) is refused as >
// and curl -o refuse it; renaming over it needs only the directory. Run
// as root, the test runs urlkit as nobody.
func TestGetOutputNotWritable(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run urlkit as another user")
	}
	const nobody = 65534
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil || os.Chown(work, nobody, nobody) != nil {
		t.Fatal(err)
	}
	// The test binary, where nobody may run it.
	bin := filepath.Join(dir, "urlkit.test")
	if b, err := os.ReadFile(os.Args[0]); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatal("copying the test binary:", err)
	}
	file := func(name, body string, mode os.FileMode, uid int) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil || os.Chmod(p, mode) != nil || os.Chown(p, uid, uid) != nil {
			t.Fatal(err)
		}
		return p
	}
	src := file("src", "new\n", 0o644, nobody)
	for _, tc := range []struct {
		name     string
		mode     os.FileMode
		uid      int
		replaced bool
	}{
		{"read-only", 0o444, nobody, false},
		{"root's", 0o644, 0, false},
		{"own", 0o644, nobody, true},
	} {
		for _, resume := range [][]string{nil, {"-C", "-"}} {
			target := file("target", "precious\n", tc.mode, tc.uid)
			cmd := exec.Command(bin, append(append([]string{"get", "-q"}, resume...), "-o", target, "file://"+src)...)
			cmd.Env = append(os.Environ(), "URLKIT_TEST_MAIN=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			out, err := cmd.CombinedOutput()
			got, _ := os.ReadFile(target)
			if replaced := string(got) == "new\n"; replaced != tc.replaced || (err == nil) != tc.replaced {
				t.Errorf("%s file %v: replaced %v, %v: %s", tc.name, resume, replaced, err, out)
			}
			if !tc.replaced && !strings.Contains(string(out), "permission denied") {
				t.Errorf("%s file %v: %s", tc.name, resume, out)
			}
			os.Remove(target)
		}
	}
}
