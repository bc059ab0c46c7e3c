package fetch

// Fetcher.DialCheck, the destination policy: every connection of every
// scheme goes through it, on the address actually dialled. No test here
// sends a packet outside 127.0.0.0/8: names resolve through
// wiretest.Resolver (in memory), and the check refuses every address
// that is not loopback in net.Dialer's Control hook, before connect
// (TestDialCheckBeforeConnect in internal/wire proves that nothing
// reaches the refused address).

import (
	"errors"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// testPolicy is a destination policy for the tests: it records each
// address it is asked about and allows loopback addresses that allow
// (nil: all of them) accepts.
type testPolicy struct {
	t     *testing.T
	mu    sync.Mutex
	seen  []string // "network addr"
	allow func(netip.AddrPort) bool
}

func (p *testPolicy) check(network string, a netip.AddrPort) error {
	p.mu.Lock()
	p.seen = append(p.seen, network+" "+a.String())
	p.mu.Unlock()
	if a.Addr().IsLoopback() && (p.allow == nil || p.allow(a)) {
		return nil
	}
	return errors.New("refused by the test's policy")
}

func (p *testPolicy) saw(addr string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.ContainsFunc(p.seen, func(s string) bool { return strings.HasSuffix(s, " "+addr) })
}

// testNames are the names the tests' resolver knows: each stands for a
// kind of address a gateway must not reach.
var testNames = map[string][]netip.Addr{
	"private.test":   {netip.MustParseAddr("10.1.2.3")},
	"private6.test":  {netip.MustParseAddr("fd00::1")},
	"linklocal.test": {netip.MustParseAddr("169.254.169.254")},
	"cgnat.test":     {netip.MustParseAddr("100.64.0.1")},
	"loopback.test":  {netip.MustParseAddr("127.0.0.1")},
}

func testResolver(t *testing.T) func(name string) []netip.Addr {
	return func(name string) []netip.Addr { return testNames[name] }
}

// TestDialCheckEveryScheme: a name that resolves to a private or
// link-local address is refused for every scheme, with 403 through the
// Transport; the check saw the resolved address, and nothing was
// connected.
func TestDialCheckEveryScheme(t *testing.T) {
	p := &testPolicy{t: t}
	f := &Fetcher{Getenv: noEnv(), DialCheck: p.check, Resolver: wt.Resolver(t, testResolver(t)), Timeout: 5 * time.Second}
	f.NNTP.Server = "private.test"
	tr := &Transport{Fetcher: f}
	for _, tc := range []struct{ url, addr string }{
		{"ftp://private.test/pub/file.txt", "10.1.2.3:21"},
		{"ftp://linklocal.test/", "169.254.169.254:21"},
		{"gopher://private6.test/1/", "[fd00::1]:70"},
		{"gopher://cgnat.test:7070/0/x", "100.64.0.1:7070"},
		{"nntp://private.test/local.test", "10.1.2.3:119"},
		{"news:local.test", "10.1.2.3:119"},
		{"wais://private.test/db?words", "10.1.2.3:210"},
		{"prospero://private.test/x", "10.1.2.3:1525"},
		{"http://private.test/", "10.1.2.3:80"},
		{"https://linklocal.test/latest/meta-data/", "169.254.169.254:443"},
		{"ftp://169.254.169.254/", "169.254.169.254:21"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			transportCase{url: tc.url, status: http.StatusForbidden, kind: ErrUnsafe}.run(t, tr)
			if !p.saw(tc.addr) {
				t.Errorf("the check never saw %s: %v", tc.addr, p.seen)
			}
		})
	}
	t.Run("telnet session", func(t *testing.T) {
		err := f.Session(testCtx(t), mustParse(t, "telnet://private.test/"), &Terminal{})
		if !errors.Is(err, ErrUnsafe) || !errors.Is(err, wire.ErrDestination) || !p.saw("10.1.2.3:23") {
			t.Errorf("telnet: %v (seen %v)", err, p.seen)
		}
	})
	t.Run("mailto", func(t *testing.T) {
		g := *f
		g.Mail.Server, g.Mail.From = "private.test:2525", "me@example.org"
		_, err := g.Send(testCtx(t), mustParse(t, "mailto:you@example.org"), strings.NewReader("Subject: x\r\n\r\nhi\r\n"))
		if !errors.Is(err, ErrUnsafe) || !p.saw("10.1.2.3:2525") {
			t.Errorf("mailto: %v (seen %v)", err, p.seen)
		}
	})
}

// TestDialCheckRebinding: the check is made on the address dialled, not
// on the name: a name that resolved to an allowed address for one fetch
// and resolves to a private one for the next (DNS rebinding) is refused
// the second time.
func TestDialCheckRebinding(t *testing.T) {
	base := realGopher(t)
	port := base[strings.LastIndexByte(base, ':')+1:]
	var rebound atomic.Bool
	res := wt.Resolver(t, func(name string) []netip.Addr {
		if name != "rebind.test" {
			return nil
		}
		if rebound.Load() {
			return []netip.Addr{netip.MustParseAddr("10.9.9.9")}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	p := &testPolicy{t: t}
	tr := &Transport{Fetcher: &Fetcher{Getenv: noEnv(), DialCheck: p.check, Resolver: res}}
	url := "gopher://rebind.test:" + port + "/0/hello.txt"
	transportCase{url: url, has: []string{"Hello"}}.run(t, tr)
	rebound.Store(true)
	transportCase{url: url, status: http.StatusForbidden, kind: ErrUnsafe}.run(t, tr)
	if !p.saw("127.0.0.1:"+port) || !p.saw("10.9.9.9:"+port) {
		t.Errorf("the check saw %v", p.seen)
	}
}

// TestDialCheckPASVElsewhere: a PASV reply naming another host (with
// FTPOpener.Dialer.TrustPASVAddr, which uses it) is refused by the check
// before the data connection is made; the control connection was
// allowed.
func TestDialCheckPASVElsewhere(t *testing.T) {
	srv := wt.Start(t, append(ftpLogin(),
		wt.Expect("MDTM f.bin"), wt.Send("213 20200102030405"),
		wt.Expect("EPSV"), wt.Send("500 EPSV not understood"),
		wt.Expect("PASV"), wt.Send("227 Entering Passive Mode (10,0,0,1,117,48)."),
		wt.Expect("QUIT"), wt.Send("221 bye"))...)
	p := &testPolicy{t: t}
	f := &Fetcher{Getenv: noEnv(), DialCheck: p.check, Timeout: 5 * time.Second}
	f.FTP.Email = "fault@example.org"
	f.FTP.Dialer.TrustPASVAddr = true
	transportCase{url: "ftp://" + srv.Addr() + "/f.bin", status: http.StatusForbidden, kind: ErrUnsafe}.run(t, &Transport{Fetcher: f})
	if !p.saw(srv.Addr()) || !p.saw("10.0.0.1:30000") {
		t.Errorf("the check saw %v", p.seen)
	}
}

// TestDialCheckActiveData: in active mode the peer of the data
// connection that ProFTPD opens goes through the check too: a policy
// that allows only the control connection's port refuses it.
func TestDialCheckActiveData(t *testing.T) {
	e := realFTP(t)
	control := netip.MustParseAddrPort(e.host)
	p := &testPolicy{t: t, allow: func(a netip.AddrPort) bool { return a == control }}
	f := &Fetcher{Getenv: noEnv(), DialCheck: p.check, Timeout: 10 * time.Second}
	f.FTP.Dialer.Active = true
	transportCase{url: e.anon("/pub/hello.txt"), status: http.StatusForbidden, kind: ErrUnsafe}.run(t, &Transport{Fetcher: f})
	if len(p.seen) < 2 {
		t.Errorf("the check saw only %v", p.seen)
	}
	// With the data peer allowed, the same fetch works.
	p.allow = nil
	transportCase{url: e.anon("/pub/hello.txt"), body: "Hello from anonymous FTP.\n"}.run(t, &Transport{Fetcher: f})
}

// TestDialCheckAllowsLoopbackServers: with the check set, every scheme
// still reaches the real servers on loopback (the check is no blanket
// refusal), and each of their connections went through it.
func TestDialCheckAllowsLoopbackServers(t *testing.T) {
	ftpE := realFTP(t)
	p := &testPolicy{t: t}
	f := &Fetcher{Getenv: noEnv(), DialCheck: p.check, Resolver: wt.Resolver(t, testResolver(t))}
	tr := &Transport{Fetcher: f}
	transportCase{url: "ftp://loopback.test:" + strings.Split(ftpE.host, ":")[1] + "/pub/hello.txt", body: "Hello from anonymous FTP.\n"}.run(t, tr)
	data := 0
	for _, s := range p.seen {
		if !strings.HasSuffix(s, ":"+strings.Split(ftpE.host, ":")[1]) {
			data++
		}
	}
	if data == 0 {
		t.Errorf("the FTP data connection did not go through the check: %v", p.seen)
	}
}
