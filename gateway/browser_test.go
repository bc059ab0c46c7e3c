package gateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// The real-browser tests: Debian's chromium, headless, driven over the
// DevTools protocol (chromedp), reads the web form as a person does:
// types a URL, follows links, submits forms. They skip when chromium is
// absent, unless URLKIT_REQUIRE_SERVERS=1 (test.sh installs it).
//
// The browser reaches only loopback: every other host goes to a proxy on
// 127.0.0.1:9, where nothing listens, and its background services are
// off, so no test makes it send a packet elsewhere.

// browser starts a headless chromium and returns a context for a tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatal("chromium is not installed (test.sh installs it: apt-get install chromium)")
		}
		t.Skip("chromium is not installed")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root, as test.sh and CI run
		chromedp.WindowSize(1000, 700),
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", "127.0.0.1;[::1]"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-pings", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel := chromedp.NewExecAllocator(t.Context(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel3)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// run runs browser actions, failing the test with what was being done.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// result runs a browser action that gives a value.
func result[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// click follows the link whose text is text, and waits for sel on the
// page it leads to.
func click(t *testing.T, ctx context.Context, text, sel string) {
	t.Helper()
	run(t, ctx, "following "+text,
		chromedp.Click(chromedp.Search(`//a[normalize-space(.)=`+xpathString(text)+`]`)),
		chromedp.WaitVisible(chromedp.CSS(sel)))
}

// xpathString quotes s for XPath (the texts here hold no '"').
func xpathString(s string) string { return `"` + s + `"` }

// wantText checks that the first element sel matches shows want.
func wantText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	if s := result(t, ctx, "reading "+sel, chromedp.Text(chromedp.CSS(sel))); !strings.Contains(s, want) {
		t.Errorf("%s shows %q, want %q in it", sel, s, want)
	}
}

// TestBrowser walks every kind of page in chromium: the home page and
// its field, a Gopher menu to a text and a search, an FTP directory to a
// file, a news group to an article and the article it refers to, a WAIS
// search to a hit, a Prospero directory to a file.
func TestBrowser(t *testing.T) {
	gopherPort := wiretest.ServerEnv(t, "GOPHER_PORT")["GOPHER_PORT"]
	ftpPort := wiretest.ServerEnv(t, "FTP_PORT")["FTP_PORT"]
	nntpPort := wiretest.ServerEnv(t, "NNTP_PORT")["NNTP_PORT"]
	waisPort := wiretest.ServerEnv(t, "WAIS_PORT")["WAIS_PORT"]
	prosperoPort := wiretest.ServerEnv(t, "PROSPERO_PORT")["PROSPERO_PORT"]
	ts := webServer(t, webConfig{NNTP: "127.0.0.1:" + nntpPort})
	ctx := browser(t)

	t.Run("gopher", func(t *testing.T) {
		menu := "gopher://127.0.0.1:" + gopherPort + "/1/map"
		run(t, ctx, "the home page",
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(`input[name="url"]`)),
			chromedp.SendKeys(chromedp.CSS(`input[name="url"]`), menu),
			chromedp.Submit(chromedp.CSS(`input[name="url"]`)),
			chromedp.WaitVisible(chromedp.CSS(`#menu`)))
		loc := result(t, ctx, "location", chromedp.Location())
		if loc != ts.URL+"/"+menu {
			t.Errorf("the home page's field led to %s, want %s", loc, ts.URL+"/"+menu)
		}
		wantText(t, ctx, "#menu", "Hand-written menu for tests")
		if os.Getenv("URLKIT_SCREENSHOT") != "" {
			screenshot(t, ctx, os.Getenv("URLKIT_SCREENSHOT"))
		}
		click(t, ctx, "Hello (absolute selector)", "#text")
		wantText(t, ctx, "#text", "Hello")
		run(t, ctx, "the menu again", chromedp.Navigate(ts.URL+"/"+menu), chromedp.WaitVisible(chromedp.CSS(`#menu`)))
		click(t, ctx, "Search the test server", "#search")
		run(t, ctx, "searching",
			chromedp.SendKeys(chromedp.CSS(`#search`), "gophers"),
			chromedp.Submit(chromedp.CSS(`#search`)),
			chromedp.WaitVisible(chromedp.CSS(`#menu`)))
		wantText(t, ctx, "#menu", "match for gophers")
	})

	t.Run("news", func(t *testing.T) {
		run(t, ctx, "a news group",
			chromedp.Navigate(ts.URL+"/news:*"),
			chromedp.WaitVisible(chromedp.CSS(`#listing`)))
		click(t, ctx, "local.test", "#listing")
		click(t, ctx, "Re: First test article", "#body")
		click(t, ctx, "<first@test.invalid>", "#body")
		title := result(t, ctx, "title", chromedp.Title())
		if !strings.HasPrefix(title, "First test article") {
			t.Errorf("the referenced article is %q", title)
		}
	})

	t.Run("wais", func(t *testing.T) {
		run(t, ctx, "a WAIS search",
			chromedp.Navigate(ts.URL+"/wais://127.0.0.1:"+waisPort+"/test"),
			chromedp.WaitVisible(chromedp.CSS(`#search`)),
			chromedp.SendKeys(chromedp.CSS(`#search`), "gopher"),
			chromedp.Submit(chromedp.CSS(`#search`)),
			chromedp.WaitVisible(chromedp.CSS(`#listing`)))
		click(t, ctx, "Alpha document about gophers", "#text")
		wantText(t, ctx, "#text", "small burrowing rodents")
	})

	// Directories walked to a file: each link followed by its text.
	for _, w := range []struct {
		name, start string
		path        []string
		want        string
	}{
		{"ftp", "/ftp://127.0.0.1:" + ftpPort + "/", []string{"pub", "hello.txt"}, "Hello from anonymous FTP."},
		{"prospero", "/prospero://127.0.0.1:" + prosperoPort + "/AFTP/pub", []string{"hello.txt"}, "hello prospero"},
	} {
		t.Run(w.name, func(t *testing.T) {
			run(t, ctx, "a directory", chromedp.Navigate(ts.URL+w.start), chromedp.WaitVisible(chromedp.CSS(`#listing`)))
			for i, name := range w.path {
				sel := "#listing"
				if i == len(w.path)-1 {
					sel = "#text"
				}
				click(t, ctx, name, sel)
			}
			wantText(t, ctx, "#text", w.want)
		})
	}
}

// TestBrowserHostileMenu serves a hostile menu from a real Gophernicus (a
// gophermap written into its content directory): a script in a display
// string and in a selector, javascript: and data: URLs in "h" items, a
// quote in a host that tries to add an event attribute, a host that
// would make a protocol-relative link. In chromium nothing of it runs:
// no dialog, no console message, the flag the scripts would set stays
// unset, before and after every link is followed.
func TestBrowserHostileMenu(t *testing.T) {
	port := wiretest.ServerEnv(t, "GOPHERNICUS_PORT")["GOPHERNICUS_PORT"]
	dir := wiretest.ServerEnv(t, "GOPHERNICUS_DIR")["GOPHERNICUS_DIR"]
	hostile := filepath.Join(dir, "root", "hostile-"+strings.ReplaceAll(t.Name(), "/", "-"))
	lines := []string{
		`i<script>window.pwned=1;alert(1)</script>`,
		"0<img src=x onerror=\"window.pwned=2;alert(2)\">\t/hello.txt\t127.0.0.1\t" + port,
		"hJS link\tURL:javascript:window.pwned=3;alert(3)\t127.0.0.1\t" + port,
		"hData link\tURL:data:text/html,<script>alert(4)</script>\t127.0.0.1\t" + port,
		"1Quote host\t/\t127.0.0.1\" autofocus onfocus=\"window.pwned=5;alert(5)\t" + port,
		"0Quote selector\t/\"><script>window.pwned=6;alert(6)</script>\t127.0.0.1\t" + port,
		"1Protocol-relative host\t/\t/evil.example\t" + port,
		"hJS in a selector\tURL:JaVaScRiPt:alert(7)\t127.0.0.1\t" + port,
	}
	if err := os.MkdirAll(hostile, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(hostile) })
	if err := os.WriteFile(filepath.Join(hostile, "gophermap"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := webServer(t, webConfig{})
	ctx := browser(t)

	var mu sync.Mutex
	var ran []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			ran = append(ran, "dialog: "+ev.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{})
		case *runtime.EventConsoleAPICalled:
			ran = append(ran, "console: "+string(ev.Type))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	menu := ts.URL + "/gopher://127.0.0.1:" + port + "/1/" + filepath.Base(hostile) + "/"
	run(t, ctx, "the hostile menu", chromedp.Navigate(menu), chromedp.WaitVisible(chromedp.CSS(`#menu`)))
	inert(t, ctx, "the menu")
	hrefs := result(t, ctx, "links", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#menu a')].map(a => a.getAttribute('href'))`))
	if len(hrefs) < 5 {
		t.Fatalf("the hostile menu has %d links: %q", len(hrefs), hrefs)
	}
	for _, h := range hrefs {
		if !isGatewayLink(h) {
			t.Errorf("href %q is not a gateway link", h)
		}
	}
	// Follow every link: each lands on a gateway page (an error page for
	// the javascript: and data: targets), and nothing runs there either.
	for i, h := range hrefs {
		run(t, ctx, "following "+h, chromedp.Navigate(menu), chromedp.WaitVisible(chromedp.CSS(`#menu`)),
			chromedp.Click(chromedp.Search(`(//div[@id="menu"]//a)[`+strconv.Itoa(i+1)+`]`)),
			chromedp.WaitReady(chromedp.CSS(`body`)))
		loc := result(t, ctx, "location", chromedp.Location())
		if !strings.HasPrefix(loc, ts.URL+"/") {
			t.Errorf("link %q left the gateway: %s", h, loc)
		}
		inert(t, ctx, "after following "+h)
	}
	time.Sleep(200 * time.Millisecond) // events in flight
	mu.Lock()
	defer mu.Unlock()
	if len(ran) > 0 {
		t.Errorf("script ran in the browser: %q", ran)
	}
}

// inert checks that the page holds no script and no event attribute and
// that no script set the flag.
func inert(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	type pageState struct {
		Pwned   bool `json:"pwned"`
		Scripts int  `json:"scripts"`
		Events  int  `json:"events"`
	}
	state := result(t, ctx, "inspecting "+where, chromedp.Evaluate[pageState](`({
		pwned: window.pwned !== undefined,
		scripts: document.scripts.length,
		events: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
	})`))
	if state.Pwned || state.Scripts > 0 || state.Events > 0 {
		t.Errorf("%s: flag set %v, %d scripts, %d elements with event attributes", where, state.Pwned, state.Scripts, state.Events)
	}
}

// screenshot saves a PNG of the page (URLKIT_SCREENSHOT=FILE: the
// README's picture of a rendered Gopher menu).
func screenshot(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	png := result(t, ctx, "screenshot", chromedp.CaptureScreenshot())
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
