package edit

import "testing"

// TestQueryEmptyPairs: trurl drops empty pairs when it writes a query
// back, so that a query holding one is written again without it, its
// other pairs normalized; without one, an unchanged query stays as
// written.
func TestQueryEmptyPairs(t *testing.T) {
	for _, c := range []struct {
		in, want string
		modified bool
	}{
		{"e&&", "e", true},
		{"e&&&&a&&", "e&a", true},
		{"&", "", true},
		{"&a=%41", "a=A", true},
		{"e&a", "e&a", false},
		{"a=1&b=", "a=1&b=", false},
	} {
		q := NewQuery(c.in, '&', false)
		if q.Modified != c.modified {
			t.Errorf("NewQuery(%q).Modified = %v, want %v", c.in, q.Modified, c.modified)
		}
		if got := q.Text(); got != c.want {
			t.Errorf("NewQuery(%q).Text() = %q, want %q", c.in, got, c.want)
		}
	}
	// Another separator: "&&" is then no empty pair (but data, encoded).
	if q := NewQuery("a&&b;;c", ';', false); q.Text() != "a%26%26b;c" || len(q.Pairs) != 2 {
		t.Errorf("separator ';': %q, %d pairs", q.Text(), len(q.Pairs))
	}
}
