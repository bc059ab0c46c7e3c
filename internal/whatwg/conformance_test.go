package whatwg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The web-platform-tests url/ data, shared by the project.
const wpt = "../../../shared/conformance/wpt-url"

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(wpt, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

type urlCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Failure  bool    `json:"failure"`
	Href     string  `json:"href"`
	Origin   *string `json:"origin"`
	Protocol string  `json:"protocol"`
	Username string  `json:"username"`
	Password string  `json:"password"`
	Host     string  `json:"host"`
	Hostname string  `json:"hostname"`
	Port     string  `json:"port"`
	Pathname string  `json:"pathname"`
	Search   string  `json:"search"`
	Hash     string  `json:"hash"`
}

func urlCases(t *testing.T, name string) []urlCase { return urlCasesTB(t, name) }

func urlCasesTB(t testing.TB, name string) []urlCase {
	var raw []json.RawMessage
	loadJSON(t, name, &raw)
	var cases []urlCase
	for _, r := range raw {
		if r[0] != '{' {
			continue // a comment
		}
		var c urlCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// parseCase parses c's input against its base, as new URL(input, base).
func parseCase(c *urlCase) (URL, error) {
	var base *URL
	if c.Base != nil {
		b, err := Parse(*c.Base, nil)
		if err != nil {
			return URL{}, err
		}
		base = &b
	}
	return Parse(c.Input, base)
}

func checkComponents(t *testing.T, what string, u *URL, c *urlCase) {
	t.Helper()
	got := map[string][2]string{
		"href": {u.Href, c.Href}, "protocol": {u.Protocol(), c.Protocol},
		"username": {u.Username(), c.Username}, "password": {u.Password(), c.Password},
		"host": {u.Host(), c.Host}, "hostname": {u.Hostname(), c.Hostname},
		"port": {u.PortString(), c.Port}, "pathname": {u.Pathname(), c.Pathname},
		"search": {u.Search(), c.Search}, "hash": {u.Hash(), c.Hash},
	}
	if c.Origin != nil {
		got["origin"] = [2]string{u.Origin(), *c.Origin}
	}
	for k, v := range got {
		if v[0] != v[1] {
			t.Errorf("%s: %s = %q, want %q", what, k, v[0], v[1])
		}
	}
}

func TestURLTestData(t *testing.T) {
	cases := urlCases(t, "urltestdata.json")
	if len(cases) != 891 {
		t.Errorf("%d cases, want 891", len(cases))
	}
	for _, c := range cases {
		what := "new URL(" + quote(c.Input) + ", " + quotePtr(c.Base) + ")"
		u, err := parseCase(&c)
		if c.Failure {
			if err == nil {
				t.Errorf("%s = %q, want failure", what, u.Href)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		checkComponents(t, what, &u, &c)
		// The href parses back into itself.
		v, err := Parse(u.Href, nil)
		if err != nil || v != u {
			t.Errorf("%s: href %q parses back into %q, %v", what, u.Href, v.Href, err)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func quotePtr(s *string) string {
	if s == nil {
		return "null"
	}
	return quote(*s)
}
