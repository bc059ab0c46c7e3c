package main

import (
	"flag"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

// modeFlag declares --mode.
func modeFlag(fs *flag.FlagSet) *urlkit.Mode {
	m := new(urlkit.Mode)
	fs.TextVar(m, "mode", urlkit.RFC1738, "the grammar `M`: rfc1738, rfc1630, rfc3986, lenient or whatwg")
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
  whatwg   the WHATWG URL Standard, as browsers read URLs: the result is
           the standard's href (what a browser makes of the input), and
           only what the standard calls a failure is an error; its other
           validation errors are warnings, under the standard's names
(Only edit reads URLs otherwise: as curl and trurl do; see urlkit edit -h.)`

// normalizerFlags declares --mode, --flags and --tracking, and returns
// the Normalizer they describe once the flags are parsed.
func normalizerFlags(fs *flag.FlagSet) func() normalize.Normalizer {
	mode := modeFlag(fs)
	flags := new(normalize.Flags)
	fs.TextVar(flags, "flags", normalize.Flags(0), "optional normalizations `F,...` (see below), e.g. unsafe or sort-query,remove-fragment")
	tracking := fs.String("tracking", "", "the query keys remove-tracking drops: comma-separated `PATTERNS` (shell patterns; default "+strings.Join(normalize.DefaultTrackingParams(), ",")+")")
	return func() normalize.Normalizer {
		n := normalize.Normalizer{Mode: *mode, Flags: *flags}
		if *tracking != "" {
			n.TrackingParams = strings.Split(*tracking, ",")
		}
		return n
	}
}

const normalizeFlagsHelp = `Optional normalizations (--flags F,...; named after purell's flags). Each
makes more URLs equal. "usually safe": rarely changes what a server
returns; "unsafe": can make two different resources one; "same": the
same resource.
  remove-empty-query (usually safe)
      http://h/p? is http://h/p (RFC 3986 6.2.3 keeps an empty query)
  remove-trailing-slash (usually safe)
      http://h/a/ is http://h/a; a path of only "/" stays
  add-trailing-slash (usually safe; remove-trailing-slash wins)
      http://h/a is http://h/a/
  remove-dot-segments (usually safe; rfc3986 and lenient always do it)
      http://h/a/./b/../c is http://h/a/c
  remove-directory-index (unsafe)
      http://h/a/index.html is http://h/a/ (index.* and default.*)
  remove-fragment (same)
      http://h/p#s is http://h/p
  force-http (unsafe)
      https://h/ is http://h/
  remove-duplicate-slashes (unsafe)
      http://h/a//b is http://h/a/b
  remove-www (unsafe)
      http://www.example.com/ is http://example.com/
  add-www (unsafe; remove-www wins)
      http://example.com/ is http://www.example.com/
  sort-query (unsafe)
      ?c=3&b=2&a=1&b=1 is ?a=1&b=1&b=2&c=3
  remove-tracking (unsafe)
      drops the query pairs whose key matches --tracking (utm_*, fbclid,
      gclid, ...); a query left empty goes with its "?"
  decode-numeric-host (unsafe)
      http://0x42660793/ and http://1113982867/ are http://66.102.7.147/
  remove-unnecessary-host-dots (unsafe)
      http://.example..com./ is http://example.com/
  punycode (same)
      http://bücher.example/ and http://b%C3%BCcher.example/ are
      http://xn--bcher-kva.example/
  idn (same; punycode wins)
      http://xn--bcher-kva.example/ is http://bücher.example/, an IRI
      that only the lenient mode reads back
Sets: usually-safe is remove-empty-query, remove-trailing-slash and
remove-dot-segments; unsafe adds remove-directory-index, remove-fragment,
force-http, remove-duplicate-slashes, remove-www, sort-query and
remove-tracking; all adds decode-numeric-host and
remove-unnecessary-host-dots. In the rfc1738 mode a flag leaves a URL as it
is where its scheme's grammar (RFC 1738 section 5) refuses the result:
ftp://h/a;type=a gets no trailing slash, https://u@h/ stays https.`
