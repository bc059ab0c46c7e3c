package main

import (
	"flag"
	"strings"

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

// normalizerFlags declares --mode, --flags and --tracking, and returns
// the Normalizer they describe once the flags are parsed.
func normalizerFlags(fs *flag.FlagSet) func() urlkit.Normalizer {
	mode := modeFlag(fs)
	flags := new(urlkit.NormalizeFlags)
	fs.TextVar(flags, "flags", urlkit.NormalizeFlags(0), "optional normalizations `F,...` (see below), e.g. unsafe or sort-query,remove-fragment")
	tracking := fs.String("tracking", "", "the query keys remove-tracking drops: comma-separated `PATTERNS` (shell patterns; default "+strings.Join(urlkit.DefaultTrackingParams(), ",")+")")
	return func() urlkit.Normalizer {
		n := urlkit.Normalizer{Mode: *mode, Flags: *flags}
		if *tracking != "" {
			n.TrackingParams = strings.Split(*tracking, ",")
		}
		return n
	}
}

const normalizeFlagsHelp = `Optional normalizations (--flags, comma-separated; named after purell's).
Each makes more URLs equal; those marked * can make two different
resources one:
  remove-empty-query        http://h/p? is http://h/p (*: RFC 3986 6.2.3
                            keeps an empty query)
  remove-trailing-slash     http://h/a/ is http://h/a (* usually safe)
  add-trailing-slash        http://h/a is http://h/a/ (* usually safe)
  remove-dot-segments       http://h/a/./b/../c is http://h/a/c (rfc3986
                            and lenient do it always)
  remove-directory-index *  http://h/a/index.html is http://h/a/
  remove-fragment           http://h/p#s is http://h/p
  force-http *              https://h/ is http://h/
  remove-duplicate-slashes *  http://h/a//b is http://h/a/b
  remove-www *              http://www.example.com/ is http://example.com/
  add-www *                 http://example.com/ is http://www.example.com/
  sort-query *              ?c=3&b=2&a=1&b=1 is ?a=1&b=1&b=2&c=3
  remove-tracking *         drops utm_*, fbclid, gclid... (--tracking)
  decode-numeric-host *     http://0x42660793/ is http://66.102.7.147/
  remove-unnecessary-host-dots *  http://.example.com./ is http://example.com/
  punycode                  http://bücher.example/ is
                            http://xn--bcher-kva.example/
  idn                       http://xn--bcher-kva.example/ is
                            http://bücher.example/ (an IRI: no mode parses it)
Sets: usually-safe is remove-empty-query, remove-trailing-slash and
remove-dot-segments; unsafe adds remove-directory-index, remove-fragment,
force-http, remove-duplicate-slashes, remove-www, sort-query and
remove-tracking; all adds decode-numeric-host and
remove-unnecessary-host-dots.`
