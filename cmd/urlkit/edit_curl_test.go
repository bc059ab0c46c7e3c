package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/edit"
)

// curlCases are inputs whose reading by curl the edit model must match:
// guessed schemes, slashes, logins, hosts, ports, dot segments.
var curlCases = []string{
	"example.com", "ftp.example.com/a", "FTP.x.org", "imap.x", "dict.x", "localhost:8080", "user@host",
	"HTTPS://EXAMPLE.com", "https://example.com/FOO/BAR", "hp://example.com", "http:/a:80", "http:///a",
	"http:////x/", "http:x", "//example.com/x", "http://a@b@c/", "http://x:/", "http://x:0080/p", "http://x:65536/",
	"http://x:+1/", "http://user:pa:ss@h/", "imap://u:p;o@h/", "sftp://u:p;o@h/", "http://x/?", "http://x/#",
	"http://646464646/", "http://246.646/", "http://246.46.646/", "http://0x14.0xb3022/", "http://1.2.3.256/",
	"http://4294967296/", "http://08/", "http://1.2.3./", "http://0x/", "http://010.0.0.1/", "http://127.1/",
	"http://[2001:9b1:0:0:0:0:7b97:364b]/", "http://[::ffff:1.2.3.4]:81/", "http://[fe80::1%25eth0]/",
	"http://[::1", "http://[::1]x/", "http://ex%61mple/", "http://a%20b/", "http://a_b/", "http://a{b/",
	"http://x/a/./b/../../..", "http://x/../moo", "https://x/.././moo", "http://x/p?a=1#f#g", "mailto:a@b",
	"http://x/é?é", "http://x/a\"<>{}|\\^`b", "http://x/?a=1;b=%zz", "http://x/a%2Fb", "http://%41@x/",
	"ftp://hello:21/foo", "https://hello:443/foo", "ws://h:80/", "wss://h:443/", "gopher://h:70/", "x-y://h:80/",
	"file:///etc/passwd", "file:/etc/passwd", "file://localhost/etc", "file://h/etc",
}

// TestEditAgainstLibcurl compares the edit model (edit.Parse, Format)
// with libcurl's URL API, through testdata/libcurl/curlurl.c, on
// curlCases and on the benchmark data sets when they are there. It skips
// without a C compiler and libcurl's headers (Debian:
// libcurl4-openssl-dev; test.sh installs it).
//
// Left out where libcurl versions and builds differ from the 8.x that
// trurl 0.16 needs: a scheme the library was built without (ws and wss
// before 8.11), a space anywhere (7.88 encodes some that 8.x refuses without
// --accept-space), the query of a file: URL (7.88 does not write it), and
// a URL starting with a non-ASCII byte.
func TestEditAgainstLibcurl(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	bin := filepath.Join(t.TempDir(), "curlurl")
	if out, err := exec.Command(cc, "-o", bin, "testdata/libcurl/curlurl.c", "-lcurl").CombinedOutput(); err != nil {
		if os.Getenv("URLKIT_REQUIRE_LIBCURL") == "1" {
			t.Fatalf("building the libcurl helper: %v\n%s", err, out)
		}
		t.Skipf("libcurl's headers are missing (libcurl4-openssl-dev): %s", out)
	}
	inputs := append([]string(nil), curlCases...)
	if dir := benchDir(); dir != "" {
		for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				continue
			}
			for l := range strings.Lines(string(b)) {
				inputs = append(inputs, strings.TrimRight(l, "\r\n"))
			}
		}
	}
	var kept []string
	for _, s := range inputs {
		if s == "" || len(s) > 60000 || strings.ContainsAny(s, " \t\r\n") || s[0] >= 0x80 ||
			strings.HasPrefix(strings.ToLower(s), "file:") && strings.Contains(s, "?") {
			continue
		}
		kept = append(kept, s)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(kept, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatal("no answer from the libcurl helper")
	}
	supported := map[string]bool{}
	for _, p := range strings.Fields(strings.TrimPrefix(sc.Text(), "PROTOCOLS")) {
		supported[p] = true
	}
	i, differ, skipped := 0, 0, 0
	for ; sc.Scan(); i++ {
		s, curl := kept[i], sc.Text()
		if name, _, ok := edit.SchemePrefix(s, true); ok && !supported[strings.ToLower(name)] && edit.DefaultPort(strings.ToLower(name)) != "" {
			skipped++ // a scheme edit knows that this libcurl was built without
			continue
		}
		u, err := edit.Parse(s, edit.Options{})
		mine := "ERR"
		if err == nil {
			f, _ := u.Format(edit.Out{})
			mine = "OK " + f
		}
		if curl == mine || strings.HasPrefix(curl, "ERR") && mine == "ERR" {
			continue
		}
		if differ++; differ <= 20 {
			t.Errorf("%q:\n  libcurl %s\n  edit    %s (%v)", s, curl, mine, err)
		}
	}
	if i != len(kept) {
		t.Fatalf("the helper answered %d of %d URLs", i, len(kept))
	}
	t.Logf("%d URLs read alike by libcurl and edit (%d differ, %d of schemes this libcurl lacks)", i-differ-skipped, differ, skipped)
}

// benchDir is the benchmark data sets' folder, or "".
func benchDir() string {
	dir := os.Getenv("URLKIT_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "bench", "urls")
	}
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}
