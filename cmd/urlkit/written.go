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

// writtenForm returns u's string form. A valid URL's form is the input
// it was parsed from (Parse(s).String() == s), unless the parse repaired
// or trimmed it: then, and only then, u.String() is built.
func writtenForm(u *urlkit.URL, input string) written {
	o := u.Offsets()
	if !writtenAs(u, o, input) {
		input = u.String()
	}
	return written{input, o}
}

// writtenAs reports whether u.String() == s, comparing each component
// and delimiter at its offset instead of building the string.
func writtenAs(u *urlkit.URL, o urlkit.Offsets, s string) bool {
	n := o.Fragment
	if u.HasFragment {
		n += len(u.Fragment)
	}
	if n != len(s) {
		return false
	}
	// The offsets and lengths add up to len(s): every index is in range.
	at := func(i int, v string) bool { return s[i:i+len(v)] == v }
	if u.Scheme != "" && !(at(0, u.Scheme) && s[len(u.Scheme)] == ':') {
		return false
	}
	if u.HasAuthority {
		if !at(o.SchemeSpecificPart, "//") || !at(o.Host, u.Host) {
			return false
		}
		if u.HasUser && !(at(o.User, u.User) && s[o.Host-1] == '@') {
			return false
		}
		if u.HasPassword && !(s[o.Password-1] == ':' && at(o.Password, u.Password)) {
			return false
		}
		if u.HasPort && !(s[o.Port-1] == ':' && at(o.Port, u.Port)) {
			return false
		}
	}
	if !at(o.Path, u.Path) {
		return false
	}
	if u.HasQuery && !(s[o.Query-1] == '?' && at(o.Query, u.Query)) {
		return false
	}
	return !u.HasFragment || s[o.Fragment-1] == '#' && at(o.Fragment, u.Fragment)
}

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
