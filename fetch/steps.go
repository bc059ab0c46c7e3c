package fetch

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// outcomes records the replies to a plan's Send steps as an executor
// carries them out, for the conditions of the steps after them
// (scheme.Cond): the executor evaluates the plan's data, it does not
// look ahead for steps.
type outcomes struct {
	steps []scheme.Step
	done  []bool   // the step was carried out
	code  []int    // its reply code (0 for a reply without one)
	text  []string // its reply text
}

func newOutcomes(steps []scheme.Step) *outcomes {
	return &outcomes{steps: steps, done: make([]bool, len(steps)), code: make([]int, len(steps)), text: make([]string, len(steps))}
}

// set records the reply to step i.
func (o *outcomes) set(i, code int, text string) {
	o.done[i], o.code[i], o.text[i] = true, code, text
}

// holds reports whether the condition of step i holds: true for a step
// without one, or with one its executor judges another way (On empty).
func (o *outcomes) holds(i int) bool {
	c := o.steps[i].When
	if c.On == "" {
		return true
	}
	return o.cond(i, &c)
}

// cond evaluates c, a condition of step i, and the conditions it joins
// (Cond.And, Cond.Or).
func (o *outcomes) cond(i int, c *scheme.Cond) bool {
	if c.Or != nil && o.cond(i, c.Or) {
		return true
	}
	return o.one(i, c) && (c.And == nil || o.cond(i, c.And))
}

// one evaluates c alone on the latest earlier Send step of its On.
func (o *outcomes) one(i int, c *scheme.Cond) bool {
	j := i - 1
	for ; j >= 0; j-- {
		if o.steps[j].Kind == scheme.Send && o.steps[j].Op == c.On {
			break
		}
	}
	if j < 0 || !o.done[j] {
		return false // a condition on a step left out never holds
	}
	return replyMatches(c, o.code[j], o.text[j]) != c.Not
}

// sentBefore reports whether a step of op before step i was carried
// out.
func (o *outcomes) sentBefore(i int, op string) bool {
	for j := range i {
		if o.done[j] && o.steps[j].Op == op {
			return true
		}
	}
	return false
}

// rescued reports whether a later step's condition holds on the reply
// to step i (PASV after a refused EPSV, NLST after a refused LIST): a
// negative reply that the plan answers is not the end of the access.
func (o *outcomes) rescued(i int) bool {
	for j := i + 1; j < len(o.steps); j++ {
		if o.steps[j].When.On == o.steps[i].Op && o.holds(j) {
			return true
		}
	}
	return false
}

// replyMatches reports whether a reply matches c.Reply and c.Lists.
func replyMatches(c *scheme.Cond, code int, text string) bool {
	if c.Reply != "" {
		in := false
		for _, tok := range strings.Fields(c.Reply) {
			not := strings.HasPrefix(tok, "!")
			if codeMatches(strings.TrimPrefix(tok, "!"), code, text) {
				if not {
					return false
				}
				in = true
			}
		}
		if !in {
			return false
		}
	}
	for _, w := range strings.Fields(c.Lists) {
		word, not := strings.CutPrefix(w, "!")
		if lists(text, word) == not {
			return false
		}
	}
	return c.Number == "" || compares(c.Number, text)
}

// compares reports whether text, a decimal number, compares with cmp:
// "=N", "<N" or ">N" (Cond.Number).
func compares(cmp, text string) bool {
	got, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if err != nil || cmp == "" {
		return false
	}
	n, err := strconv.ParseInt(cmp[1:], 10, 64)
	if err != nil {
		return false
	}
	switch cmp[0] {
	case '=':
		return got == n
	case '<':
		return got < n
	case '>':
		return got > n
	}
	return false
}

// codeMatches matches a reply code ("550"), a class ("5xx") or, for a
// protocol whose replies are words (Prospero), a word of the text.
func codeMatches(tok string, code int, text string) bool {
	if len(tok) == 3 && '1' <= tok[0] && tok[0] <= '5' {
		if tok[1:] == "xx" {
			return code/100 == int(tok[0]-'0')
		}
		if n, err := strconv.Atoi(tok); err == nil {
			return code == n
		}
	}
	return strings.Contains(text, tok)
}

// lists reports whether a line of text names the feature or capability
// word, alone or followed by its parameters ("MLST type*;size*;").
func lists(text, word string) bool {
	for l := range strings.Lines(text) {
		f, _, _ := strings.Cut(strings.TrimSpace(l), " ")
		if strings.EqualFold(f, word) {
			return true
		}
	}
	return false
}

// planHook, set by tests only, changes each plan an executor makes (a
// line injected into a step), to show that the wire follows the plan.
var planHook func(*scheme.Plan)

// planURL is scheme.PlanURL, the plan an executor carries out.
func planURL(u *urlkit.URL, opts scheme.PlanOptions) (*scheme.Plan, error) {
	p, err := scheme.PlanURL(u, opts)
	if err == nil && planHook != nil {
		planHook(p)
	}
	return p, err
}
