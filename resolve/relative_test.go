package resolve_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/resolve"
)

type relativeCase struct {
	base, target, want string
}

var relativeCases = map[resolve.Rule][]relativeCase{
	resolve.Rule3986: {
		{base3986, "http://a/b/c/d;p?q", ""},
		{base3986, "http://a/b/c/d;p?q#s", "#s"},
		{base3986, "http://a/b/c/d;p?y", "?y"},
		{base3986, "http://a/b/c/d;p", "d;p"},
		{base3986, "http://a/b/c/g", "g"},
		{base3986, "http://a/b/c/", "."},
		{base3986, "http://a/b/", ".."},
		{base3986, "http://a/b/g", "../g"},
		{base3986, "http://a/", "/"},
		{base3986, "http://a/g", "/g"},
		{base3986, "http://a/b/c/g:h", "./g:h"},
		{base3986, "http://a/b/c//g", ".//g"},
		{base3986, "http://a//g", "/.//g"},
		{base3986, "http://g/", "//g/"},
		{base3986, "http://g", "//g"},
		{base3986, "https://a/b/c/g", "https://a/b/c/g"},
		{base3986, "HTTP://a/b/c/g", "HTTP://a/b/c/g"},
		{"http://a", "http://a/g", "g"},
		{"mailto:joe@example.com", "mailto:ann@example.com", "ann@example.com"},
		{"news:comp.infosystems.www", "news:comp.lang.go", "comp.lang.go"},
		// The target itself is shorter than "../../../../../../c".
		{"urn:a/b/d/e/f/g/h/i/j", "urn:a/b/c", "urn:a/b/c"},
	},
	resolve.Rule2396: {
		{base3986, "http://a/b/c/d;p?q#s", "#s"},
		{base3986, "http://a/b/c/?y", "?y"},
		{base3986, "http://a/b/c/d;p?y", "d;p?y"},
		{base3986, "http://a/../g", "/../g"},
		{base3986, "http://a/./g", "/./g"},
	},
	resolve.Rule1808: {
		{base1808, "http://a/b/c/d;p?q#f", ""},
		{base1808, "http://a/b/c/d;p?q", "?"},
		{base1808, "http://a/b/c/d;p?q#s", "#s"},
		{"ftp://h/a;type=d/b", "ftp://h/c", "c"},
		{base1808, "http://a/b/c/d;x", ";x"},
		{base1808, "http://a/b/c/d;p?y", "?y"},
		{base1808, "http://a/b/c/g;x=1/../y", "g;x=1/../y"},
		// RFC 1808 merges without the "/" before the path: "/.." is left.
		{"http://a//", "http://a//..", ".."},
		// "?" inherits the base's path, ".", which no merge leaves.
		{"urn:.#", "urn:.", "?"},
		// RFC 1808's params start at the path's first ";" (2.4.5).
		{base1808, "http://a/b/c/d;p/", ";p/"},
		{base1808, "http://a/b/c/d;p/x/y", ";p/x/y"},
	},
	resolve.Rule1630: {
		{magicF, "magic://a/b/c//d/e/g", "g"},
		{magicF, "magic://a/g", "/g"},
		{magicF, "magic://g", "//g"},
		{magicF, "magic://a/b/c//d/g", "../g"},
		{magicF, "magic://a/b/c//d/e", "."},
		{magicF, "magic://a/b/c//d/e/", "./"},
		{magicF, "magic://a/b/c//d/x", "../x"},
		// "/." is cleaned away: the empty path.
		{"http://a/b/", "http://a?q", "/.?q"},
	},
}

func TestRelative(t *testing.T) {
	for rule, cases := range relativeCases {
		for _, tc := range cases {
			base, _, _ := urlkit.ParseMode(tc.base, urlkit.RFC3986)
			target, _, err := urlkit.ParseMode(tc.target, urlkit.RFC3986)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := resolve.Relative(&base, &target, rule)
			if err != nil {
				t.Errorf("%v: Relative(%q, %q): %v", rule, tc.base, tc.target, err)
				continue
			}
			if s := ref.String(); s != tc.want {
				t.Errorf("%v: Relative(%q, %q) = %q, want %q", rule, tc.base, tc.target, s, tc.want)
			}
			back, _ := resolve.Resolve(&base, &ref, rule)
			if back.String() != tc.target {
				t.Errorf("%v: round trip %q -> %q -> %q", rule, tc.target, ref.String(), back.String())
			}
		}
	}
}

// TestRelativeRFCExamples turns every RFC example around: the reference
// Relative finds for the example's result resolves back to it and is no
// longer than the RFC's own reference.
func TestRelativeRFCExamples(t *testing.T) {
	sets := []struct {
		rule  resolve.Rule
		cases []resolveCase
	}{
		{resolve.Rule3986, rfc3986Cases}, {resolve.Rule3986 | resolve.Compat, rfc3986Compat},
		{resolve.Rule2396, rfc2396Cases}, {resolve.Rule2396 | resolve.Compat, rfc2396Compat},
		{resolve.Rule1808, rfc1808Cases}, {resolve.Rule1630, rfc1630Cases},
	}
	for _, set := range sets {
		for _, tc := range set.cases {
			base, _, _ := urlkit.ParseMode(tc.base, urlkit.RFC3986)
			target, _, _ := urlkit.ParseMode(tc.want, urlkit.RFC3986)
			ref, err := resolve.Relative(&base, &target, set.rule)
			if err != nil {
				t.Errorf("%s %v: Relative(%q, %q): %v", tc.section, set.rule, tc.base, tc.want, err)
				continue
			}
			back, _ := resolve.Resolve(&base, &ref, set.rule)
			if back.String() != tc.want {
				t.Errorf("%s %v: %q -> %q -> %q", tc.section, set.rule, tc.want, ref.String(), back.String())
			}
			// The guard of a url URL writes an escape the RFC's reference
			// did not have, which Relative's reference has too.
			if len(ref.String()) > len(tc.ref) && !strings.HasPrefix(tc.section, "RFC 1738 appendix (guard)") {
				t.Errorf("%s %v: Relative gives %q for %q, longer than the RFC's %q", tc.section, set.rule, ref.String(), tc.want, tc.ref)
			}
		}
	}
}

// TestRelativeDeepBase: a base with tens of thousands of directory
// levels has a candidate reference per level, each longer than the last
// and each resolved against the whole base; making and trying them all
// allocated gigabytes (4.3 GB for the unreachable case here) and took
// seconds to minutes. Relative makes none longer than the target and none
// that cannot give the target's path, and tries them shortest first.
func TestRelativeDeepBase(t *testing.T) {
	const n = 20000
	slashes := "http:" + strings.Repeat("/", n)
	as := "http://h" + strings.Repeat("/a", n)
	dots := "http://h" + strings.Repeat("/..", n)
	fewerDots := strings.Repeat("/..", n/2) + "/c"
	params := "http://h" + strings.Repeat("/a;p", n)
	cases := []struct {
		rule         resolve.Rule
		base, target string
		want         string // "" for ErrUnreachable
	}{
		{resolve.Rule3986, slashes + "./", slashes + "c", "c"},
		{resolve.Rule2396, slashes + "./", slashes + "c", "c"},
		{resolve.Rule1808, slashes + "./", slashes + "c", "c"},
		{resolve.Rule1630, slashes + "./", slashes + "c", "c"},
		{resolve.Rule3986 | resolve.Compat, slashes + "./", slashes + "c", "c"},
		{resolve.Rule3986, slashes + "./", slashes + "../c", ""},
		{resolve.Rule3986, as + "/./", as + "/../c", ""},
		{resolve.Rule2396 | resolve.Compat, as + "/./", as + "/../c", as[len("http://h"):] + "/../c"},
		{resolve.Rule3986, as + "/x", as[:len(as)-n*4/5] + "/c", strings.Repeat("../", n*2/5) + "c"},
		// RFC 2396 and 1808 keep the ".." that start a merged path.
		{resolve.Rule2396, dots + "/x", "http://h" + fewerDots, fewerDots},
		{resolve.Rule1808, dots + "/x", "http://h" + fewerDots, fewerDots},
		// RFC 1630 tries the target's tails that start with a slash: only
		// those the part of the base it keeps can reach.
		{resolve.Rule1630, "http://h/x", as, as[len("http://h/"):]},
		{resolve.Rule1630, "http://h/x", as + "/./b", as + "/./b"},
		// A path RFC 1630's cleaning would change: only the target itself.
		{resolve.Rule1630, as + "/x", as + "/b/../c", as + "/b/../c"},
		// The part of the base RFC 1630 keeps for a single slash is long,
		// with a "." to clean: only one tail can start where it ends.
		{resolve.Rule1630, "http://h//." + strings.Repeat("//a", n/2) + "/x", as, as[len("http:"):]},
		{resolve.Rule1630, "http://h//." + strings.Repeat("//a", n/2) + "/x", as + "/b.c", as[len("http:"):] + "/b.c"},
		// A run of "/.." climbs into that part: its length is counted.
		{resolve.Rule1630, "http://h//." + strings.Repeat("//a", n/2) + "/x", "http://h" + strings.Repeat("/..", n), "//h" + strings.Repeat("/..", n)},
		// RFC 1808 merges the base's path without its params, here "/a",
		// and a reference of params alone keeps it whole (2.4.5).
		{resolve.Rule1808, "http://h" + strings.Repeat("/a;p", n/4), params, params[len("http://h/a"):]},
	}
	for _, tc := range cases {
		base, _, err := urlkit.ParseMode(tc.base, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		target, _, err := urlkit.ParseMode(tc.target, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ref, err := resolve.Relative(&base, &target, tc.rule)
		runtime.ReadMemStats(&after)
		if tc.want == "" {
			if !errors.Is(err, resolve.ErrUnreachable) {
				t.Errorf("%v %.20s...: %v, want ErrUnreachable", tc.rule, tc.target, err)
			}
		} else if err != nil || ref.String() != tc.want {
			t.Errorf("%v %.20s...: %.20q... (%d bytes) %v, want %.20q... (%d bytes)", tc.rule, tc.target, ref.String(), len(ref.String()), err, tc.want, len(tc.want))
		}
		if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 64 {
			t.Errorf("%v %.20s...: %.0f MiB allocated for a %d-byte base", tc.rule, tc.target, mb, len(tc.base))
		}
	}
}

func TestRelativeErrors(t *testing.T) {
	base, _, _ := urlkit.ParseMode(base3986, urlkit.RFC3986)
	dotted, _, _ := urlkit.ParseMode("http://a/b/../c", urlkit.RFC3986)
	_, err := resolve.Relative(&base, &dotted, resolve.Rule3986)
	if !errors.Is(err, resolve.ErrUnreachable) {
		t.Errorf("dot segments under rfc3986: %v", err)
	}
	want := `urlkit: "http://a/b/../c" from "http://a/b/c/d;p?q" under rfc3986: no reference resolves to the target: every result of RFC 3986 resolution has its dot segments removed (5.2.4)`
	if err == nil || err.Error() != want {
		t.Errorf("message %v\nwant    %s", err, want)
	}
	// RFC 2396 takes an absolute path as it is: the same target is reachable.
	if ref, err := resolve.Relative(&base, &dotted, resolve.Rule2396); err != nil || ref.String() != "/b/../c" {
		t.Errorf("rfc2396: %v %v", ref, err)
	}
	rel, _, _ := urlkit.ParseReference("g", urlkit.RFC3986)
	if _, err := resolve.Relative(&base, &rel, resolve.Rule3986); !errors.Is(err, urlkit.ErrMissingScheme) {
		t.Errorf("relative target: %v", err)
	}
	if _, err := resolve.Relative(&rel, &base, resolve.Rule3986); !errors.Is(err, urlkit.ErrMissingScheme) {
		t.Errorf("relative base: %v", err)
	}
	if _, err := resolve.Relative(&base, &base, resolve.Rule1630|resolve.Compat); !errors.Is(err, resolve.ErrCompat) {
		t.Errorf("compat: %v", err)
	}
}

// FuzzRelative: for every rule, the reference Relative gives for a result
// of Resolve resolves back to it, and when Relative succeeds for any
// absolute target, the round trip holds.
func FuzzRelative(f *testing.F) {
	for _, cases := range [][]resolveCase{rfc3986Cases, rfc1808Cases, rfc1630Cases} {
		for _, tc := range cases {
			f.Add(tc.base, tc.ref, tc.want)
		}
	}
	f.Fuzz(func(t *testing.T, bs, rs, ts string) {
		base, _, err := urlkit.ParseMode(bs, urlkit.RFC3986)
		if err != nil || base.Scheme == "" {
			return
		}
		rules := []resolve.Rule{resolve.Rule3986, resolve.Rule3986 | resolve.Compat, resolve.Rule2396, resolve.Rule1808, resolve.Rule1630}
		if ref, _, err := urlkit.ParseReference(rs, urlkit.RFC3986); err == nil {
			for _, rule := range rules {
				target, _ := resolve.Resolve(&base, &ref, rule)
				roundTrip(t, &base, &target, rule, true)
			}
		}
		if target, _, err := urlkit.ParseMode(ts, urlkit.RFC3986); err == nil && target.Scheme != "" {
			for _, rule := range rules {
				roundTrip(t, &base, &target, rule, false)
			}
		}
	})
}

func roundTrip(t *testing.T, base, target *urlkit.URL, rule resolve.Rule, mustReach bool) {
	t.Helper()
	ref, err := resolve.Relative(base, target, rule)
	if err != nil {
		if mustReach || !errors.Is(err, resolve.ErrUnreachable) {
			t.Fatalf("%v: Relative(%q, %q): %v", rule, base.String(), target.String(), err)
		}
		return
	}
	back, err := resolve.Resolve(base, &ref, rule)
	if err != nil || back.String() != target.String() {
		t.Fatalf("%v: base %q: %q -> %q -> %q (%v)", rule, base.String(), target.String(), ref.String(), back.String(), err)
	}
}

func ExampleRelative() {
	base, _ := urlkit.Parse("http://a/b/c/d;p?q")
	for _, s := range []string{"http://a/b/c/g", "http://a/b/g?y", "http://a/g", "http://a/b/c/d;p?q#s", "ftp://a/b"} {
		target, _ := urlkit.Parse(s)
		ref, _ := resolve.Relative(&base, &target, resolve.Rule3986)
		fmt.Printf("%-22s %s\n", s, ref.String())
	}
	// Output:
	// http://a/b/c/g         g
	// http://a/b/g?y         ../g?y
	// http://a/g             /g
	// http://a/b/c/d;p?q#s   #s
	// ftp://a/b              ftp://a/b
}
