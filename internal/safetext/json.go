package safetext

import (
	"encoding/json"
	"unicode/utf8"
)

// AppendJSONLine appends v as a JSON object on a line of its own, made
// inert (InertJSON): the one writer of the JSON lines urlkit prints
// (news, WAIS and Prospero listings, FTP --list entries, -I's answers).
func AppendJSONLine(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(append(b, InertJSON(j)...), '\n'), nil
}

// JSONEscaped reports whether the non-ASCII r is written \uXXXX in JSON
// that urlkit prints: the C1 controls (0x9b is a CSI to some terminals),
// the line and paragraph separators, the bidirectional overrides and
// isolates. A JSON reader gets the same string; a terminal showing the
// line gets nothing to act on.
func JSONEscaped(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// AppendUnicodeEscape appends r, a rune of the Basic Multilingual Plane,
// as JSON's \uXXXX.
func AppendUnicodeEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// InertJSON returns encoding/json's output b with the characters
// JSONEscaped names, which encoding/json leaves raw, escaped as \uXXXX:
// in JSON they occur only inside strings, whose value is unchanged.
// Every JSON that holds network text (FTP names, HTTP fields, news
// overviews, WAIS and Prospero listings) goes through it. b itself is
// returned when nothing needs escaping.
func InertJSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if JSONEscaped(r) {
			out = append(out, b[last:i]...)
			out = AppendUnicodeEscape(out, r)
			last = i + n
		}
		i += n
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
