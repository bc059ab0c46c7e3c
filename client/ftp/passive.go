package ftp

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// parsePASV finds the h1,h2,h3,h4,p1,p2 group of a 227 reply (RFC 959
// section 4.1.2). The parentheses are not required: some servers omit them.
func parsePASV(msg string) (netip.Addr, uint16, error) {
	for i := 0; i < len(msg); i++ {
		if !isDigit(msg[i]) || (i > 0 && (isDigit(msg[i-1]) || msg[i-1] == ',')) {
			continue
		}
		var n [6]byte
		j, k := i, 0
		for ; k < 6; k++ {
			start := j
			for j < len(msg) && isDigit(msg[j]) && j-start < 4 {
				j++
			}
			v, err := strconv.Atoi(msg[start:j])
			if err != nil || v > 255 {
				break
			}
			n[k] = byte(v)
			if k < 5 {
				if j >= len(msg) || msg[j] != ',' {
					break
				}
				j++
			}
		}
		if k == 6 && (j == len(msg) || (!isDigit(msg[j]) && msg[j] != ',')) {
			return netip.AddrFrom4([4]byte{n[0], n[1], n[2], n[3]}), uint16(n[4])<<8 | uint16(n[5]), nil
		}
	}
	return netip.Addr{}, 0, fmt.Errorf("%w: no h1,h2,h3,h4,p1,p2 in PASV reply %q", ErrMalformedReply, wire.Clip(msg))
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// parseEPSV extracts the port of a 229 reply "(<d><d><d>port<d>)"
// (RFC 2428 section 3), where <d> is any printable delimiter, usually "|".
func parseEPSV(msg string) (uint16, error) {
	bad := func() (uint16, error) {
		return 0, fmt.Errorf("%w: EPSV reply %q", ErrMalformedReply, wire.Clip(msg))
	}
	i := strings.IndexByte(msg, '(')
	if i < 0 || len(msg) < i+6 {
		return bad()
	}
	s := msg[i+1:]
	d := s[0]
	if d < 33 || d > 126 || isDigit(d) || s[1] != d || s[2] != d {
		return bad()
	}
	s = s[3:]
	j := strings.IndexByte(s, d)
	if j < 1 || j > 5 || j+1 >= len(s) || s[j+1] != ')' {
		return bad()
	}
	port, err := strconv.Atoi(s[:j])
	if err != nil || port < 1 || port > 65535 || s[0] == '+' {
		return bad()
	}
	return uint16(port), nil
}

// pasvHost chooses the host for a PASV data connection. By default the
// control connection's peer is always used: a PASV reply that names
// another host is either a misconfigured NAT (an internal address) or an
// attempt to make the client connect to a third party (RFC 2577). With
// trust (Dialer.TrustPASVAddr) the reply is used, as lftp's
// ftp:fix-pasv-address does, unless it is unspecified, or private/loopback/
// link-local while the peer is not.
func pasvHost(reply, peer netip.Addr, trust bool) netip.Addr {
	if !trust || !reply.IsValid() || reply.IsUnspecified() {
		return peer
	}
	if isInternal(reply) && !isInternal(peer) {
		return peer
	}
	return reply
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// isInternal reports addresses that are not reachable across the Internet.
func isInternal(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() || cgnat.Contains(a)
}

// passiveCmd sends EPSV or PASV, again (up to three times in all) while
// the server answers with a transient 4xx reply: a server whose passive
// port was still in use answers "425 ... Address already in use" and
// picks another port on the next try (RFC 959 4.2: 4yz is a transient
// negative completion).
func (c *Conn) passiveCmd(ctx context.Context, verb string) (reply, error) {
	for attempt := 1; ; attempt++ {
		r, err := c.cmd(ctx, verb, "")
		if err != nil || r.class() != 4 || attempt == 3 {
			return r, err
		}
	}
}

// passiveDial asks for a passive data connection, EPSV first, and
// connects to it.
func (c *Conn) passiveDial(ctx context.Context) (net.Conn, error) {
	var addr netip.AddrPort
	verb := "EPSV"
	if !c.d.DisableEPSV && !c.noEPSV {
		r, err := c.passiveCmd(ctx, "EPSV")
		if err != nil {
			return nil, err
		}
		switch {
		case r.code == 229:
			port, err := parseEPSV(r.msg)
			if err != nil {
				return nil, opErr("EPSV", err)
			}
			addr = netip.AddrPortFrom(c.peer, port)
		case r.class() == 5: // not implemented / not understood: PASV next, and from now on
			c.noEPSV = true
		default:
			return nil, &ReplyError{Cmd: "EPSV", Code: r.code, Msg: r.msg}
		}
	}
	if !addr.IsValid() {
		verb = "PASV"
		if !c.peer.Is4() {
			return nil, fmt.Errorf("ftp: EPSV refused and PASV is IPv4-only (peer %v)", c.peer)
		}
		r, err := c.passiveCmd(ctx, "PASV")
		if err != nil {
			return nil, err
		}
		if r.code != 227 {
			return nil, &ReplyError{Cmd: "PASV", Code: r.code, Msg: r.msg}
		}
		ip, port, err := parsePASV(r.msg)
		if err != nil {
			return nil, opErr("PASV", err)
		}
		addr = netip.AddrPortFrom(pasvHost(ip, c.peer, c.d.TrustPASVAddr), port)
	}
	if err := c.checkDataPort(int(addr.Port())); err != nil {
		return nil, opErr(verb, err)
	}
	dc, err := wire.Dial(ctx, &net.Dialer{Timeout: c.d.Timeout}, "tcp", addr.String())
	if err != nil {
		return nil, fmt.Errorf("ftp: data connection to %v: %w", addr, err)
	}
	return dc, nil
}

// checkDataPort applies Dialer.CheckDataPort (or RefuseWellKnownPort) to
// the port a passive reply named.
func (c *Conn) checkDataPort(port int) error {
	check := c.d.CheckDataPort
	if check == nil {
		check = RefuseWellKnownPort
	}
	if err := check(port); err != nil {
		return fmt.Errorf("%w %d: %w", ErrDataPort, port, err)
	}
	return nil
}

// activeListen opens a listener on the control connection's local address
// and announces it with EPRT (RFC 2428), or PORT if EPRT is refused.
func (c *Conn) activeListen(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(c.local.String(), "0"))
	if err != nil {
		return nil, fmt.Errorf("ftp: active mode listen: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ok := false
	defer func() {
		if !ok {
			ln.Close()
		}
	}()
	if !c.d.DisableEPSV && !c.noEPRT {
		af := 1
		if c.local.Is6() {
			af = 2
		}
		r, err := c.cmd(ctx, "EPRT", fmt.Sprintf("|%d|%s|%d|", af, c.local, port))
		if err != nil {
			return nil, err
		}
		switch {
		case r.class() == 2:
			ok = true
			return ln, nil
		case r.class() == 5:
			c.noEPRT = true
		default:
			return nil, &ReplyError{Cmd: "EPRT", Code: r.code, Msg: r.msg}
		}
	}
	if !c.local.Is4() {
		return nil, fmt.Errorf("ftp: EPRT refused and PORT is IPv4-only (local %v)", c.local)
	}
	a := c.local.As4()
	r, err := c.cmd(ctx, "PORT", fmt.Sprintf("%d,%d,%d,%d,%d,%d", a[0], a[1], a[2], a[3], port>>8, port&0xff))
	if err != nil {
		return nil, err
	}
	if r.class() != 2 {
		return nil, &ReplyError{Cmd: "PORT", Code: r.code, Msg: r.msg}
	}
	ok = true
	return ln, nil
}

// acceptData waits for the server's active-mode data connection. Only a
// connection from the control connection's peer address is accepted;
// others are closed (RFC 2577 "port stealing").
func (c *Conn) acceptData(ctx context.Context, ln net.Listener) (net.Conn, error) {
	defer ln.Close()
	if c.d.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.d.Timeout)
		defer cancel()
	}
	release := wire.Bind(ctx, ln)
	defer release()
	for {
		dc, err := ln.Accept()
		if err != nil {
			return nil, fmt.Errorf("ftp: waiting for the active data connection: %w", wire.ContextError(ctx, err))
		}
		if ta, ok := dc.RemoteAddr().(*net.TCPAddr); ok && ta.AddrPort().Addr().Unmap() == c.peer {
			// The peer is the control connection's, which its dial
			// checked; the check of ctx sees the data peer too.
			if err := wire.CheckPeer(ctx, dc.RemoteAddr()); err != nil {
				dc.Close()
				return nil, fmt.Errorf("ftp: active data connection: %w", err)
			}
			return dc, nil
		}
		dc.Close()
	}
}
