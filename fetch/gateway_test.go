package fetch

import (
	"net/url"
	"testing"
)

func TestNoProxyMatch(t *testing.T) {
	tests := []struct {
		list, host string
		port       int
		want       bool
	}{
		{"", "example.com", 80, false},
		{"*", "example.com", 80, true},
		{"example.com", "example.com", 80, true},
		{"example.com", "www.example.com", 80, true}, // subdomains (curl, Go)
		{".example.com", "www.example.com", 80, true},
		{".example.com", "example.com", 80, true},
		{"example.com", "notexample.com", 80, false},
		{"EXAMPLE.com", "www.Example.COM", 80, true},
		{"a.org, example.com", "example.com", 80, true},
		{"a.org example.com", "example.com", 80, true},
		{"example.com:8080", "example.com", 8080, true},
		{"example.com:8080", "example.com", 80, false},
		{"127.0.0.1", "127.0.0.1", 70, true},
		{"127.0.0.1", "127.0.0.2", 70, false},
		{"10.0.0.0/8", "10.1.2.3", 21, true},
		{"10.0.0.0/8", "11.1.2.3", 21, false},
		{"10.0.0.0/8", "ten.example", 21, false},
		{"::1", "::1", 80, true},
		{"[::1]:80", "::1", 80, true},
		{"localhost", "localhost.", 80, true},
	}
	for _, tt := range tests {
		if got := noProxyMatch(tt.list, tt.host, tt.port); got != tt.want {
			t.Errorf("noProxyMatch(%q, %q, %d) = %v, want %v", tt.list, tt.host, tt.port, got, tt.want)
		}
	}
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestGatewayFor(t *testing.T) {
	tests := []struct {
		name     string
		f        Fetcher
		url      string
		want     string // "" = direct
		wantMode GatewayMode
	}{
		{name: "none", url: "ftp://h/x"},
		{name: "config", f: Fetcher{Gateways: map[string]Gateway{"ftp": {URL: "http://gw:3128"}}}, url: "ftp://h/x", want: "http://gw:3128"},
		{name: "scheme_proxy", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://p:1"})}, url: "ftp://h/x", want: "http://p:1"},
		{name: "SCHEME_PROXY", f: Fetcher{Getenv: env(map[string]string{"GOPHER_PROXY": "http://p:2"})}, url: "gopher://h/", want: "http://p:2"},
		{name: "lower case first", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://low", "FTP_PROXY": "http://up"})}, url: "ftp://h/", want: "http://low"},
		{name: "httpoxy", f: Fetcher{Getenv: env(map[string]string{"HTTP_PROXY": "http://evil", "REQUEST_METHOD": "GET"})}, url: "http://h/"},
		{name: "HTTP_PROXY outside CGI", f: Fetcher{Getenv: env(map[string]string{"HTTP_PROXY": "http://p"})}, url: "http://h/", want: "http://p"},
		{name: "WWW gateway", f: Fetcher{Getenv: env(map[string]string{"WWW_wais_GATEWAY": "http://www.w3.org:8001"})}, url: "wais://h/db?x", want: "http://www.w3.org:8001", wantMode: GatewayPath},
		{name: "proxy before WWW gateway", f: Fetcher{Getenv: env(map[string]string{"WWW_wais_GATEWAY": "http://g", "wais_proxy": "http://p"})}, url: "wais://h/db", want: "http://p"},
		{name: "config before env", f: Fetcher{Gateways: map[string]Gateway{"ftp": {URL: "http://cfg"}}, Getenv: env(map[string]string{"ftp_proxy": "http://env"})}, url: "ftp://h/", want: "http://cfg"},
		{name: "ignore env", f: Fetcher{IgnoreEnvironment: true, Getenv: env(map[string]string{"ftp_proxy": "http://env"})}, url: "ftp://h/"},
		{name: "no_proxy", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://p", "no_proxy": "h"})}, url: "ftp://h/"},
		{name: "NO_PROXY", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://p", "NO_PROXY": ".example"})}, url: "ftp://a.example/"},
		{name: "NoProxy field applies to config", f: Fetcher{NoProxy: "h", Gateways: map[string]Gateway{"ftp": {URL: "http://cfg"}}}, url: "ftp://h/"},
		{name: "no_proxy with port", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://p", "no_proxy": "h:21"})}, url: "ftp://h/"},
		{name: "no_proxy other port", f: Fetcher{Getenv: env(map[string]string{"ftp_proxy": "http://p", "no_proxy": "h:2121"})}, url: "ftp://h/", want: "http://p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.f.Getenv == nil {
				tt.f.Getenv = env(nil)
			}
			gw, ok := tt.f.gatewayFor(mustParse(t, tt.url))
			if !ok {
				gw.URL = ""
			}
			if gw.URL != tt.want || (ok && gw.Mode != tt.wantMode) {
				t.Errorf("gatewayFor(%q) = %+v, %v; want %q mode %v", tt.url, gw, ok, tt.want, tt.wantMode)
			}
		})
	}
}

func TestGatewayPathURL(t *testing.T) {
	tests := []struct{ gw, url, want string }{
		{"http://www.w3.org:8001", "wais://quake.think.com:210/directory-of-servers?volcano", "http://www.w3.org:8001/quake.think.com:210/directory-of-servers?volcano"},
		{"http://gw/", "gopher://h/0/a%20b", "http://gw/h/0/a%20b"},
		{"http://user:pw@gw/sub", "gopher://h:7070/1", "http://gw/sub/h:7070/1"},
	}
	for _, tt := range tests {
		g, err := url.Parse(tt.gw)
		if err != nil {
			t.Fatal(err)
		}
		if got := gatewayPathURL(g, mustParse(t, tt.url)); got != tt.want {
			t.Errorf("gatewayPathURL(%q, %q) = %q, want %q", tt.gw, tt.url, got, tt.want)
		}
	}
}

func TestParseGateway(t *testing.T) {
	scheme, gw, err := ParseGateway("FTP=proxy.example:3128")
	if err != nil || scheme != "ftp" || gw.URL != "proxy.example:3128" || gw.Mode != GatewayProxy {
		t.Errorf("ParseGateway = %q, %+v, %v", scheme, gw, err)
	}
	for _, bad := range []string{"ftp", "=http://x", "ftp=", "ftp=gopher://x/", "ftp=socks5://x:1080"} {
		if _, _, err := ParseGateway(bad); err == nil {
			t.Errorf("ParseGateway(%q) accepted", bad)
		}
	}
}
