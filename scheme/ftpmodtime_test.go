package scheme

import (
	"slices"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestFTPModTime: PlanOptions.ModTime asks MDTM right after SIZE, for a
// TYPE I file only (servers refuse both in TYPE A); without it the plan
// is what explain prints.
func TestFTPModTime(t *testing.T) {
	for _, tc := range []struct {
		url     string
		modTime bool
		want    []string // the sends from TYPE on
	}{
		{"ftp://host/f.bin", true, []string{`send "TYPE I\r\n"`, `send "SIZE f.bin\r\n"`, `send "MDTM f.bin\r\n"`, `send "EPSV\r\n"`}},
		{"ftp://host/f.bin", false, []string{`send "TYPE I\r\n"`, `send "SIZE f.bin\r\n"`, `send "EPSV\r\n"`}},
		{"ftp://host/f.txt", true, []string{`send "TYPE A\r\n"`, `send "EPSV\r\n"`}},
		{"ftp://host/dir/", true, []string{`send "EPSV\r\n"`}},
	} {
		lines := explain(t, parseURL(t, tc.url, urlkit.RFC1738), PlanOptions{ModTime: tc.modTime}, false)
		var sends []string
		for _, l := range lines {
			isSend := strings.HasPrefix(l, "send ")
			if isSend && (len(sends) > 0 || l == `send "TYPE I\r\n"` || l == `send "TYPE A\r\n"` || l == `send "EPSV\r\n"`) {
				sends = append(sends, l)
			}
		}
		if len(sends) < len(tc.want) || !slices.Equal(sends[:len(tc.want)], tc.want) {
			t.Errorf("%s, ModTime %v: %q, want %q first", tc.url, tc.modTime, sends, tc.want)
		}
	}
}
