package whatwg

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// lookup is UTS #46 ToASCII as the URL Standard's domain to ASCII calls
// it with beStrict false: CheckHyphens false, CheckBidi and CheckJoiners
// true, UseSTD3ASCIIRules false, nontransitional processing,
// VerifyDnsLength false.
var lookup = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// domainToASCII is domain to ASCII (beStrict false) over the percent-
// decoded host: false is failure.
func domainToASCII(domain string) (string, bool) {
	if !utf8.ValidString(domain) {
		return "", false // U+FFFD, which UTS #46 disallows
	}
	a, err := lookup.ToASCII(premap(domain))
	if err != nil || a == "" {
		return "", false
	}
	return strings.ToLower(a), true
}

// premap applies the mappings that UTS #46 changed after Unicode 15.0,
// the version of x/net/idna's tables before Go 1.27 (which selects its
// Unicode 17 tables): from 15.1 on, the Georgian capital letters map to
// their small letters, U+1E9E to U+00DF, U+2132, U+2183 and U+04C0 to
// their small letters, some default-ignorable code points are ignored, and five CJK
// compatibility ideographs map to their canonical ideographs (IdnaTestV2
// has each). Under the 17.0 tables the mapping is the tables' own, so
// premap changes nothing they would not.
func premap(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { _, ok := remapped(r); return ok })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if m, ok := remapped(r); ok {
			b.WriteString(m)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func remapped(r rune) (string, bool) {
	switch {
	case 0x10A0 <= r && r <= 0x10C5 || r == 0x10C7 || r == 0x10CD:
		return string(r - 0x10A0 + 0x2D00), true
	case ignorable(r):
		return "", true
	}
	switch r {
	case 0x1E9E:
		return "\u00DF", true
	case 0x2132:
		return "\u214E", true
	case 0x2183:
		return "\u2184", true
	case 0x04C0:
		return "\u04CF", true
	case 0x2F868:
		return "\u36FC", true
	case 0x2F874:
		return "\u5F53", true
	case 0x2F91F:
		return "\U000243AB", true
	case 0x2F95F:
		return "\u7AEE", true
	case 0x2F9BF:
		return "\u45D7", true
	}
	return "", false
}

// ignorable reports the default-ignorable code points that UTS #46
// ignores from 15.1 on and 15.0 disallowed (the bidirectional controls
// stay disallowed).
func ignorable(r rune) bool {
	switch {
	case r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x180E,
		0x206A <= r && r <= 0x206F, r == 0x3164, r == 0xFFA0,
		0x1D173 <= r && r <= 0x1D17A:
		return true
	}
	return false
}
