package main

import (
	"flag"
	"slices"
	"testing"
)

// TestJoinedShortFlags: one-letter flags written together are split as
// curl and getopt split them; values, "--" and anything unknown are not.
func TestJoinedShortFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Bool("q", false, "")
	fs.Bool("O", false, "")
	fs.String("o", "", "")
	fs.Int("j", 1, "")
	fs.Bool("json", false, "")
	for _, tc := range []struct{ in, want []string }{
		{[]string{"-qO", "u"}, []string{"-q", "-O", "u"}},
		{[]string{"-qofile", "u"}, []string{"-q", "-o", "file", "u"}},
		{[]string{"-qo", "-Oq", "u"}, []string{"-q", "-o", "-Oq", "u"}}, // -o's value, not flags
		{[]string{"-j2"}, []string{"-j", "2"}},
		{[]string{"-o", "-qO"}, []string{"-o", "-qO"}},
		{[]string{"--json", "-qO"}, []string{"--json", "-q", "-O"}},
		{[]string{"-json"}, []string{"-json"}},       // Go's one-dash spelling of --json, not -j son
		{[]string{"-qx", "u"}, []string{"-qx", "u"}}, // x unknown: the flag package refuses it
		{[]string{"--", "-qO"}, []string{"--", "-qO"}},
		{[]string{"-q=true"}, []string{"-q=true"}},
	} {
		if got := joinedShortFlags(fs, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestJoinedShortFlagsRun: the split flags reach the command.
func TestJoinedShortFlagsRun(t *testing.T) {
	code, out, stderr := runCLI(t, "", false, "check", "-vj2", "http://a/")
	if code != exitOK || out != "ok http://a/\n" {
		t.Errorf("exit %d %q: %s", code, out, stderr)
	}
}
