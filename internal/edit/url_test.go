package edit

import (
	"strings"
	"testing"
)

// TestCanonicalPathDecodedDots: a segment that decodes to "." or ".." is
// a dot segment (RFC 3986 6.2.2), removed as a written one is; other
// dots and an encoded "/" stay. (FuzzParse found "0/.%2e" written as
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

// TestParse: curl's readings that the steps around the core's parser
// give: the text curl keeps raw and what it encodes, per component.
func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"example.com":                  "http://example.com/",
		"ftp.x/a":                      "ftp://ftp.x/a",
		"http:/a:80":                   "http://a/",
		"http:///a":                    "http://a/",
		"localhost:8080":               "http://localhost:8080/",
		`http://x/a"<>{}|\^` + "`b[c]": `http://x/a"<>{}|\^` + "`b[c]",
		"http://x/?a=1;b=%zz#f%zz#g":   "http://x/?a=1;b=%zz#f%zz#g",
		"http://x/é?é#é":               "http://x/%c3%a9?%c3%a9#é",
		"http://x/a b?c d#e f":         "http://x/a%20b?c+d#e f",
		`http://u"{:p%@h/`:             `http://u"{:p%@h/`,
		"imap://u:p;o@h/":              "imap://u:p;o@h/",
		"imap://u;o:p@h/":              "imap://u;o:p@h/",
		"http://[fe80::1%eth0]:81/":    "http://[fe80::1%25eth0]:81/",
		"http://[FE80:0::1%25eth0]/":   "http://[fe80::1%25eth0]/",
		"http://ex%61mple/%2e/b/../c":  "http://example/%2e/c",
		"http://0x14.0xb3022:0081/":    "http://20.11.48.34:81/",
		"file:///etc/passwd?x":         "file:///etc/passwd?x",
		"file:/etc/./x":                "file:///etc/x",
		"file://localhost/a/../b":      "file:///b",
		"https://example.com:443/?#":   "https://example.com/",
	} {
		u, err := Parse(in, Options{AcceptSpace: true})
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got, _ := u.Format(Out{}); got != want {
			t.Errorf("Parse(%q) writes %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"http://a@b@c/", "http://x:65536/", "http://x:+1/", "http://[::1", "http://[::1]x/", "http://a{b/",
		"http://a%zzb/", "http://[v1.x]/", "http://[fe80::1%]/", "http:////x/", "//example.com/x", "file://h/etc", "http://a b/", "http://a/\x1b"} {
		if u, err := Parse(bad, Options{}); err == nil {
			got, _ := u.Format(Out{})
			t.Errorf("Parse(%q) = %q, want an error as curl's", bad, got)
		}
	}
}

// TestParseLoginOptions: a scheme with login options reads them from the
// first ";" of the login, another keeps ";" in the user or password.
func TestParseLoginOptions(t *testing.T) {
	for _, c := range []struct{ in, user, password, options string }{
		{"imap://u:p;o@h/", "u", "p", "o"},
		{"imap://u;o:p@h/", "u", "", "o:p"},
		{"sftp://u:p;o@h/", "u", "p;o", ""},
	} {
		u, err := Parse(c.in, Options{})
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if u.User != c.user || u.Password != c.password || u.Options != c.options {
			t.Errorf("%q: user %q password %q options %q", c.in, u.User, u.Password, u.Options)
		}
	}
}

// FuzzParse: the edit reading (the core's parser between curl's steps)
// never panics; what it reads, it writes in a form it reads back to the
// same URL (the output is a fixed point), and the normalization of
// components and of the query is idempotent.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"example.com", "http://ex%61mple:80/%62ath/a/../b?%2e%FF#tes%74", "imap://u:p;o@h:143/x",
		"http://[fe80::1%25eth0]:8080/", "file:///etc/passwd", "http:/a:80", "0x14.0xb3022", "ftp.x/a b", "h/?a=b+c&&d#%zz",
		`h/a"{}[]?x^#y#z`, "u:p%@h/é"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, space bool) {
		u, err := Parse(s, Options{AcceptSpace: space})
		if err != nil {
			return
		}
		u.NormalizeParts()
		once, _ := u.Format(Out{KeepPort: true})
		if strings.ContainsAny(once, " \r\n\x00") {
			t.Fatalf("%q wrote %q", s, once)
		}
		v, err := Parse(once, Options{})
		if err != nil {
			t.Fatalf("%q wrote %q, which reads as %v", s, once, err)
		}
		v.NormalizeParts()
		if twice, _ := v.Format(Out{KeepPort: true}); twice != once {
			t.Fatalf("%q: %q then %q", s, once, twice)
		}
		q := NewQuery(u.Query, '&', false)
		q.Modified = true
		text := q.Text()
		r := NewQuery(text, '&', false)
		if r.Modified || r.Text() != text {
			t.Fatalf("query %q normalizes to %q, which is not normal", u.Query, text)
		}
	})
}

// TestParseErrors: a URL the core's parser refuses is reported as curl's
// checks report it, naming the port or the decoded host.
func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"http://x:65536/":     `bad port number "65536": a port is a number from 0 to 65535`,
		"node:url":            `bad port number "url": a port is a number from 0 to 65535`,
		"http://[::1]:8x/":    `bad port number "8x": a port is a number from 0 to 65535`,
		`http://"h.example/`:  `bad host name "\"h.example": '"' is not allowed in a host name`,
		"http://u@a{b/":       `bad host name "a{b": '{' is not allowed in a host name`,
		"http://a%20b/":       `bad host name "a b": ' ' is not allowed in a host name`,
		"example.com --no-x ": "malformed input: space at offset 11 (--accept-space encodes it)",
	} {
		_, err := Parse(in, Options{})
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q): %v, want %s", in, err, want)
		}
	}
}

// TestParseRawLogin: curl keeps a login as written, a space and octets
// 80-FF included (trurl's normalization then encodes them).
func TestParseRawLogin(t *testing.T) {
	u, err := Parse("http://a b:é{@h/", Options{AcceptSpace: true})
	if err != nil {
		t.Fatal(err)
	}
	if u.User != "a b" || u.Password != "é{" {
		t.Errorf("user %q password %q", u.User, u.Password)
	}
	u.NormalizeParts()
	if got, _ := u.Format(Out{}); got != "http://a%20b:%C3%A9%7B@h/" {
		t.Errorf("normalized: %s", got)
	}
}
