package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTemplate(t *testing.T) {
	parts, err := parseTemplate(`a\tb {:query:k=v} [x] {{ \q`)
	if err != nil {
		t.Fatal(err)
	}
	want := []tmplPart{{lit: "a\tb "}, {isVar: true, encoded: true, isQuery: true, name: "query", queryKey: "k=v"}, {lit: " [x] { \\q"}}
	if !reflect.DeepEqual(parts, want) {
		t.Errorf("parts %+v", parts)
	}
	for _, bad := range []string{"{}", "{nope}", "{x:host}", "{puny:idn:host}", "{default:}"} {
		if _, err := parseTemplate(bad); err == nil {
			t.Errorf("parseTemplate(%q) accepted", bad)
		}
	}
}

func TestTrurlArgs(t *testing.T) {
	got := trurlArgs([]string{"-shost=a", "b.example", "-s", "x", "--set=y", "-g{host}", "--url", "c", "--json", "d", "--", "-sURL"})
	want := []string{"-s", "host=a", "--url", "b.example", "-s", "x", "--set=y", "-g", "{host}", "--url", "c", "--json", "--url", "d", "--url", "-sURL"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q", got)
	}
}

func TestRedactLogin(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:secret@h/p":   "ftp://u:xxxxx@h/p",
		"u:pw@h/x:y@z":         "u:xxxxx@h/x:y@z",
		"http://h/a:b@c":       "http://h/a:b@c",
		"http://user@h/":       "http://user@h/",
		"http://a:b:c@d@h/p@q": "http://a:xxxxx@h/p@q",
		"ftp://u:s3cr/et@h/":   "ftp://u:xxxxx@h/",
		"u:s3cr/et@h/":         "u:xxxxx@h/",
	} {
		if got := redactLogin(in); got != want {
			t.Errorf("redactLogin(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzEditCommand runs whole edit command lines: any URL, template and
// --set value gives an exit status of the contract and never a panic, and
// the URL written is one that edit reads back unchanged.
func FuzzEditCommand(f *testing.F) {
	f.Add("https://u:p@ex.com:8080/a/../b?x=1&y=%20#f", "{url} {:query:x} [path] {default:port}", "path=/c d")
	f.Add("example.com", "\\{{must:query}\\n", "query:=a=b&c")
	f.Add("[::1]", "{puny:idn:host}", "host=[fe80::1%25eth0]")
	// Options set on a scheme without login options were written ("u;x@"),
	// and read back as part of the user name.
	f.Add("http://u@h/", "{url}", "options=x")
	f.Fuzz(func(t *testing.T, url, tmpl, set string) {
		for i, args := range [][]string{
			{"edit", "-g", tmpl, "-s", set, "--", url},
			{"edit", "--json", "--sort-query", "--qtrim", tmpl, "--", url},
			{"edit", "-s", set, "--", url},
		} {
			st, out, _ := TestStreams("")
			code := run(t.Context(), args, st)
			if code != exitOK && code != exitFail && code != exitUsage {
				t.Fatalf("%q: exit %d", args, code)
			}
			if i == 2 && code == exitOK && out.Len() > 0 {
				written := strings.TrimSuffix(out.String(), "\n")
				st2, out2, _ := TestStreams("")
				if run(t.Context(), []string{"edit", "--", written}, st2) != exitOK || strings.TrimSuffix(out2.String(), "\n") != written {
					t.Fatalf("%q wrote %q, which edit writes as %q", args, written, out2.String())
				}
			}
		}
	})
}
