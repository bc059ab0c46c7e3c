package pipeline

import (
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

// domains is a host's place in the Public Suffix List, as cc-index-table
// splits it: suffix is the ICANN section's public suffix (registry_suffix,
// "co.uk"), registered the label before it (registered_domain,
// "example.co.uk"), private the label before the suffix of the whole
// list, private section included (private_domain, "me.blogspot.com").
// An IP address, or a host that is a suffix itself, has no domain: all
// three are then the host.
func domains(host string) (suffix, registered, private string) {
	if host == "" || host[0] == '[' {
		return host, host, host
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return host, host, host
	}
	s, icann := publicsuffix.PublicSuffix(host)
	private = plusOne(host, s)
	// The ICANN suffix lies under a private one ("blogspot.com" is
	// private, "com" ICANN): look again past the private suffix's first
	// label.
	for !icann {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			break
		}
		s, icann = publicsuffix.PublicSuffix(s[i+1:])
	}
	return s, plusOne(host, s), private
}

// plusOne is suffix and the label of host before it, or host when host
// is the suffix.
func plusOne(host, suffix string) string {
	if len(host) <= len(suffix) {
		return host
	}
	rest := host[:len(host)-len(suffix)-1]
	return rest[strings.LastIndexByte(rest, '.')+1:] + "." + suffix
}

// reverseHost writes a host name's labels in reverse order, joined by
// dots, as cc-webgraph and cc-index-table do ("www.example.com" is
// "com.example.www"); an IP literal stays as it is.
func reverseHost(h string) string {
	if h == "" || h[0] == '[' {
		return h
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return h
	}
	labels := strings.Split(h, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".")
}

// canonRow is one line of the canon pipeline: cc-index-table's URL
// columns, computed by urlkit.
type canonRow struct {
	URL              string  `json:"url"`
	Canonical        string  `json:"canonical"`
	SURT             string  `json:"surt"`
	HostName         *string `json:"host_name"`
	HostNameReversed *string `json:"host_name_reversed"`
	RegisteredDomain *string `json:"registered_domain"`
	RegistrySuffix   *string `json:"registry_suffix"`
	PrivateDomain    *string `json:"private_domain"`
	Protocol         string  `json:"protocol"`
	Port             *int    `json:"port"`
	Path             string  `json:"path"`
	Query            *string `json:"query"`
}

// canonJSON is the canon row of raw, parsed as u, without its closing
// brace (the writer adds the count with --dedup).
func canonJSON(raw string, u *urlkit.URL, m urlkit.Mode) (canonical, row string) {
	n := normalize.Normalize(u, m)
	r := canonRow{URL: raw, Canonical: n.String(), SURT: normalize.SURT(u), Protocol: n.Scheme, Path: n.Path}
	if n.HasAuthority && n.Host != "" {
		h := n.Host
		rev := reverseHost(h)
		suffix, registered, private := domains(h)
		r.HostName, r.HostNameReversed = &h, &rev
		r.RegistrySuffix, r.RegisteredDomain, r.PrivateDomain = &suffix, &registered, &private
	}
	if n.HasPort && n.Port != "" {
		if p, err := strconv.Atoi(n.Port); err == nil {
			r.Port = &p
		}
	}
	if n.HasQuery {
		q := n.Query
		r.Query = &q
	}
	b, _ := json.Marshal(&r) // plain strings and numbers: it cannot fail
	return r.Canonical, string(b[:len(b)-1])
}
