package fetch

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// TestProsperoListingMatchesVls: the prospero opener's listing (through
// get's path: plan, encoder, opener) names the links Prospero's own vls
// names: kind, name, host and hsoname. Not AFTP/pub/many: vls times out
// on a reply longer than dirsrv's 16-packet window (see client/prospero).
func TestProsperoListingMatchesVls(t *testing.T) {
	env := wiretest.ServerEnv(t, "PROSPERO_PORT", "PROSPERO_BIN")
	h := "127.0.0.1(" + env["PROSPERO_PORT"] + ")"
	f := &Fetcher{Getenv: noEnv(), Prospero: ProsperoOpener{JSON: true}}
	re := regexp.MustCompile(`^(.)  (.*?) +(127\.0\.0\.1(?:\(\d+\))?) +(.*)$`)
	for _, dir := range []string{"/pub", "/links", "/pub/sub"} {
		b, _, err := getAll(t, f, "prospero://127.0.0.1:"+env["PROSPERO_PORT"]+"/AFTP"+dir)
		if err != nil {
			t.Fatal(err)
		}
		entries := decodeLines[map[string]string](t, b)
		var ours []string
		for _, e := range entries {
			kind := "-"
			if strings.Contains(e["target"], "DIRECTORY") {
				kind = "D"
			}
			ours = append(ours, kind+" "+e["name"]+" "+e["host"]+" "+e["hsoname"])
		}
		slices.Sort(ours)
		cmd := exec.CommandContext(testCtx(t), filepath.Join(env["PROSPERO_BIN"], "vls"), dir)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "VSWORK_HOST="+h, "VSWORK_FILE=AFTP", "VSWORK=/", "VSROOT_HOST="+h,
			"VSROOT_FILE=AFTP", "VSHOME_HOST="+h, "VSHOME_FILE=AFTP", "VSHOME=/")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("vls %s: %v\n%s", dir, err, out)
		}
		var theirs []string
		for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			m := re.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("vls line %q", l)
			}
			kind := "-"
			if m[1] == "D" {
				kind = "D"
			}
			theirs = append(theirs, kind+" "+m[2]+" "+m[3]+" "+m[4])
		}
		slices.Sort(theirs)
		if !slices.Equal(ours, theirs) {
			t.Errorf("%s:\nurlkit %q\nvls    %q", dir, ours, theirs)
		}
	}
}
