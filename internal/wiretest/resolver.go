package wiretest

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// Resolver returns a resolver that answers every lookup with lookup's
// addresses for the name (without its final dot; none: the name does not
// exist), in memory: no query leaves the process. Tests give host names
// whatever addresses they need (a private or link-local address that must
// be refused, an answer that changes between two lookups) without a DNS
// server. /etc/hosts is still read first, as the Go resolver does.
func Resolver(t testing.TB, lookup func(name string) []netip.Addr) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
			client, server := net.Pipe()
			go serveDNS(t, server, lookup)
			return client, nil
		},
	}
}

// serveDNS answers the queries that arrive on c, in the stream form
// (each message after its two-byte length, RFC 1035 4.2.2): net.Pipe is
// no PacketConn, so that is the form the Go resolver writes to it.
func serveDNS(t testing.TB, c net.Conn, lookup func(name string) []netip.Addr) {
	defer c.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		q := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		a, err := answerDNS(q, lookup)
		if err != nil {
			t.Errorf("wiretest.Resolver: %v", err)
			return
		}
		binary.BigEndian.PutUint16(n[:], uint16(len(a)))
		if _, err := c.Write(append(n[:], a...)); err != nil {
			return
		}
	}
}

// answerDNS builds the answer to the query message q.
func answerDNS(q []byte, lookup func(name string) []netip.Addr) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil {
		return nil, err
	}
	qs, err := p.AllQuestions()
	if err != nil {
		return nil, err
	}
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	var answers []dnsmessage.Resource
	for _, qq := range qs {
		addrs := lookup(strings.TrimSuffix(qq.Name.String(), "."))
		if addrs == nil {
			rh.RCode = dnsmessage.RCodeNameError
		}
		for _, a := range addrs {
			rr := dnsmessage.ResourceHeader{Name: qq.Name, Class: dnsmessage.ClassINET, TTL: 0}
			switch {
			case qq.Type == dnsmessage.TypeA && a.Is4():
				answers = append(answers, dnsmessage.Resource{Header: rr, Body: &dnsmessage.AResource{A: a.As4()}})
			case qq.Type == dnsmessage.TypeAAAA && a.Is6() && !a.Is4In6():
				answers = append(answers, dnsmessage.Resource{Header: rr, Body: &dnsmessage.AAAAResource{AAAA: a.As16()}})
			}
		}
	}
	msg := dnsmessage.Message{Header: rh, Questions: qs, Answers: answers}
	return msg.Pack()
}
