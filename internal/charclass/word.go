package charclass

// Word-at-a-time byte tests: eight bytes of a string read as one
// little-endian word and tested at once, for scans over long runs of
// ordinary bytes (the parser's host names, dot segments, JSON strings,
// extract's line starts).

// Word returns the first eight bytes of s as a little-endian word; s must
// hold at least eight. The compiler makes it one load.
func Word[S ~string | ~[]byte](s S) uint64 {
	s = s[:8] // of constant length: no bounds checks below
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// WordEq marks, in its top bit, each byte of w equal to c, exactly: no
// borrow crosses from one byte into the next (as it does in the shorter
// "(x - ones) &^ x" test), so every mark, not only the lowest, is true.
func WordEq(w uint64, c byte) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	x := w ^ 0x0101010101010101*uint64(c)
	return ^((x&low7 + low7) | x | low7)
}
