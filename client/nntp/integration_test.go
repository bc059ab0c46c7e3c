package nntp

// Integration tests against the real INN 2 started by
// scripts/servers/start-nntp.sh (see scripts/with-servers.sh). Without
// NNTP_PORT they skip, or fail with URLKIT_REQUIRE_SERVERS=1. What the
// client posts is read back through the client and through INN's own
// tools (grephistory and sm read the history and the spool directly).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

type nntpEnv struct {
	addr, user, pass string
	innconf, bin     string // INN's config and tools, for reading back
}

func realNNTP(t *testing.T) nntpEnv {
	t.Helper()
	env := wiretest.ServerEnv(t, "NNTP_PORT", "NNTP_USER", "NNTP_PASS", "NNTP_INNCONF", "NNTP_BIN")
	return nntpEnv{addr: "127.0.0.1:" + env["NNTP_PORT"], user: env["NNTP_USER"], pass: env["NNTP_PASS"],
		innconf: env["NNTP_INNCONF"], bin: env["NNTP_BIN"]}
}

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 30*time.Second) }

// dial connects with d (nil: the zero Dialer), failing the test on an
// error, and closes the connection when the test ends.
func dial(t *testing.T, addr string, d *Dialer) *Conn {
	t.Helper()
	if d == nil {
		d = &Dialer{}
	}
	return wiretest.Open(t, func(ctx context.Context) (*Conn, error) { return d.Dial(ctx, addr) })
}

// reader returns a function reading a whole article (and closing it),
// to be called as rd(c.Article(ctx, ref)).
func reader(t *testing.T) func(a *Article, err error) string {
	return func(a *Article, err error) string {
		t.Helper()
		return readAll(t, a, err)
	}
}

func readAll(t *testing.T, a *Article, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// innArticle reads an article from INN's spool with its own tools:
// grephistory finds the storage token, sm prints the article.
func innArticle(t *testing.T, e nntpEnv, msgid string) string {
	t.Helper()
	env := append(os.Environ(), "INNCONF="+e.innconf)
	cmd := exec.Command(e.bin+"/grephistory", msgid)
	cmd.Env = env
	tok, err := cmd.Output()
	if err != nil {
		t.Fatalf("grephistory %s: %v", msgid, err)
	}
	cmd = exec.Command(e.bin+"/sm", strings.TrimSpace(string(tok)))
	cmd.Env = env
	art, err := cmd.Output()
	if err != nil {
		t.Fatalf("sm %s: %v", tok, err)
	}
	return string(art)
}

func TestRealDial(t *testing.T) {
	e := realNNTP(t)
	var trace wiretest.Buffer
	c := dial(t, e.addr, &Dialer{Trace: &trace})
	if !c.PostingAllowed() {
		t.Error("PostingAllowed() = false; INN greets 127.0.0.1 with 200")
	}
	caps := c.Capabilities()
	for _, want := range []string{"VERSION", "READER", "OVER", "POST", "AUTHINFO", "LIST"} {
		if !caps.Has(want) {
			t.Errorf("capabilities lack %s: %v", want, caps)
		}
	}
	if got := caps["VERSION"]; len(got) == 0 || got[0] != "2" {
		t.Errorf("VERSION = %v", got)
	}
	if err := c.Quit(testCtx(t)); err != nil {
		t.Errorf("Quit: %v", err)
	}
	// INN's nnrpd is already a reader: no MODE READER is sent.
	want := "> CAPABILITIES\n"
	if tr := trace.String(); !strings.HasPrefix(tr, "< 200 ") || !strings.Contains(tr, want) ||
		strings.Contains(tr, "MODE READER") || !strings.HasSuffix(tr, "> QUIT\n< 205 Bye!\n") {
		t.Errorf("trace:\n%s", tr)
	}
	if _, err := c.Group(testCtx(t), "local.test"); !errors.Is(err, ErrClosed) {
		t.Errorf("Group after Quit: %v, want ErrClosed", err)
	}
}

func TestRealGroupAndArticles(t *testing.T) {
	e := realNNTP(t)
	c := dial(t, e.addr, nil)
	ctx := testCtx(t)
	rd := reader(t)

	_, err := c.Article(ctx, "1") // no group selected yet
	if !errors.Is(err, ErrNoGroupSelected) {
		t.Errorf("ARTICLE 1 before GROUP: %v, want 412", err)
	}
	g, err := c.Group(ctx, "local.test")
	if err != nil {
		t.Fatal(err)
	}
	if g != (Group{Name: "local.test", Count: 3, Low: 1, High: 3}) {
		t.Errorf("Group = %+v", g)
	}
	_, err = c.Group(ctx, "local.nonexistent")
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != 411 || !errors.Is(err, ErrNoSuchGroup) {
		t.Errorf("missing group: %v", err)
	}
	if _, err := c.Group(ctx, "local.test"); err != nil {
		t.Fatal(err)
	}

	a, err := c.Article(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	if a.Number != 1 || a.MessageID != "<first@test.invalid>" {
		t.Errorf("ARTICLE 1: number %d, id %q", a.Number, a.MessageID)
	}
	byNumber := readAll(t, a, nil)
	// exactly as INN stored it
	if stored := innArticle(t, e, "<first@test.invalid>"); byNumber != stored {
		t.Errorf("ARTICLE 1 differs from INN's spool:\n--- client\n%s\n--- sm\n%s", byNumber, stored)
	}
	if !strings.Contains(byNumber, "\n\nBody of <first@test.invalid>.\n.leading dot line (dot-stuffing test)\nLast line.\n") {
		t.Errorf("body not unstuffed:\n%s", byNumber)
	}

	a, err = c.Article(ctx, "<first@test.invalid>")
	if err == nil && (a.Number != 0 || a.MessageID != "<first@test.invalid>") {
		t.Errorf("ARTICLE <id>: number %d (want 0, RFC 3977 6.2.1.2), id %q", a.Number, a.MessageID)
	}
	if byID := readAll(t, a, err); byID != byNumber {
		t.Errorf("by id and by number differ")
	}

	head := rd(c.Head(ctx, "<second@test.invalid>"))
	body := rd(c.Body(ctx, "2"))
	if !strings.Contains(head, "References: <first@test.invalid>\n") || strings.Contains(head, "Body of") {
		t.Errorf("HEAD:\n%s", head)
	}
	if body != "Body of <second@test.invalid>.\n.leading dot line (dot-stuffing test)\nLast line.\n" {
		t.Errorf("BODY = %q", body)
	}
	if whole := innArticle(t, e, "<second@test.invalid>"); whole != head+"\n"+body {
		t.Errorf("HEAD + BODY != the stored article")
	}

	for _, ref := range []string{"<nothere@test.invalid>", "99"} {
		_, err := c.Article(ctx, ref)
		if !errors.Is(err, ErrNoSuchArticle) {
			t.Errorf("ARTICLE %s: %v, want ErrNoSuchArticle", ref, err)
		}
	}

	// An article closed half-read leaves the connection usable.
	a, err = c.Article(ctx, "3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Group(ctx, "local.test"); !errors.Is(err, ErrBusy) {
		t.Errorf("command while an article is open: %v, want ErrBusy", err)
	}
	a.Read(make([]byte, 10))
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Read(make([]byte, 1)); err == nil {
		t.Error("Read after Close succeeded")
	}
	if g, err := c.Group(ctx, "local.general"); err != nil || g.Count != 2 {
		t.Errorf("after a half-read article: %+v, %v", g, err)
	}
}

// Overview by every method the client knows, against the same INN: the
// entries must agree.
func TestRealOverviewMethods(t *testing.T) {
	e := realNNTP(t)
	var want []Overview
	for _, mode := range []overMode{overOVER, overXOVER, overLISTGROUP, overHEAD} {
		t.Run(strconv.Itoa(int(mode)), func(t *testing.T) {
			var trace wiretest.Buffer
			c := dial(t, e.addr, &Dialer{Trace: &trace, OverviewBatch: 2})
			ctx := testCtx(t)
			g, err := c.Group(ctx, "local.test")
			if err != nil {
				t.Fatal(err)
			}
			c.over = mode
			var got []Overview
			s := c.Overview(ctx, g.Low, g.High+5) // past the end: missing articles are skipped
			for s.Next() {
				got = append(got, s.Item())
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 {
				t.Fatalf("%d entries, want 3: %+v", len(got), got)
			}
			for i, o := range got {
				if o.Number != int64(i+1) {
					t.Errorf("entry %d: number %d", i, o.Number)
				}
			}
			if got[1].References != "<first@test.invalid>" || got[2].MessageID != "<cross@test.invalid>" ||
				got[0].Subject != "First test article" || !strings.Contains(got[0].From, "poster@test.invalid") {
				t.Errorf("entries: %+v", got)
			}
			if mode == overOVER {
				want = got
				if got[2].Bytes == 0 || got[2].Lines != 3 || len(got[2].Extra) != 1 ||
					!strings.HasPrefix(got[2].Extra[0], "Xref: test.invalid local.test:3 local.general:1") {
					t.Errorf("OVER sizes/extra: %+v", got[2])
				}
			} else if want != nil {
				for i := range got {
					w, g := want[i], got[i]
					if g.Subject != w.Subject || g.From != w.From || g.Date != w.Date || g.MessageID != w.MessageID || g.References != w.References {
						t.Errorf("mode %d entry %d = %+v, OVER gave %+v", mode, i, g, w)
					}
				}
			}
			verb := map[overMode]string{overOVER: "> OVER 1-2\n", overXOVER: "> XOVER 1-2\n",
				overLISTGROUP: "> LISTGROUP local.test 1-2\n", overHEAD: "> HEAD 4\n"}[mode]
			if !strings.Contains(trace.String(), verb) {
				t.Errorf("trace lacks %q:\n%s", verb, trace.String())
			}
			// the connection is usable after the scan
			if _, err := c.Group(ctx, "local.general"); err != nil {
				t.Errorf("after the scan: %v", err)
			}
		})
	}
}

func TestRealListActiveAndNewGroups(t *testing.T) {
	e := realNNTP(t)
	c := dial(t, e.addr, nil)
	ctx := testCtx(t)
	s, err := c.ListActive(ctx, "local.*")
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]ActiveGroup{}
	for s.Next() {
		groups[s.Item().Name] = s.Item()
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if g := groups["local.test"]; g.High != 3 || g.Low != 1 || g.Status != "y" {
		t.Errorf("local.test = %+v", g)
	}
	if g := groups["local.mod"]; g.Status != "m" {
		t.Errorf("local.mod = %+v", g)
	}
	if _, ok := groups["control"]; ok {
		t.Error("the wildmat local.* matched control")
	}
	all, err := c.ListActive(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for all.Next() {
		n++
	}
	if all.Err() != nil || n < len(groups)+3 {
		t.Errorf("LIST ACTIVE: %d groups, %v", n, all.Err())
	}
	// NEWGROUPS: a group created now with INN's ctlinnd is new; the
	// groups of the start script (no creation time) are not.
	name := fmt.Sprintf("local.new%d", time.Now().UnixNano())
	cmd := exec.Command(e.bin+"/ctlinnd", "newgroup", name, "y", "tester@test.invalid")
	cmd.Env = append(os.Environ(), "INNCONF="+e.innconf)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ctlinnd newgroup: %v %s", err, out)
	}
	for _, tt := range []struct {
		since time.Time
		want  bool
	}{{time.Now().Add(-time.Minute), true}, {time.Now().Add(time.Hour), false}} {
		ng, err := c.NewGroups(ctx, tt.since)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for ng.Next() {
			got = append(got, ng.Item().Name)
		}
		if err := ng.Err(); err != nil {
			t.Error(err)
		}
		if slices.Contains(got, name) != tt.want || slices.Contains(got, "local.test") {
			t.Errorf("NEWGROUPS since %v: %q", tt.since, got)
		}
	}
	if _, err := c.ListActive(ctx, "local.* x"); !errors.Is(err, ErrUnsafeArg) {
		t.Errorf("wildmat with a space: %v", err)
	}
}

func TestRealPost(t *testing.T) {
	e := realNNTP(t)
	var trace wiretest.Buffer
	c := dial(t, e.addr, &Dialer{Trace: &trace})
	ctx := testCtx(t)
	rd := reader(t)
	subject := fmt.Sprintf("Post test %d", time.Now().UnixNano())
	body := "first line\n.leading dot\n..two dots\n.\nlast line\n"
	raw := "From: Poster <poster@test.invalid>\nSubject: " + subject + "\n\n" + body
	art, err := CheckArticle([]byte(raw), ArticleOptions{Newsgroups: "local.post", Domain: "test.invalid"})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := c.Post(ctx, bytes.NewReader(art))
	if err != nil {
		t.Fatalf("Post: %v\n%s", err, trace.String())
	}
	t.Logf("240 %s", msg)
	id := headerValue(string(art), "Message-ID")
	// the wire carries the body dot-stuffed, with CRLF (the trace shows lines)
	for _, want := range []string{"> POST\n", "< 340 ", "> ..leading dot\n", "> ...two dots\n", "> ..\n", "> .\n", "< 240 "} {
		if !strings.Contains(trace.String(), want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	// read back through the client...
	got := rd(c.Article(ctx, id))
	if !strings.HasSuffix(got, "\n\n"+body) || !strings.Contains(got, "Subject: "+subject+"\n") ||
		!strings.Contains(got, "Newsgroups: local.post\n") || !strings.Contains(got, "Message-ID: "+id+"\n") {
		t.Errorf("article read back:\n%s", got)
	}
	// ...and through INN's tools
	if stored := innArticle(t, e, id); stored != got {
		t.Errorf("client and INN's sm differ:\n%s\n---\n%s", got, stored)
	}
	// the date we added survived
	if d := headerValue(got, "Date"); d != headerValue(string(art), "Date") {
		t.Errorf("Date %q, posted %q", d, headerValue(string(art), "Date"))
	}
	// a second post of the same Message-ID is refused with 441
	_, err = c.Post(ctx, bytes.NewReader(art))
	if !errors.Is(err, ErrPostingFailed) {
		t.Errorf("duplicate post: %v, want 441", err)
	}
	// the connection still works
	if _, err := c.Group(ctx, "local.post"); err != nil {
		t.Error(err)
	}
}

func headerValue(article, name string) string {
	for _, line := range strings.Split(article, "\n") {
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func TestRealAuthenticate(t *testing.T) {
	e := realNNTP(t)
	var trace wiretest.Buffer
	c := dial(t, e.addr, &Dialer{Trace: &trace})
	ctx := testCtx(t)
	if err := c.Authenticate(ctx, e.user, e.pass); err != nil {
		t.Fatal(err)
	}
	if !c.Capabilities().Has("READER") {
		t.Error("capabilities not reloaded after AUTHINFO")
	}
	tr := trace.String()
	if strings.Contains(tr, e.pass) {
		t.Errorf("trace shows the password:\n%s", tr)
	}
	for _, want := range []string{"> AUTHINFO USER " + e.user + "\n", "< 381 ", "> AUTHINFO PASS xxxxx\n", "< 281 "} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%s", want, tr)
		}
	}
	// once authenticated, AUTHINFO again is 502 (RFC 4643 section 2.2)
	if err := c.Authenticate(ctx, e.user, e.pass); err == nil {
		t.Error("second AUTHINFO succeeded")
	}

	c2 := dial(t, e.addr, nil)
	const bad = "wrong-Pa55"
	err := c2.Authenticate(ctx, e.user, bad)
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != 481 || re.Cmd != "AUTHINFO PASS" || !errors.Is(err, ErrAuthFailed) {
		t.Errorf("wrong password: %v", err)
	}
	if strings.Contains(err.Error(), bad) {
		t.Errorf("error shows the password: %v", err)
	}
}

// Unsafe arguments are refused before anything is sent.
func TestRealUnsafeArgs(t *testing.T) {
	e := realNNTP(t)
	var trace wiretest.Buffer
	c := dial(t, e.addr, &Dialer{Trace: &trace})
	ctx := testCtx(t)
	before := trace.String()
	for _, err := range []error{
		func() error { _, err := c.Group(ctx, "local.test\r\nPOST"); return err }(),
		func() error { _, err := c.Group(ctx, "local test"); return err }(),
		func() error { _, err := c.Article(ctx, "<a\r\nQUIT>"); return err }(),
		func() error { _, err := c.Article(ctx, "<a b@c>"); return err }(),
		func() error { _, err := c.Head(ctx, "1 2"); return err }(),
		func() error { _, err := c.Body(ctx, "<x@y"); return err }(),
		c.Authenticate(ctx, "tester\nQUIT", "x"),
		c.Authenticate(ctx, "tester", "x\x00y"),
	} {
		if !errors.Is(err, ErrUnsafeArg) && !strings.Contains(fmt.Sprint(err), "empty") {
			t.Errorf("err = %v, want ErrUnsafeArg", err)
		}
	}
	if after := trace.String(); after != before {
		t.Errorf("something was sent:\n%s", strings.TrimPrefix(after, before))
	}
}

func TestRealContextCancel(t *testing.T) {
	e := realNNTP(t)
	c := dial(t, e.addr, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Group(ctx, "local.test"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v", err)
	}
	if _, err := c.Group(testCtx(t), "local.test"); err != nil {
		t.Errorf("a cancelled ctx before sending must not break the connection: %v", err)
	}
}

// The figure the issue asks for: time and peak memory to list a group of
// NNTP_BIG_COUNT (100,000) articles with OVER. Needs NNTP_BIG=N at server
// start; skipped otherwise (even with URLKIT_REQUIRE_SERVERS=1).
func TestRealOverviewBigGroup(t *testing.T) {
	e := realNNTP(t)
	group, count := os.Getenv("NNTP_BIG_GROUP"), os.Getenv("NNTP_BIG_COUNT")
	if group == "" {
		t.Skip("NNTP_BIG_GROUP not set: start the server with NNTP_BIG=100000")
	}
	want, _ := strconv.ParseInt(count, 10, 64)
	c := dial(t, e.addr, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	g, err := c.Group(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	base := heapBytes()
	peak := base
	var mu sync.Mutex
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the live heap while listing
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				h := heapBytes()
				mu.Lock()
				peak = max(peak, h)
				mu.Unlock()
			}
		}
	}()
	start := time.Now()
	var n, last int64
	s := c.Overview(ctx, g.Low, g.High)
	for s.Next() {
		o := s.Item()
		if o.Number <= last {
			t.Fatalf("number %d after %d", o.Number, last)
		}
		last = o.Number
		n++
	}
	elapsed := time.Since(start)
	close(stop)
	<-done
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("listed %d articles, want %d", n, want)
	}
	mu.Lock()
	grow := peak - base
	mu.Unlock()
	t.Logf("OVER of %d articles (batches of %d): %v, %.0f articles/s; live heap after GC %.1f MiB before, peak +%.2f MiB",
		n, DefaultOverviewBatch, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(),
		float64(base)/(1<<20), float64(grow)/(1<<20))
	if grow > 8<<20 {
		t.Errorf("live heap grew by %d bytes while listing: not constant memory", grow)
	}
}

// heapBytes is the heap still live after the last GC, from
// runtime/metrics: what the listing retains, not its garbage. Cheap
// enough to sample often.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
