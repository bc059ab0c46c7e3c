package fetch

// The plan-equals-wire test (issue 10): for every scheme the access
// layer can fetch, against its real server, the bytes the client puts on
// the wire are the Send steps of the URL's access plan (scheme.PlanURL,
// what "urlkit explain" prints), byte for byte, in order. A conditional
// step (When) may be missing from the wire; nothing else may be. A
// scheme that joins the access layer joins this table.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/wiretest"
	"github.com/urlkit/urlkit/scheme"
)

// planWireCases: server is the env var of the server's port ("" for
// file), path what follows the host:port in the URL (userinfo goes in
// user). The email is the anonymous FTP password of the plan and of the
// fetch.
type planWireCase struct {
	name, server, user, path string
	body                     string // a substring of the body ("" for none)
	warn                     string // a substring of a warning
	// via: the URL (path is then the whole URL) is fetched through the
	// server as an HTTP proxy; fails: the server may refuse it (nginx is
	// no proxy), the wire is compared all the same.
	via, fails bool
	skipNull   bool     // the FTP opener's SkipNullCWD
	kind       error    // the error the fetch must end with (implies fails)
	compressed bool     // HTTPOpener.Compressed (get --compressed)
	answers    []string // what the user answers, in order
	// doc: the path is a WAIS document URL's, from the first hit of a
	// search of the test database for doc (DocIDs hold the server's
	// paths); lynx writes its wpath in Lynx's form.
	doc  string
	lynx bool
	// news: the URL (path) names no server; the relay is given as the
	// news server. send: the URL is posted or submitted (Fetcher.Send)
	// with this message.
	news bool
	send string
	// session: the URL designates a session (Fetcher.Session over empty
	// pipes, the server's output in body); its option negotiation is
	// matched by matchNegotiation.
	session bool
	// login: the session answers the login prompts (get --login) with
	// the plan's LOGIN and PASSWORD lines.
	login bool
}

var planWireCases = []planWireCase{
	{name: "ftp anonymous text (guessed TYPE A)", server: "FTP_PORT", path: "/pub/hello.txt", body: "Hello from anonymous FTP."},
	{name: "ftp binary (TYPE I, SIZE)", server: "FTP_PORT", path: "/pub/64k.bin", body: "xxxx"},
	{name: "ftp ;type=a", server: "FTP_PORT", path: "/pub/hello.txt;type=a", body: "Hello"},
	{name: "ftp no url-path lists the login directory (D7)", server: "FTP_PORT", path: "", body: "pub"},
	{name: "ftp empty name lists", server: "FTP_PORT", path: "/pub/", body: "hello.txt"},
	{name: "ftp ;type=d", server: "FTP_PORT", path: "/pub;type=d", body: "hello.txt"},
	{name: "ftp ;type=i on a directory performs TYPE I (D8)", server: "FTP_PORT", path: "/pub/;type=i", body: "hello.txt"},
	{name: "ftp escaped name", server: "FTP_PORT", path: "/pub/sub%20dir/nested%20file.txt"},
	{name: "ftp login with password", server: "FTP_PORT", user: "tester:secret@", path: "/home.txt"},
	{name: "ftp a null CWD, refused by ProFTPD and skipped", server: "FTP_PORT", path: "//pub/hello.txt", skipNull: true, warn: "null-argument CWD"},
	{name: "ftp a directory named as a file: RETR 550, then the CWD that tells", server: "FTP_PORT", path: "/pub", fails: true, kind: ErrIsDirectory},
	{name: "ftp %2F: an absolute CWD", server: "FTP_PORT", user: "tester:secret@", path: "/%2Fpub/root.txt"},
	{name: "gopher text", server: "GOPHER_PORT", path: "/0/hello.txt"},
	{name: "gopher menu", server: "GOPHER_PORT", path: "/1/docs"},
	{name: "gopher top menu (empty path)", server: "GOPHER_PORT", path: "/"},
	{name: "gopher+ default view", server: "GOPHER_PORT", path: "/0/hello.txt%09%09+"},
	{name: "gopher+ attributes, not a search: no empty search field", server: "GOPHER_PORT", path: "/0/hello.txt%09%09!"},
	{name: "gopher+ directory attributes", server: "GOPHER_PORT", path: "/1/docs%09%09$"},
	{name: "gopher+ ASK: the attributes, the user's answers, the submission", server: "GOPHER_PORT", path: "/0/form.txt%09%09?", answers: []string{"Joe", "green"}, body: "A form document."},
	{name: "gopher+ a filled-in ASK form", server: "GOPHER_PORT", path: "/0/form.txt%09%09+%091%0D%0A+-1%0D%0Aone%0D%0A.two%0D%0A.%0D%0A"},
	{name: "gophernicus text", server: "GOPHERNICUS_PORT", path: "/0/hello.txt"},
	{name: "gophernicus search", server: "GOPHERNICUS_PORT", path: "/7/cgi-bin/search%09foo%20bar"},
	{name: "gophernicus search, the words asked", server: "GOPHERNICUS_PORT", path: "/7/cgi-bin/search", answers: []string{"foo bar"}, body: "foo bar"},
	{name: "gophernicus ignores an attribute request (D12)", server: "GOPHERNICUS_PORT", path: "/0/hello.txt%09%09!", warn: "not its attributes"},
	{name: "wais search", server: "WAIS_PORT", path: "/test?gopher", body: "Alpha document about gophers"},
	{name: "wais search, two words", server: "WAIS_PORT", path: "/test?gopher%20web", body: "wais://"},
	{name: "wais unknown database: diagnostic S1", server: "WAIS_PORT", path: "/nosuch?gopher", fails: true, kind: ErrNotFound},
	{name: "wais document, RFC 1738 form", server: "WAIS_PORT", doc: "gopher", body: "The gopher protocol"},
	{name: "wais document, Lynx's type=value; form with a length", server: "WAIS_PORT", doc: "gopher", lynx: true, body: "The gopher protocol"},
	// Three chunks of 32 KiB: the plan's first request, its NEXT-CHUNK
	// request as it is, then that one with the range moved on.
	{name: "wais document in three chunks, RFC 1738 form", server: "WAIS_PORT", doc: "zeppelin", body: "line 02000 of the big zeppelin document"},
	{name: "wais document in three chunks, Lynx's form with a length", server: "WAIS_PORT", doc: "zeppelin", lynx: true, body: "line 02000 of the big zeppelin document"},
	{name: "wais database: its source record", server: "WAIS_PORT", path: "/test", body: ":database-name"},
	{name: "prospero directory", server: "PROSPERO_PORT", path: "/AFTP/pub", body: "hello.txt"},
	{name: "prospero file: NOT-A-DIRECTORY, then CONTENTS", server: "PROSPERO_PORT", path: "/AFTP/pub/hello.txt", body: "hello prospero"},
	{name: "prospero a quote in the hsoname", server: "PROSPERO_PORT", path: "/AFTP/pub/it's%20here.txt"},
	{name: "prospero ;OBJECT-VERSION=3 after the hsoname (dirsrv ignores it)", server: "PROSPERO_PORT", path: "/AFTP/pub/hello.txt;OBJECT-VERSION=3", body: "hello prospero"},
	{name: "prospero not found", server: "PROSPERO_PORT", path: "/AFTP/pub/nosuch", fails: true, kind: ErrNotFound},
	{name: "http", server: "HTTP_PORT", path: "/hello.txt"},
	{name: "http no path", server: "HTTP_PORT", path: ""},
	{name: "http search", server: "HTTP_PORT", path: "/echo?a=b"},
	{name: "http --compressed", server: "HTTP_PORT", path: "/hello.txt", compressed: true},
	{name: "http with a login (RFC 3986): Basic authorization", server: "HTTP_PORT", user: "tester:secret@", path: "/private/secret.txt"},
	{name: "file", server: "", path: "/hello.txt", body: "hello, file"},
	{name: "news group listing (OVER in batches of 2: 1-2, 3-3)", server: "NNTP_PORT", news: true, path: "news:local.test", body: "<cross@test.invalid>"},
	{name: "news empty group", server: "NNTP_PORT", news: true, path: "news:local.empty"},
	{name: "news article by message-id", server: "NNTP_PORT", news: true, path: "news:first@test.invalid", body: "Subject: First test article"},
	{name: "news article by message-id written in %3C..%3E: one pair of <> (RFC 5538 2.2)", server: "NNTP_PORT", news: true, path: "news:%3Cfirst@test.invalid%3E", body: "Subject: First test article"},
	{name: "news:* lists the groups", server: "NNTP_PORT", news: true, path: "news:*", body: "local.test 3 1 y"},
	{name: "news missing group", server: "NNTP_PORT", news: true, path: "news:no.such.group", fails: true, kind: ErrNotFound},
	{name: "nntp article by number", server: "NNTP_PORT", path: "/local.test/2", body: "Subject: Re: First test article"},
	{name: "nntp group listing", server: "NNTP_PORT", path: "/local.general", body: "\t"},
	{name: "nntp group listing with a login", server: "NNTP_PORT", user: "tester:secret@", path: "/local.general", body: "\t"},
	{name: "news post", server: "NNTP_PORT", news: true, path: "news:local.post", send: "From: Plan <plan@example.org>\nSubject: plan equals wire\n\n.a line with a dot\n"},
	{name: "nntp post with a login", server: "NNTP_PORT", user: "tester:secret@", path: "/local.post", send: "From: Plan <plan@example.org>\nSubject: plan equals wire, logged in\n\nbody\n"},
	{name: "mailto aiosmtpd", server: "SMTP_PORT", path: "mailto:rcpt@example.org?subject=plan%20equals%20wire", send: "Hello.\n.dot\n"},
	{name: "mailto aiosmtpd, a quoted local part (RFC 6068 6.2)", server: "SMTP_PORT", path: "mailto:%22not%40me%22@example.org", send: "Hello.\n"},
	{name: "mailto exim, several addresses (RFC 6068)", server: "EXIM_PORT", path: "mailto:a@example.org,b@example.org?cc=c@example.org&to=d@example.org&subject=hi", send: "Hello.\n"},
	{name: "http through a proxy", server: "HTTP_PORT", via: true, path: "http://127.0.0.1:%s/hello.txt", fails: true},
	{name: "telnet: the option negotiation with inetutils telnetd", server: "TELNET_PORT", path: "/", session: true, body: "login:"},
	{name: "telnet with an advisory user: nothing typed", server: "TELNET_PORT", user: "tester:secret@", path: "/", session: true, body: "login:"},
	{name: "rlogin: the RFC 1282 handshake with rsh-redone in.rlogind", server: "RLOGIN_PORT", user: "urlkit-rlogin@", path: "/", session: true, body: "Password:"},
	{name: "telnet --login: the plan's login lines typed at inetutils telnetd's prompts", server: "TELNET_PORT", user: "tester:secret@", path: "/", session: true, login: true, body: "Welcome, tester."},
	{name: "telnet --login, no password in the URL: an empty line at the password prompt", server: "TELNET_PORT", user: "tester@", path: "/", session: true, login: true, body: "Login incorrect"},
	{name: "rlogin --login: the plan's password line typed at rlogind's prompt", server: "RLOGIN_PORT", user: "urlkit-rlogin:secret@", path: "/", session: true, login: true, body: "$ "},
	{name: "tn3270: the TN3270 negotiation with Hercules, then its logo screen", server: "TN3270_PORT", path: "/", session: true, body: "My PC thinks it's a MAINFRAME"},
	{name: "ftp through an HTTP gateway (RFC 1630)", server: "HTTP_PORT", via: true, path: "ftp://ftp.example:2121/pub/hello.txt", fails: true},
}

func TestPlanEqualsWire(t *testing.T) {
	for _, tc := range planWireCases {
		t.Run(tc.name, func(t *testing.T) { planWire(t, tc, nil) })
	}
}

// planWire fetches (or sends, or opens the session of) the case's URL
// and compares the wire with its plan. With inject, every plan the
// access layer makes, and the one the wire is compared with, is changed
// by it, and the line it returns must be on the wire.
func planWire(t *testing.T, tc planWireCase, inject func(*scheme.Plan) string) {
	const email = "planwire@example.org"
	injected := ""
	if inject != nil {
		planHook = func(p *scheme.Plan) { injected = inject(p) }
		t.Cleanup(func() { planHook = nil })
	}
	planned := func(u *urlkit.URL, opts scheme.PlanOptions) (*scheme.Plan, error) {
		p, err := scheme.PlanURL(u, opts)
		if err == nil && inject != nil {
			inject(p)
		}
		return p, err
	}
	seen := func(wire []byte) {
		switch {
		case inject == nil:
		case injected == "":
			t.Errorf("%s: no plan step to inject a line into", tc.name)
		case !bytes.Contains(wire, []byte(injected)):
			t.Errorf("%s: the injected %q is not on the wire:\n%q", tc.name, injected, wire)
		}
	}
	{
		{
			f := &Fetcher{Getenv: noEnv(), FTP: FTPOpener{Email: email, SkipNullCWD: tc.skipNull}}
			f.NNTP.Dialer.OverviewBatch = 2 // several OVER ranges even in a small group
			if tc.answers != nil {
				answers := tc.answers
				f.Prompt = func(context.Context, Prompt) (string, error) {
					if len(answers) == 0 {
						return "", errors.New("more questions than answers")
					}
					a := answers[0]
					answers = answers[1:]
					return a, nil
				}
			}
			var rawURL, proxy string
			var rel wireRecorder
			var tr *http.Transport
			switch {
			case tc.via:
				port := wiretest.ServerEnv(t, tc.server)[tc.server]
				rel = wiretest.NewRelay(t, "127.0.0.1:"+port)
				proxy = rel.Addr()
				rawURL = strings.Replace(tc.path, "%s", port, 1)
				u, _, _ := urlkit.ParseMode(rawURL, urlkit.RFC3986)
				f.Gateways = map[string]Gateway{u.SchemeName(): {URL: "http://" + proxy + "/"}}
				f.IgnoreEnvironment = true
				tr = sharedTransport()
			case tc.server == "":
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello, file\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				rawURL = "file://" + filepath.ToSlash(dir) + tc.path
			case tc.news || strings.HasPrefix(tc.path, "mailto:"):
				port := wiretest.ServerEnv(t, tc.server)[tc.server]
				rel = wiretest.NewRelay(t, "127.0.0.1:"+port)
				rawURL = tc.path
				f.NNTP.Server, f.Mail.Server, f.Mail.From = rel.Addr(), rel.Addr(), email
			case tc.server == "PROSPERO_PORT":
				port := wiretest.ServerEnv(t, tc.server)[tc.server]
				rel = newUDPRelay(t, "127.0.0.1:"+port)
				rawURL = "prospero://" + rel.Addr() + tc.path
			default:
				port := wiretest.ServerEnv(t, tc.server)[tc.server]
				if tc.session {
					// A session ends when the client closes (Hercules
					// keeps a half-closed connection open); rlogind trusts
					// only a privileged source port, so the relay needs one.
					rel = (&wiretest.Relay{Target: "127.0.0.1:" + port, EndWithClient: true, Privileged: tc.server == "RLOGIN_PORT"}).Start(t)
				} else {
					rel = wiretest.NewRelay(t, "127.0.0.1:"+port)
				}
				scheme := map[string]string{"NNTP_PORT": "nntp", "FTP_PORT": "ftp", "GOPHER_PORT": "gopher", "GOPHERNICUS_PORT": "gopher", "HTTP_PORT": "http", "WAIS_PORT": "wais",
					"TELNET_PORT": "telnet", "RLOGIN_PORT": "rlogin", "TN3270_PORT": "tn3270"}[tc.server]
				path := tc.path
				if tc.doc != "" {
					path = waisDocPath(t, "127.0.0.1:"+port, tc.doc, tc.lynx)
				}
				rawURL = scheme + "://" + tc.user + rel.Addr() + path
				if scheme == "http" {
					tr = sharedTransport() // the opener's own transport, closed after
					f.HTTP.Compressed = tc.compressed
				}
			}
			u, _, err := urlkit.ParseMode(rawURL, urlkit.RFC3986) // get's fallback for what RFC 1738 refuses
			if err != nil {
				t.Fatal(err)
			}
			opts := scheme.PlanOptions{Mode: urlkit.RFC3986, Email: email, Proxy: proxy, Compressed: tc.compressed, NewsServer: f.NNTP.Server, Post: tc.send != "", LocalUser: "root", Login: tc.login}
			plan, err := planned(&u, opts)
			if err != nil {
				t.Fatalf("PlanURL(%s): %v", rawURL, err)
			}
			var trace bytes.Buffer
			f.Trace = &trace // the wire trace on, as get --trace
			if tc.session {
				var out bytes.Buffer
				var linger time.Duration // the default
				if tc.login {
					linger = 5 * time.Second // a PAM login takes a while
				}
				if err := f.Session(testCtx(t), &u, &Terminal{Out: &out, LocalUser: "root", Login: tc.login, Linger: linger}); err != nil {
					t.Fatalf("Session(%s): %v\nplan:\n%s", rawURL, err, strings.Join(plan.Lines(true), "\n"))
				}
				if !strings.Contains(out.String(), tc.body) {
					t.Errorf("the session of %s shows no %q: %.300q", rawURL, tc.body, out.String())
				}
				wire := rel.Sent(t)
				seen(wire)
				if tc.login && strings.Contains(trace.String(), "secret") {
					t.Errorf("the trace shows the password:\n%s", trace.String())
				}
				if msg := matchNegotiation(plan, wire); msg != "" {
					t.Errorf("%s: the wire is not the plan: %s\nwire:\n%q\nplan:\n%s", rawURL, msg, wire, strings.Join(plan.Lines(true), "\n"))
				}
				return
			}
			var resp *Response
			if tc.send != "" {
				sent, err := f.Send(testCtx(t), &u, strings.NewReader(tc.send))
				if err != nil {
					t.Fatalf("Send(%s): %v\ntrace:\n%s", rawURL, err, trace.String())
				}
				if u.SchemeName() == "mailto" {
					// The size of the message goes into MAIL FROM: the
					// plan explain prints with it.
					opts.MailServer, opts.MessageSize = f.Mail.Server, sizeOf(sent.Plan)
					if plan, err = planned(&u, opts); err != nil {
						t.Fatal(err)
					}
				}
				if got, want := strings.Join(sent.Plan.Lines(true), "\n"), strings.Join(plan.Lines(true), "\n"); got != want {
					t.Errorf("Send carried out\n%s\nexplain plans\n%s", got, want)
				}
				seen(rel.Sent(t))
				if msg := matchPlan(plan, rel.Sent(t), nil); msg != "" {
					t.Errorf("%s: the wire is not the plan: %s\nplan:\n%s", rawURL, msg, strings.Join(plan.Lines(true), "\n"))
				}
				return
			}
			resp, err = f.Fetch(testCtx(t), &u)
			var body []byte
			switch {
			case err != nil && tc.fails:
				if tc.kind != nil && !errors.Is(err, tc.kind) {
					t.Errorf("Fetch(%s): %v, want %v", rawURL, err, tc.kind)
				}
				resp = &Response{}
			case err == nil && tc.kind != nil:
				t.Fatalf("Fetch(%s) succeeded, want %v", rawURL, tc.kind)
			case err != nil:
				t.Fatalf("Fetch(%s): %v\nplan:\n%s", rawURL, err, strings.Join(plan.Lines(true), "\n"))
			default:
				body, err = io.ReadAll(resp.Body)
				if cerr := resp.Body.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatalf("read %s: %v", rawURL, err)
				}
			}
			if !bytes.Contains(body, []byte(tc.body)) {
				t.Errorf("body of %s lacks %q: %.200q", rawURL, tc.body, body)
			}
			if tc.warn != "" && !strings.Contains(strings.Join(resp.Warnings, "\n"), tc.warn) {
				t.Errorf("warnings of %s: %q, want ...%s...", rawURL, resp.Warnings, tc.warn)
			}
			if tc.server == "" {
				checkOpen(t, plan, rawURL)
				return
			}
			if tr != nil {
				tr.CloseIdleConnections()
			}
			wire := rel.Sent(t)
			if tc.server != "HTTP_PORT" && trace.Len() == 0 {
				t.Errorf("no wire trace for %s", rawURL)
			}
			seen(wire)
			if msg := matchPlan(plan, wire, tc.answers); msg != "" {
				t.Errorf("%s: the wire is not the plan: %s\nwire:\n%q\nplan:\n%s", rawURL, msg, wire, strings.Join(plan.Lines(true), "\n"))
			}
		}
	}
}

// matchPlan checks that wire is the plan's Send steps, in order, each
// conditional one present or absent, the user's answers where the plan
// sends them; it returns what differs, or "".
func matchPlan(plan *scheme.Plan, wire []byte, answers []string) string {
	rest := wire
	for _, st := range plan.Sends() {
		if st.Answers {
			if !bytes.HasPrefix(rest, []byte(st.Text)) {
				return "the plan sends " + quote(st.Text) + " before the answers, the wire has " + quote(string(rest[:min(len(rest), 60)]))
			}
			rest = rest[len(st.Text):]
			for _, a := range answers {
				if st.Text == "" && strings.HasPrefix(a, ".") {
					a = "." + a // an ASK form is a dot-stuffed block
				}
				if !bytes.HasPrefix(rest, []byte(a+"\r\n")) {
					return "the answer " + quote(a) + " is not on the wire: " + quote(string(rest[:min(len(rest), 60)]))
				}
				rest = rest[len(a)+2:]
			}
			continue
		}
		if st.Op == request.WAISSourceRecord && len(rest) > 0 {
			// The step's request with the DocID of the hit the search
			// found (the reply gives it), encoded again: nothing else
			// differs from the step.
			tmpl, _ := nextChunk(plan, st.Text)
			n, err := wais.ParseHeader(rest, 0)
			if tmpl == nil || err != nil || len(rest) < wais.HeaderLen+n {
				return "the source record's retrieval is not on the wire: " + quote(string(rest[:min(len(rest), 60)]))
			}
			msg := rest[:wais.HeaderLen+n]
			got, err := wais.ParseRequest(msg)
			if tr, ok := got.(*wais.TextRequest); err == nil && ok {
				tmpl.DocID = tr.DocID
			}
			if want, _ := tmpl.Marshal(); len(tmpl.DocID) == 0 || !bytes.Equal(msg, want) {
				return "the source record's retrieval is not the plan's with the hit's DocID: " + quote(string(msg))
			}
			rest = rest[len(msg):]
			continue
		}
		if st.Op == request.WAISNextChunk {
			// A document's second chunk, the step's bytes as they are,
			// then for each chunk after it the same request with its range
			// moved on (up to the length the plan knows), or none of them.
			tmpl, length := nextChunk(plan, st.Text)
			if tmpl == nil {
				return "the NEXT-CHUNK step is no WAIS retrieval: " + quote(st.Text)
			}
			for want := []byte(st.Text); bytes.HasPrefix(rest, want); {
				rest = rest[len(want):]
				tmpl.Start, tmpl.End = tmpl.End, tmpl.End+request.WAISChunkSize
				if length >= 0 {
					tmpl.End = min(tmpl.End, length)
				}
				if tmpl.Start >= tmpl.End {
					break
				}
				want, _ = tmpl.Marshal()
			}
			continue
		}
		if st.Range {
			// "OVER LOW-HIGH\r\n", once per batch ("HEAD N\r\n", once
			// per article), or not at all.
			for bytes.HasPrefix(rest, []byte(st.Text)) {
				line, after, ok := bytes.Cut(rest[len(st.Text):], []byte("\r\n"))
				low, high, dash := bytes.Cut(line, []byte("-"))
				if st.Op == "HEAD" {
					high, dash = low, !bytes.Contains(line, []byte("-"))
				}
				if !ok || !dash || !digits(low) || !digits(high) {
					return "the plan sends " + quote(st.Text) + "and a range, the wire has " + quote(string(rest[:min(len(rest), 60)]))
				}
				rest = after
			}
			continue
		}
		if bytes.HasPrefix(rest, []byte(st.Text)) {
			rest = rest[len(st.Text):]
			if st.Op == "DATA" || st.Op == "POST" {
				// The message (the plan's End step): a data block.
				_, after, ok := bytes.Cut(rest, []byte("\r\n.\r\n"))
				if !ok {
					return "the message after " + quote(st.Text) + " does not end with a \".\" line"
				}
				rest = after
			}
			continue
		}
		if st.When.Text != "" {
			continue
		}
		return "the plan sends " + quote(st.Text) + ", the wire has " + quote(string(rest[:min(len(rest), 60)]))
	}
	if len(rest) > 0 {
		return "the wire goes on after the plan ends: " + quote(string(rest[:min(len(rest), 60)]))
	}
	return ""
}

// nextChunk decodes the template of a document's later chunks (or of a
// source record's retrieval) and returns the document's length the plan
// knows (-1 when none).
func nextChunk(plan *scheme.Plan, text string) (*wais.TextRequest, int64) {
	req, err := wais.ParseRequest([]byte(text))
	tr, ok := req.(*wais.TextRequest)
	if err != nil || !ok {
		return nil, 0
	}
	length := int64(-1)
	for _, st := range plan.Sends() {
		if r, ok := st.Request.(*request.WAIS); ok && st.Op == request.WAISRetrieve {
			length = r.Length
		}
	}
	return tr, length
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// sizeOf returns the SIZE= a submission plan announces, 0 for none.
func sizeOf(p *scheme.Plan) int64 {
	for _, st := range p.Sends() {
		if _, n, ok := strings.Cut(st.Text, " SIZE="); ok {
			var v int64
			for _, c := range strings.TrimSuffix(n, "\r\n") {
				v = v*10 + int64(c-'0')
			}
			return v
		}
	}
	return 0
}

// matchNegotiation checks the wire of a session against its plan: the
// plan's unconditional steps (rlogin's handshake) in order, as matchPlan
// does, and every telnet command after them one of the plan's
// negotiation answers, in any order, since the server leads (each at
// most once: RFC 1143), or the refusal (WONT, DONT) of an option the
// plan does not accept, as its comment says. At least one answer must be
// on the wire, and nothing else (no data: the session's input is empty)
// but the lines the plan types at the login prompts (get --login), in
// order, all of them, each as the telnet client's writer sends the
// plan's line (telnet.AppendLine): CR LF, or CR alone once the client
// has agreed to BINARY (WILL BINARY on the wire before it; RFC 856).
func matchNegotiation(plan *scheme.Plan, wire []byte) string {
	rest := wire
	answers := map[string]bool{}
	accepted := map[[2]byte]bool{} // {WILL, x}: x accepted on our side; {DO, x}: on the server's
	var typed []string             // the LOGIN and PASSWORD lines, in order
	for _, st := range plan.Sends() {
		if st.Op == "LOGIN" || st.Op == "PASSWORD" {
			typed = append(typed, st.Text)
			continue
		}
		if st.When.Text == "" {
			if !bytes.HasPrefix(rest, []byte(st.Text)) {
				return "the plan sends " + quote(st.Text) + ", the wire has " + quote(string(rest[:min(len(rest), 60)]))
			}
			rest = rest[len(st.Text):]
			continue
		}
		if !st.Binary {
			return "a conditional step that is not a negotiation answer: " + st.String()
		}
		answers[st.Text] = false
		if t := st.Text; len(t) == 3 && (t[1] == 251 || t[1] == 253) {
			accepted[[2]byte{t[1], t[2]}] = true
		}
	}
	if len(answers) == 0 { // rlogin: its lines alone
		for len(typed) > 0 && bytes.HasPrefix(rest, []byte(typed[0])) {
			rest, typed = rest[len(typed[0]):], typed[1:]
		}
		switch {
		case len(rest) > 0:
			return "the wire goes on after the plan ends: " + quote(string(rest[:min(len(rest), 60)]))
		case len(typed) > 0:
			return "the plan types " + quote(typed[0]) + " at a prompt, the wire has no such line"
		}
		return ""
	}
	seen := 0
	for len(rest) > 0 {
		if len(typed) > 0 {
			binary := plan.Scheme == "telnet" && bytes.Contains(wire[:len(wire)-len(rest)], []byte{255, 251, 0})
			if line := telnet.AppendLine(nil, []byte(typed[0]), binary); bytes.HasPrefix(rest, line) {
				rest, typed = rest[len(line):], typed[1:]
				continue
			}
		}
		if rest[0] != 255 || len(rest) < 3 {
			return "data where the plan has none: " + quote(string(rest[:min(len(rest), 60)]))
		}
		n := 3
		if rest[1] == 250 { // SB ... IAC SE
			end := bytes.Index(rest, []byte{255, 240})
			if end < 0 {
				return "an unterminated subnegotiation: " + quote(string(rest))
			}
			n = end + 2
		}
		cmd := string(rest[:n])
		rest = rest[n:]
		used, planned := answers[cmd]
		switch {
		case planned && used:
			return "the answer " + quote(cmd) + " was sent twice (RFC 1143: once)"
		case planned:
			answers[cmd] = true
			seen++
		case n == 3 && cmd[1] == 252 && !accepted[[2]byte{251, cmd[2]}],
			n == 3 && cmd[1] == 254 && !accepted[[2]byte{253, cmd[2]}]:
			// WONT x, DONT x: the refusal of an option the plan does not
			// accept on that side
		default:
			return "the wire has " + quote(cmd) + ", which the plan does not send"
		}
	}
	if seen == 0 {
		return "none of the plan's negotiation answers is on the wire"
	}
	if len(typed) > 0 {
		return "the plan types " + quote(typed[0]) + " at a prompt, the wire has no such line"
	}
	return ""
}

func quote(s string) string {
	return "\"" + strings.ReplaceAll(strings.ReplaceAll(s, "\r", `\r`), "\n", `\n`) + "\""
}

// checkOpen checks the plan of a file URL: no Send, one Open of the file.
func checkOpen(t *testing.T, plan *scheme.Plan, rawURL string) {
	t.Helper()
	if len(plan.Sends()) != 0 || len(plan.Steps) == 0 || plan.Steps[0].Kind != scheme.Open {
		t.Fatalf("%s: the plan of a file URL is %q", rawURL, plan.Lines(true))
	}
	if _, err := os.Stat(plan.Steps[0].Text); err != nil {
		t.Errorf("%s: the plan opens %q: %v", rawURL, plan.Steps[0].Text, err)
	}
}

// wireRecorder is a relay in front of a real server: TCP
// (wiretest.Relay) or Prospero's UDP (newUDPRelay).
type wireRecorder interface {
	Addr() string
	Sent(t testing.TB) []byte
}

// The plan equals the wire on a kept FTP connection too (FTPOpener.Keep):
// the first URL's plan (scheme.PlanOptions.KeepFTP: PWD after the login,
// no QUIT), then each later URL's plan on the same connection
// (Plan.OnKept: the CWD back to the login directory, no login), then the
// QUIT of CloseIdle.
func TestPlanEqualsWireKept(t *testing.T) {
	const email = "planwire@example.org"
	for _, user := range []string{"", "tester:secret@"} {
		t.Run("user="+user, func(t *testing.T) {
			port := wiretest.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
			rel := wiretest.NewRelay(t, "127.0.0.1:"+port)
			f := &Fetcher{Getenv: noEnv(), FTP: FTPOpener{Email: email, Keep: true}}
			var trace bytes.Buffer
			f.Trace = &trace
			paths := []string{"/pub/hello.txt", "/pub/64k.bin", "/pub/", "/%2Fpub/hello.txt", "/pub/sub%20dir/nested%20file.txt"}
			if user != "" {
				paths = []string{"/home.txt", "/%2Fpub/root.txt", "/docs/readme.txt", "/home.txt"}
			}
			var sends []scheme.Step
			home := ""
			for i, p := range paths {
				u, _, err := urlkit.ParseMode("ftp://"+user+rel.Addr()+p, urlkit.RFC3986)
				if err != nil {
					t.Fatal(err)
				}
				opts := scheme.PlanOptions{Mode: urlkit.Lenient, Email: email, KeepFTP: true}
				plan, err := scheme.PlanURL(&u, opts)
				if err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					plan = plan.OnKept(home)
				}
				sends = append(sends, plan.Sends()...)
				resp, err := f.Fetch(testCtx(t), &u)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				io.Copy(io.Discard, resp.Body)
				if err := resp.Body.Close(); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if i == 0 {
					home = pwdOf(t, trace.String())
				}
			}
			f.CloseIdle()
			wire := rel.Sent(t)
			want := &scheme.Plan{Steps: append(sends, scheme.Step{Kind: scheme.Send, Op: "QUIT", Text: "QUIT\r\n"})}
			if msg := matchPlan(want, wire, nil); msg != "" {
				t.Errorf("the wire is not the plans: %s\nwire:\n%q", msg, wire)
			}
			if n := bytes.Count(wire, []byte("USER ")); n != 1 {
				t.Errorf("%d logins, want 1", n)
			}
		})
	}
}

// The plan equals the wire on a kept NNTP connection (NNTPOpener.Keep):
// the first URL's plan (scheme.PlanOptions.KeepNNTP: no QUIT), then each
// later URL's plan on the same connection (NNTPKept: no greeting, no
// login), a refusal included, then the QUIT of CloseIdle; INN sees one
// connection. When the server has closed the kept connection, the next
// URL opens a new one and is planned as a first one.
func TestPlanEqualsWireKeptNNTP(t *testing.T) {
	e := wiretest.ServerEnv(t, "NNTP_PORT", "NNTP_USER", "NNTP_PASS")
	urls := []string{"news:local.test", "news:first@test.invalid", "news:no.such.group", "news:*", "nntp://%s/local.test/2", "news:local.empty"}
	for _, tc := range []struct {
		name  string
		login bool
		cutAt int // the relay closes the connections before this URL; 0: never
	}{{"anonymous", false, 0}, {"login", true, 0}, {"closed by the server", true, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			rel := wiretest.NewRelay(t, "127.0.0.1:"+e["NNTP_PORT"])
			f := &Fetcher{Getenv: noEnv(), NNTP: NNTPOpener{Server: rel.Addr(), Keep: true}}
			f.NNTP.Dialer.OverviewBatch = 2
			if tc.login {
				f.NNTP.User, f.NNTP.Password = e["NNTP_USER"], e["NNTP_PASS"]
			}
			var sends []scheme.Step
			for i, raw := range urls {
				if i > 0 && i == tc.cutAt {
					rel.Cut()
				}
				u, _, err := urlkit.ParseMode(strings.Replace(raw, "%s", rel.Addr(), 1), urlkit.RFC3986)
				if err != nil {
					t.Fatal(err)
				}
				opts := scheme.PlanOptions{Mode: urlkit.RFC3986, NewsServer: rel.Addr(), User: f.NNTP.User, Password: f.NNTP.Password, KeepNNTP: true, NNTPKept: i > 0 && i != tc.cutAt}
				plan, err := scheme.PlanURL(&u, opts)
				if err != nil {
					t.Fatal(err)
				}
				sends = append(sends, plan.Sends()...)
				resp, err := f.Fetch(testCtx(t), &u)
				if raw == "news:no.such.group" {
					if !errors.Is(err, ErrNotFound) {
						t.Fatalf("%s: %v, want ErrNotFound", raw, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", raw, err)
				}
				body, err := io.ReadAll(resp.Body)
				if cerr := resp.Body.Close(); err == nil {
					err = cerr
				}
				if err != nil || (raw != "news:local.empty" && len(body) == 0) {
					t.Fatalf("%s: %q, %v", raw, body, err)
				}
			}
			f.CloseIdle()
			wire := rel.Sent(t)
			want := &scheme.Plan{Steps: append(sends, scheme.Step{Kind: scheme.Send, Op: "QUIT", Text: "QUIT\r\n"})}
			if msg := matchPlan(want, wire, nil); msg != "" {
				t.Errorf("the wire is not the plans: %s\nwire:\n%q", msg, wire)
			}
			conns := 1
			if tc.cutAt > 0 {
				conns = 2
			}
			if got := len(rel.Conns(t)); got != conns {
				t.Errorf("%d connections for %d URLs, want %d", got, len(urls), conns)
			}
			if n := bytes.Count(wire, []byte("QUIT")); n != 1 {
				t.Errorf("%d QUITs, want 1 (at CloseIdle)", n)
			}
			if tc.login && bytes.Count(wire, []byte("AUTHINFO USER")) != conns {
				t.Errorf("%d logins, want %d", bytes.Count(wire, []byte("AUTHINFO USER")), conns)
			}
		})
	}
}

// pwdOf returns the directory of the 257 reply in a trace.
func pwdOf(t *testing.T, trace string) string {
	for _, l := range strings.Split(trace, "\n") {
		if rest, ok := strings.CutPrefix(l, "< 257 \""); ok {
			d, _, _ := strings.Cut(rest, "\"")
			return d
		}
	}
	t.Fatalf("no 257 reply in the trace:\n%s", trace)
	return ""
}

// planThroughRelay returns a Fetcher, the URL urlScheme://HOST:PORT+path of
// the real server whose port is in the environment variable server,
// reached through a relay that records what is sent, and that URL's plan
// with opts (lenient, with the Fetcher's email).
func planThroughRelay(t *testing.T, server, urlScheme, path string, opts scheme.PlanOptions) (*Fetcher, urlkit.URL, *scheme.Plan, *wiretest.Relay) {
	t.Helper()
	const email = "planwire@example.org"
	port := wiretest.ServerEnv(t, server)[server]
	rel := wiretest.NewRelay(t, "127.0.0.1:"+port)
	f := &Fetcher{Getenv: noEnv(), FTP: FTPOpener{Email: email}}
	u, _, err := urlkit.ParseMode(urlScheme+"://"+rel.Addr()+path, urlkit.RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	opts.Mode, opts.Email = urlkit.Lenient, email
	plan, err := scheme.PlanURL(&u, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f, u, plan, rel
}

// A resumed FTP fetch (FetchFrom) sends the plan with REST
// (scheme.PlanOptions.FTPRestart), and the data is the file's rest.
func TestPlanEqualsWireRest(t *testing.T) {
	f, u, plan, rel := planThroughRelay(t, "FTP_PORT", "ftp", "/pub/64k.bin", scheme.PlanOptions{FTPRestart: 40000})
	resp, err := f.FetchFrom(testCtx(t), &u, Resume{Offset: 40000})
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil || len(body) != 65536-40000 || resp.Offset != 40000 || resp.Size != 65536-40000 {
		t.Fatalf("%d bytes from offset %d (size %d): %v", len(body), resp.Offset, resp.Size, err)
	}
	if msg := matchPlan(plan, rel.Sent(t), nil); msg != "" {
		t.Errorf("the wire is not the plan: %s", msg)
	}
	if !strings.Contains(strings.Join(plan.Lines(true), "\n"), "REST 40000") {
		t.Errorf("the plan has no REST:\n%s", strings.Join(plan.Lines(true), "\n"))
	}
}

// Head's plan (scheme.PlanOptions.Head) is its wire: TYPE I, SIZE, MDTM,
// FEAT and, since ProFTPD lists it, MLST; HTTP's HEAD likewise.
func TestPlanEqualsWireHead(t *testing.T) {
	for _, c := range []struct{ server, scheme, path string }{
		{"FTP_PORT", "ftp", "/pub/hello.txt"},
		{"HTTP_PORT", "http", "/hello.txt"},
	} {
		f, u, plan, rel := planThroughRelay(t, c.server, c.scheme, c.path, scheme.PlanOptions{Head: true})
		resp, err := f.Head(testCtx(t), &u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if len(resp.Fields) == 0 {
			t.Errorf("%s: no fields", c.scheme)
		}
		if c.scheme == "http" {
			sharedTransport().CloseIdleConnections()
		}
		if msg := matchPlan(plan, rel.Sent(t), nil); msg != "" {
			t.Errorf("%s: the wire is not the plan: %s", c.scheme, msg)
		}
	}
}

// List's plan (scheme.PlanOptions.List) is its wire against ProFTPD,
// whose FEAT lists MLST: FEAT, EPSV, MLSD.
func TestPlanEqualsWireList(t *testing.T) {
	f, u, plan, rel := planThroughRelay(t, "FTP_PORT", "ftp", "/pub/", scheme.PlanOptions{List: true})
	resp, err := f.List(testCtx(t), &u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil || resp.ListFormat != "MLSD" || !bytes.Contains(body, []byte("; 64k.bin")) {
		t.Fatalf("%s listing %q: %v", resp.ListFormat, body, err)
	}
	if msg := matchPlan(plan, rel.Sent(t), nil); msg != "" {
		t.Errorf("the wire is not the plan: %s", msg)
	}
}

// The Transport's FTP fetch of a TYPE I file asks for MDTM after SIZE
// (PlanOptions.ModTime, its Last-Modified): that plan is its wire
// against ProFTPD too.
func TestPlanEqualsWireModTime(t *testing.T) {
	f, u, plan, rel := planThroughRelay(t, "FTP_PORT", "ftp", "/pub/64k.bin", scheme.PlanOptions{ModTime: true})
	resp, err := (&Transport{Fetcher: f}).RoundTrip(httptest.NewRequest("GET", u.String(), nil).WithContext(testCtx(t)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Last-Modified") == "" {
		t.Errorf("status %d, Last-Modified %q", resp.StatusCode, resp.Header.Get("Last-Modified"))
	}
	if msg := matchPlan(plan, rel.Sent(t), nil); msg != "" {
		t.Errorf("the wire is not the plan: %s", msg)
	}
	if !strings.Contains(strings.Join(plan.Lines(true), "\n"), "MDTM ") {
		t.Errorf("the plan has no MDTM:\n%s", strings.Join(plan.Lines(true), "\n"))
	}
}
