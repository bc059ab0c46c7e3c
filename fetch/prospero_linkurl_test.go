package fetch

import "testing"

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
