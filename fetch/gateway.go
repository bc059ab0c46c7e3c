package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
)

// GatewayMode says how a gateway is given the URL to fetch.
type GatewayMode uint8

const (
	// GatewayProxy sends the whole URL on the HTTP request line to the
	// gateway's host and port ("GET ftp://host/file HTTP/1.1"), as RFC
	// 1630 describes for an HTTP server "used as a gateway (or proxy)".
	// This is the <scheme>_proxy convention of CERN's libwww, and what
	// http_proxy means today.
	GatewayProxy GatewayMode = iota
	// GatewayPath appends the URL's host, port, path and search to the
	// gateway URL's path and fetches the result as an ordinary http URL:
	// with WWW_wais_GATEWAY=http://gw.example:8001, the URL
	// wais://host:210/db?words is fetched as
	// http://gw.example:8001/host:210/db?words. This is CERN libwww's
	// WWW_<scheme>_GATEWAY convention (RFC 1738 section 4: "gateway
	// locators for indirect access through new naming schemes").
	GatewayPath
)

// Gateway is an HTTP server through which the URLs of one scheme are
// fetched (RFC 1738 section 4, RFC 1630).
//
// A Fetcher looks for the gateway of a URL's scheme in Fetcher.Gateways,
// then (unless IgnoreEnvironment) in the environment: <scheme>_proxy, then
// <SCHEME>_PROXY (except HTTP_PROXY when REQUEST_METHOD is set, the CGI
// "httpoxy" case), both GatewayProxy, then WWW_<scheme>_GATEWAY,
// GatewayPath. A value without "scheme://" means http://. No gateway is
// used for a host that matches Fetcher.NoProxy or no_proxy: a
// comma-separated list of "*" (every host), host names (matching the
// name and its subdomains; a leading "." is allowed), IP addresses, CIDR
// prefixes, each optionally with ":port".
type Gateway struct {
	// URL is the gateway: an http or https URL, which may carry a user
	// and password for the gateway (sent as Proxy-Authorization in proxy
	// mode, Authorization in path mode).
	URL string
	// Mode is how the URL to fetch is passed.
	Mode GatewayMode
}

// ParseGateway parses the --gateway flag's "SCHEME=URL" into a scheme and
// a proxy-mode Gateway.
func ParseGateway(s string) (scheme string, gw Gateway, err error) {
	scheme, raw, ok := strings.Cut(s, "=")
	if !ok || scheme == "" || raw == "" {
		return "", Gateway{}, fmt.Errorf("gateway %q: want SCHEME=URL", s)
	}
	gw = Gateway{URL: raw}
	if _, err := gw.parse(); err != nil {
		return "", Gateway{}, err
	}
	return strings.ToLower(scheme), gw, nil
}

// parse checks the gateway URL and returns it as a *url.URL.
func (gw Gateway) parse() (*url.URL, error) {
	raw := gw.URL
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%w: gateway %q is not an http or https URL", ErrGateway, redactRaw(gw.URL))
	}
	return u, nil
}

// redactRaw redacts the password of a URL string that may not parse: a
// password with a raw "@" (which url.Parse refuses) is hidden up to the
// last "@" of the authority, not cut at the first.
func redactRaw(s string) string {
	var r safetext.Redactor
	r.AddURLPasswords(s)
	if !strings.Contains(s, "://") {
		r.AddURLPasswords("http://" + s) // a gateway without a scheme is http
	}
	return r.Redact(s)
}

func (f *Fetcher) getenv(k string) string {
	if f.Getenv != nil {
		return f.Getenv(k)
	}
	return os.Getenv(k)
}

// gatewayFor returns the gateway for u, if any.
func (f *Fetcher) gatewayFor(u *urlkit.URL) (Gateway, bool) {
	scheme := u.SchemeName()
	gw, ok := f.Gateways[scheme]
	if !ok && !f.IgnoreEnvironment {
		gw, ok = f.envGateway(scheme)
	}
	if !ok || gw.URL == "" {
		return Gateway{}, false
	}
	port, _ := u.EffectivePort()
	if noProxyMatch(f.noProxy(), u.Hostname(), port) {
		return Gateway{}, false
	}
	return gw, true
}

func (f *Fetcher) envGateway(scheme string) (Gateway, bool) {
	if v := f.getenv(scheme + "_proxy"); v != "" {
		return Gateway{URL: v}, true
	}
	upper := strings.ToUpper(scheme)
	if v := f.getenv(upper + "_PROXY"); v != "" && !(upper == "HTTP" && f.getenv("REQUEST_METHOD") != "") {
		return Gateway{URL: v}, true
	}
	for _, k := range []string{"WWW_" + scheme + "_GATEWAY", "WWW_" + upper + "_GATEWAY"} {
		if v := f.getenv(k); v != "" {
			return Gateway{URL: v, Mode: GatewayPath}, true
		}
	}
	return Gateway{}, false
}

func (f *Fetcher) noProxy() string {
	if f.NoProxy != "" || f.IgnoreEnvironment {
		return f.NoProxy
	}
	if v := f.getenv("no_proxy"); v != "" {
		return v
	}
	return f.getenv("NO_PROXY")
}

// noProxyMatch reports whether host:port is in the no_proxy list.
func noProxyMatch(list, host string, port int) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	hostIP, ipErr := netip.ParseAddr(host)
	for _, e := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		e = strings.ToLower(e)
		if e == "*" {
			return true
		}
		// An optional ":port" (not inside an IPv6 literal).
		if h, p, err := net.SplitHostPort(e); err == nil {
			if n, err := strconv.Atoi(p); err != nil || n != port {
				continue
			}
			e = h
		}
		e = strings.Trim(e, "[]")
		if pfx, err := netip.ParsePrefix(e); err == nil {
			if ipErr == nil && pfx.Contains(hostIP.Unmap()) {
				return true
			}
			continue
		}
		if ip, err := netip.ParseAddr(e); err == nil {
			if ipErr == nil && ip == hostIP.Unmap() {
				return true
			}
			continue
		}
		e = strings.TrimSuffix(strings.TrimPrefix(e, "*"), ".")
		e = strings.TrimPrefix(e, ".")
		if e != "" && (host == e || strings.HasSuffix(host, "."+e)) {
			return true
		}
	}
	return false
}

// gatewayPathURL builds the http URL a path-mode gateway is asked for:
// the gateway URL, one "/", then the URL's host[:port], path and search.
func gatewayPathURL(gw *url.URL, u *urlkit.URL) string {
	var b strings.Builder
	g := *gw
	g.User = nil
	b.WriteString(strings.TrimSuffix(g.String(), "/"))
	b.WriteByte('/')
	b.WriteString(u.Host)
	if u.HasPort {
		b.WriteString(":" + u.Port)
	}
	b.WriteString(u.Path)
	if u.HasQuery {
		b.WriteString("?" + u.Query)
	}
	return b.String()
}
