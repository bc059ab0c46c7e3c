package edit

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/resolve"
)

// Redirect resolves ref against u as --redirect does: a ref with a
// scheme (curl's rule) is read alone; any other is resolved under RFC
// 3986 5.2 by the core, and the result read with curl's rules.
func (u *URL) Redirect(ref string, o Options) (URL, error) {
	if _, _, ok := SchemePrefix(ref, !o.NoGuess); ok {
		return Parse(ref, o)
	}
	base, _ := u.Format(Out{KeepPort: true})
	target, err := resolveText(base, ref)
	if err != nil {
		return *u, err
	}
	return Parse(target, o)
}

// resolveText resolves ref against base under RFC 3986 5.2, reading both
// leniently where RFC 3986 refuses them (a space of --accept-space).
func resolveText(base, ref string) (string, error) {
	b, _, err := urlkit.ParseMode(base, urlkit.RFC3986)
	if err != nil {
		if b, _, err = urlkit.ParseMode(base, urlkit.Lenient); err != nil {
			return "", err
		}
	}
	rf, _, err := urlkit.ParseReference(ref, urlkit.RFC3986)
	if err != nil {
		if rf, _, err = urlkit.ParseReference(ref, urlkit.Lenient); err != nil {
			return "", err
		}
	}
	t, err := resolve.Resolve(&b, &rf, resolve.Rule3986)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}
