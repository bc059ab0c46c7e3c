package fetch

import "github.com/urlkit/urlkit/scheme"

// BlockedPort reports whether port is on the Fetch standard's list of
// bad ports, and the name of the service the list gives for it.
// The list is package scheme's, which explain uses too.
func BlockedPort(port int) (service string, blocked bool) { return scheme.BlockedPort(port) }
