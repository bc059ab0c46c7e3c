package resolver

import (
	"errors"
	"fmt"
	"strings"
)

// Rule is package resolve's Rule (see its documentation for what each
// rule does and where urlkit chose): the four rules of resolution, and
// Compat.
type Rule uint8

// The rules, in package resolve's order.
const (
	Rule3986 Rule = iota
	Rule2396
	Rule1808
	Rule1630
	numRules
)

// Compat, or'ed into Rule3986 or Rule2396, treats a reference whose
// scheme equals the base's as relative.
const Compat Rule = 0x80

var ruleNames = [numRules]string{"rfc3986", "rfc2396", "rfc1808", "rfc1630"}

var ruleTitles = [numRules]string{
	"RFC 3986 section 5.2",
	"RFC 2396 section 5.2",
	"RFC 1808 section 4",
	"RFC 1630, partial (relative) form",
}

func (r Rule) kind() Rule   { return r &^ Compat }
func (r Rule) compat() bool { return r&Compat != 0 }

// String returns the rule's name as the command line spells it:
// "rfc3986", "rfc2396", "rfc1808" or "rfc1630", with "+compat" for Compat.
func (r Rule) String() string {
	k := r.kind()
	if k >= numRules || r&^(Compat|0x7f) != 0 {
		return fmt.Sprintf("Rule(%d)", uint8(r))
	}
	if r.compat() {
		return ruleNames[k] + "+compat"
	}
	return ruleNames[k]
}

// RuleByName returns the rule called name: "rfc3986", "rfc2396", "rfc1808"
// or "rfc1630", optionally followed by "+compat".
func RuleByName(name string) (Rule, error) {
	base, compat := strings.CutSuffix(name, "+compat")
	for i, n := range ruleNames {
		if n == base {
			r := Rule(i)
			if compat {
				r |= Compat
			}
			return r, r.Check()
		}
	}
	return 0, fmt.Errorf("urlkit: unknown resolution rule %q (want rfc3986, rfc2396, rfc1808 or rfc1630)", name)
}

// MarshalText returns the rule's name.
func (r Rule) MarshalText() ([]byte, error) { return []byte(r.String()), r.Check() }

// UnmarshalText parses a rule name (RuleByName).
func (r *Rule) UnmarshalText(b []byte) error {
	v, err := RuleByName(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// ErrCompat is the error for Compat with a rule that has no compatible
// variant.
var ErrCompat = errors.New("urlkit: compat is defined only for the rfc3986 and rfc2396 rules (RFC 3986 5.2.2, RFC 2396 5.2 step 3)")

// Check returns the error for a rule that is none, or for Compat with a
// rule that has no compatible variant.
func (r Rule) Check() error {
	if r.kind() >= numRules || r&^(Compat|0x7f) != 0 {
		return fmt.Errorf("urlkit: unknown resolution rule %d", uint8(r))
	}
	if r.compat() && r.kind() != Rule3986 && r.kind() != Rule2396 {
		return ErrCompat
	}
	return nil
}
