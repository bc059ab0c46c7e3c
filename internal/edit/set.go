package edit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/resolver"
)

// canonicalPath decodes and encodes again each segment of the path (a
// "%2F" stays one, as a "/" inside a segment). A segment that decodes to
// "." or ".." ("%2e", ".%2E") is then a dot segment, removed as a
// written one is at parsing: RFC 3986 6.2.2 decodes before it removes
// them, and the output stays a URL that edit reads back unchanged.
func canonicalPath(p string) string {
	segs := strings.Split(p, "/")
	decodedDot := false
	for i, s := range segs {
		d := Unescape(s)
		decodedDot = decodedDot || d != s && (d == "." || d == "..")
		segs[i] = Escape(d)
	}
	path := strings.Join(segs, "/")
	if decodedDot {
		path = removeDots(absolute(path))
	}
	return path
}

// removeDots is RFC 3986 5.2.4's remove_dot_segments (the resolver's,
// which the root and normalize use too) on the path p.
func removeDots(p string) string {
	if !resolver.HasDotSegment(p) {
		return p
	}
	return string(resolver.RemoveDotSegments([]byte(p), nil, ""))
}

// NormalizeParts is trurl's normalization of the path, the fragment and
// the login: each decoded and encoded again.
func (u *URL) NormalizeParts() {
	u.Path = canonicalPath(u.Path)
	u.Fragment = Escape(Unescape(u.Fragment))
	if u.HasUser {
		u.User = Escape(Unescape(u.User))
	}
	if u.HasPassword {
		u.Password = Escape(Unescape(u.Password))
	}
	if u.HasOpts {
		u.Options = Escape(Unescape(u.Options))
	}
}

// AppendSegment adds the encoded segment seg to the path, after a "/"
// (`--append path=SEG`).
func (u *URL) AppendSegment(seg string) {
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.Path += seg
}

// ErrUnknownComponent is the error of Set and Clear for a name that is
// not one of Components (or "url").
var ErrUnknownComponent = errors.New("unknown component")

// Set changes one component as `--set NAME=VALUE` does: value is encoded
// unless raw (`NAME:=VALUE`), and an empty value removes the component.
func (u *URL) Set(name, value string, raw bool, o Options) error {
	if value == "" {
		return u.Clear(name)
	}
	enc := func(keepSlash, plus bool) string {
		if raw {
			return value
		}
		return urlEncode(value, keepSlash, plus)
	}
	switch name {
	case "url":
		v, err := Parse(value, o)
		if err != nil {
			return err
		}
		*u = v
	case "scheme":
		if n, _, ok := SchemePrefix(value+":/", false); !ok || len(n) != len(value) {
			return editErr("bad scheme " + strconv.Quote(value))
		}
		s := strings.ToLower(value)
		if o.CurlOnly && !curlSchemes[s] {
			return editErr("unsupported URL scheme " + strconv.Quote(s))
		}
		u.Scheme, u.Guessed = s, false
	case "user":
		u.User, u.HasUser = enc(false, false), true
	case "password":
		u.Password, u.HasPassword, u.HasUser = enc(false, false), true, true
	case "options":
		u.Options, u.HasOpts = enc(false, false), true
	case "host":
		return u.setHostText(value, raw || strings.HasPrefix(value, "["))
	case "port":
		return u.SetPort(value)
	case "path":
		u.Path = absolute(enc(true, false))
	case "query":
		u.Query, u.EmptyQuery = enc(false, true), false
	case "fragment":
		u.Fragment, u.EmptyFragment = enc(false, false), false
	case "zoneid":
		if !strings.HasPrefix(u.Host, "[") {
			return editErr("a zone id needs an IPv6 address")
		}
		u.Zone = value
		if raw {
			u.Zone = Unescape(value)
		}
	default:
		return ErrUnknownComponent
	}
	return nil
}

// Clear removes one component (the path becomes "/").
func (u *URL) Clear(name string) error {
	switch name {
	case "url":
		*u = URL{}
	case "scheme":
		u.Scheme, u.Guessed = "", false
	case "user":
		u.User, u.HasUser, u.Password, u.HasPassword = "", false, "", false
	case "password":
		u.Password, u.HasPassword = "", false
	case "options":
		u.Options, u.HasOpts = "", false
	case "host":
		u.Host, u.Zone = "", ""
	case "port":
		u.Port = ""
	case "path":
		u.Path = "/"
	case "query":
		u.Query, u.EmptyQuery = "", false
	case "fragment":
		u.Fragment, u.EmptyFragment = "", false
	case "zoneid":
		u.Zone = ""
	default:
		return ErrUnknownComponent
	}
	return nil
}

// IsSet reports whether a component counts as set for `--set NAME?=V`: a
// guessed scheme does not (curl's CURLU_NO_GUESS_SCHEME).
func (u *URL) IsSet(name string) bool {
	if name == "scheme" {
		return u.Scheme != "" && !u.Guessed
	}
	if name == "url" {
		return u.Scheme != ""
	}
	_, ok := u.Part(name, Out{})
	return ok
}
