package fetch

// One writer per protocol line (issue 37): a line changed in a step of
// the access plan is what the client puts on the wire, against the real
// servers, because the clients send the plans' bytes; the plan-equals-
// wire comparison (planWire) holds for the changed plan too.

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

func TestPlanInjectedLineOnWire(t *testing.T) {
	for _, c := range []struct {
		scheme, name string // name: the planWireCases case
		op, from, to string // in the Send steps of op, from becomes to
		body         string // a substring of the changed access's body
	}{
		{"ftp", "ftp anonymous text (guessed TYPE A)", "PASS", "planwire@", "injected@", "Hello from anonymous FTP."},
		{"ftp", "ftp binary (TYPE I, SIZE)", "TYPE", "TYPE I", "TYPE A", "xxxx"},
		{"gopher", "gophernicus search", "REQUEST", "foo bar", "foo baz", "foo baz"},
		{"gopher", "gopher text", "REQUEST", "/hello.txt", "/", ""},
		{"nntp", "nntp article by number", "ARTICLE", "ARTICLE 2", "ARTICLE 1", "Subject: First test article"},
		{"nntp", "news group listing (OVER in batches of 2: 1-2, 3-3)", "GROUP", "local.test", "local.general", ""},
		// The overview's batches: the plan's line begins each one.
		{"nntp", "news group listing (OVER in batches of 2: 1-2, 3-3)", "OVER", "OVER ", "XOVER ", ""},
		{"smtp", "mailto aiosmtpd", "MAIL", "planwire@", "injected@", ""},
		{"smtp", "mailto exim, several addresses (RFC 6068)", "RCPT", "b@example.org", "e@example.org", ""},
		{"wais", "wais search", request.WAISSearch, "gopher", "GOPHER", "Alpha document about gophers"},
		{"wais", "wais document in three chunks, RFC 1738 form", request.WAISNextChunk, "TEXT", "HTML", "line 02000 of the big zeppelin document"},
		// The source record's retrieval: the plan's request, its DocID
		// the hit's.
		{"wais", "wais database: its source record", request.WAISSourceRecord, "WSRC", "TEXT", ":database-name"},
		{"prospero", "prospero directory", request.ProsperoList, "VERSION 5 urlkit", "VERSION 5 urlkix", "hello.txt"},
		{"telnet", "telnet: the option negotiation with inetutils telnetd", "SB", "DUMB", "VT100", "login:"},
		{"rlogin", "rlogin: the RFC 1282 handshake with rsh-redone in.rlogind", "HANDSHAKE", "network/", "vt100/", "Password:"},
		// The lines typed at the login prompts (get --login): telnetd's
		// fake login then refuses the changed user or password.
		{"telnet", "telnet --login: the plan's login lines typed at inetutils telnetd's prompts", "LOGIN", "tester", "urlkit", "Login incorrect"},
		{"telnet", "telnet --login: the plan's login lines typed at inetutils telnetd's prompts", "PASSWORD", "secret", "wrong", "Login incorrect"},
		{"rlogin", "rlogin --login: the plan's password line typed at rlogind's prompt", "PASSWORD", "secret", "wrong", "Authentication failure"},
		{"tn3270", "tn3270: the TN3270 negotiation with Hercules, then its logo screen", "SB", "IBM-3278-2", "IBM-3279-2", ""},
	} {
		t.Run(c.scheme+": "+c.op+" "+c.to, func(t *testing.T) {
			tc := caseNamed(t, c.name)
			tc.body = c.body
			planWire(t, tc, func(p *scheme.Plan) string {
				// Every step of op is changed (MAIL with SIZE and without:
				// the server's reply chooses); what they share up to the
				// change must be on the wire.
				seen := ""
				for i := range p.Steps {
					st := &p.Steps[i]
					if st.Kind == scheme.Send && st.Op == c.op && strings.Contains(st.Text, c.from) {
						st.Text = strings.Replace(st.Text, c.from, c.to, 1)
						st.Arg = strings.Replace(st.Arg, c.from, c.to, 1)
						if seen == "" {
							seen = st.Text[:strings.Index(st.Text, c.to)+len(c.to)]
						}
					}
				}
				if before, ok := filledIn[c.op]; ok && seen != "" {
					return before + c.to
				}
				return seen
			})
		})
	}
}

// filledIn holds, for a step the client fills in before the place of a
// change (the DocID the reply gives), the bytes just before the change
// that are on the wire as the step has them: the WAIS type term.
var filledIn = map[string]string{request.WAISSourceRecord: "wt re ig ig ig ig-\x04"}

// caseNamed returns the plan-equals-wire case of that name.
func caseNamed(t *testing.T, name string) planWireCase {
	for _, tc := range planWireCases {
		if tc.name == name {
			return tc
		}
	}
	t.Fatalf("no plan-equals-wire case %q", name)
	return planWireCase{}
}
