package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeIPv4(t *testing.T) {
	// inet_aton's forms, as trurl's manual lists them (host section).
	for in, want := range map[string]string{
		"646464646": "38.136.68.134", "246.646": "246.0.2.134", "246.46.646": "246.46.2.134",
		"0x14.0xb3022": "20.11.48.34", "127.1": "127.0.0.1", "010.0.0.1": "8.0.0.1", "1.2.3.4": "1.2.3.4",
		"0x0": "0.0.0.0", "4294967295": "255.255.255.255",
	} {
		if got, ok := normalizeIPv4(in); !ok || got != want {
			t.Errorf("normalizeIPv4(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, name := range []string{"1.2.3.256", "4294967296", "1.2.3.4.5", "a.b", "1..2", "08", "1.2.3.", "", "256.1", "0x"} {
		if got, ok := normalizeIPv4(name); ok {
			t.Errorf("normalizeIPv4(%q) = %q: a name, not a number", name, got)
		}
	}
}

func TestDedot(t *testing.T) {
	for in, want := range map[string]string{
		"": "/", "/": "/", "/a/../b": "/b", "/../moo": "/moo", "/.././moo": "/moo", "/a/.": "/a/", "/a/b/..": "/a/",
		"/one/../two/../three/./four": "/three/four", "/a./b..": "/a./b..",
	} {
		if got := dedot(in); got != want {
			t.Errorf("dedot(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCanonicalPathDecodedDots: a segment that decodes to "." or ".." is
// a dot segment (RFC 3986 6.2.2), removed as a written one is; other
// dots and an encoded "/" stay. (FuzzEditURL found "0/.%2e" written as
// "http://0.0.0.0/..", which edit then read as "http://0.0.0.0/".)
func TestCanonicalPathDecodedDots(t *testing.T) {
	for in, want := range map[string]string{
		"/.%2e": "/", "/a/%2e%2E/b": "/b", "/a/.%2e": "/", "/a/%2e/": "/a/", "/a/%2E": "/a/",
		"/a/%2e.x/b": "/a/..x/b", "/a%2F%2e%2e/b": "/a%2F../b", "/%41/b": "/A/b",
	} {
		if got := canonicalPath(in); got != want {
			t.Errorf("canonicalPath(%q) = %q, want %q", in, got, want)
		}
	}
}

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

// FuzzEditURL: the edit parser never panics; what it reads, it writes in
// a form it reads back to the same URL (the output is a fixed point), and
// the normalization of components is idempotent.
func FuzzEditURL(f *testing.F) {
	for _, s := range []string{"example.com", "http://ex%61mple:80/%62ath/a/../b?%2e%FF#tes%74", "imap://u:p;o@h:143/x",
		"http://[fe80::1%25eth0]:8080/", "file:///etc/passwd", "http:/a:80", "0x14.0xb3022", "ftp.x/a b", "h/?a=b+c&&d#%zz"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, space bool) {
		o := editOptions{acceptSpace: space}
		u, err := parseEditURL(s, o)
		if err != nil {
			return
		}
		u.normalizeParts()
		once, _ := u.format(urlOut{keepPort: true})
		if strings.ContainsAny(once, " \r\n\x00") {
			t.Fatalf("%q wrote %q", s, once)
		}
		v, err := parseEditURL(once, editOptions{})
		if err != nil {
			t.Fatalf("%q wrote %q, which reads as %v", s, once, err)
		}
		v.normalizeParts()
		if twice, _ := v.format(urlOut{keepPort: true}); twice != once {
			t.Fatalf("%q: %q then %q", s, once, twice)
		}
		q := newEditQuery(u.query, '&', false)
		q.modified = true
		text := q.text()
		r := newEditQuery(text, '&', false)
		if r.modified || r.text() != text {
			t.Fatalf("query %q normalizes to %q, which is not normal", u.query, text)
		}
	})
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
