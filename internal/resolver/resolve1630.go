package resolver

import (
	"bytes"
	"strings"
)

// resolve1630 is RFC 1630's partial-form rule; see Rule1630.
func resolve1630(out, base, ref *URL, t *Trace, text bool) string {
	if ref.Scheme != "" {
		t.absolute1630()
		return copyOf(out, ref, text)
	}
	ctx := base.WithoutFragment()
	cs := ctx.String()
	rs := ref.String()
	schemeLen := len(base.Scheme)
	rpart := rs
	if i := strings.IndexByte(rs, '#'); i >= 0 {
		rpart = rs[:i]
	}
	if rpart == "" {
		t.sameDocument1630(cs, ref.Fragment, ref.HasFragment)
		s := cs + rs
		*out = split(s)
		return s
	}
	hier := cs
	if i := strings.IndexByte(cs, '?'); i >= 0 {
		hier = cs[:i]
	}
	if n := leadingSlashes(rpart); n > 0 {
		p := firstRun(hier, schemeLen+1, n)
		var s string
		if p < 0 {
			s = cs[:schemeLen+1] + rs
			t.noRun1630(n, cs, cs[:schemeLen+1])
		} else {
			s = cs[:p] + rs
			t.run1630(n, cs[:p])
		}
		return clean1630(out, s, t)
	}
	pathAt := schemeLen + 1
	if a, ok := ctx.Authority(); ok {
		pathAt += 2 + len(a)
	}
	path := ctx.Path
	var kept, last string
	switch i := strings.LastIndexByte(path, '/'); {
	case i >= 0:
		kept, last = cs[:pathAt+i+1], path[i+1:]
	case ctx.HasAuthority:
		kept = cs[:pathAt] + "/"
		t.slashAfterAuthority1630()
	default:
		kept, last = cs[:pathAt], path
	}
	t.lastElement1630(path, last, kept, rs)
	return clean1630(out, kept+rs, t)
}

// clean1630 applies the last step of the partial-form rule to the joined
// string s, whichever way it was joined (CLI.md: "Then /. and xxx/../ are
// removed repeatedly, inside the path only"), and splits the result.
func clean1630(out *URL, s string, t *Trace) string {
	u := split(s) // its Written is s, where the path lies
	at := u.pathAt()
	end := at + len(u.Path)
	clean := removeDots1630(s[at:end], t)
	if !u.HasAuthority && strings.HasPrefix(clean, "//") {
		clean = "/." + clean
		t.SlashDotWritten()
	}
	if len(clean) == end-at {
		*out = u // nothing removed or written: s as split already
		return s
	}
	s = s[:at] + clean + s[end:]
	*out = split(s)
	return s
}

func leadingSlashes(s string) int {
	n := 0
	for n < len(s) && s[n] == '/' {
		n++
	}
	return n
}

// firstRun returns the offset in s, from i on, of the first run of exactly
// n slashes, or -1.
func firstRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '/' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '/' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// removeDots1630 removes "/." and "xxx/../" (and a final "xxx/..")
// repeatedly, leftmost first, from path; see Rule1630. Explained, it
// goes step by step (removeDots1630Steps), as the trace shows the path
// after each removal; otherwise in one pass (cleanDots1630), which gives
// the same path.
func removeDots1630(path string, t *Trace) string {
	if t == nil {
		return cleanDots1630(path)
	}
	return removeDots1630Steps(path, t)
}

// cleanDots1630 is removeDots1630 in one pass over path's elements. The
// output holds the elements passed, clear of the two patterns; a removal
// changes only what follows the element before it, so the leftmost
// pattern is always at the output's end, and each element is written
// once and taken back at most once. (Scanning again from the start after
// each removal, and copying the path, was quadratic: a 140 KB reference
// took 1.4 s.)
//
// The patterns, in elements: a "." with a slash before it (a "/." is a
// complete element whatever follows: a slash or the end); an element
// xxx, not "..", with at most one slash before it (two or more protect
// it), followed by exactly one slash and "..".
func cleanDots1630(path string) string {
	if firstDotSegment(path) < 0 {
		return path // no "." or ".." element: nothing to remove, nothing to copy
	}
	out := make([]byte, 0, len(path))
	// After a removal, the slashes left (carry) join those before the
	// next element, less one when "xxx/../" took the one after "..".
	carry, less, removed := 0, 0, false
	for i := 0; ; {
		if !removed {
			// Up to the slashes before the next element with a ".", the
			// elements are written as they are.
			d := strings.IndexByte(path[i:], '.')
			if d < 0 {
				return string(append(out, path[i:]...))
			}
			if r := i + strings.LastIndexByte(path[i:i+d], '/'); r >= i {
				for r > i && path[r-1] == '/' {
					r--
				}
				out, i = append(out, path[i:r]...), r
			}
		}
		n := leadingSlashes(path[i:])
		i += n
		if removed {
			n, removed = carry+max(n-less, 0), false
		}
		if i == len(path) {
			return string(appendSlashes(out, n))
		}
		j := i + strings.IndexByte(path[i:], '/')
		if j < i {
			j = len(path)
		}
		text := path[i:j]
		i = j
		if text == "." && n >= 1 { // "/.": the "." and the slash before it
			carry, less, removed = n-1, 0, true
			continue
		}
		if text == ".." && n == 1 && len(out) > 0 {
			// The last element written: out[at:], after k slashes.
			at := bytes.LastIndexByte(out, '/') + 1
			k := 0
			for k < at && out[at-1-k] == '/' {
				k++
			}
			if k <= 1 && string(out[at:]) != ".." { // "xxx/../"
				carry, less, removed = k, 1, true
				out = out[:at-k]
				continue
			}
		}
		out = append(appendSlashes(out, n), text...)
	}
}

func appendSlashes(b []byte, n int) []byte {
	for range n {
		b = append(b, '/')
	}
	return b
}

// removeDots1630Steps is removeDots1630 one removal at a time, the
// trace told of each.
func removeDots1630Steps(path string, t *Trace) string {
	for {
		at, end := -1, 0
		xxx, final := "", false // the element removed with "/..", and whether it ends the path
		var protected []string
		for i := 0; i < len(path); i++ {
			// "/." where "." is a complete element.
			if path[i] == '/' && i+1 < len(path) && path[i+1] == '.' && (i+2 == len(path) || path[i+2] == '/') {
				at, end = i, i+2
				break
			}
			// xxx/../ where xxx is a complete element, not "..", not after
			// a run of two or more slashes.
			if path[i] == '/' || i > 0 && path[i-1] != '/' {
				continue
			}
			j := i
			for j < len(path) && path[j] != '/' {
				j++
			}
			elem := path[i:j]
			if elem == ".." || j+3 > len(path) || path[j+1:j+3] != ".." || j+3 < len(path) && path[j+3] != '/' {
				continue
			}
			if i >= 2 && path[i-2] == '/' {
				protected = append(protected, elem)
				continue
			}
			at, end, xxx, final = i, j+4, elem, j+3 == len(path)
			if final {
				end = j + 3
			}
			break
		}
		if at < 0 {
			t.kept1630(protected)
			return path
		}
		path = path[:at] + path[end:]
		t.removed1630(xxx, final, path)
	}
}
