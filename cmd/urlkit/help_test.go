package main

import (
	"context"
	"flag"
	"strings"
	"testing"
)

// Every flag of a command that generates its usage line from its FlagSet
// is on that line, and the commands whose synopsis is written by hand
// name every flag too (edit excepted: "[OPTIONS]", trurl's many).
func TestUsageListsEveryFlag(t *testing.T) {
	for name, c := range commands {
		if name == "edit" {
			continue
		}
		st, out, _ := TestStreams("")
		if code := run(context.Background(), []string{name, "-h"}, st); code != exitOK {
			t.Fatalf("%s -h: exit %d", name, code)
		}
		usage, _, _ := strings.Cut(out.String(), "\n")
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.setup(fs)
		fs.VisitAll(func(f *flag.Flag) {
			dash := "--"
			if len(f.Name) == 1 {
				dash = "-"
			}
			if !strings.Contains(usage+" ", "["+dash+f.Name+" ") && !strings.Contains(usage, "["+dash+f.Name+"]") {
				t.Errorf("%s: the usage line %q does not list %s%s", name, usage, dash, f.Name)
			}
		})
	}
}
