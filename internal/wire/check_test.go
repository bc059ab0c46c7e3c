package wire

import (
	"errors"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// TestDialCheckBeforeConnect: a refused address is never connected to:
// the check runs in the Control hook, before connect(2), so the listener
// there sees nothing; the error names the address and matches
// ErrDestination. An allowed address connects.
func TestDialCheckBeforeConnect(t *testing.T) {
	addr, hits := wiretest.Trap(t, "127.0.0.1:0")
	want := netip.MustParseAddrPort(addr)
	var asked []string
	refuse := WithCheck(t.Context(), func(network string, a netip.AddrPort) error {
		asked = append(asked, network+" "+a.String())
		return errors.New("no")
	})
	_, err := Dial(refuse, nil, "tcp", addr)
	if !errors.Is(err, ErrDestination) {
		t.Fatalf("Dial: %v, want ErrDestination", err)
	}
	time.Sleep(100 * time.Millisecond)
	if n := hits.Load(); n != 0 {
		t.Errorf("%d connections reached the refused address", n)
	}
	if len(asked) != 1 || asked[0] != "tcp4 "+want.String() {
		t.Errorf("the check was asked %v", asked)
	}
	allow := WithCheck(t.Context(), func(string, netip.AddrPort) error { return nil })
	c, err := Dial(allow, nil, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// TestDialCheckResolvedAddress: the check sees the address a name
// resolved to (the resolver of the context), not the name; a Control
// hook of the caller's Dialer still runs after it.
func TestDialCheckResolvedAddress(t *testing.T) {
	addr, hits := wiretest.Trap(t, "127.0.0.1:0")
	port := int(netip.MustParseAddrPort(addr).Port())
	res := wiretest.Resolver(t, func(name string) []netip.Addr {
		if name == "server.test" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
		}
		return nil
	})
	var seen netip.AddrPort
	ctx := WithResolver(WithCheck(t.Context(), func(_ string, a netip.AddrPort) error { seen = a; return nil }), res)
	var control atomic.Bool
	d := &net.Dialer{Control: func(string, string, syscall.RawConn) error { control.Store(true); return nil }}
	c, err := Dial(ctx, d, "tcp", net.JoinHostPort("server.test", strconv.Itoa(port)))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if seen != netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port)) || !control.Load() {
		t.Errorf("the check saw %v, the dialer's own Control ran: %v", seen, control.Load())
	}
	if d.Control == nil || d.ControlContext != nil {
		t.Error("Dial changed the caller's Dialer")
	}
	for hits.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCheckPeer: a peer accepted or heard from goes through the check,
// its IPv4-mapped form unmapped; without a check every peer passes.
func TestCheckPeer(t *testing.T) {
	peer := &net.TCPAddr{IP: net.ParseIP("::ffff:10.0.0.1"), Port: 20}
	if err := CheckPeer(t.Context(), peer); err != nil {
		t.Errorf("no check: %v", err)
	}
	var seen netip.AddrPort
	ctx := WithCheck(t.Context(), func(_ string, a netip.AddrPort) error { seen = a; return errors.New("no") })
	if err := CheckPeer(ctx, peer); !errors.Is(err, ErrDestination) {
		t.Errorf("CheckPeer: %v", err)
	}
	if seen.String() != "10.0.0.1:20" {
		t.Errorf("the check saw %v", seen)
	}
	if err := CheckPeer(ctx, &net.UnixAddr{Name: "/x", Net: "unix"}); !errors.Is(err, ErrDestination) {
		t.Errorf("a unix peer: %v", err)
	}
}
