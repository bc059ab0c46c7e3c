package main

import (
	"os/exec"
	"strings"
	"testing"
)

// trurlCases are command lines that trurl 0.16 and urlkit edit must
// answer alike (standard output, and whether the exit status is 0). They
// avoid the documented differences (--replace compares whole keys, the
// order --sort-query gives pairs that are prefixes of others).
var trurlCases = [][]string{
	{"example.com"}, {"http://ex%61mple:80/%62ath/a/../b?%2e%FF#tes%74"}, {"HTTPS://example.com"},
	{"ftp.example.com"}, {"localhost:8080"}, {"http:/a:80"}, {"http:/a", "--default-port"}, {"http:/a:80", "--keep-port"},
	{"http://646464646/"}, {"http://0x14.0xb3022/"}, {"http://[2001:9b1:0:0:0:0:7b97:364b]/"},
	{"--url", "https://curl.se", "--set", "host=example.com"}, {"--set", "host=example.com", "--set", "scheme=ftp"},
	{"http://hello", "-s", "path=pony"}, {"http://horse?elephant", "-s", "query=?elephant"},
	{"http://horse#elephant", "-s", "fragment=#zebra"}, {"https://daniel@curl.se:22/", "-s", "port=", "-s", "user="},
	{"example.com", "-s", "scheme?=ftp"}, {"ftp://hello:443/foo", "-s", "scheme=https"},
	{"https://curl.se/we/are.html", "--get", "{path} {default:port} {scheme}"},
	{"https://example.com?a=home&here=now&thisthen", "-g", "{query:a}"}, {"hej?a=b&a=c&a=d&b=a", "-g", "{query-all:a}"},
	{"https://curl.se?name=mr%00smith", "-g", "{query:name}"}, {"localhost", "-g", `\{{scheme}\[ [host] {host`},
	{"imap://user:pwd;giraffe@odd", "-g", "{options}"}, {"sftp://user:pwd;giraffe@odd", "-g", "{password}"},
	{"http://[2001:9b1::f358:1ba4:7b97:364b%enp3s0]/", "-g", "{zoneid} {host}"},
	{"http://twelve/three?hello", "--append", "path=four"}, {"http://host?name=hello", "--append", "query=search=life"},
	{"http://alpha?one=real&two=fake", "--replace", "two=alsoreal"},
	{"http://alpha?one=real&two=fake", "--replace-append", "three=alsoreal"},
	{"http://alpha/?one=real&two=fake&three=alsoreal", "--sort-query"},
	{"https://example.com?a12=hej&a23=moo&b12=foo", "--qtrim", "a*"},
	{"https://curl.se?search=fool;page=5", "--qtrim", "search", "--query-separator", ";"},
	{"--url", "https://curl.se/we/are.html", "--redirect", "../here.html"},
	{"example.com", "--iterate", "scheme=ftp https", "--iterate", "port=22 80"},
	{"https://fake.host/search?q=answers&user=me#frag", "--json"},
	{"ftp://smith:secret@example.com:33/path?search=me+now#where", "--json"},
	{"https://curl.se/this has space/index.html", "--accept-space"},
	{"http://åäö/", "--punycode"}, {"http://xn--4cab6c/", "--as-idn"},
	{"example.com", "--no-guess-scheme"}, {"e?e&&"}, {"e?e&&&&a&&"}, {"https://x/?a=b+c&d=%20", "-g", "{:query} {query}"},
}

// TestEditAgainstTrurl runs trurlCases through trurl, where trurl 0.16 is
// installed (Debian packages it from trixie on), and through edit. It
// skips without it.
func TestEditAgainstTrurl(t *testing.T) {
	bin, err := exec.LookPath("trurl")
	if err != nil {
		t.Skip("trurl is not installed")
	}
	v, _ := exec.Command(bin, "--version").Output()
	if !strings.HasPrefix(string(v), "trurl version 0.16") {
		t.Skipf("trurl is not version 0.16: %s", v)
	}
	for _, args := range trurlCases {
		want, werr := exec.Command(bin, args...).Output()
		st, out, _ := TestStreams("")
		code := run(t.Context(), append([]string{"edit"}, args...), st)
		if out.String() != string(want) || (code == exitOK) != (werr == nil) {
			t.Errorf("%q:\ntrurl (%v):\n%s\nedit (exit %d):\n%s", args, werr, want, code, out.String())
		}
	}
}
