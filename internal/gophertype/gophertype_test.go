package gophertype

import "testing"

// TestLookup: RFC 1436 3.8's types and the extensions, and nothing else.
func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		c                     byte
		name                  string
		menu, binary, session bool
		ok                    bool
	}{
		{'0', "text", false, false, false, true},
		{'1', "menu", true, false, false, true},
		{'7', "search", true, false, false, true},
		{'8', "telnet", false, false, true, true},
		{'9', "binary", false, true, false, true},
		{'T', "tn3270", false, false, true, true},
		{'g', "gif", false, true, false, true},
		{'h', "html", false, false, false, true},
		{'x', "", false, false, false, false},
	} {
		it, ok := Lookup(tc.c)
		if ok != tc.ok || it.Name != tc.name || it.Menu != tc.menu || it.Binary != tc.binary || it.Session != tc.session {
			t.Errorf("Lookup(%q) = %+v, %v", tc.c, it, ok)
		}
		if ok && it.Meaning == "" {
			t.Errorf("Lookup(%q) has no meaning", tc.c)
		}
	}
}
