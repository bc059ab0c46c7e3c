package gateway

import (
	"context"
	"errors"
	"net/netip"
	"testing"
)

// Issue 38 item 3: the address classes the gateway refuses.
func TestAddrClass(t *testing.T) {
	for _, tt := range []struct{ addr, class string }{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"}, // IPv4-mapped
		{"10.0.0.1", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd12:3456::1", "private"},
		{"fc00::1", "private"},
		{"::ffff:10.1.2.3", "private"},
		{"64:ff9b::a00:1", "private"},     // NAT64 of 10.0.0.1
		{"2002:c0a8:101::1", "private"},   // 6to4 of 192.168.1.1
		{"169.254.169.254", "link-local"}, // cloud metadata
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"100.64.0.1", "CGNAT"},
		{"100.127.255.254", "CGNAT"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"::", "unspecified"},
		{"255.255.255.255", "reserved"},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"192.169.0.1", ""},
		{"2001:db8::1", ""},
		{"2606:4700::1111", ""},
		{"64:ff9b::808:808", ""}, // NAT64 of 8.8.8.8
	} {
		if got := addrClass(netip.MustParseAddr(tt.addr)); got != tt.class {
			t.Errorf("addrClass(%s) = %q, want %q", tt.addr, got, tt.class)
		}
	}
}

func ap(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }

func TestDestPolicy(t *testing.T) {
	lookups := 0
	names := map[string][]netip.Addr{
		"archive.lan": {netip.MustParseAddr("192.168.7.7")},
		"v6.lan":      {netip.MustParseAddr("fd00::7")},
	}
	mustAllow := func(s string) allowedDest {
		d, err := parseAllowDest(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	p := &destPolicy{
		allow: []allowedDest{mustAllow("127.0.0.1:7070"), mustAllow("archive.lan"), mustAllow("[fd00::7]:21"), mustAllow("10.9.9.9")},
		self:  []netip.AddrPort{ap("127.0.0.1:8070")},
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			lookups++
			if a, ok := names[host]; ok {
				return a, nil
			}
			return nil, errors.New("no such host")
		},
	}
	ctx := t.Context()
	for _, tt := range []struct {
		addr  string
		class string // "" allowed
	}{
		{"93.184.216.34:70", ""},
		{"127.0.0.1:7070", ""},         // --allow-dest 127.0.0.1:7070
		{"127.0.0.1:7071", "loopback"}, // another port
		{"127.0.0.1:8070", "the gateway's own"},
		{"192.168.7.7:21", ""}, // archive.lan, any port
		{"192.168.7.7:70", ""}, // archive.lan, any port
		{"192.168.7.8:21", "private"},
		{"[fd00::7]:21", ""},
		{"[fd00::7]:22", "private"},
		{"10.9.9.9:119", ""},
		{"[::ffff:10.9.9.9]:119", ""},
		{"10.9.9.10:119", "private"},
		{"169.254.169.254:80", "link-local"},
	} {
		err := p.check(ctx, ap(tt.addr))
		if tt.class == "" {
			if err != nil {
				t.Errorf("%s: %v, want allowed", tt.addr, err)
			}
			continue
		}
		var de *destError
		if !errors.As(err, &de) || de.class != tt.class {
			t.Errorf("%s: %v, want refused as %q", tt.addr, err, tt.class)
		}
	}
	before := lookups
	p.check(ctx, ap("8.8.4.4:70"))
	if lookups != before {
		t.Errorf("a public address cost %d lookups of --allow-dest names; want none", lookups-before)
	}
}

// A gateway listening on every interface refuses all of this
// machine's addresses on its port.
func TestDestPolicySelfUnspecified(t *testing.T) {
	p := &destPolicy{self: []netip.AddrPort{ap("0.0.0.0:8070")}, allow: []allowedDest{{addr: netip.MustParseAddr("127.0.0.1")}}}
	if err := p.check(t.Context(), ap("127.0.0.1:8070")); err == nil {
		t.Error("127.0.0.1:8070 allowed while the gateway listens on 0.0.0.0:8070")
	}
	if err := p.check(t.Context(), ap("127.0.0.1:70")); err != nil {
		t.Errorf("127.0.0.1:70 (allowed by --allow-dest): %v", err)
	}
}

func TestParseAllowDest(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want allowedDest
		bad  bool
	}{
		{in: "127.0.0.1", want: allowedDest{addr: netip.MustParseAddr("127.0.0.1")}},
		{in: "127.0.0.1:70", want: allowedDest{addr: netip.MustParseAddr("127.0.0.1"), port: 70}},
		{in: "::1", want: allowedDest{addr: netip.MustParseAddr("::1")}},
		{in: "[::1]", want: allowedDest{addr: netip.MustParseAddr("::1")}},
		{in: "[::1]:21", want: allowedDest{addr: netip.MustParseAddr("::1"), port: 21}},
		{in: "Archive.LAN.", want: allowedDest{name: "archive.lan"}},
		{in: "archive.lan:2121", want: allowedDest{name: "archive.lan", port: 2121}},
		{in: "host:0", bad: true},
		{in: "host:99999", bad: true},
		{in: "", bad: true},
		{in: "a/b", bad: true},
		{in: "user@host", bad: true},
	} {
		got, err := parseAllowDest(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("parseAllowDest(%q) = %+v, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseAllowDest(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestClientPolicy(t *testing.T) {
	var c clientPolicy
	for _, s := range []string{"192.0.2.0/24", "2001:db8::/32", "198.51.100.7"} {
		p, err := parseAllowFrom(s)
		if err != nil {
			t.Fatal(err)
		}
		c.allow = append(c.allow, p)
	}
	for _, tt := range []struct {
		remote string
		ok     bool
	}{
		{"127.0.0.1:5000", true}, // loopback always
		{"[::1]:5000", true},
		{"192.0.2.200:5000", true},
		{"[::ffff:192.0.2.1]:5000", true},
		{"[2001:db8:1::5]:5000", true},
		{"198.51.100.7:1", true},
		{"198.51.100.8:1", false},
		{"203.0.113.1:1", false},
		{"10.0.0.1:1", false},
		{"[fe80::1%eth0]:1", false},
		{"garbage", false},
		{"", false},
	} {
		if got := c.allowed(tt.remote); got != tt.ok {
			t.Errorf("allowed(%q) = %v, want %v", tt.remote, got, tt.ok)
		}
	}
	for _, bad := range []string{"", "10.0.0.0/33", "example.org", "10.0.0.0/8/8"} {
		if _, err := parseAllowFrom(bad); err == nil {
			t.Errorf("parseAllowFrom(%q): no error", bad)
		}
	}
}
