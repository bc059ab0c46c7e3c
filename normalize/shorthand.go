package normalize

import "github.com/urlkit/urlkit"

// Forms of Normalize and Equal that take strings.

// NormalizeString parses s in mode m and returns its normal form in that
// mode as text (see Normalize).
func NormalizeString(s string, m urlkit.Mode) (string, error) {
	u, _, err := urlkit.ParseMode(s, m)
	if err != nil {
		return "", err
	}
	n := Normalize(&u, m)
	return n.String(), nil
}

// EqualString parses a and b in mode m and reports whether they are the
// same URL (see Equal).
func EqualString(a, b string, m urlkit.Mode) (bool, error) {
	u, _, err := urlkit.ParseMode(a, m)
	if err != nil {
		return false, err
	}
	v, _, err := urlkit.ParseMode(b, m)
	if err != nil {
		return false, err
	}
	return Equal(&u, &v, m), nil
}
