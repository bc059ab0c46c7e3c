package whatwg

import (
	"encoding/json"
	"testing"
)

type setterCase struct {
	Comment  string            `json:"comment"`
	Href     string            `json:"href"`
	NewValue string            `json:"new_value"`
	Expected map[string]string `json:"expected"`
}

// set calls the setter named as the API names it.
func set(u *URL, attr, value string) {
	switch attr {
	case "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash":
		u.Set(attr, value)
	default:
		panic("no setter " + attr)
	}
}

// get calls the getter named as the API names it.
func get(u *URL, attr string) string {
	v, ok := u.Get(attr)
	if !ok {
		panic("no getter " + attr)
	}
	return v
}

func TestSetters(t *testing.T) {
	var all map[string]json.RawMessage
	loadJSON(t, "setters_tests.json", &all)
	n := 0
	for attr, raw := range all {
		if attr == "comment" {
			continue
		}
		var cases []setterCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			n++
			u, err := Parse(c.Href, nil)
			if err != nil {
				t.Errorf("%q: %v", c.Href, err)
				continue
			}
			set(&u, attr, c.NewValue)
			for k, want := range c.Expected {
				if got := get(&u, k); got != want {
					t.Errorf("%s = %q on %q (%s): %s = %q, want %q", attr, c.NewValue, c.Href, c.Comment, k, got, want)
				}
			}
			// Setting the same value again changes nothing.
			before := u
			set(&u, attr, c.NewValue)
			if u.Href != before.Href {
				t.Errorf("%s = %q on %q twice: %q, then %q", attr, c.NewValue, c.Href, before.Href, u.Href)
			}
		}
	}
	if n < 250 {
		t.Errorf("only %d setter cases", n)
	}
}
