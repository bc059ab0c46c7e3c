package resolver

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
// be absolute, and rule one Check accepts (the caller checks both).
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
	want := target.String()
	// The target itself is the last candidate. When it resolves to
	// itself, no longer candidate can win, so none is made: a base deep
	// in directories has a candidate per level, each longer than the last.
	limit := -1
	self := Resolve(nil, base, target, rule, nil, true)
	if self == want {
		limit = len(want)
	}
	var room [24]relativeCandidate // enough for most; a deep base needs more
	c := relativeCandidates(room[:0], base, target, want, rule, limit)
	if limit >= 0 {
		c = append(c, relativeCandidate{rest: want, isTarget: true})
	}
	// The first that resolves to the target in the order of length, then
	// of the list, is the shortest and, among those, the earliest. The
	// order is that of keys, each a candidate's length above its index
	// (lengths from 4 GiB up tie, and go in list order): sorting the
	// candidates themselves, 72 bytes each, took a fifth of the time of
	// relative over URLs of the base's own site.
	var keyRoom [len(room)]uint64
	keys := keyRoom[:0]
	for i := range c {
		keys = append(keys, uint64(min(c[i].len(), math.MaxUint32))<<32|uint64(i))
	}
	slices.Sort(keys)
	for _, k := range keys {
		cand := &c[uint32(k)]
		if cand.isTarget {
			return *target, nil
		}
		ref := split(cand.String())
		if s := Resolve(nil, base, &ref, rule, nil, true); s == want {
			return ref, nil
		}
	}
	why := ""
	if rule.kind() == Rule3986 && HasDotSegment(target.Path) {
		why = ": every result of RFC 3986 resolution has its dot segments removed (5.2.4)"
	}
	return URL{}, fmt.Errorf("urlkit: %q from %q under %v: %w%s", safetext.RedactURL(want), safetext.RedactURL(base.String()), rule, ErrUnreachable, why)
}

// A relativeCandidate is a reference Relative may return, kept in parts
// until it is tried, so that the candidates of a deep base take no more
// memory than the base: lead, then ups times "../" (the last one without
// its "/" when cut), then rest and suffix.
type relativeCandidate struct {
	lead         string
	ups          int
	cut          bool
	rest, suffix string
	isTarget     bool // the target itself, which resolves to itself
}

func (c *relativeCandidate) len() int {
	n := len(c.lead) + 3*c.ups + len(c.rest) + len(c.suffix)
	if c.cut {
		n--
	}
	return n
}

func (c *relativeCandidate) String() string {
	if c.lead == "" && c.ups == 0 && c.suffix == "" {
		return c.rest
	}
	var b strings.Builder
	b.Grow(c.len())
	b.WriteString(c.lead)
	for i := 0; i < c.ups; i++ {
		if c.cut && i == c.ups-1 {
			b.WriteString("..")
		} else {
			b.WriteString("../")
		}
	}
	b.WriteString(c.rest)
	b.WriteString(c.suffix)
	return b.String()
}

// relativeCandidates appends to c the references that may resolve to
// target, in the order of Relative's list but for the target itself, left
// to the caller. With a limit of 0 or more, the relative paths longer than
// limit are left out.
func relativeCandidates(c []relativeCandidate, base, target *URL, want string, rule Rule, limit int) []relativeCandidate {
	// want, the target's text, is its components and their delimiters
	// one after another: the parts of the candidates that come from the
	// target are slices of it, and the rest is joined only when tried.
	var f string // "#fragment" or ""
	if target.HasFragment {
		f = want[len(want)-1-len(target.Fragment):]
	}
	pathEnd := len(want) - len(f)
	if target.HasQuery {
		pathEnd -= 1 + len(target.Query)
	}
	qf := want[pathEnd:]                 // "?query#fragment", "?query", "#fragment" or ""
	pathAt := pathEnd - len(target.Path) // target.Path is want[pathAt:pathEnd]
	c = append(c, relativeCandidate{})
	add := func(s string) { c = append(c, relativeCandidate{rest: s}) }
	addJoined := func(lead, rest, suffix string) {
		c = append(c, relativeCandidate{lead: lead, rest: rest, suffix: suffix})
	}
	if target.HasFragment {
		add(f)
	}
	if rule.kind() == Rule1630 && !cleaned1630(target) {
		// Only the empty reference and a fragment are not cleaned.
		return c
	}
	if target.HasQuery {
		add(qf)
	}
	sameScheme := target.Scheme == base.Scheme
	var ta string
	if target.HasAuthority {
		ta = want[len(target.Scheme)+len("://") : pathAt]
	}
	ba, _ := base.Authority()
	if sameScheme && target.HasAuthority == base.HasAuthority && ta == ba {
		// mergeDir is the directory the rule merges a relative path with.
		dir := mergeBase(base)
		mergeDir := dir
		var bp parts1808
		if rule.kind() == Rule1808 {
			// RFC 1808 parses the base path without its params (2.4.5).
			bp = parse1808(base.String())
			mergeDir = bp.path[:strings.LastIndexByte(bp.path, '/')+1]
		}
		merges := mergeCanGive(target.Path, mergeDir, rule)
		// The merge's result is no longer than the merged paths, but for
		// what a rule may write (RFC 1808: the "/" and a "./" guard, three
		// bytes). Under RFC 1808 the base's params are not merged, so
		// its directory may be shorter than dir: the paths from dir that
		// no merge can lengthen enough are left out. (A base path of
		// params, "/a;p/a;p/...", had a candidate per level, each
		// resolved in time proportional to the target.)
		least := 0
		if rule.kind() == Rule1808 {
			least = len(target.Path) - len(mergeDir) - 4
		}
		if merges {
			c = appendRelativePaths(c, dir, target.Path, qf, limit, least)
			if HasDotSegment(dir) {
				// The merge removes the base's own dot segments too.
				c = appendRelativePaths(c, string(RemoveDotSegments([]byte(dir), nil, "")), target.Path, qf, limit, least)
			}
		}
		// ";params" alone: the base path up to the params of its last
		// segment, which a merge replaces; and under RFC 1808, whose
		// params start at the path's first ";" (2.4.5), up to that.
		if i := strings.LastIndexByte(target.Path, '/') + 1; strings.IndexByte(target.Path[i:], ';') >= 0 {
			p := target.Path[:i+strings.IndexByte(target.Path[i:], ';')]
			if strings.HasPrefix(base.Path, p) {
				add(want[pathAt+len(p):])
			}
		}
		if i := strings.IndexByte(target.Path, ';'); rule.kind() == Rule1808 && i >= 0 && i < strings.LastIndexByte(target.Path, '/') {
			if p := target.Path[:i]; strings.HasPrefix(base.Path, p) {
				add(want[pathAt+i:])
			}
		}
		// Dot segments alone: RFC 1630's "/." removal makes "." the
		// directory without its trailing slash, and "/." the empty path.
		addJoined("", ".", qf)
		addJoined("", "..", qf)
		if rule.kind() == Rule1630 && target.Path == "" {
			addJoined("", "/.", qf)
		}
		if rule.kind() == Rule1808 {
			// RFC 1808 tests the reference's params and query for being
			// non-empty (step 5): ";" and "?" inherit the base's.
			if merges {
				c = appendRelativePaths(c, slashPath(bp.slash, mergeDir), target.Path, qf, limit, least)
			}
			addJoined("", "?", f)
			addJoined("", ";", f)
		}
		switch {
		case strings.HasPrefix(target.Path, "//"):
			addJoined("/.", want[pathAt:], "")
		case strings.HasPrefix(target.Path, "/"):
			add(want[pathAt:])
		}
	}
	if sameScheme && target.HasAuthority {
		add(want[len(target.Scheme)+1:]) // "//" authority path query fragment
	}
	if rule.kind() == Rule1630 {
		c = appendTails1630(c, base, target, want)
	}
	return c
}

// appendTails1630 appends RFC 1630's candidates: the tails of the target
// that start with a run of slashes and can give it back. The rule keeps
// the base up to its first run of as many slashes (up to its ":" when it
// has none), appends the tail, and cleans the path, which only removes
// ("/." and "xxx/../"), but for the "/." it may write before a path that
// starts with "//". So:
//   - a tail that starts more than two bytes after what is kept gives a
//     result shorter than the target;
//   - when the tail's first element is not "." or "..", the cleaning
//     takes only from the kept part's path (with the tail's first slash
//     at most), and the tail must start where the cleaned kept part ends
//     (or two bytes after).
//
// (Each tail was resolved, in time proportional to the target: quadratic.)
func appendTails1630(c []relativeCandidate, base, target *URL, want string) []relativeCandidate {
	ctx := base.WithoutFragment()
	hier := ctx.String()
	if i := strings.IndexByte(hier, '?'); i >= 0 {
		hier = hier[:i]
	}
	// kept[n]: the length resolve1630's firstRun keeps for a tail that
	// starts with n slashes.
	kept := make(map[int]int)
	for i := len(base.Scheme) + 1; i < len(hier); {
		n := leadingSlashes(hier[i:])
		if n == 0 {
			i++
			continue
		}
		if _, ok := kept[n]; !ok {
			kept[n] = i
		}
		i += n
	}
	pathAt := len(base.Scheme) + 1
	if a, ok := ctx.Authority(); ok {
		pathAt += 2 + len(a)
	}
	pathAt = min(pathAt, len(hier))
	end := len(want)
	if i := strings.IndexAny(want, "?#"); i >= 0 {
		end = i
	}
	// dotDotsCanGive: whether a tail at i that starts a run of "/.."
	// (single slashes) gives a path as long as the target's (or two bytes
	// longer, for the "/." before "//"), with the kept part k. The climb
	// through clean(kept path + "/") is computed once per k (popLengths),
	// and the length of each run from its end.
	//
	// climb(k)[0] is also the length of clean(kept path + "/") when a
	// tail follows whose first element is not "." or "..". Such a tail's
	// bytes, but its first slash, take no part in a removal: each needs a
	// "." or ".." element, and those of the tail are where they are in
	// the target, whose path the cleaning leaves as it is (cleaned1630;
	// "/." before "//" starts a tail whose first element is "."). So the
	// cleaning gives clean(kept path + "/") and the tail after its first
	// slash.
	climbs := make(map[int][]int)
	climb := func(k int) (ps int, lens []int) {
		ps = min(pathAt, k) // where the result's path starts
		lens, ok := climbs[k]
		if !ok {
			lens = popLengths(cleanDots1630(hier[ps:k] + "/"))
			climbs[k] = lens
		}
		return ps, lens
	}
	var runs []int // runs[i]: the "/.." elements in a row from i
	dotDotsCanGive := func(i, k int) bool {
		ps, lens := climb(k)
		if runs == nil {
			runs = make([]int, end+1)
			for j := end - 3; j >= 0; j-- {
				if want[j] == '/' && want[j+1] == '.' && want[j+2] == '.' && (j+3 == end || want[j+3] == '/') && (j == 0 || want[j-1] != '/') {
					runs[j] = 1 + runs[j+3]
				}
			}
		}
		m := runs[i]
		length, pushed := 0, m >= len(lens)
		if pushed {
			length = lens[len(lens)-1] + 3*(m-len(lens)+1)
		} else {
			length = lens[m]
		}
		if rest := end - (i + 3*m); rest > 0 {
			length += rest - 1
		} else if pushed {
			length-- // a final ".." that stays has no "/" after it
		}
		need := end - ps
		return length == need || length+2 == need
	}
	for i := len(target.Scheme) + 1; i < end; i++ {
		if want[i] != '/' || want[i-1] == '/' {
			continue
		}
		n := leadingSlashes(want[i:end])
		k, ok := kept[n]
		if !ok {
			k = len(base.Scheme) + 1
		}
		if i > k+2 {
			continue
		}
		first := want[i+n : end]
		if j := strings.IndexByte(first, '/'); j >= 0 {
			first = first[:j]
		}
		switch {
		case first != "." && (first != ".." || n > 1):
			// (A ".." after two slashes or more is neither the ".." nor
			// the xxx of a removal.) The result is as long as the target
			// only when the tail starts where the cleaned kept part ends,
			// or two bytes after: the "/." before "//".
			ps, lens := climb(k)
			if at := ps + lens[0] - 1; i != at && i != at+2 {
				continue
			}
		case first == "..":
			// A run of "/.." climbs into the kept part, and what follows
			// the run takes no part: the result's path is clean(kept path
			// + "/" + "../" for each) and the rest of the tail after its
			// first slash.
			if !dotDotsCanGive(i, k) {
				continue
			}
		}
		c = append(c, relativeCandidate{rest: want[i:]})
	}
	return c
}

// popLengths returns the lengths of y, a cleaned path that ends in a
// slash, after each "../" appended to it takes its last element away
// (RFC 1630: "xxx/../", xxx not ".." and after one slash at most), as
// many as can: lens[j] after j of them. A "../" beyond those stays,
// three bytes longer each.
func popLengths(y string) []int {
	lens := []int{len(y)}
	pos := len(y)
	for pos > 0 && y[pos-1] == '/' {
		pos--
	}
	slashes := len(y) - pos // before the next ".."
	for slashes == 1 && pos > 0 {
		start := strings.LastIndexByte(y[:pos], '/') + 1
		before := 0
		for before < start && y[start-1-before] == '/' {
			before++
		}
		if before > 1 || y[start:pos] == ".." {
			break
		}
		// y[:start-before] and the slashes before the element stay.
		lens = append(lens, start)
		slashes, pos = before, start-before
	}
	return lens
}

// appendRelativePaths appends the relative-path references from the base
// directory dir to the path tpath: the part of tpath below dir, or below
// one of dir's ancestors with as many "../" as levels climbed. Each level
// makes the references longer; with a limit of 0 or more, the climb ends
// where they would be longer than limit.
//
// A reference whose path is shorter than least is left out: one the
// merge cannot lengthen enough to give tpath.
func appendRelativePaths(c []relativeCandidate, dir, tpath, suffix string, limit, least int) []relativeCandidate {
	// Each level's prefix is a prefix of the last one's: it is one of
	// tpath's when it is no longer than what dir and tpath share.
	common := 0
	for common < len(dir) && common < len(tpath) && dir[common] == tpath[common] {
		common++
	}
	prefix := dir
	for ups := 0; ; ups++ {
		// The shortest reference this level or a higher one can give:
		// ".." and the suffix at the least.
		if limit >= 0 && 3*ups-1+max(len(tpath)-len(prefix), 0)+len(suffix) > limit {
			return c
		}
		// The longest path this level gives: "./" and the rest.
		if len(prefix) <= common && 3*ups+len(tpath)-len(prefix)+2 >= least {
			rest := tpath[len(prefix):]
			switch {
			case rest == "" && ups == 0:
				c = append(c, relativeCandidate{lead: ".", suffix: suffix}, relativeCandidate{lead: "./", suffix: suffix})
			case rest == "":
				c = append(c, relativeCandidate{ups: ups, cut: true, suffix: suffix}, relativeCandidate{ups: ups, suffix: suffix})
			case ups == 0:
				// A first segment with ":" would read as a scheme (RFC 3986
				// 4.2), one starting with "/" as an absolute path.
				first, _, _ := strings.Cut(rest, "/")
				if !strings.Contains(first, ":") && first != "" {
					c = append(c, relativeCandidate{rest: rest, suffix: suffix})
				}
				c = append(c, relativeCandidate{lead: "./", rest: rest, suffix: suffix})
			default:
				c = append(c, relativeCandidate{ups: ups, rest: rest, suffix: suffix})
			}
		}
		if prefix == "" || prefix == "/" {
			return c
		}
		i := strings.LastIndexByte(prefix[:len(prefix)-1], '/')
		prefix = prefix[:i+1]
	}
}

// cleaned1630 reports whether target's path can be the result of RFC
// 1630's cleaning, which every reference but the empty one, a fragment
// and an absolute URL goes through: a path it leaves as it is, or "/."
// written before one that starts with "//" when there is no authority.
func cleaned1630(target *URL) bool {
	p := target.Path
	if !target.HasAuthority && strings.HasPrefix(p, "/.//") {
		p = p[2:]
	}
	return cleanDots1630(p) == p
}

// mergeCanGive tells whether path can be the path of a resolution's
// result under rule when the reference has a relative path, which is
// merged with the base's directory dir. The candidates are resolved
// anyway; this spares Relative the relative paths from a base deep in
// directories, a candidate per level, each resolved in time proportional
// to the base, when none of them can give path.
//
// RFC 3986 removes the dot segments of every path it resolves (5.2.4).
// RFC 2396 and 1808 process a merged path with dotSteps, whose results
// are the paths it leaves as they are; the ".." that start dir's own
// result stay, so the path starts with at least as many. RFC 1808 does so
// before the params, which start at the path's first ";" (2.4.5), and
// without the "/" before the path. All three may then write "/." before a
// path starting with "//" (RFC 3986 3.3). RFC 1630 is not ruled on.
func mergeCanGive(path, dir string, rule Rule) bool {
	if rule.kind() == Rule1630 {
		return true
	}
	if rule.kind() == Rule1808 {
		path, _, _ = strings.Cut(path, ";")
	}
	if p, ok := strings.CutPrefix(path, "/."); ok && strings.HasPrefix(p, "//") {
		path = p
	}
	switch rule.kind() {
	case Rule3986:
		return !HasDotSegment(path)
	case Rule1808:
		path = strings.TrimPrefix(path, "/")
	}
	if dotSteps(path, nil, "", [4]string{}) != path {
		return false
	}
	stays := dotSteps(dir, nil, "", [4]string{})
	return leadingDotDots(strings.TrimPrefix(path, "/")) >= leadingDotDots(strings.TrimPrefix(stays, "/"))
}

// leadingDotDots counts the ".." segments that start path.
func leadingDotDots(path string) int {
	n := 0
	for path == ".." || strings.HasPrefix(path, "../") {
		n++
		path = path[min(3, len(path)):]
	}
	return n
}
