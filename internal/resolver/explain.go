package resolver

import "fmt"

// Step is one step of an explanation: the rule applied, named by its
// section, and what it did to which text. Package resolve's and
// package normalize's explanations are lists of them.
type Step struct {
	Section string // the rule's section: "RFC 3986 5.2.4 C", "RFC 1738 2.2"
	Note    string // what the step did, with the values involved
}

// String formats the step as "SECTION: NOTE".
func (s Step) String() string { return s.Section + ": " + s.Note }

// Trace observes an algorithm for an explanation: the algorithms tell it
// what they do through its methods (resolve_explain.go for the
// resolution rules), and it writes each event down as a Step. A nil
// *Trace, what Resolve and Normalize pass, ignores every event, so that
// working without an explanation formats no message and boxes no
// argument. It is a concrete type rather than an interface on purpose:
// escape analysis sees through its methods, whereas every argument of an
// interface method escapes, and the stack buffer in which dot segments
// are removed would then move to the heap, costing each resolution an
// allocation.
type Trace struct {
	Steps []Step
}

// Add writes down one step. Only the event methods call it, after their
// nil check.
func (t *Trace) Add(section, format string, args ...any) {
	t.Steps = append(t.Steps, Step{Section: section, Note: fmt.Sprintf(format, args...)})
}
