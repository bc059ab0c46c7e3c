package urlkit

import (
	"math/bits"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/registry"
	"github.com/urlkit/urlkit/internal/resolver"
)

// parseFast parses s in one pass over compTable when s has the shape most
// URLs have: a scheme (none for a reference), an optional authority that
// is a host and a port, then the path, the query and the fragment, every
// byte one its component allows or part of a valid %XX escape. It fills u
// (its written form s) and returns len(s) only when the parser would
// accept s in mode m with exactly this result and no warning. For
// anything else (an error, a
// userinfo, an IP literal, an RFC 1738 scheme production other than
// HTTP's and file's, the RFC1630 mode) it leaves u partly set and
// returns where it stopped: the offset of the byte that ended the path,
// the query or the fragment (u tells which), or -1 when it stopped
// before them. The caller then runs the parser, which alone explains
// errors, or takes the one error stoppedError knows. fuzzMode checks that
// the two agree on every input.
//
// The Lenient mode is the RFC3986 grammar here: an input the strict
// grammar accepts holds nothing the repairs change (no space, control,
// non-ASCII, unsafe character, stray "%", second "#" or "@" in the
// userinfo). An input starting with "URL:" goes to prepare, which
// removes that prefix with a warning, in every mode.
func parseFast(u *URL, s string, m Mode, ref bool) int {
	var shift uint // 3*mode: where the mode's component bits are
	switch m {
	case RFC1738:
	case RFC3986, Lenient:
		shift = 3 * uint(RFC3986)
	default:
		return -1
	}
	i := 0
	if len(s) >= 8 {
		// "http:" and "https:", most URLs' schemes, by a compare of one
		// word: the byte loop's exit mispredicted on most URLs.
		if w := cc.Word(s); (w|0x20202020)&0xffffffff == 0x70747468 { // "http", any case
			switch {
			case byte(w>>32) == ':':
				i = 4
			case byte(w>>32)|0x20 == 's' && byte(w>>40) == ':':
				i = 5
			}
		}
	}
	if i == 0 {
		for i < len(s) && cc.Is(s[i], cc.SchemeChar) {
			i++
		}
	}
	var sch *registry.Scheme
	if i == len(s) || s[i] != ':' {
		if !ref {
			return -1 // no scheme: an error
		}
		// No scheme: the parser reads a ":" before the first "/", "?"
		// or "#" as the end of a scheme with bad characters, or, in
		// the RFC3986 mode, as breaking RFC 3986 4.2.
		for j := i; j < len(s) && s[j] != '/' && s[j] != '?' && s[j] != '#'; j++ {
			if s[j] == ':' {
				return -1
			}
		}
		i = 0
	} else {
		if i == 0 || !cc.Is(s[0], cc.Alpha) || i == 3 && resolver.HasPrefixFold(s, "url") {
			return -1
		}
		u.Scheme = s[:i]
		i++
		if m == RFC1738 {
			if sch = schemeSyntax1738(u); sch != nil {
				switch sch.Production {
				case registry.Generic, registry.HTTP, registry.File:
				default:
					return -1
				}
			}
		}
	}
	pathBit, queryBit, fragBit := compPath<<shift, compQuery<<shift, compFragment<<shift
	hasAuthority := len(s)-i >= 2 && s[i] == '/' && s[i+1] == '/'
	if sch != nil {
		if sch.IP && !hasAuthority {
			return -1
		}
		switch sch.Production {
		case registry.HTTP:
			queryBit = search1738
		case registry.File:
			pathBit, queryBit = fpath1738, fquery1738
		}
	}
	if hasAuthority {
		// host [ ":" digits ], up to "/", "#", "?" (RFC3986 mode: RFC
		// 1738 allows "?" in a userinfo, and the parser decides) or the
		// end; a userinfo, an IP literal or an escape goes to the parser.
		bit := auth3986
		if m == RFC1738 {
			bit = authGeneric1738
			if sch != nil && sch.IP {
				bit = hostname1738
			}
		}
		h := i + 2
		var shaped bool // an RFC 1738 hostname whose shape hostEnd checked
		i, shaped = hostEnd(s, h, bit)
		u.HasAuthority, u.Host = true, s[h:i]
		port := -1 // the port's value, when it has digits
		if i < len(s) && s[i] == ':' {
			p := i + 1
			i = span(s, p, digits)
			u.HasPort, u.Port = true, s[p:i]
			if n := i - p; n > 0 {
				if n > 5 {
					return -1
				}
				port = 0
				for k := p; k < i; k++ {
					port = port*10 + int(s[k]-'0')
				}
				if port > 65535 {
					return -1
				}
			}
		}
		if i < len(s) {
			switch s[i] {
			case '/', '#':
			case '?':
				if m == RFC1738 {
					return -1
				}
			default:
				return -1
			}
		}
		if bit == hostname1738 {
			if !shaped && !hostnameShape1738(u.Host, 0) && !(u.Host == "" && sch.EmptyHost) {
				return -1
			}
			if u.HasPort && (port < 0 || sch.HostOnly) {
				return -1 // RFC 1738 port = digits; a file URL takes none
			}
		}
	}
	start := i
	i = spanEscaped(s, i, pathBit)
	u.Path = s[start:i]
	if sch != nil && sch.Production == registry.File && (u.Path == "" || u.Path[0] != '/') {
		return -1 // fileurl: "/" fpath is required
	}
	if i < len(s) && s[i] == '?' {
		start = i + 1
		i = spanEscaped(s, start, queryBit)
		u.HasQuery, u.Query = true, s[start:i]
	}
	if i < len(s) && s[i] == '#' {
		start = i + 1
		i = spanEscaped(s, start, fragBit)
		u.HasFragment, u.Fragment = true, s[start:i]
	}
	if i == len(s) {
		u.written = s
	}
	return i
}

// hostEnd is span(s, h, bit) for an authority, which most often runs
// to the next "/": that "/" is found a word at a time in the first 24
// bytes, then by IndexByte, and the bytes before it, a run of known
// length, are checked in one pass, where span's byte loop mispredicted
// its exit on most hosts. An RFC 1738 hostname's shape is checked in the
// same pass (shaped). Only when a byte is not in the class (a port, a
// userinfo, a "?"), or the shape is wrong, does span find where the run
// ends.
func hostEnd(s string, h int, bit uint32) (end int, shaped bool) {
	rest := s[h:]
	n, k := -1, 0
	for ; k < 24 && len(rest)-k >= 8; k += 8 {
		if m := cc.WordEq(cc.Word(rest[k:]), '/'); m != 0 {
			n = k + bits.TrailingZeros64(m)>>3
			break
		}
	}
	if n < 0 {
		if n = strings.IndexByte(rest[k:], '/'); n < 0 {
			n = len(rest)
		} else {
			n += k
		}
	}
	switch {
	case n == 0: // an empty host, as file:/// has
		return h, false
	case bit == hostname1738:
		if hostnameShape1738(rest[:n], bit) {
			return h + n, true
		}
	case allIn(rest[:n], bit):
		return h + n, false
	}
	return span(s, h, bit), false
}

// allIn reports whether every byte of s is in the component class bit:
// eight at a time, the last eight read again for the rest.
func allIn(s string, bit uint32) bool {
	c := bit
	if len(s) < 8 {
		t := &compTable
		for i := 0; i < len(s); i++ {
			c &= t[s[i]]
		}
		return c != 0
	}
	for rest := s; len(rest) >= 8; rest = rest[8:] {
		c &= classes8(rest)
	}
	return c&classes8(s[len(s)-8:]) != 0
}

// spanEscaped is span that also steps over valid %XX escapes.
func spanEscaped(s string, i int, bit uint32) int {
	for {
		i = span(s, i, bit)
		if i+2 < len(s) && s[i] == '%' && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2]) {
			i += 3
			continue
		}
		return i
	}
}
