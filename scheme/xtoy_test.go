package scheme

// A toy scheme added the way every scheme is (issue 10): one registry
// row and one file holding its view, its concerns and its plan. Nothing
// else changes: the root's strict check, DefaultPort, Known, Parse,
// Concerns and PlanURL all pick it up from the row and the unit.
//
//	x-toy://<host>:<port>/<key>   fetch the value of <key> with "GET <key>" CRLF

import (
	"errors"
	"slices"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/registry"
)

// The row (in a real scheme: a line of internal/registry's table).
var toyRow = registry.Scheme{Name: "x-toy", Title: "a toy key-value protocol", Section: "issue 10",
	Status: registry.Experimental, Port: 7777, IP: true, Grammar1738: true}

func init() {
	registry.Add(toyRow)
	register(&unit{parse: view(parseToy), concerns: toyConcerns, plan: toyPlan}, "x-toy")
}

// Toy is the view.
type Toy struct {
	Host, Port, Key string
	at              struct{ Key Span }
}

func parseToy(u *urlkit.URL) (*Toy, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	p, off, ok := urlPath(u)
	if !ok || p == "" {
		return nil, syntaxError(u, off-1, "an x-toy URL names a key after the host")
	}
	t := &Toy{Host: u.Host, Port: port(u), Key: unescape(p)}
	t.at.Key = Span{off, off + len(p)}
	return t, nil
}

func (t *Toy) URL() *urlkit.URL {
	u := serverURL("x-toy", t.Host, t.Port)
	u.Path = "/" + escape(t.Key, &keepUchar)
	return u
}

func toyConcerns(v View, c *concernList) {
	if t, _ := v.(*Toy); t != nil {
		c.scanSpan(t.at.Key, ctlLine, "toy GET command")
	}
}

func toyPlan(v View, p *planner) {
	t := v.(*Toy)
	p.connect(addr(t.Host, t.Port, "x-toy"))
	p.send("GET", t.Key, cmdLine("GET", t.Key)).Reply = "the value"
	p.add(Step{Kind: End, Text: "the server closes the connection after the value"})
}

func TestToyScheme(t *testing.T) {
	if got := urlkit.DefaultPort("X-Toy"); got != 7777 {
		t.Errorf("the root's DefaultPort = %d, want the row's 7777", got)
	}
	in, ok := Known("x-toy")
	if !ok || in.Port != 7777 || !in.HasView || !in.HasPlan || in.Title != toyRow.Title {
		t.Errorf("Known = %+v, %v", in, ok)
	}
	// The root's strict check reads the row: common Internet syntax, no login.
	if _, err := urlkit.Parse("x-toy:key"); !errors.Is(err, urlkit.ErrSchemeSyntax) {
		t.Errorf("x-toy:key: %v, want the common Internet scheme syntax error", err)
	}
	if _, err := urlkit.Parse("x-toy://u@h/key"); err == nil {
		t.Errorf("x-toy://u@h/key: a login passed a row without Login")
	}
	u, err := urlkit.Parse("x-toy://h/a%20key")
	if err != nil {
		t.Fatal(err)
	}
	v, err := Parse(&u, urlkit.RFC1738)
	if toy, ok := v.(*Toy); err != nil || !ok || toy.Key != "a key" {
		t.Fatalf("Parse = %#v, %v", v, err)
	}
	plan, err := PlanURL(&u, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"connect h:7777", `send "GET a key\r\n"`, "# the server closes the connection after the value"}
	if got := plan.Lines(false); !slices.Equal(got, want) {
		t.Errorf("plan:\n%q\nwant\n%q", got, want)
	}
	// The concerns: a decoded CR LF in the key refuses the URL, and the
	// plan sends nothing.
	bad, _ := urlkit.Parse("x-toy://h/k%0D%0AQUIT")
	plan, err = PlanURL(&bad, PlanOptions{})
	if err != nil || len(plan.Refused) == 0 || len(plan.Sends()) != 0 || plan.Refused[0].Offset != 11 {
		t.Errorf("unsafe key: %+v, %v", plan, err)
	}
}

func (t *Toy) appendParts(dst []part) []part { return append(dst, kv("key", str(t.Key))) }
