package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/urlkit/urlkit", Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "b00b451e"},
		{Key: "vcs.time", Value: "2026-11-23T18:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := versionLine(bi), "urlkit v1.2.3 (b00b451e, 2026-11-23T18:00:00Z, modified) "+runtime.Version(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bi.Settings = nil
	bi.Main.Version = "(devel)"
	if got, want := versionLine(bi), "urlkit (devel) "+runtime.Version(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := versionLine(nil), "urlkit (unknown) "+runtime.Version(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
