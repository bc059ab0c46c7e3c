package resolver

import cc "github.com/urlkit/urlkit/internal/charclass"

// HasDotSegment reports whether path has a complete "." or ".." segment.
func HasDotSegment(path string) bool {
	return firstDotSegment(path) >= 0
}

// firstDotSegment returns where RFC 3986 5.2.4 first has work to do on
// path: the "/" before its first complete "." or ".." segment, or 0 when
// that segment starts the path; -1 when it has none. Eight bytes a round,
// a round with no "." right after a "/" (or at the start) is skipped: in
// ordinary paths dots follow letters. A path being cleaned in place, a
// []byte, is read as a string is.
func firstDotSegment[S string | []byte](path S) int {
	prevSlash := uint64(0x80) // the start counts as a "/"
	i := 0
	for ; len(path)-i >= 8; i += 8 {
		w := cc.Word(path[i:])
		slash := cc.WordEq(w, '/')
		if cc.WordEq(w, '.')&(slash<<8|prevSlash) != 0 {
			break
		}
		prevSlash = slash >> 56
	}
	if n := len(path) - i; n > 0 && n < 8 && len(path) >= 8 {
		// The last bytes: one more round, on the last eight. The ones
		// it shares with the rounds before have no candidate.
		j := len(path) - 8
		w := cc.Word(path[j:])
		prevSlash = 0x80
		if j > 0 && path[j-1] != '/' {
			prevSlash = 0
		}
		if cc.WordEq(w, '.')&(cc.WordEq(w, '/')<<8|prevSlash) == 0 {
			return -1
		}
		i = j
	}
	return dotSegmentFrom(path, i)
}

// dotSegmentFrom is firstDotSegment for the segments of path starting at
// or after i, byte by byte.
func dotSegmentFrom[S string | []byte](path S, i int) int {
	for ; i < len(path); i++ {
		if path[i] != '.' || i > 0 && path[i-1] != '/' {
			continue
		}
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return max(i-1, 0)
		}
	}
	return -1
}

// removeDotSegmentsIn removes the dot segments of the path
// b[pathAt:pathEnd] in place, moving what follows it back, and returns b
// and where the path now ends.
func removeDotSegmentsIn(b []byte, pathAt, pathEnd int, t *Trace, sec string) ([]byte, int) {
	path := b[pathAt:pathEnd]
	from := firstDotSegment(path)
	if from < 0 {
		if t != nil { // the string only for the explanation
			t.noDotSegments(sec, string(path), "")
		}
		return b, pathEnd
	}
	clean := removeDotSegmentsFrom(path, from, t, sec)
	tail := copy(b[pathAt+len(clean):], b[pathEnd:])
	pathEnd = pathAt + len(clean)
	return b[:pathEnd+tail], pathEnd
}

// RemoveDotSegments is RFC 3986 5.2.4's algorithm on all of b, in place.
func RemoveDotSegments(b []byte, t *Trace, sec string) []byte {
	return removeDotSegmentsFrom(b, 0, t, sec)
}

// removeDotSegmentsFrom is RFC 3986 5.2.4's algorithm, in place: the
// output buffer is b[:out] and the input buffer b[in:], and out never
// passes in, since every step consumes at least as much input as it
// writes output. The input buffer starts with "/" except at the very
// start and after rule A, so only there can rules A and D apply. It
// starts at from, which is 0 or a "/" that firstDotSegment found: up to
// there every step is rule E, which leaves b as it is.
func removeDotSegmentsFrom(b []byte, from int, t *Trace, sec string) []byte {
	t.removeDotsOn(sec, b)
	in, out, n := from, from, len(b)
	for in < n {
		if b[in] == '/' {
			switch dots(b, in+1) {
			case 1: // B: "/./" or a final "/." becomes "/"
				t.ruleB(sec, in+2 == n)
				if in+2 == n {
					in++
					b[in] = '/'
				} else {
					in += 2
				}
				continue
			case 2: // C: "/../" or a final "/.." becomes "/", and the last output segment goes
				last := lastSlash(b[:out])
				t.ruleC(sec, in+3 == n, b[last:out])
				if in+3 == n {
					in += 2
					b[in] = '/'
				} else {
					in += 3
				}
				out = last
				continue
			}
		} else if d := dots(b, in); d > 0 {
			if in+d == n { // D: the input is "." or ".."
				t.ruleD(sec, b[in:n])
				in = n
				continue
			}
			// A: a prefix "./" or "../"
			t.ruleA(sec, b[in:in+d+1])
			in += d + 1
			continue
		}
		// E: the first segment moves to the output.
		j := in + 1
		for j < n && b[j] != '/' {
			j++
		}
		if out != in {
			copy(b[out:], b[in:j])
		}
		out += j - in
		in = j
	}
	t.removeDotsResult(sec, b[:out])
	return b[:out]
}

// dots returns 1 or 2 when b[i:] starts with a complete "." or ".."
// segment (followed by "/" or the end), else 0.
func dots(b []byte, i int) int {
	n := len(b)
	if i >= n || b[i] != '.' {
		return 0
	}
	if i+1 == n || b[i+1] == '/' {
		return 1
	}
	if b[i+1] == '.' && (i+2 == n || b[i+2] == '/') {
		return 2
	}
	return 0
}

// lastSlash returns the index of the last "/" of b, or 0 when it has none
// (RFC 3986 5.2.4 C: "remove the last segment and its preceding '/' (if
// any) from the output buffer").
func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}
