package urlkit

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wptCase is one entry of the WHATWG URL test data (web-platform-tests,
// url/resources/urltestdata.json; see ../shared/conformance/README.md).
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Failure  bool    `json:"failure"`
	Href     string  `json:"href"`
	Protocol string  `json:"protocol"`
	Username string  `json:"username"`
	Password string  `json:"password"`
	Hostname string  `json:"hostname"`
	Port     string  `json:"port"`
	Pathname string  `json:"pathname"`
	Search   string  `json:"search"`
	Hash     string  `json:"hash"`
}

// wptDisagreements are the inputs where the WHATWG standard and RFC 3986
// deliberately differ, each with the reason. The WHATWG data says nothing
// about RFC 1738 or RFC 1630, so only the RFC 3986 mode is compared.
var wptDisagreements = map[string]string{
	"non-spec:/.//":     `WHATWG writes "/." before a host-less path that starts with "//" and hides it from pathname; RFC 3986 keeps "/.//" as the path`,
	"non-spec:/.//path": `WHATWG writes "/." before a host-less path that starts with "//" and hides it from pathname; RFC 3986 keeps "/.//path" as the path`,
}

// rfc3986Repertoire reports whether s holds only characters RFC 3986
// allows somewhere (unreserved, gen-delims, sub-delims) and well-formed
// escapes. WHATWG keeps many other characters unencoded ('"', '{', '|',
// '\', spaces in opaque paths, bare '%'), which RFC 3986 forbids; those
// inputs are outside the two standards' common ground. The check is
// independent of the parser under test.
func rfc3986Repertoire(s string) bool {
	const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;="
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i+1])) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i+2])) {
				return false
			}
		case strings.IndexByte(allowed, c) < 0:
			return false
		}
	}
	return true
}

func loadWPT(t *testing.T) []wptCase {
	dir := os.Getenv("URLKIT_CONFORMANCE_DIR")
	if dir == "" {
		dir = filepath.Join("testdata", "wpt-url") // a copy of ../shared/conformance/wpt-url
	}
	data, err := os.ReadFile(filepath.Join(dir, "urltestdata.json"))
	if err != nil {
		t.Fatalf("conformance data: %v", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var cases []wptCase
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // a comment
		}
		var c wptCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestWPTWhereTheyAgree: where a WHATWG test parses an absolute input
// written in RFC 3986's repertoire without changing a byte of it (href ==
// input), the input is a URL both standards read the same way: the RFC 3986 and lenient modes must accept
// it with the same components, and the lenient mode must repair nothing.
func TestWPTWhereTheyAgree(t *testing.T) {
	compared := 0
	for _, c := range loadWPT(t) {
		if c.Base != nil || c.Failure || c.Href != c.Input || !rfc3986Repertoire(c.Input) {
			continue
		}
		if why, ok := wptDisagreements[c.Input]; ok {
			t.Logf("skipped %q: %s", c.Input, why)
			continue
		}
		compared++
		u, _, err := ParseMode(c.Input, RFC3986)
		if err != nil {
			t.Errorf("RFC3986 rejects %q, which WHATWG reads unchanged: %v", c.Input, err)
			continue
		}
		check := func(what, got, want string) {
			if got != want {
				t.Errorf("%q: %s = %q, WHATWG %q", c.Input, what, got, want)
			}
		}
		check("scheme", u.Scheme+":", c.Protocol)
		check("user", u.User, c.Username)
		check("password", u.Password, c.Password)
		check("host", u.Host, c.Hostname)
		check("port", u.Port, c.Port)
		if u.HasAuthority || strings.HasPrefix(u.Path, "/") || c.Pathname != "" {
			check("path", u.Path, c.Pathname)
		}
		if c.Search != "" {
			check("query", "?"+u.Query, c.Search)
		}
		if c.Hash != "" {
			check("fragment", "#"+u.Fragment, c.Hash)
		}
		l, warns, err := ParseMode(c.Input, Lenient)
		if err != nil || len(warns) != 0 || !l.SameComponents(&u) {
			t.Errorf("lenient mode on %q: %v, %v", c.Input, err, warns)
		}
	}
	if compared == 0 {
		t.Fatal("no WHATWG case compared")
	}
	t.Logf("%d WHATWG cases compared", compared)
}

// TestWPTLenientAcceptsWhatWHATWGAccepts: every absolute input the WHATWG
// parser accepts, the lenient mode accepts too (repairing it), except
// where the two disagree on purpose: a host holding a byte that neither
// a name, an address nor an IDNA name may hold (a space, '"', '{', a
// control, a stray '%', or the '\' WHATWG reads as '/' in its special
// schemes) is an error, not a repair, since encoding it would give a host
// no host rule accepts (issue 10, D5).
func TestWPTLenientAcceptsWhatWHATWGAccepts(t *testing.T) {
	n, refused := 0, 0
	for _, c := range loadWPT(t) {
		if c.Base != nil || c.Failure {
			continue
		}
		n++
		_, _, err := ParseMode(c.Input, Lenient)
		if err == nil {
			continue
		}
		var e *Error
		if errors.As(err, &e) && errors.Is(err, ErrBadHost) && strings.Contains(e.Rule, "encoding it would make none of these") &&
			e.Offset < len(c.Input) && (strings.IndexByte("\"<>\\^`{|}% ", c.Input[e.Offset]) >= 0 || c.Input[e.Offset] < 0x20 || c.Input[e.Offset] == 0x7f) {
			refused++
			continue
		}
		t.Errorf("lenient rejects %q: %v", c.Input, err)
	}
	t.Logf("%d cases, %d refused on purpose (a host no repair makes valid)", n, refused)
}
