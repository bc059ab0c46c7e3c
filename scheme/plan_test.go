package scheme

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/explain")

// TestExplainGolden runs Explain on the input of each testdata/explain
// file and compares the steps with the file's expected output. A file is
// header lines ("# comment", "url URL", "mode M", "proxy HOST:PORT",
// "news-server HOST"), a line "--", then the steps as the explain command
// prints them. go test -update rewrites the expected part.
func TestExplainGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "explain", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		head, want, ok := strings.Cut(string(data), "--\n")
		if !ok {
			t.Errorf("%s: no -- line", file)
			continue
		}
		var in string
		var opts PlanOptions
		for line := range strings.Lines(head) {
			key, val, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
			switch key {
			case "#":
			case "url":
				in = val
			case "mode":
				if err = opts.Mode.UnmarshalText([]byte(val)); err != nil {
					t.Fatalf("%s: %v", file, err)
				}
			case "proxy":
				opts.Proxy = val
			case "news-server":
				opts.NewsServer = val
			case "term": // a session on a terminal: "term TYPE COLSxROWS"
				typ, size, _ := strings.Cut(val, " ")
				opts.Term = typ
				if _, err := fmt.Sscanf(size, "%dx%d", &opts.Width, &opts.Height); err != nil {
					t.Fatalf("%s: term %q: %v", file, val, err)
				}
			case "local-user":
				opts.LocalUser = val
			case "login":
				opts.Login = true
			default:
				t.Fatalf("%s: unknown header line %q", file, line)
			}
		}
		u := parseURL(t, in, opts.Mode)
		plan, err := PlanURL(u, opts)
		if err != nil {
			t.Errorf("%s: PlanURL(%q): %v", file, in, err)
			continue
		}
		steps := plan.Steps
		var b strings.Builder
		for _, s := range plan.Lines(false) {
			b.WriteString(s)
			b.WriteByte('\n')
		}
		if *update {
			if err := os.WriteFile(file, []byte(head+"--\n"+b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if b.String() != want {
			t.Errorf("%s: Explain(%q):\n%s\nwant:\n%s", file, in, b.String(), want)
		}
		if k := steps[0].Kind; k != Connect && k != Open && len(plan.Refused) == 0 && !strings.HasPrefix(in, "mid:") && !strings.HasPrefix(in, "cid:") {
			t.Errorf("%s: the first step is %v, not connect or open", file, steps[0])
		}
	}
}

func TestExplainErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		mode urlkit.Mode
		err  error
		rule string
	}{
		{"urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", urlkit.RFC1738, ErrNoAccess, "reserved (RFC 1630 (URN))"},
		{"x-local:thing", urlkit.RFC1738, ErrNoAccess, "experimental"},
		{"nfs://host/path", urlkit.RFC1738, ErrNoAccess, "reserved"},
		{"afs://cern.ch/user", urlkit.RFC1738, ErrNoAccess, "use the lenient mode"},
		{"whois://h/x", urlkit.RFC1738, ErrNoAccess, "knows no access algorithm"},
		{"ftp://h/a;b", urlkit.RFC3986, urlkit.ErrSchemeSyntax, "';' is reserved"},
	} {
		u := parseURL(t, tc.in, tc.mode)
		plan, err := PlanURL(u, PlanOptions{Mode: tc.mode})
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.rule) || plan != nil {
			t.Errorf("PlanURL(%q) = %v, %v; want %v ...%s...", tc.in, plan, err, tc.err, tc.rule)
		}
	}
}

// explain renders the plan of u as the explain command prints it.
func explain(t *testing.T, u *urlkit.URL, opts PlanOptions, showPassword bool) []string {
	t.Helper()
	plan, err := PlanURL(u, opts)
	if err != nil {
		t.Fatalf("PlanURL(%s): %v", u, err)
	}
	return plan.Lines(showPassword)
}

func TestExplainOptions(t *testing.T) {
	u := parseURL(t, "ftp://host/f.txt", urlkit.RFC1738)
	if lines := explain(t, u, PlanOptions{Email: "timbl@info.cern.ch"}, false); !slices.Contains(lines, `send "PASS timbl@info.cern.ch\r\n"`) {
		t.Errorf("Email: %q", lines)
	}
	u = parseURL(t, "ftp://u:s3cret@host/f.txt", urlkit.RFC1738)
	if lines := explain(t, u, PlanOptions{}, false); !slices.Contains(lines, `send "PASS xxxxx\r\n"`) {
		t.Errorf("the password is not hidden: %q", lines)
	}
	if lines := explain(t, u, PlanOptions{}, true); !slices.Contains(lines, `send "PASS s3cret\r\n"`) {
		t.Errorf("showPassword: %q", lines)
	}
	u = parseURL(t, "telnet://u:s3cret@host/", urlkit.RFC1738)
	lines := explain(t, u, PlanOptions{Proxy: "p:1"}, false)
	if lines[0] != "connect host:23" || !strings.Contains(lines[len(lines)-1], "the proxy is not used") {
		t.Errorf("telnet through a proxy: %q", lines)
	}
	for _, s := range lines {
		if strings.Contains(s, "s3cret") {
			t.Errorf("the password shows: %v", s)
		}
	}
}

func TestStepString(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Kind: Send, Text: "CWD /etc\r\n"}, `send "CWD /etc\r\n"`},
		{Step{Kind: Send, Text: "a\tb\x00"}, `send "a\tb\x00"`},
		{Step{Kind: Connect, Text: "host.dom:21"}, "connect host.dom:21"},
		{Step{Kind: Open, Text: "/etc/motd"}, "open /etc/motd"},
		{Step{Kind: Open, Text: "/a\nb"}, `open "/a\nb"`},
		{Step{Kind: Comment, Text: "note"}, "# note"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestExplainLinesStayLines: decoded CR and LF in a URL never break an
// explain line, so no comment can pass for a connect or send step (found in
// review: mid:, prospero fields and FTP names were quoted raw).
func TestExplainLinesStayLines(t *testing.T) {
	for _, s := range []string{
		"mid:%22a%0Aconnect%20evil:25%22@c",
		"cid:%22a%0D%0Asend%20x%22@c",
		"ftp://host/a%0D%0ADELE%20x",
		"prospero://h/a;x%0Ay=z",
		"file:///tmp/a%0Aconnect%20x",
		"gopher://h/0a%0D%0Ab",
	} {
		u, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := PlanURL(&u, PlanOptions{Mode: urlkit.RFC3986})
		if err != nil {
			continue
		}
		for _, line := range plan.Lines(false) {
			if strings.ContainsAny(line, "\r\n") {
				t.Errorf("%s: step %q spans lines", s, line)
			}
			ok := false
			for _, p := range []string{"# ", "send ", "connect ", "open "} {
				ok = ok || strings.HasPrefix(line, p)
			}
			if !ok {
				t.Errorf("%s: step %q has no kind", s, line)
			}
		}
	}
}

// TestExplainFTPLogin: explain prints the login FTP.Login gives, which is
// the one the access layer performs (found in review: an empty user name
// with a password, and an empty password, were shown otherwise).
func TestExplainFTPLogin(t *testing.T) {
	for s, want := range map[string][]string{
		"ftp://:pw@h/x.txt":  {`send "USER anonymous\r\n"`, `send "PASS user@example.com\r\n"`},
		"ftp://foo:@h/x.txt": {`send "USER foo\r\n"`, `send "PASS\r\n"`},
		"ftp://foo:b@h/x":    {`send "USER foo\r\n"`, `send "PASS xxxxx\r\n"`},
	} {
		u, err := urlkit.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		var sends []string
		for _, line := range explain(t, &u, PlanOptions{Email: "user@example.com"}, false) {
			if strings.HasPrefix(line, "send ") {
				sends = append(sends, line)
			}
		}
		if len(sends) < 2 || sends[0] != want[0] || sends[1] != want[1] {
			t.Errorf("%s: sends %q, want %q first", s, sends, want)
		}
	}
}

// TestExplainNewsMessageID: the "<" and ">" of ARTICLE are the command's
// (RFC 5538 2.2); a URL that encodes them gets one pair, not two.
func TestExplainNewsMessageID(t *testing.T) {
	for _, s := range []string{"news:first@test.invalid", "news:%3Cfirst@test.invalid%3E"} {
		u, _, err := urlkit.ParseMode(s, urlkit.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		lines := explain(t, &u, PlanOptions{NewsServer: "news.example:119"}, false)
		if !slices.Contains(lines, `send "ARTICLE <first@test.invalid>\r\n"`) {
			t.Errorf("%s: %q", s, lines)
		}
	}
}

// A resumed FTP transfer (get -C -) says in the plan what SIZE decides:
// a copy as long as the file ends the access before the data connection
// (an End step with a condition), one longer than the file is fetched
// from byte 0 (REST's condition).
func TestExplainFTPRestart(t *testing.T) {
	u := parseURL(t, "ftp://host/f.bin", urlkit.RFC1738)
	p, err := PlanURL(u, PlanOptions{FTPRestart: 19660})
	if err != nil {
		t.Fatal(err)
	}
	var size, end, epsv, rest = -1, -1, -1, -1
	for i, st := range p.Steps {
		switch {
		case st.Op == "SIZE":
			size = i
		case st.Kind == End && st.When.On != "":
			end = i
			if st.When != (Cond{On: "SIZE", Reply: "213", Number: "=19660", Text: st.When.Text}) {
				t.Errorf("the End step's condition: %+v", st.When)
			}
		case st.Op == "EPSV" && epsv < 0:
			epsv = i
		case st.Op == "REST":
			rest = i
			if st.When.On != "SIZE" || st.When.Number != "<19660" || !st.When.Not || st.Text != "REST 19660\r\n" {
				t.Errorf("REST: %+v", st)
			}
		}
	}
	if !(0 <= size && size < end && end < epsv && epsv < rest) {
		t.Errorf("SIZE %d, End %d, EPSV %d, REST %d: not in that order", size, end, epsv, rest)
	}
	lines := strings.Join(p.Lines(false), "\n")
	if !strings.Contains(lines, "# if SIZE says 19660 bytes, the length of the copy held:\n# the copy held is complete") {
		t.Errorf("explain does not show the check:\n%s", lines)
	}
	// TYPE A is not resumed: no REST, no check.
	u = parseURL(t, "ftp://host/f.txt;type=a", urlkit.RFC1738)
	if p, _ = PlanURL(u, PlanOptions{FTPRestart: 19660}); strings.Contains(strings.Join(p.Lines(false), "\n"), "19660") {
		t.Errorf("TYPE A resumes:\n%s", strings.Join(p.Lines(false), "\n"))
	}
}

// A kept FTP connection's steps are the one plan's (Plan.OnKept): no
// connection and no login, a CWD back to the login directory, then the
// plan's own steps after the login, unchanged.
func TestPlanOnKept(t *testing.T) {
	u := parseURL(t, "ftp://u:pw@host/pub/f.txt", urlkit.RFC1738)
	p, err := PlanURL(u, PlanOptions{KeepFTP: true})
	if err != nil {
		t.Fatal(err)
	}
	k := p.OnKept("/home/u\xff")
	if k == nil {
		t.Fatal("no kept form")
	}
	sends := k.Sends()
	if sends[0].Text != "CWD /home/u\xff\xff\r\n" {
		t.Errorf("first step %q, want the CWD home (IAC doubled)", sends[0].Text)
	}
	pwd := slices.IndexFunc(p.Steps, func(st Step) bool { return st.Op == "PWD" })
	if rest := k.Steps[len(k.Steps)-(len(p.Steps)-pwd-1):]; !slices.EqualFunc(rest, p.Steps[pwd+1:], func(a, b Step) bool { return a.Text == b.Text && a.Op == b.Op && a.When == b.When }) {
		t.Errorf("the steps after the login differ:\n%q\n%q", k.Lines(false), p.Lines(false))
	}
	for _, st := range k.Steps {
		if st.Kind == Connect || st.Op == "USER" || st.Op == "PASS" || st.Op == "PWD" {
			t.Errorf("kept plan has %v %s", st.Kind, st.Op)
		}
	}
	if p, _ := PlanURL(u, PlanOptions{}); p.OnKept("/") != nil {
		t.Error("a plan without KeepFTP has a kept form")
	}
}
