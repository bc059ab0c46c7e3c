package urlkit_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestRoundTripBenchData: every line of the benchmark data sets that parses
// in a mode prints back byte for byte, and Check agrees with Parse.
func TestRoundTripBenchData(t *testing.T) {
	for _, file := range benchFiles {
		lines := loadLines(t, file)
		for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986} {
			valid := 0
			for _, l := range lines {
				u, _, err := urlkit.ParseMode(l, m)
				list := urlkit.Check(l, m)
				if (err == nil) != (len(list) == 0) {
					t.Errorf("%s %v: Parse and Check disagree on %q: %v / %v", file, m, l, err, list)
					continue
				}
				if err != nil {
					if list[0].Error() != err.Error() {
						t.Errorf("%s %v: Parse error %v is not Check's first %v", file, m, err, list[0])
					}
					continue
				}
				valid++
				if s := u.String(); s != l {
					t.Errorf("%s %v: round trip %q -> %q", file, m, l, s)
				}
			}
			t.Logf("%s %v: %d of %d lines valid", file, m, valid, len(lines))
		}
	}
}

// TestDifferentialNetURL compares the RFC 3986 mode with net/url.Parse on
// the benchmark data. Where both accept a line, the components must agree.
// Every line only one of them accepts must be explained:
//
//   - net/url accepts characters RFC 3986 forbids (space, '"', '<', '>',
//     '\', '^', '`', '{', '|', '}', '[' and ']' outside an IP literal, raw
//     non-ASCII bytes) in the path, query and fragment, and does not check
//     the escapes of the query. It says so: it is lenient by design. urlkit
//     reports ErrInvalidChar or ErrBadEscape for those, which the lenient
//     mode repairs.
//   - net/url accepts ports above 65535; urlkit reports ErrBadPort.
//
// No line is accepted by urlkit and rejected by net/url.
func TestDifferentialNetURL(t *testing.T) {
	for _, file := range benchFiles {
		lines := loadLines(t, file)
		agree, netOnly, badHost := 0, 0, 0
		for _, l := range lines {
			u, _, err := urlkit.ParseMode(l, urlkit.RFC3986)
			n, nerr := url.Parse(l)
			switch {
			case err == nil && nerr == nil:
				agree++
				compareNetURL(t, l, &u, n)
			case err == nil && nerr != nil:
				t.Errorf("%s: urlkit accepts %q, net/url says %v", file, l, nerr)
			case err != nil && nerr == nil:
				netOnly++
				if !errors.Is(err, urlkit.ErrInvalidChar) && !errors.Is(err, urlkit.ErrBadEscape) && !errors.Is(err, urlkit.ErrBadPort) {
					t.Errorf("%s: unexplained disagreement on %q: urlkit says %v", file, l, err)
				}
				// The lenient mode repairs what net/url let through, but
				// a host no repair makes valid (net/url keeps `"www.x.com`
				// as a host) is an error (issue 10, D5).
				_, _, lerr := urlkit.ParseMode(l, urlkit.Lenient)
				var le *urlkit.Error
				if errors.As(lerr, &le) && errors.Is(lerr, urlkit.ErrBadHost) && le.Offset < len(l) && strings.IndexByte("\"<>\\^`{|}% ", l[le.Offset]) >= 0 {
					badHost++
				} else if lerr != nil {
					t.Errorf("%s: lenient mode rejects %q, which net/url accepts: %v", file, l, lerr)
				}
			}
		}
		t.Logf("%s: %d lines both accept and agree on, %d only net/url accepts (explained; %d with a host the lenient mode refuses)", file, agree, netOnly, badHost)
	}
}

func compareNetURL(t *testing.T, line string, u *urlkit.URL, n *url.URL) {
	t.Helper()
	fail := func(what, got, want string) {
		t.Errorf("%q: %s: urlkit %q, net/url %q", line, what, got, want)
	}
	if u.Scheme != n.Scheme {
		fail("scheme", u.Scheme, n.Scheme)
	}
	if u.Hostname() != n.Hostname() {
		fail("host", u.Hostname(), n.Hostname())
	}
	if u.Port != n.Port() {
		fail("port", u.Port, n.Port())
	}
	if user, _ := u.DecodedUser(); n.User != nil && user != n.User.Username() {
		fail("user", user, n.User.Username())
	}
	if n.Opaque != "" {
		if u.Path != n.Opaque {
			fail("opaque path", u.Path, n.Opaque)
		}
	} else if p, _ := urlkit.PathUnescape(u.Path); p != n.Path {
		fail("path", p, n.Path)
	}
	if u.Query != n.RawQuery {
		fail("query", u.Query, n.RawQuery)
	}
	if f, _ := urlkit.PathUnescape(u.Fragment); f != n.Fragment {
		fail("fragment", f, n.Fragment)
	}
}
