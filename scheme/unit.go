package scheme

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/registry"
)

// Adding a scheme (the next issues add news/nntp access, mailto, telnet,
// wais and prospero this way; scheme/xtoy_test.go is a complete toy):
//
//  1. A row in internal/registry's table: name, default port, IP (common
//     Internet syntax), Login, HostOnly, Grammar1738 and, if RFC 1738
//     section 5 gives the url-path a production the generic rules do not
//     cover, a Production (then also its check in the root's grammar.go,
//     and a splitter in internal/registry if the view needs the same
//     split).
//  2. One file here, scheme/<name>.go: the view (its parse function,
//     URL, appendParts, with the Span of each part in its at field), its
//     concerns (the decoded parts that go into protocol lines, scanned with
//     concernList.scanSpan), its plan (a func(View, *planner) writing the
//     steps: connect, one send per line with its Op, Arg and Why/RFC,
//     When for a step that depends on a reply, Expect for the reply that
//     decides, Ask for what the user is asked, Binary for a non-text
//     request, End for how the data ends; p.unsupported for what the
//     clients cannot do), and an init that registers the unit. A scheme
//     whose URLs come by the million (http, ftp, file, mailto, gopher)
//     also reads its view in place (a read method that its parse calls)
//     and gives the unit a parts func that lists the view from the
//     stack, for appendParts (internal/schemedata).
//  3. In package fetch, an opener that carries out the plan's steps
//     through the protocol client (dispatching on Step.Op), a classify
//     method for the client's errors, a line in standardOpeners, and rows
//     in fetch's TestPlanEqualsWire against the real server.
//
// unit is what this package holds for one scheme beside its registry row
// (internal/registry: name, default port, syntax, production, status):
// its view, the fields its access puts into protocol lines (for the
// concerns of RFC 1738 section 6), and its access plan. Each scheme's
// file registers its unit from an init function, so that adding a scheme
// is one registry row and one file here; nothing else switches on
// scheme names.
type unit struct {
	// parse returns the typed view of a URL of the scheme. The mode is
	// the one the URL was parsed in (the lenient mode reads the drafts'
	// forms).
	parse func(u *urlkit.URL, m urlkit.Mode) (View, error)
	// parts, when not nil, appends the parts of the view parse would
	// return, building the view on the stack (the common schemes, for
	// appendParts); when nil, appendParts lists what parse returns.
	parts func(dst []part, u *urlkit.URL, m urlkit.Mode) ([]part, error)
	// concerns adds the refusals for the decoded fields of v that its
	// access puts into protocol lines; nil when there are none. v is
	// nil when the URL is no valid view (Concerns still scans what it
	// can find without one).
	concerns func(v View, c *concernList)
	// plan writes the access plan of v; nil when the scheme has no
	// access algorithm.
	plan func(v View, p *planner)
	// proxied: through an HTTP proxy the whole URL goes on the request
	// line (the retrieval schemes; not sessions, mail or local files).
	proxied bool
}

// units maps a scheme name (lower case) to its unit.
var units = map[string]*unit{}

// register installs the unit of the named schemes. It is called from
// init functions only.
func register(u *unit, names ...string) {
	for _, n := range names {
		if registry.Lookup(n) == nil {
			panic("scheme: " + n + " has no row in internal/registry")
		}
		units[n] = u
	}
}

// unitOf returns the unit of u's scheme and its registry row, or nils.
func unitOf(name string) (*unit, *registry.Scheme) {
	r := registry.Lookup(name)
	if r == nil {
		return nil, nil
	}
	return units[r.Name], r
}

// view adapts a scheme's parse function to unit.parse.
func view[T View](parse func(*urlkit.URL) (T, error)) func(*urlkit.URL, urlkit.Mode) (View, error) {
	return func(u *urlkit.URL, _ urlkit.Mode) (View, error) { return nilView(parse(u)) }
}
