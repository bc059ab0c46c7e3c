package urlkit

import "strings"

// resolve1630 is RFC 1630's partial-form rule; see Rule1630.
func resolve1630(out, base, ref *URL, t *trace, text bool) string {
	if ref.Scheme != "" {
		t.absolute1630()
		return copyOf(out, ref, text)
	}
	ctx := *base
	ctx.HasFragment, ctx.Fragment = false, ""
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
func clean1630(out *URL, s string, t *trace) string {
	u := split(s)
	o := u.Offsets()
	end := o.Path + len(u.Path)
	clean := removeDots1630(s[o.Path:end], t)
	if !u.HasAuthority && strings.HasPrefix(clean, "//") {
		clean = "/." + clean
		t.slashDotWritten()
	}
	if len(clean) != end-o.Path {
		s = s[:o.Path] + clean + s[end:]
	}
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
// repeatedly, leftmost first, from path; see Rule1630.
func removeDots1630(path string, t *trace) string {
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
