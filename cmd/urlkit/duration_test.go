package main

import (
	"flag"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// TestDurationFlags: the duration flags take Go's durations and, as
// curl's do, seconds; anything else is a usage error that says what to
// write.
func TestDurationFlags(t *testing.T) {
	for in, want := range map[string]time.Duration{"5": 5 * time.Second, "0.5": 500 * time.Millisecond, "30s": 30 * time.Second, "2m": 2 * time.Minute, "0": 0} {
		var d time.Duration
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		durationVar(fs, &d, "max-time", time.Hour, "")
		if err := fs.Parse([]string{"--max-time", in}); err != nil || d != want {
			t.Errorf("--max-time %s: %v, %v; want %v", in, d, err, want)
		}
	}
	for _, in := range []string{"abc", "-1", "-1s", "1e300", "NaN", "5 s"} {
		var d time.Duration
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		durationVar(fs, &d, "max-time", 0, "")
		if err := fs.Parse([]string{"--max-time", in}); err == nil {
			t.Errorf("--max-time %q: %v, no error", in, d)
		}
	}
	// curl's spelling, end to end: --max-time 0.3 ends a stalled transfer.
	srv := wt.Start(t, wt.Expect("/f"), wt.Stall())
	start := time.Now()
	code, _, stderr := runCLI(t, "", false, "get", "-q", "--max-time", "0.3", "gopher://"+srv.Addr()+"/9/f")
	if code != exitTimeout || time.Since(start) > 5*time.Second {
		t.Errorf("exit %d after %v: %s", code, time.Since(start), stderr)
	}
}
