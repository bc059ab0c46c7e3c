package fetch

import (
	"testing"

	"github.com/urlkit/urlkit/client/prospero"
)

// TestProsperoLinkURL: a link's URL reads back as the host, port and
// hsoname the server sent, or there is none (FuzzProsperoReplyURLs found
// the host "A/", which wrote "prospero://A//": the hsoname "/" on "A").
func TestProsperoLinkURL(t *testing.T) {
	for _, tc := range []struct{ host, port, hsoname, want string }{
		{"127.0.0.1", "1525", "/pub/a b", "prospero://127.0.0.1:1525//pub/a%20b"},
		{"h", "", "AFTP/it's", "prospero://h/AFTP/it's"},
		{"h", "", "", "prospero://h/"},
		{"A/", "", "", ""},      // would read as host "A", hsoname "/"
		{"a/b", "", "c", ""},    // would read as host "a", hsoname "b/c"
		{"h", "", "a\x00b", ""}, // "%00" would read as a version
		{"h?x", "", "c", ""},    // no URL holds this host
	} {
		if got := prosperoLinkURL(tc.host, tc.port, tc.hsoname); got != tc.want {
			t.Errorf("prosperoLinkURL(%q, %q, %q) = %q, want %q", tc.host, tc.port, tc.hsoname, got, tc.want)
		}
	}
}

// TestForwardedReadsBack: a FORWARDED reply names a URL only when it
// reads back as the host, hsoname and version the server sent; the host
// "a@evil" would read as a user "a" on "evil".
func TestForwardedReadsBack(t *testing.T) {
	for line, want := range map[string]string{
		"FORWARDED INTERNET-D h(1526) ASCII '/a b' 3":    "prospero://h:1526//a%20b%003",
		"FORWARDED INTERNET-D h ASCII 'x' 0":             "prospero://h/x",
		"FORWARDED INTERNET-D a@evil(1525) ASCII '/x' 0": "",
		"FORWARDED INTERNET-D a/b ASCII 'c' 0":           "",
	} {
		r, err := prospero.ParseReply([]byte(line + "\n"))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := forwarded(r); got != want {
			t.Errorf("forwarded(%q) = %q, want %q", line, got, want)
		}
	}
}
