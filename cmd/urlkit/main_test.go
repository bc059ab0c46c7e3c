package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	if os.Getenv("URLKIT_TEST_MAIN") == "1" {
		// The test binary as the urlkit command, main() and all (the
		// signal tests need a process of their own).
		main()
	}
	testscript.Main(m, map[string]func(){
		"urlkit": func() { os.Exit(run(context.Background(), os.Args[1:], SystemStreams())) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each is a txtar
// file of commands with their expected output and exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", RequireExplicitExec: true, UpdateScripts: *updateScripts})
}

// updateScripts rewrites the expected files of the scripts whose cmp
// fails (go test -run TestScripts -update); review the diff.
var updateScripts = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestReadLineBounded(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	r := bufio.NewReaderSize(strings.NewReader("a\r\n"+long+"\nb\nlast"), 64<<10)
	var got []string
	var errs []error
	for {
		line, err := readLine(r)
		if err != nil && !errors.Is(err, io.EOF) {
			errs = append(errs, err)
		} else {
			got = append(got, line)
		}
		if err == io.EOF {
			break
		}
	}
	if strings.Join(got, "|") != "a|b|last" || len(errs) != 1 || !errors.Is(errs[0], errLineTooLong) {
		t.Errorf("lines %q, errors %v", got, errs)
	}
}

// TestReadLineLast: an over-long last line without "\n" is still
// reported, and a last line's "\r" is removed (found in review).
func TestReadLineLast(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("http://ok/\n"+strings.Repeat("a", maxLine+5)), 64<<10)
	if line, err := readLine(r); line != "http://ok/" || err != nil {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := readLine(r); !errors.Is(err, errLineTooLong) {
		t.Fatalf("over-long last line: %v, want errLineTooLong", err)
	}
	if _, err := readLine(r); err != io.EOF {
		t.Fatalf("after it: %v, want EOF", err)
	}
	r = bufio.NewReaderSize(strings.NewReader("http://ok/\r"), 64<<10)
	if line, _ := readLine(r); line != "http://ok/" {
		t.Errorf("last line with CR = %q", line)
	}
}

func TestRunStreams(t *testing.T) {
	st, out, errOut := TestStreams("ftp://host/\n\nftp://a b/\r\nhttp://ok/\n")
	code := run(context.Background(), []string{"check", "-v"}, st)
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	if out.String() != "ok ftp://host/\nok http://ok/\n" {
		t.Errorf("stdout %q", out.String())
	}
	if errOut.String() != "urlkit: \"ftp://a b/\": offset 7: space is unsafe and must be encoded as %20\n" {
		t.Errorf("stderr %q", errOut.String())
	}
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, _, _ := TestStreams("http://a/\n")
	if code := run(ctx, []string{"check"}, st); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
}

// urlkitProcess starts the test binary as the urlkit command (main and
// its signal handling included) with args, standard input from stdin.
func urlkitProcess(t *testing.T, stdin *os.File, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "URLKIT_TEST_MAIN=1")
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &stderr
}
