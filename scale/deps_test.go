// Package scale_test holds the nested module's dependency check.
package scale_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the record readers free of Beam (they are plain Go, for
// any engine), and the root module free of this module's dependencies:
// its go.mod must not gain Beam.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./records").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "apache/beam") || strings.HasPrefix(p, "github.com/urlkit/urlkit/scale/pipeline") {
			t.Errorf("records depends on %s", p)
		}
	}
	cmd := exec.Command("go", "mod", "graph")
	cmd.Dir = ".."
	graph, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(graph), "apache/beam") {
		t.Error("the root module's graph holds Beam")
	}
}
