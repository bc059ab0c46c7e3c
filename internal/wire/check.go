package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrDestination is the cause of a connection that the check of its
// context (WithCheck) refused.
var ErrDestination = errors.New("destination refused")

// Check decides whether a connection may be made to addr on network
// ("tcp4", "tcp6", "udp4", ...): nil allows it.
type Check func(network string, addr netip.AddrPort) error

// checkKey is the context key of a Check.
type checkKey struct{}

// WithCheck returns a context under which Dial passes every address it
// is about to connect to through check, and CheckPeer every peer a
// client accepts a connection from. The check travels in the context
// (as net/http/httptrace's hooks do) so that every connection of an
// exchange goes through it, an FTP data connection as much as the
// control connection, without each client's Dialer growing a field
// that a new client could forget. A nil check leaves ctx as it is.
func WithCheck(ctx context.Context, check Check) context.Context {
	if check == nil {
		return ctx
	}
	return context.WithValue(ctx, checkKey{}, check)
}

// resolverKey is the context key of a *net.Resolver.
type resolverKey struct{}

// WithResolver returns a context under which Dial looks names up with r
// (unless its Dialer names a Resolver of its own): a program's own name
// service, or a test's stub that keeps lookups off the network. A nil r
// leaves ctx as it is.
func WithResolver(ctx context.Context, r *net.Resolver) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, resolverKey{}, r)
}

// checkOf returns the check ctx carries, or nil.
func checkOf(ctx context.Context) Check {
	c, _ := ctx.Value(checkKey{}).(Check)
	return c
}

// CheckPeer applies the check of ctx (WithCheck), if any, to a peer a
// client accepted a connection from or took a datagram from.
func CheckPeer(ctx context.Context, addr net.Addr) error {
	check := checkOf(ctx)
	if check == nil {
		return nil
	}
	var ap netip.AddrPort
	switch a := addr.(type) {
	case *net.TCPAddr:
		ap = a.AddrPort()
	case *net.UDPAddr:
		ap = a.AddrPort()
	default:
		return fmt.Errorf("%w: %v: not an IP address", ErrDestination, addr)
	}
	return runCheck(check, addr.Network(), ap)
}

// runCheck calls check on an address, its IPv4-mapped form unmapped
// (a dual-stack socket names 10.0.0.1 as ::ffff:10.0.0.1).
func runCheck(check Check, network string, ap netip.AddrPort) error {
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	if err := check(network, ap); err != nil {
		return fmt.Errorf("%w: %v: %w", ErrDestination, ap, err)
	}
	return nil
}

// checked returns d with the resolver of ctx (WithResolver) and the
// check of ctx run by its Control hook: on
// the address the socket is about to connect to, after name resolution,
// so that a name that resolves to another address the next time (DNS
// rebinding) cannot pass it, and before any packet is sent. d itself is
// not changed.
func checked(ctx context.Context, d *net.Dialer) *net.Dialer {
	check := checkOf(ctx)
	r, _ := ctx.Value(resolverKey{}).(*net.Resolver)
	if check == nil && (r == nil || d.Resolver != nil) {
		return d
	}
	dd := *d
	if dd.Resolver == nil {
		dd.Resolver = r
	}
	if check == nil {
		return &dd
	}
	prev, prevCtx := d.Control, d.ControlContext
	dd.Control = nil
	dd.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %q: %w", ErrDestination, address, err)
		}
		if err := runCheck(check, network, ap); err != nil {
			return err
		}
		switch {
		case prevCtx != nil:
			return prevCtx(ctx, network, address, c)
		case prev != nil:
			return prev(network, address, c)
		}
		return nil
	}
	return &dd
}
