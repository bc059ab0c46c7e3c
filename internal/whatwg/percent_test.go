package whatwg

import (
	"encoding/json"
	"testing"
)

// TestPercentEncoding runs percent-encoding.json as its test does, with a
// URL whose query and fragment are the input. Its other encodings than
// UTF-8 are those of an HTML document's URLs: "the basic URL parser,
// given an optional encoding encoding (default UTF-8)" is called with
// the document's encoding by HTML only, and with none by the URL
// constructor (the API), which this package is; the fragment "is always
// UTF-8 encoded", so it is checked for every encoding, the query for
// UTF-8.
func TestPercentEncoding(t *testing.T) {
	var raw []json.RawMessage
	loadJSON(t, "percent-encoding.json", &raw)
	n := 0
	for _, r := range raw {
		if r[0] != '{' {
			continue
		}
		var c struct {
			Input  string            `json:"input"`
			Output map[string]string `json:"output"`
		}
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		n++
		u, err := Parse("https://doesnotmatter.invalid/?"+c.Input+"#"+c.Input, nil)
		if err != nil {
			t.Errorf("%q: %v", c.Input, err)
			continue
		}
		want := c.Output["utf-8"]
		if u.Search() != "?"+want || u.Hash() != "#"+want {
			t.Errorf("%q: search %q, hash %q, want %q", c.Input, u.Search(), u.Hash(), want)
		}
	}
	if n != 7 {
		t.Errorf("%d cases, want 7", n)
	}
}

// TestJavaScriptOnly runs urltestdata-javascript-only.json: its input
// holds lone UTF-16 surrogates, which a Go string cannot; encoding/json
// reads each as U+FFFD, as the Standard's scalar-value strings do in a
// browser (a lone surrogate becomes U+FFFD when the string is converted
// to a USVString), so the expected href holds all the same.
func TestJavaScriptOnly(t *testing.T) {
	cases := urlCases(t, "urltestdata-javascript-only.json")
	if len(cases) != 1 {
		t.Fatalf("%d cases, want 1", len(cases))
	}
	for _, c := range cases {
		u, err := parseCase(&c)
		if err != nil {
			t.Fatal(err)
		}
		checkComponents(t, c.Input, &u, &c)
	}
	// In Go the same holds for bytes that are no UTF-8.
	u, err := Parse("http://h/\xff?\xc3#\xed\xa0\x80", nil)
	if err != nil || u.Href != "http://h/%EF%BF%BD?%EF%BF%BD#%EF%BF%BD%EF%BF%BD%EF%BF%BD" {
		t.Errorf("invalid UTF-8: %q, %v", u.Href, err)
	}
}
