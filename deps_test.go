package urlkit_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The dependency policy of STYLE.md, as data (the idea of the standard
// library's go/build/deps_test.go): for each package of the module, the
// module packages it may import directly. Dependencies point one way:
// core <- scheme <- extract, fetch <- cmd; clients know nothing of URLs.
var allowedImports = map[string][]string{
	"":                   {"internal/charclass", "internal/registry", "internal/safetext", "internal/resolver", "internal/percent", "internal/whatwg"},
	"internal/charclass": {},
	// inet_aton's IPv4 forms, shared by normalize and the command
	// line's edit.
	"internal/ipv4": {},
	// curl's reading of URLs and trurl's editing, for the command line's
	// edit: on the core, with curl's own steps around its parser.
	"internal/edit": {"", "resolve", "internal/resolver", "internal/charclass", "internal/percent", "internal/registry", "internal/ipv4"},
	// The WHATWG URL Standard, below the root's WHATWG mode: a leaf.
	"internal/whatwg": {},
	// Percent-encoding by character set, below the root and the views.
	"internal/percent": {"internal/charclass"},
	// The resolution engine, shared by the root (RFC 3986's
	// ResolveReference), resolve (every rule) and normalize (dot segments).
	"internal/resolver": {"internal/charclass", "internal/registry", "internal/safetext"},
	"resolve":           {"", "internal/resolver", "internal/safetext"},
	"normalize":         {"", "resolve", "internal/resolver", "internal/charclass", "internal/registry", "internal/percent", "internal/ipv4"},
	"internal/registry": {},
	// The Gopher item types are protocol facts, shared by the client
	// and package scheme's gopher view without either knowing the other.
	"internal/gophertype": {},
	"internal/wire":       {"internal/safetext"},
	"internal/safetext":   {},
	"internal/wiretest":   {},
	"internal/bufpool":    {},
	// Opening a file that may wait (a FIFO) under a context.
	"internal/fsctx": {},
	// scheme_data, the command line's listing of a view's parts: its
	// types, and the hook package scheme installs.
	"internal/schemedata": {""},
	// The HTTP status of a failed fetch: the hook package fetch
	// installs, for the gateway.
	"internal/httpstatus": {},
	// The structured requests of the access plans, shared by package
	// scheme (which writes the plans) and package fetch (which carries
	// them out).
	"internal/request": {},
	"scheme":           {"", "internal/charclass", "internal/registry", "internal/percent", "internal/gophertype", "internal/schemedata", "internal/request", "internal/safetext"},
	"extract":          {"", "scheme", "internal/charclass", "internal/registry", "internal/bufpool", "internal/safetext"},
	"fetch":            {"", "scheme", "listing", "internal/fsctx", "internal/request", "internal/httpstatus", "internal/wire", "internal/percent", "internal/safetext", "client/ftp", "client/gopher", "client/nntp", "client/smtp", "client/telnet", "client/mailbox", "client/rlogin", "client/tn3270", "client/wais", "client/prospero"},
	"client/ftp":       {"internal/wire"},
	"client/gopher":    {"internal/wire", "internal/gophertype"},
	"client/nntp":      {"internal/wire"},
	"client/smtp":      {"internal/wire"},
	"client/telnet":    {"internal/wire"},
	"client/wais":      {"internal/wire"},
	"client/prospero":  {"internal/wire"},
	"client/mailbox":   {},
	"client/rlogin":    {"internal/wire"},
	// TN3270 is telnet with three options (RFC 1576): it reuses the NVT.
	"client/tn3270": {"internal/wire", "client/telnet"},
	// The HTTP gateway (urlkit serve): an http.Handler on fetch's
	// Transport, rendering what the clients' parsers read. Nothing but
	// the command line imports it.
	"gateway":    {"", "scheme", "fetch", "listing", "internal/httpstatus", "internal/safetext", "internal/gophertype", "internal/percent", "client/ftp", "client/gopher", "client/nntp", "client/wais", "client/prospero"},
	"cmd/urlkit": {"*"},
	// Listings as structured entries and their text and JSON forms:
	// fed by fetch, written by the command line and the gateway.
	"listing": {"internal/safetext", "internal/gophertype"},
}

// testOnlyImports are the imports a package's _test.go files may add to
// allowedImports (besides internal/wiretest, which every test may use):
// a test is code too, and an edge it adds is an edge of the package.
var testOnlyImports = map[string][]string{
	// The root's external tests compare RFC 3986 resolution with the
	// other rules of package resolve, which imports the root.
	"": {"resolve"},
	// The rlogin integration test drives a session as the CLI does,
	// with telnet.Session.
	"client/rlogin": {"client/telnet"},
}

// networkFree lists packages that must not reach network code, even
// indirectly: the URL packages are pure functions of their input.
var networkFree = []string{"", "internal/charclass", "internal/whatwg", "internal/ipv4", "internal/edit", "internal/percent", "internal/registry", "internal/resolver", "resolve", "normalize", "internal/gophertype", "internal/safetext", "internal/bufpool", "internal/fsctx", "internal/schemedata", "internal/request", "internal/httpstatus", "scheme", "extract", "listing"}

// networkPackages are the standard packages that open connections.
var networkPackages = []string{"net", "net/http", "crypto/tls", "net/smtp", "net/textproto", "os/exec"}

type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
}

func TestDependencyPolicy(t *testing.T) {
	const module = "github.com/urlkit/urlkit"
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		// go is always there under go test: a failure here is a broken
		// module (an import cycle, a missing package), not a reason to skip.
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	rel := func(p string) (string, bool) {
		if p == module {
			return "", true
		}
		r, ok := strings.CutPrefix(p, module+"/")
		return r, ok
	}
	seen := 0
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		name, _ := rel(p.ImportPath)
		allowed, known := allowedImports[name]
		if !known {
			t.Errorf("package %q is not in the dependency policy (deps_test.go)", p.ImportPath)
			continue
		}
		seen++
		for _, imp := range p.Imports {
			r, inModule := rel(imp)
			if !inModule {
				continue
			}
			if r == "cmd/urlkit" {
				t.Errorf("%s imports the command", p.ImportPath)
			}
			if r == "internal/wiretest" {
				t.Errorf("%s imports internal/wiretest outside a _test.go file", p.ImportPath)
			}
			ok := false
			for _, a := range allowed {
				ok = ok || a == r || a == "*"
			}
			if !ok {
				t.Errorf("%s may not import %s (see the policy in deps_test.go)", p.ImportPath, imp)
			}
		}
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			r, inModule := rel(imp)
			if !inModule || r == name || r == "internal/wiretest" {
				continue
			}
			ok := false
			for _, a := range append(allowed, testOnlyImports[name]...) {
				ok = ok || a == r || a == "*"
			}
			if !ok {
				t.Errorf("the tests of %s may not import %s (see the policy in deps_test.go)", p.ImportPath, imp)
			}
		}
		for _, nf := range networkFree {
			if nf != name {
				continue
			}
			for _, d := range p.Deps {
				for _, np := range networkPackages {
					if d == np {
						t.Errorf("%s depends on network package %s", p.ImportPath, d)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("go list found no packages")
	}
}
