package whatwg

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

type hostCase struct {
	Comment string  `json:"comment"`
	Input   string  `json:"input"`
	Output  *string `json:"output"`
}

func hostCases(t *testing.T, name string) []hostCase {
	var raw []json.RawMessage
	loadJSON(t, name, &raw)
	var cases []hostCase
	for _, r := range raw {
		if r[0] != '{' {
			continue
		}
		var c hostCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// encodeHostEnding percent-encodes the code points that would end a host
// in "https://" + input + "/x", as IdnaTestV2.window.js does.
func encodeHostEnding(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(":/?#\\", r) {
			b.WriteString(url.QueryEscape(string(r)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hostTest is the check both host files make through the URL parser.
func hostTest(t *testing.T, name string, escape bool) {
	for _, c := range hostCases(t, name) {
		if c.Input == "" {
			continue // "https:///x" tests nothing about hosts
		}
		in := c.Input
		if escape {
			in = encodeHostEnding(in)
		}
		u, err := Parse("https://"+in+"/x", nil)
		if c.Output == nil {
			if err == nil {
				t.Errorf("%s %q (%s): host %q, want failure", name, c.Input, c.Comment, u.Hostname())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %+q (%s): %v, want %q", name, c.Input, c.Comment, err, *c.Output)
			continue
		}
		if u.Host() != *c.Output || u.Hostname() != *c.Output || u.Pathname() != "/x" || u.Href != "https://"+*c.Output+"/x" {
			t.Errorf("%s %q (%s): %q, want host %q", name, c.Input, c.Comment, u.Href, *c.Output)
		}
	}
}

func TestIdnaTestV2(t *testing.T) { hostTest(t, "IdnaTestV2.json", true) }

func TestToASCII(t *testing.T) { hostTest(t, "toascii.json", false) }
