package fetch

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/urlkit/urlkit/internal/safetext"
)

// The JSON lines of news, WAIS and Prospero listings carry network text:
// a C1 control or a bidirectional override in it is escaped, and each
// line still decodes to the value written.
func TestJSONLinesInert(t *testing.T) {
	type entry struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	in := []entry{{"a\u009b2Jb", 1}, {"c\u202ed\u2067e <f>", 2}, {"plain", 3}}
	b := jsonLines(in)
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if len(lines) != len(in) {
		t.Fatalf("%d lines, want %d: %q", len(lines), len(in), b)
	}
	for i, l := range lines {
		if v := safetext.Visible(string(l)); v != string(l) {
			t.Errorf("line %d is not inert: %q", i, v)
		}
		var back entry
		if err := json.Unmarshal(l, &back); err != nil || back != in[i] {
			t.Errorf("line %d = %s decodes to %+v, %v; want %+v", i, l, back, err, in[i])
		}
	}
	if want := `{"name":"a\u009b2Jb","n":1}`; string(lines[0]) != want {
		t.Errorf("line 0 = %s, want %s", lines[0], want)
	}
}
