package urlkit

import (
	"net/netip"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
)

// ipLiteral checks RFC 3986's IP-literal = "[" ( IPv6address / IPvFuture ) "]".
// Zone identifiers (RFC 6874) are not part of RFC 3986 and are refused.
func (p *parser) ipLiteral(h string, off int) {
	if len(h) < 2 || h[len(h)-1] != ']' {
		p.fail(off, ErrBadHost, "IP literal without its closing ']' (RFC 3986 3.2.2)")
		return
	}
	in := h[1 : len(h)-1]
	if len(in) > 0 && (in[0] == 'v' || in[0] == 'V') {
		p.ipFuture(in, off+1)
		return
	}
	if k := strings.IndexByte(in, '%'); k >= 0 {
		p.fail(off+1+k, ErrBadHost, "zone identifiers are not part of RFC 3986 IP literals")
		return
	}
	a, err := netip.ParseAddr(in)
	if err != nil || !a.Is6() {
		msg := "invalid IPv6 address in IP literal (RFC 3986 3.2.2)"
		if err == nil {
			msg = "an IP literal must hold an IPv6 address; write IPv4 addresses without brackets"
		}
		p.fail(off+1, ErrBadHost, msg)
	}
}

// ipFuture checks IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ).
func (p *parser) ipFuture(v string, off int) {
	i := 1
	for i < len(v) && cc.IsHex(v[i]) {
		i++
	}
	if i == 1 || i >= len(v) || v[i] != '.' || i+1 == len(v) {
		p.fail(off, ErrBadHost, "invalid IPvFuture literal: want \"v\" 1*HEXDIG \".\" 1*( unreserved / sub-delims / \":\" ) (RFC 3986 3.2.2)")
		return
	}
	for j := i + 1; j < len(v); j++ {
		if !cc.Is(v[j], cc.Userinfo3986) {
			p.fail(off+j, ErrBadHost, describe(v[j])+" is not allowed in an IPvFuture literal (RFC 3986 3.2.2)")
			return
		}
	}
}
