package main

import "github.com/urlkit/urlkit"

// written is a URL's string form with the offsets of its components in
// it (urlkit.URL.Offsets). The composite components parse --json prints
// (the authority, userinfo, scheme-specific-part, url-path and the URL
// itself) are substrings of it, so that they cost no string each: a
// quarter of parse --json's time went to building them.
type written struct {
	s string
	o urlkit.Offsets
}

// writtenForm returns u's string form. For a URL parse took as written,
// String hands back the parsed text itself (no string is built); only a
// URL the parse repaired or trimmed is built anew.
func writtenForm(u *urlkit.URL) written { return written{u.String(), u.Offsets()} }

// authority is u.Authority().
func (w written) authority(u *urlkit.URL) (string, bool) {
	if !u.HasAuthority {
		return "", false
	}
	return w.s[w.o.SchemeSpecificPart+2 : w.o.Path], true
}

// userinfo is u.Userinfo().
func (w written) userinfo(u *urlkit.URL) (string, bool) {
	if !u.HasUser {
		return "", false
	}
	end := w.o.User + len(u.User)
	if u.HasPassword {
		end = w.o.Password + len(u.Password)
	}
	return w.s[w.o.User:end], true
}

// schemeSpecificPart is u.SchemeSpecificPart(): after "scheme:", up to
// the fragment.
func (w written) schemeSpecificPart(u *urlkit.URL) string {
	return w.s[w.o.SchemeSpecificPart:w.beforeFragment(u)]
}

// urlPath is u.URLPath(): after the "/" that follows the host, up to the
// fragment.
func (w written) urlPath(u *urlkit.URL) (string, bool) {
	if !u.HasAuthority || len(u.Path) == 0 || u.Path[0] != '/' {
		return "", false
	}
	return w.s[w.o.Path+1 : w.beforeFragment(u)], true
}

// beforeFragment is where the "#" is, or the end.
func (w written) beforeFragment(u *urlkit.URL) int {
	if u.HasFragment {
		return w.o.Fragment - 1
	}
	return len(w.s)
}
