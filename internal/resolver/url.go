package resolver

import "github.com/urlkit/urlkit/internal/safetext"

// URL is urlkit.URL's components, which the rules read and write: the
// root package and package resolve convert their URLs to it and back
// field by field. Written is the URL's text, which the components slice
// where String would place them, or "" when unknown: a rule that cuts
// the target from the texts reads it. Whoever changes a component of a
// URL that has a Written changes Written too (WithoutFragment) or clears
// it; the root checks its own URLs before it hands their text over.
type URL struct {
	Scheme, User, Password, Host, Port, Path, Query, Fragment string

	HasAuthority, HasUser, HasPassword, HasPort, HasQuery, HasFragment bool

	Written string
}

// String returns Written, or reassembles the URL from its components
// when its text is unknown.
func (u *URL) String() string {
	if u.Written != "" {
		return u.Written
	}
	return u.Text(false)
}

// WithoutFragment returns u without its fragment, Written cut to match.
func (u *URL) WithoutFragment() URL {
	v := *u
	if v.HasFragment {
		if v.Written != "" {
			v.Written = v.Written[:v.beforeFragment()]
		}
		v.HasFragment, v.Fragment = false, ""
	}
	return v
}

// Text builds the URL's text (with redact, the password replaced by
// "xxxxx") in a buffer on the stack and copies it into the string, its
// one allocation (a URL over 256 bytes takes two): appending to a byte
// slice costs a fraction of a strings.Builder's write per component.
func (u *URL) Text(redact bool) string {
	var buf [256]byte
	b := buf[:0]
	if n := u.len(); n > len(buf) {
		b = make([]byte, 0, n)
	}
	return string(u.appendText(b, redact))
}

// len returns the length of String's result.
func (u *URL) len() int {
	n := len(u.Path)
	if u.Scheme != "" {
		n += len(u.Scheme) + 1
	}
	if u.HasAuthority {
		n += 2 + len(u.Host)
		if u.HasUser {
			n += len(u.User) + 1
			if u.HasPassword {
				n += 1 + max(len(u.Password), len(safetext.Mask))
			}
		}
		if u.HasPort {
			n += 1 + len(u.Port)
		}
	}
	if u.HasQuery {
		n += 1 + len(u.Query)
	}
	if u.HasFragment {
		n += 1 + len(u.Fragment)
	}
	return n
}

// appendText appends String's result (Redacted's, with redact) to b.
func (u *URL) appendText(b []byte, redact bool) []byte {
	if u.Scheme != "" {
		b = append(append(b, u.Scheme...), ':')
	}
	if u.HasAuthority {
		b = u.AppendAuthority(append(b, '/', '/'), redact)
	}
	b = append(b, u.Path...)
	if u.HasQuery {
		b = append(append(b, '?'), u.Query...)
	}
	if u.HasFragment {
		b = append(append(b, '#'), u.Fragment...)
	}
	return b
}

// AppendAuthority appends the authority (userinfo "@", host, ":" port)
// as written, the password replaced by "xxxxx" with redact.
func (u *URL) AppendAuthority(b []byte, redact bool) []byte {
	if u.HasUser {
		b = append(b, u.User...)
		if u.HasPassword {
			b = append(b, ':')
			if redact {
				b = append(b, safetext.Mask...)
			} else {
				b = append(b, u.Password...)
			}
		}
		b = append(b, '@')
	}
	b = append(b, u.Host...)
	if u.HasPort {
		b = append(append(b, ':'), u.Port...)
	}
	return b
}

// Authority returns RFC 3986's authority as written and whether "//"
// introduced one.
func (u *URL) Authority() (string, bool) {
	if !u.HasAuthority {
		return "", false
	}
	var buf [128]byte
	return string(u.AppendAuthority(buf[:0], false)), true
}

// beforeFragment is where the "#" is in u.Written, or its end.
func (u *URL) beforeFragment() int {
	if u.HasFragment {
		return len(u.Written) - len(u.Fragment) - 1
	}
	return len(u.Written)
}

// beforeQuery is where the "?" is in u.Written, or the "#", or its end.
func (u *URL) beforeQuery() int {
	if u.HasQuery {
		return u.beforeFragment() - len(u.Query) - 1
	}
	return u.beforeFragment()
}

// pathAt is where the path starts in u.Written.
func (u *URL) pathAt() int { return u.beforeQuery() - len(u.Path) }
