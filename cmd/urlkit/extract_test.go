package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestExtractExitCodes: 0 whatever is found, 1 for an unreadable FILE,
// 2 for usage errors, 130 when interrupted.
func TestExtractExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		in   string
		want int
	}{
		{[]string{"extract"}, "no URL here\n", exitOK},
		{[]string{"extract"}, "<URL:http://unclosed.example/\n\nhttp://x:PORT/\n", exitOK},
		{[]string{"extract", "/nonexistent/file"}, "", exitFail},
		{[]string{"extract", "--max-length", "-1"}, "", exitUsage},
		{[]string{"extract", "--nope"}, "", exitUsage},
	}
	for _, tc := range tests {
		st, _, _ := TestStreams(tc.in)
		if got := run(context.Background(), tc.args, st); got != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.args, got, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, _, _ := TestStreams("http://a.example/\n")
	if got := run(ctx, []string{"extract"}, st); got != exitInterrupted {
		t.Errorf("interrupted: exit %d", got)
	}
}

// TestExtractCRLF: the JSON of CRLF input has the lines and columns of
// the LF input; offsets count the carriage returns.
func TestExtractCRLF(t *testing.T) {
	lf := "one\n  <URL:ftp://info.cern.ch/pub/www/doc;\n  type=d> and\nthen http://a.example/x-\ny, (news:comp.infosystems.www).\n"
	decode := func(in string) []map[string]any {
		st, out, errOut := TestStreams(in)
		if code := run(context.Background(), []string{"extract", "--json"}, st); code != exitOK || errOut.Len() > 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		var items []map[string]any
		for line := range strings.Lines(out.String()) {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			items = append(items, m)
		}
		return items
	}
	a, b := decode(lf), decode(strings.ReplaceAll(lf, "\n", "\r\n"))
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("LF %v\nCRLF %v", a, b)
	}
	for i := range a {
		for _, k := range []string{"url", "line", "column", "wrapped"} {
			if a[i][k] != b[i][k] {
				t.Errorf("item %d: %s LF %v, CRLF %v", i, k, a[i][k], b[i][k])
			}
		}
		if b[i]["offset"].(float64) != a[i]["offset"].(float64)+a[i]["line"].(float64)-1 {
			t.Errorf("item %d: offsets LF %v, CRLF %v", i, a[i]["offset"], b[i]["offset"])
		}
	}
	if a[0]["url"] != "ftp://info.cern.ch/pub/www/doc;type=d" || a[0]["line"] != 2.0 || a[0]["column"] != 8.0 {
		t.Errorf("first item %v", a[0])
	}
}
