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
	domain = premap(domain)
	if strings.IndexFunc(domain, unicode17) >= 0 {
		return newIdeographs(domain)
	}
	a, err := lookup.ToASCII(domain)
	if err != nil || a == "" {
		return "", false
	}
	return strings.ToLower(a), true
}

// unicode17 reports the CJK Unified Ideographs Extension J (Unicode 17),
// valid in UTS #46 17.0 and unassigned, so disallowed, in x/net/idna's
// 15.0 tables.
func unicode17(r rune) bool { return 0x323B0 <= r && r <= 0x3347F }

// newIdeographs is domainToASCII for a domain with Extension J
// ideographs: it has x/net/idna check and map the domain with each of
// them replaced by an older ideograph of the same properties (a valid,
// left-to-right, spacing letter that no mapping changes), then puts the
// new ones back and has only Punycode applied.
func newIdeographs(domain string) (string, bool) {
	for _, stand := range "\u4E00\u4E8C\u4E09" {
		if strings.ContainsRune(domain, stand) {
			continue
		}
		var subst []rune
		sub := strings.Map(func(r rune) rune {
			if unicode17(r) {
				subst = append(subst, r)
				return stand
			}
			return r
		}, domain)
		if _, err := lookup.ToASCII(sub); err != nil {
			return "", false
		}
		mapped, err := lookup.ToUnicode(sub)
		if err != nil || strings.Count(mapped, string(stand)) != len(subst) {
			continue // a mapping made the stand-in too: try another
		}
		back := strings.Map(func(r rune) rune {
			if r == stand {
				r, subst = subst[0], subst[1:]
			}
			return r
		}, mapped)
		a, err := idna.Punycode.ToASCII(back)
		if err != nil || a == "" {
			return "", false
		}
		return strings.ToLower(a), true
	}
	return "", false
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
