package fetch

import "github.com/urlkit/urlkit/internal/safetext"

// jsonLines writes each value as a JSON object on a line of its own
// (safetext.AppendJSONLine).
func jsonLines[T any](vs []T) []byte {
	var b []byte
	for _, v := range vs {
		b, _ = safetext.AppendJSONLine(b, v) // plain structs of strings and numbers: cannot fail
	}
	return b
}
