package fetch

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

// TestEncodeWAISFieldTypes: a DocID field type the wire cannot hold (a
// compressed integer of at most 32 bits) is refused, not sent as a DocID
// the server's decoder, and urlkit's, would refuse.
func TestEncodeWAISFieldTypes(t *testing.T) {
	for _, tt := range []struct {
		number int
		ok     bool
	}{{0, true}, {1<<32 - 1, true}, {-1, false}, {1 << 32, false}} {
		st := &scheme.Step{Kind: scheme.Send, Op: request.WAISRetrieve, Request: &request.WAIS{
			Database: "db", Type: "TEXT", End: 100,
			DocIDFields: []request.DocIDField{{Number: tt.number, Value: "x"}},
		}}
		err := encodeWAIS(st)
		if (err == nil) != tt.ok || !tt.ok && !strings.Contains(err.Error(), "32-bit") {
			t.Errorf("type %d: %v", tt.number, err)
		}
		if tt.ok && st.Text == "" {
			t.Errorf("type %d: not encoded", tt.number)
		}
	}
}
