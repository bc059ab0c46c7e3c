package fetch

import (
	"fmt"
	"slices"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// offsets returns the offsets, in u.String(), of the host, the port and
// the path.
func offsets(u *urlkit.URL) (host, port, path int) {
	o := u.Offsets()
	return o.Host, o.Port, o.Path
}

// CheckURL reports, before anything is sent, whether fetching u would
// put a CR, LF or NUL byte into a protocol line once the URL's escapes
// are decoded (RFC 1738 section 6: "Care should be taken when URLs
// contain embedded encoded delimiters for a given protocol ... that these
// are not unencoded before transmission"), and whether u names a blocked
// port (see BlockedPort) other than its scheme's default that allow does
// not list. The error is an *Error with Kind ErrUnsafe or ErrBlockedPort
// and the offset of the offending escape or port in u.String().
//
// The fields checked are those package scheme's Concerns names for each
// scheme: for ftp the user name, password, every CWD argument and the
// name; for gopher the selector, the search and the Gopher+ string (whose
// CR LF are allowed only as the structure of an ASK submission, RFC 1738
// section 3.4); for file a NUL in the path; for every scheme the host and
// raw control bytes. HTTP sends its path and search as written, so an
// escaped CR LF there stays escaped and is no concern.
func CheckURL(u *urlkit.URL, allow []int) error {
	return check(u, scheme.Concerns(u, nil), allow)
}

// check is CheckURL with u's concerns computed already.
func check(u *urlkit.URL, concerns []scheme.Concern, allow []int) error {
	for _, c := range concerns {
		if c.Refuse {
			return &Error{Op: "check", URL: u.Redacted(), Scheme: u.SchemeName(), Offset: c.Offset, Kind: ErrUnsafe, Rule: c.Message}
		}
	}
	return checkPort(u, u.SchemeName(), allow)
}

// access is what a fetch reads of its URL once (issue 37: one parse
// per access): the scheme view in the mode its opener plans in, and the
// concerns of RFC 1738 section 6, which the check and the plan share.
type access struct {
	mode     urlkit.Mode
	view     scheme.View // nil when the URL is no valid view of its scheme
	concerns []scheme.Concern
	read     bool
}

// reader is an Opener that reads its URLs in a mode other than Lenient
// (http, news and mailto read them as RFC 3986 and its successors do).
type reader interface{ readMode() urlkit.Mode }

// readMode returns the mode in which the opener of u reads it.
func (f *Fetcher) readMode(u *urlkit.URL) urlkit.Mode {
	if _, gw := f.gatewayFor(u); !gw {
		if o, ok := f.lookup(u.SchemeName()); ok {
			if r, ok := o.(reader); ok {
				return r.readMode()
			}
		}
	}
	return urlkit.Lenient
}

// read returns the view and the concerns of req's URL in mode m,
// computed on the first call of the access.
func (req *Request) read(m urlkit.Mode) *access {
	if !req.acc.read || req.acc.mode != m {
		v, _ := scheme.Parse(req.URL, m)
		req.acc = access{mode: m, view: v, concerns: scheme.Concerns(req.URL, v), read: true}
	}
	return &req.acc
}

// check is CheckURL for req's URL, with the concerns of its access.
func (req *Request) check(m urlkit.Mode, allow []int) error {
	return check(req.URL, req.read(m).concerns, allow)
}

// plan returns the access plan of req's URL (scheme.PlanURL) from the
// view and concerns its check read, when it read them in opts.Mode.
func (req *Request) plan(opts scheme.PlanOptions) (*scheme.Plan, error) {
	if a := req.read(opts.Mode); a.view != nil {
		opts.View, opts.Concerns = a.view, a.concerns
	}
	return planURL(req.URL, opts)
}

// checkPort refuses a blocked port that is not the scheme's default.
func checkPort(u *urlkit.URL, name string, allow []int) error {
	port, ok := u.EffectivePort()
	if !ok || port == urlkit.DefaultPort(name) || slices.Contains(allow, port) {
		return nil
	}
	service, blocked := scheme.BlockedPort(port)
	if !blocked {
		return nil
	}
	_, off, _ := offsets(u)
	return &Error{Op: "check", URL: u.Redacted(), Scheme: name, Offset: off, Port: port, Kind: ErrBlockedPort,
		Rule: fmt.Sprintf("port %d (%s) is not the %s port and is on the list of ports browsers block: "+
			"a %s request sent there could be read as %s commands (RFC 1738 section 6)",
			port, service, name, name, service)}
}
