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
	for _, c := range scheme.Concerns(u) {
		if c.Refuse {
			return &Error{Op: "check", URL: u.Redacted(), Scheme: u.SchemeName(), Offset: c.Offset, Kind: ErrUnsafe, Rule: c.Message}
		}
	}
	return checkPort(u, u.SchemeName(), allow)
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
