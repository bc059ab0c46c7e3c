package whatwg

import (
	"strings"
	"testing"
	"time"
)

// TestCheck: the validation errors carry the standard's names and their
// offsets in the input as given, tabs and the leading spaces included.
func TestCheck(t *testing.T) {
	u, errs, err := Check("  HTTP://u@h\t.com\\a b", nil)
	if err != nil || u.Href != "http://u@h.com/a%20b" {
		t.Fatalf("%q, %v", u.Href, err)
	}
	want := []ValidationError{{"invalid-URL-unit", 0}, {"invalid-URL-unit", 1}, {"invalid-credentials", 9},
		{"invalid-URL-unit", 12}, {"invalid-reverse-solidus", 17}, {"invalid-URL-unit", 19}}
	if len(errs) != len(want) {
		t.Fatalf("%v, want %v", errs, want)
	}
	for i := range want {
		if errs[i] != want[i] {
			t.Errorf("error %d: %v, want %v", i, errs[i], want[i])
		}
	}
	_, _, err = Check("http://h:\t99999/", nil)
	if e, ok := err.(*Error); !ok || e.Name != "port-out-of-range" || e.Offset != 10 {
		t.Errorf("failure: %v", err)
	}
	// A megabyte of bytes to encode is a bounded list, read in linear time.
	start := time.Now()
	_, errs, err = Check("http://h/"+strings.Repeat("\"\t", 1<<19), nil)
	if err != nil || len(errs) != maxErrors || time.Since(start) > 10*time.Second {
		t.Errorf("%d errors, %v, %v", len(errs), err, time.Since(start))
	}
}
