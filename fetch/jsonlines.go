package fetch

import (
	"encoding/json"

	"github.com/urlkit/urlkit/internal/safetext"
)

// appendJSONLine appends v as a JSON object on a line of its own. The
// values come from the network: the characters a terminal would act on
// that encoding/json leaves raw are escaped too (safetext.InertJSON).
func appendJSONLine(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(append(b, safetext.InertJSON(j)...), '\n'), nil
}

// jsonLines writes each value as a JSON object on a line of its own.
func jsonLines[T any](vs []T) []byte {
	var b []byte
	for _, v := range vs {
		b, _ = appendJSONLine(b, v) // plain structs of strings and numbers: cannot fail
	}
	return b
}
