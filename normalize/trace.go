package normalize

import (
	"github.com/urlkit/urlkit/internal/resolver"
	"github.com/urlkit/urlkit/resolve"
)

// trace observes a normalization for an explanation (normalize_explain.go
// holds its events); a nil *trace, what Normalize passes, ignores them.
// The steps go into the engine's Trace, which the dot-segment removal
// writes into as well.
type trace struct {
	resolver.Trace
	// the escapes changed in the component being normalized
	decoded, upper, encoded []string
}

// add writes down one step.
func (t *trace) add(section, format string, args ...any) { t.Add(section, format, args...) }

// engine returns the trace the engine writes into: nil when t is.
func (t *trace) engine() *resolver.Trace {
	if t == nil {
		return nil
	}
	return &t.Trace
}

// steps converts the engine's steps.
func steps(in []resolver.Step) []resolve.RuleStep {
	out := make([]resolve.RuleStep, len(in))
	for i, s := range in {
		out[i] = resolve.RuleStep(s)
	}
	return out
}
