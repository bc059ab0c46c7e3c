package fetch

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func mustParse(t testing.TB, s string) *urlkit.URL {
	t.Helper()
	u, err := urlkit.Parse(s)
	if err != nil {
		if u, _, err = urlkit.ParseMode(s, urlkit.RFC3986); err != nil {
			t.Fatalf("parse %q: %v", s, err)
		}
	}
	return &u
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url    string
		allow  []int
		kind   error // nil: accepted
		offset int
		rule   string // substring of the message
	}{
		// RFC 1738 section 6: encoded delimiters must not be decoded into
		// a protocol line.
		{url: "ftp://h/pub/a%0D%0ADELE%20x", kind: ErrUnsafe, offset: 13, rule: "%0D decodes to CR in the FTP RETR or NLST command"},
		{url: "ftp://h/pub%0A/x", kind: ErrUnsafe, offset: 11, rule: "LF"},
		{url: "ftp://h/a%00b", kind: ErrUnsafe, offset: 9, rule: "NUL"},
		{url: "ftp://h/a%0d", kind: ErrUnsafe, offset: 9}, // lower-case hex
		{url: "ftp://us%0Der:pw@h/", kind: ErrUnsafe, offset: 8, rule: "FTP USER command"},
		{url: "ftp://user:p%0A@h/", kind: ErrUnsafe, offset: 12, rule: "FTP PASS command"},
		{url: "nntp://bob%0D%0AGROUP%20x@h/g/1", kind: ErrUnsafe, offset: 10, rule: "NNTP AUTHINFO USER command"},
		{url: "nntp://bob:pw%0D%0AQUIT@h/g/1", kind: ErrUnsafe, offset: 13, rule: "NNTP AUTHINFO PASS command"},
		{url: "nntp://h/g/99999999999999999999999", kind: ErrUnsafe, offset: 11, rule: "an article number of 23 digits"},
		{url: "ftp://h/file;type=a%0D"},    // not a type code: the view refuses it (TestInvalidFTPType)
		{url: "ftp://h/a%09b/c"},           // TAB is an ordinary FTP byte
		{url: "ftp://h/100%25.txt"},        // an escaped %
		{url: "ftp://h/a%2Fb/%2Fetc/motd"}, // %2F is fine
		{url: "gopher://h/0/sel%0D%0Ax", kind: ErrUnsafe, offset: 16, rule: "Gopher selector line"},
		{url: "gopher://h/7/search%09a%0Ab", kind: ErrUnsafe, offset: 23},
		{url: "gopher://h/0/sel%09%09!%0A", kind: ErrUnsafe, offset: 23},
		{url: "gopher://h/7/s%09word"},          // a search
		{url: "gopher://h/0/s%09%09+"},          // Gopher+
		{url: "gopher://h/1/s%09%09$+ABSTRACT"}, // attributes
		// The ASK submission of RFC 1738 3.4: its CR LF are structure.
		{url: "gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0Ared%0D%0A.%0D%0A"},
		{url: "gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0A.%0D%0A"},
		// ... but only in that exact form, and never with NUL.
		{url: "gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0A", kind: ErrUnsafe, offset: 24},
		{url: "gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0AJ%00e%0D%0A.%0D%0A", kind: ErrUnsafe, offset: 44},
		{url: "gopher://h/0/fo%0Arm%09%09+%091%0D%0A+-1%0D%0AJoe%0D%0A.%0D%0A", kind: ErrUnsafe, offset: 15},
		{url: "gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0AJ%0Ae%0D%0A.%0D%0A", kind: ErrUnsafe, offset: 24},
		// HTTP sends the path as written: an escaped CR LF stays escaped.
		{url: "http://h/a%0D%0AX-Injected:%201"},
		{url: "http://u%0D:p@h/"}, // Basic authorization is base64: no line to break
		// file: CR and LF are legal in file names, NUL is not.
		{url: "file:///tmp/a%0Ab"},
		{url: "file:///tmp/a%00b", kind: ErrUnsafe, offset: 13},
		// Other schemes: everything counts.
		{url: "news:a%0D%0Ab@c", kind: ErrUnsafe, offset: 6},
		// Blocked ports (Fetch standard), unless default or allowed.
		{url: "gopher://h:25/", kind: ErrBlockedPort, offset: 11, rule: "port 25 (smtp)"},
		{url: "http://h:6667/", kind: ErrBlockedPort, offset: 9, rule: "ircu"},
		{url: "ftp://u:pw@h:119/", kind: ErrBlockedPort, offset: 13},
		{url: "gopher://h:25/", allow: []int{25}},
		{url: "ftp://h:21/"},    // ftp's own port
		{url: "http://h:8080/"}, // not on the list
		{url: "gopher://h:70/"}, // default
		{url: "http://h:21/", kind: ErrBlockedPort, offset: 9},
		{url: "gopher://h:10080/", kind: ErrBlockedPort, offset: 11, rule: "amanda"},
		{url: "gopher://h:4190/", kind: ErrBlockedPort},
		{url: "gopher://h:6679/", kind: ErrBlockedPort},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.url)
		err := CheckURL(u, tt.allow)
		if tt.kind == nil {
			if err != nil {
				t.Errorf("CheckURL(%q) = %v, want nil", tt.url, err)
			}
			continue
		}
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, tt.kind) {
			t.Errorf("CheckURL(%q) = %v, want %v", tt.url, err, tt.kind)
			continue
		}
		if !errors.Is(err, ErrUnsafe) {
			t.Errorf("CheckURL(%q): not ErrUnsafe", tt.url)
		}
		if tt.offset != 0 && fe.Offset != tt.offset {
			t.Errorf("CheckURL(%q): offset %d, want %d (%v)", tt.url, fe.Offset, tt.offset, err)
		}
		if !strings.Contains(err.Error(), tt.rule) {
			t.Errorf("CheckURL(%q) = %q, want it to mention %q", tt.url, err, tt.rule)
		}
	}
}

// The password never appears in a check error, even when it is the
// offending part.
func TestCheckURLRedacts(t *testing.T) {
	u := mustParse(t, "ftp://user:s3cret%0A@h/")
	err := CheckURL(u, nil)
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "xxxxx") {
		t.Errorf("error %q leaks the password or is missing", err)
	}
}

// A type code that is none of A I D: refused by the ftp view before
// anything is sent.
func TestInvalidFTPType(t *testing.T) {
	l := countingListener(t)
	u := "ftp://" + l.addr + "/file;type=a%0D"
	_, err := (&Fetcher{Getenv: noEnv()}).Get(testCtx(t), u)
	var fe *Error
	if want := strings.Index(u, "type=") + 5; !errors.As(err, &fe) || !errors.Is(err, ErrInvalidURL) || fe.Offset != want {
		t.Errorf("err = %v, want ErrInvalidURL at offset %d", err, want)
	}
	if n := l.accepted(); n != 0 {
		t.Errorf("%d connections", n)
	}
}

func TestBlockedPort(t *testing.T) {
	for _, p := range []int{1, 25, 119, 6665, 6669, 10080} {
		if _, ok := scheme.BlockedPort(p); !ok {
			t.Errorf("scheme.BlockedPort(%d) = false", p)
		}
	}
	for _, p := range []int{0, 70, 80, 443, 2121, 6670, 8080} {
		if _, ok := scheme.BlockedPort(p); ok {
			t.Errorf("scheme.BlockedPort(%d) = true", p)
		}
	}
}

// TestHintsAreTrue: issue 10, D11: no gateway is suggested for a scheme
// that is not retrieved (telnet, mailto, mid), and the explain caution
// promises --allow-port only for schemes get retrieves.
func TestHintsAreTrue(t *testing.T) {
	f := &Fetcher{Getenv: noEnv()}
	for _, s := range []string{"telnet://h/", "mailto:a@b.example"} {
		_, err := f.Get(testCtx(t), s)
		if !errors.Is(err, ErrUnsupportedScheme) || strings.Contains(err.Error(), "_proxy") || !strings.Contains(err.Error(), "not retrieved") {
			t.Errorf("%s: %v", s, err)
		}
	}
	// mid: is retrieved since issue 11: from mailboxes, which it names.
	if _, err := f.Get(testCtx(t), "mid:a@b.example"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "--mailbox") {
		t.Errorf("mid: without a mailbox: %v", err)
	}
	// A retrieval scheme without an opener (wais has one of its own now,
	// which Register takes away) gets the gateway hint.
	bare := &Fetcher{Getenv: noEnv()}
	bare.Register("wais", nil)
	if _, err := bare.Get(testCtx(t), "wais://h/db"); err == nil || !strings.Contains(err.Error(), "wais_proxy") {
		t.Errorf("wais, a retrieval scheme, gets the gateway hint: %v", err)
	}
	for s, want := range map[string]bool{"telnet://h:25/": false, "gopher://h:25/": true} {
		u := mustParse(t, s)
		cs := scheme.Concerns(u, nil)
		if len(cs) == 0 || strings.Contains(cs[0].Message, "--allow-port") != want {
			t.Errorf("%s: caution %q, want --allow-port: %v", s, cs, want)
		}
	}
}

// TestGetRefusesWhatExplainRefuses: issue 10: get and explain read one
// plan, so a URL explain shows as refused is refused by get with the
// same reason, before anything is sent (port 2: nothing listens there).
func TestGetRefusesWhatExplainRefuses(t *testing.T) {
	f := &Fetcher{Getenv: noEnv()}
	for _, s := range []string{
		"ftp://127.0.0.1:2/pub/f;type=e",    // the drafts' EBCDIC type: read in the lenient mode, not transferable
		"gopher://127.0.0.1:2/8login",       // a telnet item
		"ftp://127.0.0.1:2/a%0D%0ADELE%20x", // CR LF into a CWD
	} {
		u, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := scheme.PlanURL(&u, scheme.PlanOptions{Mode: urlkit.Lenient})
		if err != nil || len(plan.Refused) == 0 || len(plan.Sends()) != 0 {
			t.Fatalf("%s: plan %q, %v", s, plan.Lines(false), err)
		}
		_, err = f.Fetch(testCtx(t), &u)
		var fe *Error
		if !errors.As(err, &fe) || fe.Op != "check" || fe.Offset != plan.Refused[0].Offset || !strings.Contains(err.Error(), plan.Refused[0].Message) {
			t.Errorf("%s: get says %v, explain %q", s, err, plan.Refused[0])
		}
		if errors.Is(err, ErrConnect) {
			t.Errorf("%s: get tried to connect", s)
		}
	}
}

// TestAccessReadOnce: an access reads its URL's view and concerns once
// (issue 37): the check and every plan of the fetch (an FTP plan, the
// plan again on a kept connection) share them, and the plan is made from
// them, not from a second reading of the URL.
func TestAccessReadOnce(t *testing.T) {
	f := &Fetcher{}
	req := f.newRequest(mustParse(t, "ftp://h:2121/pub/a%0Db;type=i"))
	if err := req.check(urlkit.Lenient, nil); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("check: %v, want ErrUnsafe", err)
	}
	a := req.read(urlkit.Lenient)
	view := a.view.(*scheme.FTP)
	if req.read(urlkit.Lenient) != a || req.read(urlkit.Lenient).view.(*scheme.FTP) != view {
		t.Fatal("the view was read again")
	}
	// The plan is made from the access's view and concerns: changed
	// here, they show in the plan.
	view.Name = "other"
	a.concerns = nil
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Refused) != 0 {
		t.Errorf("the plan scanned the URL again: %v", plan.Refused)
	}
	retr := false
	for _, st := range plan.Steps {
		retr = retr || st.Op == "RETR" && st.Arg == "other"
	}
	if !retr {
		t.Errorf("the plan read the URL again: %v", plan.Lines(false))
	}
	// Another mode is another reading.
	if req.read(urlkit.RFC3986).mode != urlkit.RFC3986 {
		t.Error("RFC 3986 reading not made")
	}
}
