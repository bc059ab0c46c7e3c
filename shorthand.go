package urlkit

// Forms of Resolve, Normalize and Equal that take values or strings, for
// callers who would otherwise need temporaries to take addresses of.

// ResolveReference resolves ref against u under rule: Resolve(u, &ref, rule).
func (u *URL) ResolveReference(ref URL, rule Rule) (URL, error) { return Resolve(u, &ref, rule) }

// Equal reports whether u and v are the same URL: Equal(u, &v).
func (u *URL) Equal(v URL) bool { return Equal(u, &v) }

// Normalized returns u's normal form: Normalize(u).
func (u *URL) Normalized() URL { return Normalize(u) }

// NormalizeString parses s in mode m and returns its normal form as text
// (see Normalize).
func NormalizeString(s string, m Mode) (string, error) {
	u, err := ParseMode(s, m)
	if err != nil {
		return "", err
	}
	n := Normalize(&u)
	return n.String(), nil
}

// EqualString parses a and b in mode m and reports whether they are the
// same URL (see Equal).
func EqualString(a, b string, m Mode) (bool, error) {
	u, err := ParseMode(a, m)
	if err != nil {
		return false, err
	}
	v, err := ParseMode(b, m)
	if err != nil {
		return false, err
	}
	return Equal(&u, &v), nil
}
