package urlkit

import "fmt"

// RuleStep is one step of an explanation: the rule applied, named by its
// section, and what it did to which text. ExplainResolve and
// ExplainNormalize return them.
type RuleStep struct {
	Section string // the rule's section: "RFC 3986 5.2.4 C", "RFC 1738 2.2"
	Note    string // what the step did, with the values involved
}

// String formats the step as "SECTION: NOTE".
func (s RuleStep) String() string { return s.Section + ": " + s.Note }

// trace observes an algorithm for an explanation: the algorithms tell it
// what they do through its methods (resolve_explain.go for the
// resolution rules), and it writes each event down as a RuleStep. A nil
// *trace, what Resolve and Normalize pass, ignores every event, so that
// working without an explanation formats no message and boxes no
// argument. It is a concrete type rather than an interface on purpose:
// escape analysis sees through its methods, whereas every argument of an
// interface method escapes, and the stack buffer in which dot segments
// are removed would then move to the heap, costing each resolution an
// allocation.
type trace struct {
	steps []RuleStep
	// the escapes changed in the component being normalized
	decoded, upper, encoded []string
}

// add writes down one step. Only the event methods call it, after their
// nil check.
func (t *trace) add(section, format string, args ...any) {
	t.steps = append(t.steps, RuleStep{Section: section, Note: fmt.Sprintf(format, args...)})
}
