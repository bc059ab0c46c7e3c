package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

func TestParseNetrc(t *testing.T) {
	got, err := parseNetrc("machine a.example login joe password \"p w\\\"d\"\n" +
		"macdef init\ncd /pub\nbinary\n\n" +
		"machine b login ann account x password s3\ndefault login anonymous password me@example.org\n")
	want := []netrcEntry{{"a.example", "joe", `p w"d`}, {"b", "ann", "s3"}, {"", "anonymous", "me@example.org"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	if e, ok := netrcLogin(got, "B"); !ok || e.login != "ann" {
		t.Errorf("machine b: %v %v", e, ok)
	}
	if e, ok := netrcLogin(got, "other"); !ok || e.login != "anonymous" {
		t.Errorf("default: %v %v", e, ok)
	}
	for _, bad := range []string{"login joe", "machine", "machine a login", `machine a password "open`, "machine a port 21"} {
		if _, err := parseNetrc(bad); err == nil || !strings.Contains(err.Error(), "offset ") {
			t.Errorf("%q: err %v, want one naming the offset", bad, err)
		}
	}
}

func FuzzParseNetrc(f *testing.F) {
	for _, s := range []string{"machine a login b password c", "default login x", `machine "q\"x" login y`, "macdef m\nx\n\nmachine z", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		entries, err := parseNetrc(s)
		if err != nil {
			return
		}
		// Round trip: written back quoted, the entries read the same.
		var b strings.Builder
		q := func(v string) string {
			return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
		}
		for _, e := range entries {
			if e.machine == "" {
				b.WriteString("default")
			} else {
				b.WriteString("machine " + q(e.machine))
			}
			b.WriteString(" login " + q(e.login) + " password " + q(e.password) + "\n")
		}
		again, err := parseNetrc(b.String())
		if err != nil || !reflect.DeepEqual(again, entries) && len(entries) > 0 {
			t.Fatalf("%q: written as %q reads %q, %v", entries, b.String(), again, err)
		}
	})
}

// --netrc-file logs in to ProFTPD as the file says, the password never
// shown; a netrc that others may read is refused before anything is sent.
func TestGetNetrcProFTPD(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS")
	netrc := filepath.Join(t.TempDir(), "netrc")
	content := "machine 127.0.0.1 login " + e["FTP_USER"] + " password " + e["FTP_PASS"] + "\n"
	if err := os.WriteFile(netrc, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	url := "ftp://127.0.0.1:" + e["FTP_PORT"] + "/home.txt"
	code, out, stderr := runCLI(t, "", false, "get", "--trace", "--netrc-file", netrc, url)
	if code != exitOK || out != "in the login directory of "+e["FTP_USER"]+"\n" || !strings.Contains(stderr, "> USER "+e["FTP_USER"]) {
		t.Fatalf("exit %d, %q: %s", code, out, stderr)
	}
	if strings.Contains(stderr, e["FTP_PASS"]) {
		t.Errorf("the password shows: %s", stderr)
	}
	// $NETRC with --netrc, the same.
	t.Setenv("NETRC", netrc)
	if code, out, _ := runCLI(t, "", false, "get", "--netrc", url); code != exitOK || !strings.Contains(out, "login directory") {
		t.Errorf("--netrc: exit %d %q", code, out)
	}
	// A user in the URL wins over the netrc: anonymous has no home.txt.
	if code, _, _ := runCLI(t, "", false, "get", "--netrc-file", netrc, "ftp://anonymous@127.0.0.1:"+e["FTP_PORT"]+"/home.txt"); code == exitOK {
		t.Errorf("the URL's user did not win")
	}
	// World-readable: refused, nothing fetched.
	os.Chmod(netrc, 0o644)
	code, out, stderr = runCLI(t, "", false, "get", "--netrc-file", netrc, url)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "may be read by others (mode 0644)") || strings.Contains(stderr, e["FTP_PASS"]) {
		t.Errorf("world-readable: exit %d %q: %s", code, out, stderr)
	}
}

// --user logs in to ProFTPD for a URL without a user, the password never
// shown; it goes before the netrc file (curl's rule), and the URL's own
// user goes before both.
func TestGetUserProFTPD(t *testing.T) {
	e := wt.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS")
	login := e["FTP_USER"] + ":" + e["FTP_PASS"]
	url := "ftp://127.0.0.1:" + e["FTP_PORT"] + "/home.txt"
	code, out, stderr := runCLI(t, "", false, "get", "--trace", "--user", login, url)
	if code != exitOK || out != "in the login directory of "+e["FTP_USER"]+"\n" || !strings.Contains(stderr, "> USER "+e["FTP_USER"]+"\n") {
		t.Fatalf("exit %d, %q: %s", code, out, stderr)
	}
	if strings.Contains(stderr, e["FTP_PASS"]) {
		t.Errorf("the password shows: %s", stderr)
	}
	// A wrong password, with curl's -u: refused as a login (67), and not
	// shown.
	code, _, stderr = runCLI(t, "", false, "get", "-u", e["FTP_USER"]+":Wr0ngS3cret", url)
	if code != exitLogin || strings.Contains(stderr, "Wr0ngS3cret") {
		t.Errorf("wrong password: exit %d: %s", code, stderr)
	}
	// Before the netrc file: the netrc's login would be anonymous's.
	netrc := filepath.Join(t.TempDir(), "netrc")
	if err := os.WriteFile(netrc, []byte("default login anonymous password a@b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCLI(t, "", false, "get", "--netrc-file", netrc, "--user", login, url); code != exitOK || !strings.Contains(out, "login directory") {
		t.Errorf("--user and --netrc-file: exit %d %q: %s", code, out, stderr)
	}
	// The URL's user goes before --user: anonymous has no home.txt.
	if code, _, _ := runCLI(t, "", false, "get", "--user", login, "ftp://anonymous@127.0.0.1:"+e["FTP_PORT"]+"/home.txt"); code == exitOK {
		t.Errorf("the URL's user did not win")
	}
}

// The netrc login goes to an http server as Basic authorization.
func TestGetNetrcNginx(t *testing.T) {
	port := wt.ServerEnv(t, "HTTP_PORT")["HTTP_PORT"]
	netrc := filepath.Join(t.TempDir(), "netrc")
	if err := os.WriteFile(netrc, []byte("default login tester password secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url := "http://127.0.0.1:" + port + "/private/secret.txt"
	if code, _, _ := runCLI(t, "", false, "get", url); code != exitHTTPStatus {
		t.Fatalf("without netrc: exit %d, want 401's %d", code, exitHTTPStatus)
	}
	if code, _, stderr := runCLI(t, "", false, "get", "--netrc-file", netrc, url); code != exitOK {
		t.Errorf("with netrc: exit %d: %s", code, stderr)
	}
	// And --user's.
	if code, _, stderr := runCLI(t, "", false, "get", "--user", "tester:secret", url); code != exitOK {
		t.Errorf("with --user: exit %d: %s", code, stderr)
	}
}
