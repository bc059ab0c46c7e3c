package fetch

// Tests against the real ProFTPD of scripts/servers/start-ftp.sh. Its
// command log (FTP_LOG: `user "command" code`) shows what reached it.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type ftpEnv struct {
	host, user, pass string
}

func realFTP(t *testing.T) ftpEnv {
	e := wiretest.ServerEnv(t, "FTP_PORT", "FTP_USER", "FTP_PASS")
	return ftpEnv{host: "127.0.0.1:" + e["FTP_PORT"], user: e["FTP_USER"], pass: e["FTP_PASS"]}
}

// anon returns the anonymous URL of path; as returns it for the user.
func (e ftpEnv) anon(path string) string { return "ftp://" + e.host + path }
func (e ftpEnv) as(path string) string {
	return "ftp://" + e.user + ":" + e.pass + "@" + e.host + path
}

func TestRealFTP(t *testing.T) {
	e := realFTP(t)
	tests := []struct {
		name    string
		url     string
		want    string // exact body, or with listing a line it must hold
		listing bool
		size    int64 // expected Response.Size (0: don't check)
		kind    error
		log     string // a line the server must have logged
	}{
		{name: "anonymous text, TYPE A guessed", url: e.anon("/pub/hello.txt"), want: "Hello from anonymous FTP.\n", log: `"TYPE A" 200`},
		{name: "binary, TYPE I guessed, SIZE", url: e.anon("/pub/64k.bin"), want: strings.Repeat("x", 65536), size: 65536, log: `"SIZE 64k.bin" 213`},
		{name: "escaped space in CWD and name", url: e.anon("/pub/sub%20dir/nested%20file.txt"), want: "file with a space in its directory\n", log: `"CWD sub dir" 250`},
		{name: "escaped %", url: e.anon("/pub/100%25.txt"), want: "percent\n", log: `"RETR 100%.txt" 226`},
		{name: "escaped ; in the name", url: e.anon("/pub/type%3Ba.txt"), want: "semi;colon\n", log: `"RETR type;a.txt" 226`},
		{name: "type=a", url: e.anon("/pub/lines.txt;type=a"), want: "one\ntwo\n\nfour\n"},
		{name: "type=i", url: e.anon("/pub/lines.txt;type=i"), want: "one\ntwo\n\nfour\n", size: 14, log: `"TYPE I" 200`},
		{name: "type=d: NLST of the directory", url: e.anon("/pub/;type=d"), want: "hello.txt", listing: true, log: `"NLST" 226`},
		{name: "type=d: NLST of a name", url: e.anon("/pub/hello.txt;type=d"), want: "hello.txt", listing: true, log: `"NLST hello.txt" 226`},
		{name: "trailing slash: NLST", url: e.anon("/pub/"), want: "64k.bin\n", listing: true, log: `"NLST" 226`},
		{name: "no path: NLST of the login directory", url: e.anon(""), want: "pub\n", listing: true},
		{name: "missing file", url: e.anon("/pub/missing.txt"), kind: ErrNotFound},
		{name: "missing directory", url: e.anon("/nodir/x.txt"), kind: ErrNotFound, log: `"CWD nodir" 550`},
		{name: "a directory as a file", url: e.anon("/pub"), kind: ErrIsDirectory},
		{name: "user, relative to the login directory", url: e.as("/home.txt"), want: "in the login directory of " + e.user + "\n"},
		{name: "user, subdirectory", url: e.as("/docs/readme.txt"), want: "docs/readme of " + e.user + "\n"},
		{name: "user, %2F: absolute (RFC 1738 3.2.2)", url: e.as("/%2Fpub/root.txt"), want: "top-level pub (reach it with %2Fpub)\n", log: `"CWD /pub" 250`},
		{name: "user, RFC 1738's example", url: e.as("/%2Fetc/motd"), want: "fake passwd under the chroot\n", log: `"CWD /etc" 250`},
		{name: "user, pub is not in the login directory", url: e.as("/pub/root.txt"), kind: ErrNotFound},
		{name: "empty user name: anonymous", url: "ftp://@" + e.host + "/pub/hello.txt", want: "Hello from anonymous FTP.\n"},
		{name: "wrong password", url: "ftp://" + e.user + ":not-the-password@" + e.host + "/home.txt", kind: ErrAccessDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := followLog(t, "FTP_LOG")
			f := &Fetcher{Getenv: noEnv()}
			resp, err := f.Get(testCtx(t), tt.url)
			if tt.kind != nil {
				if !errors.Is(err, tt.kind) {
					t.Fatalf("err = %v, want %v", err, tt.kind)
				}
				if strings.Contains(err.Error(), ":"+e.pass+"@") || strings.Contains(err.Error(), "not-the-password") {
					t.Errorf("password in %q", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				got := readAll(t, resp)
				switch {
				case tt.listing && (!resp.Listing || !strings.Contains(got, tt.want)):
					t.Errorf("listing %v: %q, want a line with %q", resp.Listing, got, tt.want)
				case !tt.listing && got != tt.want:
					t.Errorf("body %q, want %q", got, tt.want)
				}
				if tt.size != 0 && resp.Size != tt.size {
					t.Errorf("Size %d, want %d", resp.Size, tt.size)
				}
				if !strings.HasPrefix(resp.Reply, "150 ") {
					t.Errorf("Reply %q, want the 150 reply", resp.Reply)
				}
				if strings.Contains(resp.URL, e.pass+"@") {
					t.Errorf("Response.URL %q not redacted", resp.URL)
				}
			}
			if tt.log != "" {
				if lines := log.newLines(t, tt.log, 1); !strings.Contains(lines, tt.log) {
					t.Errorf("server log lacks %s:\n%s", tt.log, lines)
				}
			}
		})
	}
}

// RFC 1738 3.2.2: "//etc/motd" is a CWD with a null argument. ProFTPD
// refuses it with 501: by default the fetch fails, naming the offset of
// the empty segment; with SkipNullCWD it goes on and warns.
func TestRealFTPNullCWD(t *testing.T) {
	e := realFTP(t)
	log := followLog(t, "FTP_LOG")
	u := e.as("//home.txt")
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), u)
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, ErrNullCWD) {
		t.Fatalf("err = %v, want ErrNullCWD", err)
	}
	if want := strings.Index(u, "//home") + 1; fe.Offset != want {
		t.Errorf("offset %d, want %d (%v)", fe.Offset, want, err)
	}
	// Only what follows the refused CWD counts: ProFTPD may log the end of
	// an earlier session (its RETR) after this one has begun.
	lines := log.newLines(t, `"CWD" 501`, 1)
	i := strings.Index(lines, `"CWD" 501`)
	if i < 0 || strings.Contains(lines[i:], "RETR") {
		t.Errorf("server log, want the null CWD refused and no RETR after it:\n%s", lines)
	}

	f := &Fetcher{Getenv: noEnv()}
	f.FTP.SkipNullCWD = true
	resp, err := f.Get(testCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "in the login directory of "+e.user+"\n" || len(resp.Warnings) != 1 || !strings.Contains(resp.Warnings[0], "501") {
		t.Errorf("skip: %q, warnings %q", got, resp.Warnings)
	}
}

// A user without a password: the password is asked for when the server
// wants one, and without a way to ask the fetch fails clearly.
func TestRealFTPPasswordPrompt(t *testing.T) {
	e := realFTP(t)
	u := "ftp://" + e.user + "@" + e.host + "/home.txt"
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), u)
	if !errors.Is(err, ErrNeedPassword) || !strings.Contains(err.Error(), "no terminal") {
		t.Errorf("no prompt: err = %v, want ErrNeedPassword", err)
	}
	asked := []Prompt{}
	f := &Fetcher{Getenv: noEnv(), Prompt: func(ctx context.Context, p Prompt) (string, error) {
		asked = append(asked, p)
		return e.pass, nil
	}}
	resp, err := f.Get(testCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	if len(asked) != 1 || !asked[0].Secret || !strings.Contains(asked[0].Text, e.user) {
		t.Errorf("prompts %+v, want one secret prompt naming the user", asked)
	}
	f.Prompt = func(context.Context, Prompt) (string, error) { return "", errors.New("user gave up") }
	if _, err := f.Get(testCtx(t), u); !errors.Is(err, ErrNeedPassword) || !strings.Contains(err.Error(), "user gave up") {
		t.Errorf("failing prompt: err = %v", err)
	}
}

func TestRealFTPActive(t *testing.T) {
	e := realFTP(t)
	log := followLog(t, "FTP_LOG")
	f := &Fetcher{Getenv: noEnv()}
	f.FTP.Dialer.Active = true
	resp, err := f.Get(testCtx(t), e.anon("/pub/64k.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); len(got) != 65536 {
		t.Errorf("%d bytes", len(got))
	}
	if lines := log.newLines(t, `"EPRT`, 1); !strings.Contains(lines, `"EPRT |1|127.0.0.1|`) {
		t.Errorf("no EPRT in the server log:\n%s", lines)
	}
}

// Injection attempts are refused before connecting: nothing of them
// reaches the server's log. (Other packages' tests use the server at the
// same time, so the check looks for the attempt's own marks.)
func TestRealFTPInjection(t *testing.T) {
	e := realFTP(t)
	for _, u := range []string{
		e.anon("/inject1/x%0D%0ADELE%20hello.txt"),
		e.anon("/inject2%0ADELE%20x/hello.txt"),
		e.anon("/pub/inject3.txt%00.bin"),
		e.anon("/pub/inject4.txt;type=a%0D%0AQUIT"),
		"ftp://inject5%0D%0ASITE%20EXEC:x@" + e.host + "/",
		"ftp://" + e.user + ":" + e.pass + "%0D%0ADELE%20home.txt@" + e.host + "/inject6.txt",
	} {
		log := followLog(t, "FTP_LOG")
		_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), u)
		var fe *Error
		if !errors.As(err, &fe) || !(errors.Is(err, ErrUnsafe) || errors.Is(err, ErrInvalidURL)) || fe.Op != "check" {
			t.Errorf("%s: err = %v, want ErrUnsafe (or ErrInvalidURL) from the check", u, err)
		}
		if strings.Contains(err.Error(), e.pass+"%0D") {
			t.Errorf("password in %q", err)
		}
		settle()
		if lines := log.newLines(t, "", 0); strings.Contains(lines, "inject") || strings.Contains(lines, "DELE") || strings.Contains(lines, "SITE") {
			t.Errorf("%s: the server saw:\n%s", u, lines)
		}
	}
}

func TestRealFTPBlockedPort(t *testing.T) {
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), "ftp://127.0.0.1:25/")
	if !errors.Is(err, ErrBlockedPort) {
		t.Errorf("err = %v, want ErrBlockedPort", err)
	}
}

func TestRealFileOverFTP(t *testing.T) {
	e := realFTP(t)
	f := &Fetcher{Getenv: noEnv(), FileOverFTP: true}
	resp, err := f.Get(testCtx(t), "file://"+e.host+"/pub/hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "Hello from anonymous FTP.\n" || len(resp.Warnings) != 1 {
		t.Errorf("%q, warnings %q", got, resp.Warnings)
	}
}

// The big file (FTP_BIG=1): a matching checksum in constant memory.
func TestRealFTPBigFile(t *testing.T) {
	e := realFTP(t)
	path, sizeStr := os.Getenv("FTP_BIG_PATH"), os.Getenv("FTP_BIG_SIZE")
	if path == "" {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatal("FTP_BIG_PATH not set: start the servers with FTP_BIG=1") // test.sh starts the servers with FTP_BIG=1
		}
		t.Skip("FTP_BIG_PATH not set: start the servers with FTP_BIG=1")
	}
	size, _ := strconv.ParseInt(sizeStr, 10, 64)
	var sum [sha256.Size]byte
	var n int64
	mem := allocated(func() {
		resp, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), e.anon(path))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Size != size {
			t.Errorf("Size %d, want %d", resp.Size, size)
		}
		h := sha256.New()
		n, err = io.Copy(h, resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		copy(sum[:], h.Sum(nil))
	})
	want := sha256.New()
	io.Copy(want, io.LimitReader(zeros{}, size))
	if n != size || fmt.Sprintf("%x", sum) != fmt.Sprintf("%x", want.Sum(nil)) {
		t.Errorf("%d bytes, sha256 %x; want %d bytes of zeros", n, sum, size)
	}
	if mem > 16<<20 {
		t.Errorf("allocated %d MiB for a %d MiB file", mem>>20, size>>20)
	}
	t.Logf("%d MiB, allocated %d KiB", size>>20, mem>>10)
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestConformanceFTP(t *testing.T) {
	e := realFTP(t)
	runConformance(t, conformanceCase{
		fetcher:   func() *Fetcher { return &Fetcher{Getenv: noEnv()} },
		small:     e.as("/%2Fpub/root.txt"),
		smallBody: "top-level pub (reach it with %2Fpub)\n",
		missing:   e.as("/missing.txt"),
		dir:       e.anon("/pub/"),
		dirHas:    "hello.txt",
		at:        func(addr string) string { return "ftp://" + addr + "/pub/hello.txt" },
		unsafeAt:  func(addr string) string { return "ftp://" + addr + "/pub%0D%0ADELE%20x/hello.txt" },
	})
}

func TestFTPEmail(t *testing.T) {
	req := &Request{Getenv: env(map[string]string{"EMAIL": "me@example.org"})}
	if got := (&FTPOpener{Email: "cfg@example.org"}).email(req); got != "cfg@example.org" {
		t.Errorf("Email field: %q", got)
	}
	if got := (&FTPOpener{}).email(req); got != "me@example.org" {
		t.Errorf("$EMAIL: %q", got)
	}
	req.Getenv = noEnv()
	if got := (&FTPOpener{}).email(req); !strings.Contains(got, "@") || strings.HasPrefix(got, "@") || strings.HasSuffix(got, "@") {
		t.Errorf("default: %q, want user@host", got)
	}
}
