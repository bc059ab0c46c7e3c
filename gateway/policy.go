package gateway

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// The address classes a gateway refuses to connect to unless --allow-dest
// names them (issue 38 item 3): what an outsider must not reach through
// a gateway that sits inside a network. Each prefix names its class for
// the 403 page and the log.
var refusedPrefixes = []struct {
	prefix netip.Prefix
	class  string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"}, // "this network" (RFC 791); Linux dials 0.0.0.0 as loopback
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "CGNAT"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"}, // cloud metadata services live here
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // and 255.255.255.255, the broadcast address
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fec0::/10"), "private"}, // the deprecated site-local addresses, still routed by some
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// Prefixes of IPv6 addresses that carry an IPv4 address a router or the
// kernel reaches: the address is judged by the IPv4 address inside.
var (
	nat64 = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the last 32 bits
	six4  = netip.MustParsePrefix("2002::/16")    // 6to4, RFC 3056: bits 16-47
)

// addrClass returns the class of a that the gateway refuses ("loopback",
// "private", ...), or "" for an address on the public Internet.
func addrClass(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			a = netip.AddrFrom4([4]byte(b[12:16]))
		case six4.Contains(a):
			a = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	for _, p := range refusedPrefixes {
		if p.prefix.Contains(a) {
			return p.class
		}
	}
	return ""
}

// destError is a refused destination: the address dialled and why.
type destError struct {
	addr  netip.AddrPort
	class string // addrClass's, or "the gateway's own address"
}

func (e *destError) Error() string {
	return fmt.Sprintf("gateway: %s is a %s address: the gateway does not connect there unless --allow-dest names it", e.addr, e.class)
}

// allowedDest is one --allow-dest HOST[:PORT]: an IP literal or a name,
// and the one port it allows (0: every port).
type allowedDest struct {
	addr netip.Addr // valid for an IP literal
	name string     // a name, lower case, without the trailing dot
	port uint16
}

// parseAllowDest reads an --allow-dest value: HOST, HOST:PORT, an IPv6
// literal with or without brackets, [V6]:PORT.
func parseAllowDest(s string) (allowedDest, error) {
	var d allowedDest
	host := s
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return d, fmt.Errorf("--allow-dest %q: the port must be a number from 1 to 65535", s)
		}
		host, d.port = h, uint16(n)
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		d.addr = a.Unmap()
		return d, nil
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || strings.ContainsAny(host, "/:@[] \t") {
		return d, fmt.Errorf("--allow-dest %q: want HOST or HOST:PORT (a name or an IP address)", s)
	}
	d.name = host
	return d, nil
}

// destPolicy decides which addresses the gateway may connect to. It
// judges the address actually dialled, after name resolution, so a name
// that resolves to a public address when checked and to a private one
// when dialled (DNS rebinding) gains nothing.
type destPolicy struct {
	allow []allowedDest
	// self are the gateway's own listen addresses: refused always, even
	// when --allow-dest names their host, so the gateway never fetches
	// from itself (a loop, and a way around --allow-from).
	self []netip.AddrPort
	// lookup resolves an --allow-dest name (a stub resolver in tests).
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// check returns nil if the gateway may connect to addr, else a
// *destError. Names in --allow-dest are resolved only when addr is in a
// refused class, so a fetch from the public Internet costs no lookup.
func (p *destPolicy) check(ctx context.Context, addr netip.AddrPort) error {
	a := addr.Addr().Unmap().WithZone("")
	for _, s := range p.self {
		if s.Port() == addr.Port() && (s.Addr().Unmap() == a || s.Addr().IsUnspecified() && p.isLocal(a)) {
			return &destError{addr: addr, class: "the gateway's own"}
		}
	}
	class := addrClass(a)
	if class == "" {
		return nil
	}
	for _, d := range p.allow {
		if d.port != 0 && d.port != addr.Port() {
			continue
		}
		if d.addr.IsValid() {
			if d.addr == a {
				return nil
			}
			continue
		}
		if p.lookup == nil {
			continue
		}
		addrs, err := p.lookup(ctx, d.name)
		if err != nil {
			continue
		}
		for _, x := range addrs {
			if x.Unmap().WithZone("") == a {
				return nil
			}
		}
	}
	return &destError{addr: addr, class: class}
}

// isLocal reports whether a is one of this machine's addresses, for a
// gateway that listens on the unspecified address (on every interface).
func (p *destPolicy) isLocal(a netip.Addr) bool {
	if a.IsLoopback() || a.IsUnspecified() {
		return true
	}
	ifs, err := net.InterfaceAddrs()
	if err != nil {
		return true // unknown: refuse rather than risk a loop
	}
	for _, ia := range ifs {
		if n, ok := ia.(*net.IPNet); ok {
			if x, ok := netip.AddrFromSlice(n.IP); ok && x.Unmap() == a {
				return true
			}
		}
	}
	return false
}

// clientPolicy decides who may use the gateway: loopback always, others
// only inside an --allow-from prefix.
type clientPolicy struct {
	allow []netip.Prefix
}

// allowed reports whether a client at remoteAddr (http.Request's
// RemoteAddr, "IP:port") may use the gateway. An address that does not
// parse is refused.
func (c *clientPolicy) allowed(remoteAddr string) bool {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return false
	}
	a := ap.Addr().Unmap().WithZone("")
	if a.IsLoopback() {
		return true
	}
	for _, p := range c.allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseAllowFrom reads an --allow-from CIDR (a bare address is its own
// /32 or /128).
func parseAllowFrom(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p.Masked(), nil
	}
	if a, err := netip.ParseAddr(s); err == nil {
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	return netip.Prefix{}, fmt.Errorf("--allow-from %q: want a CIDR prefix (192.0.2.0/24, 2001:db8::/32) or an address", s)
}
