package fetch

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/client/rlogin"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

// TestEncodeWAISFieldTypes: a DocID field type the wire cannot hold (a
// compressed integer of at most 32 bits) is refused, not sent as a DocID
// the server's decoder, and urlkit's, would refuse.
func TestEncodeWAISFieldTypes(t *testing.T) {
	for _, tt := range []struct {
		number int
		ok     bool
	}{{0, true}, {1<<32 - 1, true}, {-1, false}, {1 << 32, false}} {
		st := &scheme.Step{Kind: scheme.Send, Op: request.WAISRetrieve, Request: &request.WAIS{
			Database: "db", Type: "TEXT", End: 100,
			DocIDFields: []request.DocIDField{{Number: tt.number, Value: "x"}},
		}}
		err := encodeWAIS(st)
		if (err == nil) != tt.ok || !tt.ok && !strings.Contains(err.Error(), "32-bit") {
			t.Errorf("type %d: %v", tt.number, err)
		}
		if tt.ok && st.Text == "" {
			t.Errorf("type %d: not encoded", tt.number)
		}
	}
}

// rlogin's window-size step holds the bytes the client's writer makes
// (rlogin.AppendWindowSize), the writer that answers the server's
// request and a resize: one writer, a size past 16 bits clamped alike.
func TestEncodeRloginWindow(t *testing.T) {
	u := mustParse(t, "rlogin://guest@host/")
	for _, sz := range [][2]int{{80, 24}, {300, 100}, {70000, 24}} {
		p, err := scheme.PlanURL(u, scheme.PlanOptions{Width: sz[0], Height: sz[1]})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, st := range p.Sends() {
			if st.Op == "WINDOW" {
				found = true
				if want := string(rlogin.AppendWindowSize(nil, sz[0], sz[1])); st.Text != want {
					t.Errorf("%v: %q, want %q", sz, st.Text, want)
				}
			}
		}
		if !found {
			t.Errorf("%v: no WINDOW step", sz)
		}
	}
}

// A telnet plan's subnegotiation answers hold the bytes the client's
// writers make (telnet.AppendTermType, telnet.AppendNAWS: a size past
// 16 bits clamped, an IAC in a name doubled), and the client is given
// the values those bytes hold (telnetPolicy), which it writes with the
// same writers when the server asks: one writer for each.
func TestEncodeTelnetSubneg(t *testing.T) {
	for _, tt := range []struct {
		scheme, term string
		w, h         int
	}{{"telnet", "XTERM", 80, 24}, {"telnet", "A\xffB", 70000, 255}, {"telnet", "DUMB", 0, 0}, {"tn3270", "", 0, 0}} {
		p, err := scheme.PlanURL(mustParse(t, tt.scheme+"://host/"), scheme.PlanOptions{Term: tt.term, Width: tt.w, Height: tt.h})
		if err != nil {
			t.Fatal(err)
		}
		term := tt.term
		if tt.scheme == "tn3270" {
			term = "IBM-3278-2"
		}
		var sb []string
		for _, st := range p.Sends() {
			if st.Op == "SB" {
				sb = append(sb, st.Text)
			}
		}
		want := []string{string(telnet.AppendTermType(nil, term))}
		if tt.w > 0 {
			want = append(want, string(telnet.AppendNAWS(nil, tt.w, tt.h)))
		}
		if strings.Join(sb, "|") != strings.Join(want, "|") {
			t.Errorf("%+v: SB steps %q, want %q", tt, sb, want)
		}
		var d telnet.Dialer
		telnetPolicy(p, &d)
		w, h := min(tt.w, 0xffff), tt.h
		if len(d.TermTypes) != 1 || d.TermTypes[0] != term || d.Width != w || d.Height != h {
			t.Errorf("%+v: the client is given %q, %dx%d", tt, d.TermTypes, d.Width, d.Height)
		}
		// tn3270's policy is the plan's too (RFC 1576's options), not a
		// list of the client's own.
		if tt.scheme == "tn3270" && (string(d.Local) != "\x18\x19\x00" || string(d.Remote) != "\x19\x00") {
			t.Errorf("tn3270: the client accepts %q on our side, %q on the host's", d.Local, d.Remote)
		}
	}
}
