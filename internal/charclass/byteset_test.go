package charclass

import "testing"

func TestByteSet(t *testing.T) {
	digits := NewByteSet(func(c byte) bool { return '0' <= c && c <= '9' })
	if got := digits.Escape("a1 2"); got != "%611%202" {
		t.Errorf("Escape = %q", got)
	}
	if s := "123"; digits.Escape(s) != s {
		t.Error("nothing to encode should give the input back")
	}
	if got := digits.EscapeForm("1 +2", true); got != "1+%2B2" {
		t.Errorf("EscapeForm = %q", got)
	}
	if got := digits.EscapeLower("1 \xff", false); got != "1%20%ff" {
		t.Errorf("EscapeLower = %q", got)
	}
	if got := digits.EscapeLower("1 +", true); got != "1+%2b" {
		t.Errorf("EscapeLower with plus = %q", got)
	}
}
