package whatwg

import (
	"strings"
	"unicode/utf8"
)

// FormEncode is the application/x-www-form-urlencoded serializer's
// encoding of a name or value: its percent-encode set, a space as "+".
func FormEncode(s string) string {
	if !anyEncoded(s, setForm) {
		return s
	}
	var b builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && encodeSets[s[j]]&setForm == 0 {
			j++
		}
		b.writeString(s[i:j])
		if j == len(s) {
			break
		}
		if s[j] == ' ' {
			b.writeByte('+')
			i = j + 1
			continue
		}
		i = encodeOne(&b, s, j)
	}
	return b.String()
}

// ParseForm is the application/x-www-form-urlencoded parser (what
// URLSearchParams reads a query with): "&"-separated sequences, empty
// ones skipped, split at the first "=", "+" read as a space, then
// percent-decoded and decoded as UTF-8 (a byte that is no UTF-8 becomes
// U+FFFD).
func ParseForm(s string) [][2]string {
	var out [][2]string
	for _, seq := range strings.Split(s, "&") {
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		out = append(out, [2]string{formDecode(name), formDecode(value)})
	}
	return out
}

func formDecode(s string) string {
	s = percentDecode(strings.ReplaceAll(s, "+", " "))
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // an invalid byte is utf8.RuneError, U+FFFD
	}
	return b.String()
}
