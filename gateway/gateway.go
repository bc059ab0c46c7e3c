// Package gateway is urlkit's HTTP gateway (RFC 1738 section 4, RFC
// 1630): an http.Handler that gives any HTTP client and any browser the
// objects of every scheme urlkit reaches (ftp, gopher, news and nntp,
// wais, prospero, ...), through fetch.Transport.
//
// It serves two forms:
//
//   - the proxy form: an absolute URL on the request line, as a proxy
//     gets it (curl -x http://127.0.0.1:8070 gopher://host/1/): the
//     object's bytes, streamed, with the status and headers the
//     Transport maps from the protocol's answer. CONNECT is refused.
//   - the web form: GET / is a home page, GET /U renders the URL U for
//     a person, every link on it pointing back through the gateway.
//
// A gateway must not be an attack tool (issue 38): clients outside
// Config.AllowFrom (loopback is always allowed) are refused before
// anything is fetched; the address of every connection the gateway makes
// is checked when it is dialled, so loopback, private, link-local,
// CGNAT, multicast and unspecified addresses, and the gateway's own, are
// refused unless Config.AllowDest names them; fetch's port policy and
// its CR/LF/NUL guard apply; the upstream connections, the time of a
// request and the bytes of a response are bounded; every response says
// Content-Security-Policy without script sources, nosniff and
// no-referrer; robots.txt disallows everything; the access log (Common
// Log Format) never shows a password.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/urlkit/urlkit/fetch"
)

// DefaultListen is the address urlkit serve listens on by default: this
// machine only.
const DefaultListen = "127.0.0.1:8070"

// Config configures a gateway. Its zero value serves loopback clients
// with the defaults given for each field.
type Config struct {
	// Listen are the addresses the gateway listens on. A listen address
	// that is not loopback needs AllowFrom; they are refused as
	// destinations, so the gateway never fetches from itself.
	Listen []string
	// AllowFrom are the clients (CIDR prefixes, or single addresses)
	// besides loopback that may use the gateway; the others get 403
	// before anything is fetched.
	AllowFrom []string
	// AllowDest are the HOST or HOST:PORT destinations the gateway may
	// connect to although they resolve to a refused address (a test
	// server on 127.0.0.1, an archive on the local network): an IP
	// address, or a name whose current addresses are allowed.
	AllowDest []string
	// AllowFile is the directory whose files file: URLs may name; ""
	// (the default) refuses file: URLs.
	AllowFile string
	// AllowPost and AllowSend enable posting news and sending mail from
	// the web form's forms.
	AllowPost, AllowSend bool
	// NNTP is the news server of news: URLs (HOST[:PORT]); SMTP the
	// mail server of mailto: sending.
	NNTP, SMTP string
	// MailFrom is the sender of the mail the web form sends (the
	// gateway reads no environment of its own).
	MailFrom string

	// MaxConns bounds the upstream fetches in progress at once, in all
	// (default 64); MaxConnsPerClient those of one client (an IPv4
	// address, an IPv6 /64; default MaxConns/4). A request over the
	// bound waits for a slot within its Timeout, then gets 503.
	MaxConns, MaxConnsPerClient int
	// MaxWaiting bounds the requests of one client waiting for a slot
	// (default 1024); more get 429 at once.
	MaxWaiting int
	// Timeout bounds a request, from its arrival to the last byte of the
	// response (default 2 minutes): a stalled or endless upstream cannot
	// hold it longer. IdleTimeout bounds the wait for each piece of
	// data from upstream and for each write to the client (default 30
	// seconds).
	Timeout, IdleTimeout time.Duration
	// MaxBytes bounds the bytes of one response (default 1 GiB).
	MaxBytes int64

	// AccessLog, if set, receives one line per request in Common Log
	// Format, passwords redacted.
	AccessLog io.Writer
	// ErrorLog, if set, receives the server's own errors (a client that
	// sent garbage, a broken connection).
	ErrorLog *log.Logger

	// Fetcher, if set, is the Fetcher the gateway fetches with (its
	// openers' settings, its Resolver, which also resolves the names of
	// AllowDest); New sets its limits and its DialCheck, so it must not
	// be shared. Nil means a zero one.
	Fetcher *fetch.Fetcher
}

// Default limits (see Config).
const (
	defaultMaxConns    = 64
	defaultMaxWaiting  = 1024
	defaultTimeout     = 2 * time.Minute
	defaultIdleTimeout = 30 * time.Second
	defaultMaxBytes    = 1 << 30
	// maxHeaderBytes bounds a request's line and header, for the
	// server and for the URL of a web-form page.
	maxHeaderBytes = 16 << 10
)

// Handler is the gateway: an http.Handler serving the proxy form, the web
// form, robots.txt, with the policies and limits of its Config.
type Handler struct {
	clients clientPolicy
	dest    destPolicy
	fetcher *fetch.Fetcher
	rt      http.RoundTripper // the Transport, through the limits
	web     http.Handler
	log     *accessLog
	timeout time.Duration
	idle    time.Duration
	errLog  *log.Logger
}

// New returns the gateway cfg describes, or an error naming the setting
// at fault (a listen address that is not loopback without AllowFrom, an
// AllowFrom or AllowDest that does not parse).
func New(cfg Config) (*Handler, error) {
	h := &Handler{timeout: cfg.Timeout, idle: cfg.IdleTimeout, errLog: cfg.ErrorLog}
	if h.timeout <= 0 {
		h.timeout = defaultTimeout
	}
	if h.idle <= 0 {
		h.idle = defaultIdleTimeout
	}
	for _, s := range cfg.AllowFrom {
		p, err := parseAllowFrom(s)
		if err != nil {
			return nil, err
		}
		h.clients.allow = append(h.clients.allow, p)
	}
	if len(cfg.Listen) == 0 {
		cfg.Listen = []string{DefaultListen}
	}
	for _, s := range cfg.Listen {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return nil, fmt.Errorf("listen address %q: want IP:PORT (%v)", s, err)
		}
		if !ap.Addr().Unmap().IsLoopback() && len(h.clients.allow) == 0 {
			return nil, fmt.Errorf("listen address %s is not loopback: say who may use the gateway with --allow-from CIDR (a gateway open to all is an attack tool for all)", s)
		}
		h.dest.self = append(h.dest.self, ap)
	}
	for _, s := range cfg.AllowDest {
		d, err := parseAllowDest(s)
		if err != nil {
			return nil, err
		}
		h.dest.allow = append(h.dest.allow, d)
	}
	if cfg.AllowFile != "" {
		if err := checkFileRoot(cfg.AllowFile); err != nil {
			return nil, err
		}
	}

	h.fetcher = cfg.Fetcher
	if h.fetcher == nil {
		h.fetcher = &fetch.Fetcher{}
	}
	res := h.fetcher.Resolver
	if res == nil {
		res = net.DefaultResolver
	}
	h.dest.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return res.LookupNetIP(ctx, "ip", host)
	}
	configureFetcher(h.fetcher, &cfg, &h.dest, h.idle)

	lim := newLimiter(cfg.MaxConns, cfg.MaxConnsPerClient, cfg.MaxWaiting)
	h.rt = &guard{next: &fetch.Transport{Fetcher: h.fetcher}, lim: lim, fileRoot: cfg.AllowFile}
	h.web = newWebForm(webConfig{
		Transport: h.rt,
		AllowPost: cfg.AllowPost, AllowSend: cfg.AllowSend,
		NNTP: cfg.NNTP, SMTP: cfg.SMTP,
		AllowFile: cfg.AllowFile,
		Send:      h.fetcher.Send,
	})
	if cfg.AccessLog != nil {
		h.log = &accessLog{w: cfg.AccessLog}
	}
	return h, nil
}

// configureFetcher sets what the gateway needs of every fetch: its
// limits, no environment (the gateway's own *_proxy variables must not
// steer its clients' fetches, CERN httpd's known problem), nobody to
// prompt (a password comes with the request or not at all).
func configureFetcher(f *fetch.Fetcher, cfg *Config, dest *destPolicy, idle time.Duration) {
	f.Timeout = idle
	if f.ConnectTimeout == 0 {
		f.ConnectTimeout = 10 * time.Second
	}
	f.MaxTime = cfg.Timeout
	if f.MaxTime <= 0 {
		f.MaxTime = defaultTimeout
	}
	f.MaxSize = cfg.MaxBytes
	if f.MaxSize <= 0 {
		f.MaxSize = defaultMaxBytes
	}
	f.IgnoreEnvironment = true
	f.Getenv = func(string) string { return "" }
	f.Prompt = nil
	f.Trace = nil
	f.FileOverFTP = false
	if cfg.NNTP != "" {
		f.NNTP.Server = cfg.NNTP
	}
	if cfg.SMTP != "" {
		f.Mail.Server = cfg.SMTP
	}
	f.Mail.From = cfg.MailFrom
	// The destination policy, on every address dialled. Names of
	// --allow-dest are resolved with a bound of their own: the check
	// runs inside a dial, which has no context to lend it.
	f.DialCheck = func(network string, addr netip.AddrPort) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return dest.check(ctx, addr)
	}
}

// Server returns an http.Server for h with the gateway's bounds on the
// client side: the time to read a request's header and body, the size
// of the header, the idle time between requests. There is no write
// timeout for the whole response (a large file takes what it takes,
// within Config.Timeout); each write has IdleTimeout instead.
func (h *Handler) Server() *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(10*time.Second, h.idle),
		ReadTimeout:       h.idle,
		IdleTimeout:       2 * h.idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          h.errLog,
	}
}

// Close ends the upstream connections the gateway keeps for later
// requests.
func (h *Handler) Close() { h.fetcher.CloseIdle() }

// The security headers of every response (issue 38 item 3): no script
// runs on a page of the gateway's (no script-src, default-src 'none'),
// nothing is sniffed into another type, and no Referer leaks a gateway
// URL (which names the page a person reads) to another site.
const (
	cspPage = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
	// cspObject is the policy of an object served as it is (the proxy
	// form, a download): HTML from a server, a Gopher h item, runs in a
	// sandbox, as from an origin of its own, and still without script.
	cspObject = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:"
)

func setSecurityHeaders(hd http.Header, csp string) {
	hd.Set("Content-Security-Policy", csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
}

// clientKey is the context key under which ServeHTTP puts the client's
// limiter key, for the Transport's limits.
type clientKey struct{}

// ServeHTTP serves one request: the client check first, then CONNECT
// (405), the proxy form, robots.txt, and the web form for the rest.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	lw := &logWriter{ResponseWriter: w, status: http.StatusOK}
	if h.log != nil {
		defer func() { h.log.write(r, lw, start) }()
	}
	w = lw
	setSecurityHeaders(w.Header(), cspPage)
	if !h.clients.allowed(r.RemoteAddr) {
		plainError(w, http.StatusForbidden, "gateway: this client may not use the gateway (see urlkit serve --allow-from)")
		return
	}
	if r.Method == http.MethodConnect {
		w.Header().Set("Allow", "GET, HEAD, POST")
		plainError(w, http.StatusMethodNotAllowed, "gateway: CONNECT is not served: the gateway fetches objects, it does not tunnel")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
	defer cancel()
	ctx = context.WithValue(ctx, clientKey{}, clientOf(r.RemoteAddr))
	r = r.WithContext(ctx)
	if isProxyForm(r) {
		h.proxy(w, r)
		return
	}
	if r.URL.Path == "/robots.txt" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
		return
	}
	h.web.ServeHTTP(w, r)
}

// clientOf returns the limiter key of a client: its IPv4 address, or the
// /64 of its IPv6 address (one host's share of a network).
func clientOf(remoteAddr string) netip.Prefix {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return netip.Prefix{}
	}
	a := ap.Addr().Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p
	}
	return netip.PrefixFrom(a, 32)
}

// plainError answers with a short text: the status and a message that
// holds nothing a server sent unescaped (fetch's errors are escaped).
func plainError(w http.ResponseWriter, code int, msg string) {
	hd := w.Header()
	hd.Del("Content-Length")
	hd.Del("Content-Encoding")
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "%d %s\n%s\n", code, http.StatusText(code), msg)
}

// errStatus is the status of an error the Transport returned instead
// of a response: it answers every failed fetch with a response of its
// own status, so what is left is the request's context, ended.
func errStatus(err error) int {
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

// isProxyForm reports whether r names an absolute URL on its request
// line (RFC 7230's absolute-form, RFC 1738 section 3.3 for the other
// schemes), rather than a path of the gateway's.
func isProxyForm(r *http.Request) bool {
	return r.RequestURI != "" && !strings.HasPrefix(r.RequestURI, "/") && r.RequestURI != "*"
}
