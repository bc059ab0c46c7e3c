package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// printVersion writes "urlkit VERSION (REVISION, DATE[, modified]) GO":
// the module version the binary was built at ("(devel)" for a build in
// the source tree, which go install with @version replaces) and the VCS
// revision that the go command stamps into a build from a checkout.
func printVersion(w io.Writer) {
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(w, versionLine(bi))
}

// versionLine formats the version of the build bi (nil: unknown).
func versionLine(bi *debug.BuildInfo) string {
	version, vcs := "(unknown)", ""
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		var rev, when, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
		if rev != "" {
			vcs = " (" + rev
			if when != "" {
				vcs += ", " + when
			}
			vcs += modified + ")"
		}
	}
	return fmt.Sprintf("urlkit %s%s %s", version, vcs, runtime.Version())
}
