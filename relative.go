package urlkit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/safetext"
)

// ErrUnreachable is the cause of Relative's error when no reference
// resolves to the target under the rule: for example a target with dot
// segments under Rule3986, whose results never have any.
var ErrUnreachable = errors.New("no reference resolves to the target")

// Relative returns the shortest reference that Resolve, with the same
// base and rule, turns back into target: Resolve(base, Relative(base,
// target, rule), rule) prints exactly as target does. base and target must
// be absolute.
//
// The candidates are every form a reference can take: the empty
// reference, "#fragment", "?query", relative paths (with "./" where the
// first segment holds a ":" or would start with "/", and "../" as many
// times as needed), ";params" for Rule1808, an absolute path, a network
// path "//authority/path", for Rule1630 every tail of the target that
// starts with a run of slashes, and the target itself. Each is resolved,
// and the shortest that gives the target back wins (the earlier in that
// list on a tie). When none does, not even the target itself (Rule3986
// removes the dot segments of every result, so "http://a/b/../c" is out of
// its reach), the error wraps ErrUnreachable.
func Relative(base, target *URL, rule Rule) (URL, error) {
	if err := rule.check(); err != nil {
		return URL{}, err
	}
	if base.Scheme == "" {
		return URL{}, &Error{Op: "relative", Input: safetext.RedactURL(base.String()), Offset: 0, Err: ErrMissingScheme,
			Rule: "the base URL must be absolute: it has no scheme (RFC 3986 5.1)"}
	}
	want := target.String()
	if target.Scheme == "" {
		return URL{}, &Error{Op: "relative", Input: safetext.RedactURL(want), Offset: 0, Err: ErrMissingScheme,
			Rule: "the target must be an absolute URL: it has no scheme"}
	}
	best, found := "", false
	for _, c := range relativeCandidates(base, target, want, rule) {
		if found && len(c) >= len(best) {
			continue
		}
		ref := split(c)
		if s, _ := resolve(nil, base, &ref, rule, nil, true); s == want {
			best, found = c, true
		}
	}
	if found {
		return split(best), nil
	}
	if s, _ := resolve(nil, base, target, rule, nil, true); s == want {
		return *target, nil
	}
	why := ""
	if rule.kind() == Rule3986 && hasDotSegment(target.Path) {
		why = ": every result of RFC 3986 resolution has its dot segments removed (5.2.4)"
	}
	return URL{}, fmt.Errorf("urlkit: %q from %q under %v: %w%s", safetext.RedactURL(want), safetext.RedactURL(base.String()), rule, ErrUnreachable, why)
}

// relativeCandidates lists the references that may resolve to target,
// roughly shortest first; the full target is left to the caller.
func relativeCandidates(base, target *URL, want string, rule Rule) []string {
	var qf, f string
	if target.HasQuery {
		qf = "?" + target.Query
	}
	if target.HasFragment {
		f = "#" + target.Fragment
		qf += f
	}
	c := []string{""}
	if target.HasFragment {
		c = append(c, f)
	}
	if target.HasQuery {
		c = append(c, qf)
	}
	sameScheme := target.Scheme == base.Scheme
	ta, _ := target.Authority()
	ba, _ := base.Authority()
	if sameScheme && target.HasAuthority == base.HasAuthority && ta == ba {
		dir := mergeBase(base)
		c = appendRelativePaths(c, dir, target.Path, qf)
		if hasDotSegment(dir) {
			// The merge removes the base's own dot segments too.
			c = appendRelativePaths(c, string(removeDotSegments([]byte(dir), nil, "")), target.Path, qf)
		}
		// RFC 1808's ";params" alone: the base path up to its params.
		if i := strings.LastIndexByte(target.Path, '/') + 1; strings.IndexByte(target.Path[i:], ';') >= 0 {
			p := target.Path[:i+strings.IndexByte(target.Path[i:], ';')]
			if strings.HasPrefix(base.Path, p) {
				c = append(c, target.Path[len(p):]+qf)
			}
		}
		// Dot segments alone: RFC 1630's "/." removal makes "." the
		// directory without its trailing slash.
		c = append(c, "."+qf, ".."+qf)
		if rule.kind() == Rule1808 {
			// RFC 1808 parses the base path without its params (2.4.5),
			// and tests the reference's params and query for being
			// non-empty (step 5): ";" and "?" inherit the base's.
			bp := parse1808(base.String())
			dir := slashPath(bp.slash, bp.path[:strings.LastIndexByte(bp.path, '/')+1])
			c = appendRelativePaths(c, dir, target.Path, qf)
			c = append(c, "?"+f, ";"+f)
		}
		switch {
		case strings.HasPrefix(target.Path, "//"):
			c = append(c, "/."+target.Path+qf)
		case strings.HasPrefix(target.Path, "/"):
			c = append(c, target.Path+qf)
		}
	}
	if sameScheme && target.HasAuthority {
		c = append(c, "//"+ta+target.Path+qf)
	}
	if rule.kind() == Rule1630 {
		// Every tail that starts with a run of slashes, before the query.
		end := len(want)
		if i := strings.IndexAny(want, "?#"); i >= 0 {
			end = i
		}
		for i := len(target.Scheme) + 1; i < end; i++ {
			if want[i] == '/' && want[i-1] != '/' {
				c = append(c, want[i:])
			}
		}
	}
	return c
}

// appendRelativePaths appends the relative-path references from the base
// directory dir to the path tpath: the part of tpath below dir, or below
// one of dir's ancestors with as many "../" as levels climbed.
func appendRelativePaths(c []string, dir, tpath, suffix string) []string {
	prefix := dir
	for ups := ""; ; ups += "../" {
		if rest, ok := strings.CutPrefix(tpath, prefix); ok {
			switch {
			case rest == "" && ups == "":
				c = append(c, "."+suffix, "./"+suffix)
			case rest == "":
				c = append(c, ups[:len(ups)-1]+suffix, ups+suffix)
			case ups == "":
				// A first segment with ":" would read as a scheme (RFC 3986
				// 4.2), one starting with "/" as an absolute path.
				first, _, _ := strings.Cut(rest, "/")
				if !strings.Contains(first, ":") && first != "" {
					c = append(c, rest+suffix)
				}
				c = append(c, "./"+rest+suffix)
			default:
				c = append(c, ups+rest+suffix)
			}
		}
		if prefix == "" || prefix == "/" {
			return c
		}
		i := strings.LastIndexByte(prefix[:len(prefix)-1], '/')
		prefix = prefix[:i+1]
	}
}
