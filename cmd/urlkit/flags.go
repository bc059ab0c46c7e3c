package main

import (
	"flag"

	"github.com/urlkit/urlkit"
)

// modeFlag declares --mode.
func modeFlag(fs *flag.FlagSet) *urlkit.Mode {
	m := new(urlkit.Mode)
	fs.TextVar(m, "mode", urlkit.RFC1738, "the grammar `M`: rfc1738, rfc1630, rfc3986 or lenient")
	return m
}

const modesHelp = `Modes (--mode):
  rfc1738  RFC 1738 section 5: the common Internet scheme syntax and each
           scheme's own production (ftptype, search, group, addr-spec...)
           for its schemes, scheme:*xchar for others, an optional
           #fragment (default)
  rfc1630  RFC 1630's generic URI grammar
  rfc3986  RFC 3986 URI-reference (IPv6 literals, relative references)
  lenient  what real text holds (spaces, raw non-ASCII, national
           characters, URL: prefix, <...> wrappers), repaired into the
           canonical encoded form; each repair is reported as a warning
(Only edit reads URLs otherwise: as curl and trurl do; see urlkit edit -h.)`
