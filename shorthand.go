package urlkit

// Forms of Resolve, Normalize and Equal that take values or strings, for
// callers who would otherwise need temporaries to take addresses of.

// ResolveReference resolves ref against u under rule: Resolve(u, &ref, rule).
func (u *URL) ResolveReference(ref URL, rule Rule) (URL, error) { return Resolve(u, &ref, rule) }

// Equal reports whether u and v are the same URL: Equal(u, &v, RFC1738).
func (u *URL) Equal(v URL) bool { return Equal(u, &v, RFC1738) }

// Normalized returns u's normal form: Normalize(u, RFC1738).
func (u *URL) Normalized() URL { return Normalize(u, RFC1738) }

// NormalizeString parses s in mode m and returns its normal form in that
// mode as text (see Normalize).
func NormalizeString(s string, m Mode) (string, error) {
	u, _, err := ParseMode(s, m)
	if err != nil {
		return "", err
	}
	n := Normalize(&u, m)
	return n.String(), nil
}

// EqualString parses a and b in mode m and reports whether they are the
// same URL (see Equal).
func EqualString(a, b string, m Mode) (bool, error) {
	u, _, err := ParseMode(a, m)
	if err != nil {
		return false, err
	}
	v, _, err := ParseMode(b, m)
	if err != nil {
		return false, err
	}
	return Equal(&u, &v, m), nil
}
