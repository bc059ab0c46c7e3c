package fetch

import (
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/internal/wire"
	"github.com/urlkit/urlkit/scheme"
)

// defaultMaxRedirects is the number of HTTP redirects followed when
// HTTPOpener.MaxRedirects is zero.
const defaultMaxRedirects = 10

// HTTPOpener opens http: and https: URLs for a Fetcher (its HTTP field)
// with net/http, and fetches URLs of any scheme through gateways. Its
// zero value is ready to use.
//
// The request carries the path and search as written; the fragment is
// never sent (RFC 1630). A user and password in the URL (which RFC 1738
// does not allow in http URLs, RFC 3986 does) are sent as Basic
// authorization. Redirects are followed only to http and https URLs, each
// checked like the original (CheckURL: safety, blocked ports), and at most
// MaxRedirects of them. A status other than 2xx is an error: 404 and 410
// ErrNotFound, 401, 403 and 407 ErrAccessDenied, the rest ErrStatus.
type HTTPOpener struct {
	// Client sends the requests. Nil means a client on a transport shared
	// by every HTTPOpener, with net/http's default settings except that
	// gateways come from the Fetcher (Fetcher.Gateways, the environment),
	// not from net/http's own reading of the environment. With a Client
	// of your own, its transport decides about proxies for http and https
	// URLs. Its CheckRedirect is replaced.
	Client *http.Client
	// MaxRedirects is the number of redirects followed; zero means 10,
	// a negative value none.
	MaxRedirects int
	// UserAgent is the User-Agent header; "" means "urlkit".
	UserAgent string
	// Compressed asks the server for a gzip-compressed body
	// (Accept-Encoding: gzip) and decompresses it (curl's --compressed).
	// Without it the body is the bytes the server sent, compressed or
	// not: nothing is decompressed behind the caller's back.
	Compressed bool
}

// proxyKey is the context key of the proxy function of one fetch.
type proxyKey struct{}

// connectTimeoutKey is the context key of the connect timeout of one
// fetch (a time.Duration), read by the shared transport's dialer.
type connectTimeoutKey struct{}

// maxHeaderBytes bounds a response head (net/http's default is 10 MiB).
const maxHeaderBytes = 1 << 20

// sharedTransport is http.DefaultTransport's configuration with the
// proxy chosen per request from the context.
var sharedTransport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = maxHeaderBytes
	// The body is saved as the server sent it (curl's behaviour): no
	// transparent gzip, so a compressed bomb stays compressed.
	// HTTPOpener.Compressed asks for and decodes gzip explicitly.
	t.DisableCompression = true
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
		if ct, ok := ctx.Value(connectTimeoutKey{}).(time.Duration); ok && ct > 0 {
			d.Timeout = ct
		}
		return wire.Dial(ctx, &d, network, addr) // with Fetcher.DialCheck
	}
	t.Proxy = func(r *http.Request) (*url.URL, error) {
		if p, ok := r.Context().Value(proxyKey{}).(func(*url.URL) (*url.URL, error)); ok && p != nil {
			return p(r.URL)
		}
		return nil, nil
	}
	return t
})

// open fetches an http or https URL, through the proxy configured for
// it, if any.
//
// The request is the GET of the URL's access plan (scheme.PlanURL, what
// "urlkit explain" prints): net/http writes the lines of its Send steps,
// as the plan-equals-wire test checks against a real server.
// readMode: an http URL is read as RFC 3986 (a user, IPv6 literals).
func (o *HTTPOpener) readMode() urlkit.Mode { return urlkit.RFC3986 }

func (o *HTTPOpener) open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.RFC3986, UserAgent: o.UserAgent, Compressed: o.Compressed, Head: req.Head})
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	nu := req.URL.NetURL()
	nu.Fragment, nu.RawFragment = "", ""
	method := http.MethodGet
	if req.Head {
		method = http.MethodHead
	}
	hreq, err := http.NewRequestWithContext(ctx, method, nu.String(), nil)
	if err != nil {
		return nil, req.errorf("open", ErrUnsupportedScheme, err)
	}
	if r := req.Resume; r.Offset > 0 {
		hreq.Header.Set("Range", fmt.Sprintf("bytes=%d-", r.Offset))
		if r.Validator != "" {
			hreq.Header.Set("If-Range", r.Validator)
		}
	}
	return o.do(ctx, req, hreq, req.proxyFunc())
}

// proxyFunc returns the function choosing the proxy of an http or https
// URL (the original and each redirect) from the Fetcher's gateways.
func (req *Request) proxyFunc() func(*url.URL) (*url.URL, error) {
	if req.Gateway == nil {
		return nil
	}
	return func(t *url.URL) (*url.URL, error) {
		v, err := urlkit.FromNetURL(t)
		if err != nil {
			return nil, nil
		}
		gw, ok := req.Gateway(&v)
		if !ok || gw.Mode != GatewayProxy {
			return nil, nil
		}
		return gw.parse()
	}
}

// openVia fetches req.URL through gw.
func (o *HTTPOpener) openVia(ctx context.Context, req *Request, gw Gateway) (*Response, error) {
	gu, err := gw.parse()
	if err != nil {
		return nil, req.errorf("open", ErrGateway, err)
	}
	u := req.URL
	var hreq *http.Request
	proxy := func(*url.URL) (*url.URL, error) { return nil, nil }
	switch scheme := u.SchemeName(); {
	case gw.Mode == GatewayPath:
		target := gatewayPathURL(gu, u)
		if hreq, err = http.NewRequestWithContext(ctx, http.MethodGet, target, nil); err != nil {
			return nil, req.errorf("open", ErrGateway, err)
		}
		if gu.User != nil {
			p, _ := gu.User.Password()
			hreq.SetBasicAuth(gu.User.Username(), p)
		}
	case scheme == "http" || scheme == "https":
		// net/http puts the absolute URL on the request line (or opens a
		// CONNECT tunnel for https).
		nu := u.NetURL()
		nu.Fragment, nu.RawFragment = "", ""
		if hreq, err = http.NewRequestWithContext(ctx, http.MethodGet, nu.String(), nil); err != nil {
			return nil, req.errorf("open", ErrUnsupportedScheme, err)
		}
		proxy = func(*url.URL) (*url.URL, error) { return gu, nil }
	default:
		// Any other scheme: "the entire URI ... is passed on the HTTP
		// command line" (RFC 1630), fragment excluded. net/http writes
		// an opaque URL on the request line as it is.
		v := *u
		v.HasFragment, v.Fragment = false, ""
		hreq, err = http.NewRequestWithContext(ctx, http.MethodGet, gu.Scheme+"://"+gu.Host+"/", nil)
		if err != nil {
			return nil, req.errorf("open", ErrGateway, err)
		}
		hreq.URL.Path = ""
		hreq.URL.Opaque = v.String()
		hreq.Host = u.Host
		if u.HasPort {
			hreq.Host += ":" + u.Port
		}
		if gu.User != nil {
			p, _ := gu.User.Password()
			hreq.Header.Set("Proxy-Authorization", basicAuth(gu.User.Username(), p))
		}
	}
	resp, err := o.do(ctx, req, hreq, proxy)
	if scheme := u.SchemeName(); gw.Mode == GatewayPath || scheme != "http" && scheme != "https" {
		// The gateway's own URL is an implementation detail: errors and
		// the Response name the URL asked for.
		var fe *Error
		if errors.As(err, &fe) {
			fe.URL, fe.Scheme = u.Redacted(), scheme
		}
		if resp != nil {
			resp.URL = u.Redacted()
		}
	}
	if err != nil {
		return nil, err
	}
	resp.Via = gu.Redacted()
	return resp, nil
}

func basicAuth(user, pass string) string { return "Basic " + basicToken(user, pass) }

// basicToken is the credentials of Basic authorization (RFC 7617): the
// user and the password in base64.
func basicToken(user, pass string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
}

// addBasicSecrets adds to red the base64 of every password hreq sends in
// Basic authorization, to the server or to a proxy: it is the password
// too, and a server may echo the header back in its reply.
func addBasicSecrets(red *safetext.Redactor, hreq *http.Request, proxy func(*url.URL) (*url.URL, error)) {
	add := func(u *url.Userinfo) {
		if p, ok := u.Password(); ok {
			red.Add(basicToken(u.Username(), p))
		}
	}
	if hreq.URL.User != nil {
		add(hreq.URL.User)
	}
	if gu, _ := proxy(hreq.URL); gu != nil && gu.User != nil {
		add(gu.User)
	}
	for _, h := range [...]string{"Authorization", "Proxy-Authorization"} {
		if v, ok := strings.CutPrefix(hreq.Header.Get(h), "Basic "); ok {
			red.Add(v)
		}
	}
}

// do sends hreq and turns the answer into a Response.
func (o *HTTPOpener) do(ctx context.Context, req *Request, hreq *http.Request, proxy func(*url.URL) (*url.URL, error)) (*Response, error) {
	hreq = hreq.WithContext(context.WithValue(hreq.Context(), proxyKey{}, proxy))
	ua := o.UserAgent
	if ua == "" {
		ua = "urlkit"
	}
	hreq.Header.Set("User-Agent", ua)
	if o.Compressed {
		hreq.Header.Set("Accept-Encoding", "gzip")
	}
	if req.ConnectTimeout > 0 {
		hreq = hreq.WithContext(context.WithValue(hreq.Context(), connectTimeoutKey{}, req.ConnectTimeout))
	}
	addBasicSecrets(req.secrets(), hreq, proxy)
	client := o.client(req)
	hresp, err := client.Do(hreq)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return nil, fe
		}
		// The *url.Error of net/http quotes the URL with the password
		// redacted; keep only its cause, the Error names the URL.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		kind := classify(ctx, err, false, nil)
		switch {
		case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
			kind = ErrTLS // net/http's own reading of the handshake's first record
		case httpProtocolError(err) || kind == ErrStatus:
			// No answer came, so no error status: what is left is
			// net/http's own verdict on what came.
			kind = ErrProtocol
		}
		return nil, req.errorf("open", kind, err)
	}
	final := hresp.Request.URL.Redacted()
	resume := hreq.Header.Get("Range") != "" && req.Resume.Offset > 0
	if resume && hresp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		// "bytes */LENGTH": the copy is complete when it has LENGTH
		// bytes; with more it is not the resource's start, which comes
		// again whole (curl -C - and wget -c do the same).
		n, ok := strings.CutPrefix(hresp.Header.Get("Content-Range"), "bytes */")
		length, err := strconv.ParseInt(n, 10, 64)
		switch {
		case ok && err == nil && length == req.Resume.Offset:
			hresp.Body.Close()
			return &Response{Body: io.NopCloser(strings.NewReader("")), URL: final, Size: 0, Offset: req.Resume.Offset,
				Reply: hresp.Status, Validator: validator(hresp.Header), ContentType: hresp.Header.Get("Content-Type")}, nil
		case ok && err == nil && length >= 0 && length < req.Resume.Offset:
			io.Copy(io.Discard, io.LimitReader(hresp.Body, 64<<10))
			hresp.Body.Close()
			whole := hreq.Clone(hreq.Context())
			whole.Header.Del("Range")
			whole.Header.Del("If-Range")
			resp, err := o.do(ctx, req, whole, proxy)
			if err == nil {
				resp.restartNoted = true
				resp.Warnings = append(resp.Warnings, fmt.Sprintf("the %d bytes held are more than the resource's %d (%s): they are not its start; fetched again from the start", req.Resume.Offset, length, hresp.Status))
			}
			return resp, err
		}
	}
	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(hresp.Body, 64<<10))
		hresp.Body.Close()
		kind := ErrStatus
		switch hresp.StatusCode {
		case http.StatusNotFound, http.StatusGone:
			kind = ErrNotFound
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired:
			kind = ErrAccessDenied
		}
		e := req.errorf("open", kind, &StatusError{Code: hresp.StatusCode, Status: hresp.Status,
			RetryAfter: retryAfter(hresp.Header.Get("Retry-After"), time.Now())})
		e.URL = final
		return nil, e
	}
	resp := &Response{
		Body:        &httpBody{rc: hresp.Body, size: hresp.ContentLength, chunked: slices.Contains(hresp.TransferEncoding, "chunked")},
		URL:         final,
		ContentType: hresp.Header.Get("Content-Type"),
		Size:        hresp.ContentLength,
		Reply:       hresp.Status,
	}
	resp.Validator = validator(hresp.Header)
	if req.Head {
		resp.Fields = append(resp.Fields, Field{"Status", hresp.Status})
		for _, k := range slices.Sorted(maps.Keys(hresp.Header)) {
			for _, v := range hresp.Header[k] {
				resp.Fields = append(resp.Fields, Field{k, v})
			}
		}
	}
	switch {
	case hresp.StatusCode == http.StatusPartialContent:
		// Only the rest asked for, to the resource's end, completes the
		// copy: another range saved would leave a file that looks whole.
		cr := hresp.Header.Get("Content-Range")
		first, last, length, ok := contentRange(cr)
		var why string
		switch {
		case !resume:
			why = "a part (HTTP 206, Content-Range " + strconv.Quote(cr) + ") to a request for the whole resource"
		case !ok || first != req.Resume.Offset:
			why = fmt.Sprintf("HTTP 206 with Content-Range %q, not the range asked for (bytes=%d-)", cr, req.Resume.Offset)
		case length >= 0 && last+1 != length:
			why = fmt.Sprintf("HTTP 206 with Content-Range %q: the part ends before the resource does", cr)
		}
		if why != "" {
			hresp.Body.Close()
			return nil, req.errorf("open", ErrProtocol, errors.New(why))
		}
		resp.Offset = first
	case resume:
		resp.restartNoted = true
		resp.Warnings = append(resp.Warnings, fmt.Sprintf("the server sent the whole resource (%s), not the rest from byte %d: it ignores ranges or the resource changed (If-Range); fetched again from the start", hresp.Status, req.Resume.Offset))
	}
	// A HEAD or 204 response, or an empty body, has nothing to
	// decompress, whatever its Content-Encoding says.
	if o.Compressed && hreq.Method != http.MethodHead && hresp.StatusCode != http.StatusNoContent && hresp.ContentLength != 0 &&
		strings.EqualFold(hresp.Header.Get("Content-Encoding"), "gzip") {
		// Over httpBody, so that a body cut short says how short.
		raw := resp.Body
		zr, err := gzip.NewReader(raw)
		if err != nil {
			raw.Close()
			return nil, req.errorf("open", ErrProtocol, fmt.Errorf("gzip body: %w", err))
		}
		resp.Body = &gzipBody{zr: zr, c: raw}
		resp.Size = -1
	}
	if t, err := http.ParseTime(hresp.Header.Get("Last-Modified")); err == nil {
		resp.ModTime = t
	}
	return resp, nil
}

// validator returns what identifies this version of a resource for
// If-Range (RFC 9110 13.1.5): a strong ETag, else Last-Modified.
func validator(h http.Header) string {
	if e := h.Get("ETag"); e != "" && !strings.HasPrefix(e, "W/") {
		return e
	}
	return h.Get("Last-Modified")
}

// contentRange reads "bytes FIRST-LAST/LENGTH" (RFC 9110 14.4); length
// is -1 for an unknown one ("*").
func contentRange(v string) (first, last, length int64, ok bool) {
	rest, ok := strings.CutPrefix(v, "bytes ")
	if !ok {
		return 0, 0, 0, false
	}
	r, l, ok1 := strings.Cut(rest, "/")
	f, t, ok2 := strings.Cut(r, "-")
	first, err1 := strconv.ParseInt(f, 10, 64)
	last, err2 := strconv.ParseInt(t, 10, 64)
	length = -1
	var err3 error
	if l != "*" {
		length, err3 = strconv.ParseInt(l, 10, 64)
	}
	ok = ok1 && ok2 && err1 == nil && err2 == nil && err3 == nil && 0 <= first && first <= last && (length < 0 || last < length)
	return first, last, length, ok
}

// gzipBody decompresses a gzip body and closes the connection's body.
type gzipBody struct {
	zr *gzip.Reader
	c  io.Closer
}

func (g *gzipBody) Read(p []byte) (int, error) { return g.zr.Read(p) }
func (g *gzipBody) Close() error               { g.zr.Close(); return g.c.Close() }

// httpBody names the shortfall when net/http reports a body cut short
// (io.ErrUnexpectedEOF): the bytes received of the Content-Length, or a
// chunked body without its last chunk.
type httpBody struct {
	rc      io.ReadCloser
	size    int64 // Content-Length, or -1
	chunked bool
	n       int64
}

func (b *httpBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n += int64(n)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		switch {
		case b.size >= 0:
			err = fmt.Errorf("the body ended after %d of the %d bytes of its Content-Length: %w", b.n, b.size, err)
		case b.chunked:
			err = fmt.Errorf("the chunked body ended after %d bytes, without its last chunk: %w", b.n, err)
		}
	}
	return n, err
}

func (b *httpBody) Close() error { return b.rc.Close() }

// httpProtocolError reports net/http's errors for a response that is
// not HTTP or has an over-long head. net/http has no types for them, only
// messages.
func httpProtocolError(err error) bool {
	msg := err.Error()
	for _, m := range [...]string{"malformed HTTP", "malformed MIME header", "server response headers exceeded",
		// the framing of the body (net/http's transfer.go)
		"multiple Content-Length headers", "bad Content-Length", "invalid empty Content-Length",
		"unsupported transfer encoding", "too many transfer encodings", "bad trailer key"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// client returns the http.Client for one fetch: o.Client or the shared
// one, with the redirect policy and, if tracing, a tracing transport.
func (o *HTTPOpener) client(req *Request) *http.Client {
	var c http.Client
	if o.Client != nil {
		c = *o.Client
	}
	if c.Transport == nil {
		c.Transport = sharedTransport()
	}
	if req.Trace != nil {
		c.Transport = &traceTransport{rt: c.Transport, w: req.Trace}
	}
	max := o.MaxRedirects
	if max == 0 {
		max = defaultMaxRedirects
	}
	allow := req.AllowPorts
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		// The error names the URL asked for, and the target in its rule.
		refuse := func(why string, err error) error {
			return &Error{Op: "open", URL: via[0].URL.Redacted(), Offset: -1, Kind: ErrRedirect,
				Rule: "to " + strconv.Quote(r.URL.Redacted()) + ": " + why, Err: err}
		}
		if len(via) > max || max < 0 {
			return refuse(fmt.Sprintf("more than %d redirects", max), nil)
		}
		if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
			return refuse(r.URL.Scheme+" is not http or https", nil)
		}
		v, err := urlkit.FromNetURL(r.URL)
		if err != nil {
			return refuse(err.Error(), err)
		}
		if err := CheckURL(&v, allow); err != nil {
			why := err.Error()
			if fe, ok := err.(*Error); ok {
				why = fe.Rule
			}
			return refuse(why, err)
		}
		// A login set as a header (a gateway's) goes to the origin it
		// was given for alone: net/http keeps it for any port and
		// scheme of the same host name, and for its subdomains. No
		// Referer either: the URL asked for is not the next server's
		// business (curl sends none unless asked).
		if !sameOrigin(r.URL, via[0].URL) {
			r.Header.Del("Authorization")
			// A proxy gateway's login set by hand (the other schemes'
			// branch of openVia) is for that gateway; the transport adds
			// its own for a proxy it goes through.
			r.Header.Del("Proxy-Authorization")
		}
		r.Header.Del("Referer")
		return nil
	}
	return &c
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (RFC 6454), a port left out being the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// traceTransport writes each request and response head to w, with
// credentials masked.
type traceTransport struct {
	rt http.RoundTripper
	w  io.Writer
	mu sync.Mutex
}

func (t *traceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var b strings.Builder
	// The request line as net/http writes it: the path and query to the
	// server (curl -v's form), the whole URL to an http proxy.
	target := r.URL.RequestURI()
	if proxy, _ := sharedTransport().Proxy(r); proxy != nil && r.URL.Scheme == "http" {
		target = r.URL.Redacted() + " (via " + proxy.Redacted() + ")"
	}
	if r.URL.Opaque != "" {
		if v, _, err := urlkit.ParseMode(r.URL.Opaque, urlkit.RFC3986); err == nil {
			target = v.Redacted() + " (via " + r.URL.Scheme + "://" + r.URL.Host + ")"
		} else {
			target = "(opaque URL) via " + r.URL.Host
		}
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	fmt.Fprintf(&b, "> %s %s\n> Host: %s\n", r.Method, target, host)
	writeHeader(&b, "> ", r.Header)
	t.write(b.String())
	resp, err := t.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	b.Reset()
	fmt.Fprintf(&b, "< %s %s\n", resp.Proto, safetext.Visible(resp.Status))
	writeHeader(&b, "< ", resp.Header)
	t.write(b.String())
	return resp, nil
}

func (t *traceTransport) write(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	io.WriteString(t.w, s)
}

func writeHeader(b *strings.Builder, prefix string, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			if k == "Authorization" || k == "Proxy-Authorization" {
				v = safetext.Mask
			}
			// A Location (or any header) may name a URL with a password
			// of its own; and header values are the server's bytes.
			fmt.Fprintf(b, "%s%s: %s\n", prefix, safetext.Visible(k), safetext.Visible(redactRaw(v)))
		}
	}
}
