package safetext

import (
	"encoding/json"
	"testing"
)

// InertJSON escapes what encoding/json leaves raw and a terminal would act
// on, and the JSON still decodes to the same value.
func TestInertJSON(t *testing.T) {
	in := map[string]string{"name": "a\u009b2Jb\u202ec\u2067d\u00e9\u001b"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := InertJSON(b)
	if want := `{"name":"a\u009b2Jb\u202ec\u2067dé\u001b"}`; string(got) != want {
		t.Errorf("InertJSON(%s) = %s, want %s", b, got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["name"] != in["name"] {
		t.Errorf("decodes to %q, %v", back, err)
	}
	if v := Visible(string(got)); v != string(got) {
		t.Errorf("%s is not inert (%q)", got, v)
	}
}
