package wiretest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The client layer's import rules (STYLE.md), checked on the packages this
// layer owns. Values: the module packages and the approved x/ packages
// each may import besides the standard library.
var clientLayerDeps = map[string][]string{
	// x/sys/unix: poll, recv(MSG_OOB), SIOCATMARK for TCP urgent data;
	// safetext: the trace escapes bytes as the redactor expects them.
	"internal/wire": {"golang.org/x/sys/unix", "internal/safetext"},
	// dnsmessage: Resolver's in-memory name server.
	"internal/wiretest": {"golang.org/x/net/dns/dnsmessage"},
	"client/ftp":        {"internal/wire"},
	"client/gopher":     {"internal/wire", "internal/gophertype"},
	"client/nntp":       {"internal/wire"},
	"client/smtp":       {"internal/wire"},
	"client/mailbox":    {},
	"client/telnet":     {"internal/wire"},
	"client/rlogin":     {"internal/wire"},
	// TN3270 is telnet with three options; EBCDIC code page 037.
	"client/tn3270": {"internal/wire", "client/telnet", "golang.org/x/text/encoding/charmap"},
}

const module = "github.com/urlkit/urlkit"

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	// go test puts $GOROOT/bin first in the test's PATH.
	cmd := exec.Command("go", append([]string{"list", "-e"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestClientLayerDeps(t *testing.T) {
	for _, line := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, imports := strings.TrimPrefix(fields[0], module+"/"), fields[1:]
		allowed, owned := clientLayerDeps[pkg]
		for _, imp := range imports {
			if imp == module+"/internal/wiretest" {
				t.Errorf("%s imports internal/wiretest from a non-test file", pkg)
			}
			if !owned {
				continue
			}
			first, _, _ := strings.Cut(imp, "/")
			if !strings.Contains(first, ".") {
				continue // standard library
			}
			rel := strings.TrimPrefix(imp, module+"/")
			if !slices.Contains(allowed, rel) {
				t.Errorf("%s imports %s; allowed: standard library and %v", pkg, imp, allowed)
			}
		}
	}
}
