package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/safetext"
)

// DefaultTimeout is the idle timeout a Fetcher uses when its Timeout is
// zero.
const DefaultTimeout = 30 * time.Second

// Fetcher retrieves resources named by URLs. Its zero value is ready to
// use: the standard openers (file, http, https, ftp, gopher) with their
// zero-value settings, an idle timeout of DefaultTimeout, gateways from
// the environment, no way to prompt the user, no trace. A Fetcher may be
// used concurrently once configured; do not change its fields meanwhile.
type Fetcher struct {
	// Registry maps schemes to openers. Nil means the standard openers
	// below (see StandardRegistry).
	Registry *Registry

	// The standard openers and their settings.
	File   FileOpener
	HTTP   HTTPOpener
	FTP    FTPOpener
	Gopher GopherOpener

	// Timeout is the idle timeout: the fetch fails with ErrTimeout when
	// nothing arrives for this long, whether while connecting, waiting
	// for a reply (each FTP step counts: login, each CWD, TYPE), for the
	// first byte of the data or in the middle of it. Time spent in Prompt
	// does not count. Zero means DefaultTimeout; a negative value means no
	// timeout besides ctx's.
	Timeout time.Duration

	// ConnectTimeout bounds the establishment of each connection (curl's
	// --connect-timeout); zero means only Timeout and ctx bound it. With
	// an HTTPOpener.Client of your own, its transport's dialer decides.
	ConnectTimeout time.Duration
	// MaxTime bounds the whole fetch, from Fetch to the Close of the
	// Body (curl's --max-time): past it the fetch fails with ErrMaxTime.
	// Zero means no bound.
	MaxTime time.Duration
	// SpeedLimit and SpeedTime: the fetch fails with ErrTooSlow when
	// fewer than SpeedLimit bytes per second arrive, on average, for
	// SpeedTime (curl's --speed-limit and --speed-time). A stalled
	// transfer counts as 0 bytes per second. SpeedLimit zero disables
	// the check; SpeedTime zero means 30 seconds.
	SpeedLimit int64
	SpeedTime  time.Duration
	// MaxSize is the largest resource fetched, in bytes (curl's
	// --max-filesize): a fetch whose announced size is larger fails
	// before any data is read, and one whose data grows larger fails
	// at that point, with ErrTooLarge. Zero means no limit.
	MaxSize int64

	// AllowPorts lists ports to fetch from even though they are on the
	// list of blocked ports (see CheckURL and BlockedPort).
	AllowPorts []int

	// Gateways maps a scheme (lower case) to the gateway through which
	// its URLs are fetched, overriding the environment (see Gateway).
	Gateways map[string]Gateway
	// NoProxy lists hosts to reach directly even when a gateway is set,
	// in the syntax of the no_proxy environment variable (see
	// Gateway). Empty means $no_proxy (or $NO_PROXY) unless
	// IgnoreEnvironment is set.
	NoProxy string
	// IgnoreEnvironment makes the Fetcher ignore <scheme>_proxy,
	// no_proxy and WWW_<scheme>_GATEWAY.
	IgnoreEnvironment bool
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(key string) string

	// FileOverFTP makes a file: URL that names another host be fetched
	// as the ftp: URL with the same host and path, as early clients did
	// (Mosaic, Lynx); otherwise it fails with ErrRemoteFile.
	FileOverFTP bool

	// Trace, if set, receives a transcript of the protocol exchanges
	// ("> " sent, "< " received), with passwords masked.
	Trace io.Writer

	// Prompt, if set, asks the user a question: the password an FTP
	// server asks for when the URL has none, the questions of a Gopher+
	// ASK form. Nil means nobody can be asked: those fetches fail with
	// ErrNeedPassword or ErrNeedInput.
	Prompt func(ctx context.Context, p Prompt) (string, error)
}

// Prompt is a question for the user.
type Prompt struct {
	// Text is the question, e.g. `Password for "tester" on 127.0.0.1:2121`.
	Text string
	// Secret asks for input that must not be echoed (a password).
	Secret bool
	// Default is the answer to use for an empty reply.
	Default string
	// Choices, if not empty, are the allowed answers.
	Choices []string
}

// Opener retrieves the resources of one scheme. Open is called after the
// Fetcher has checked the URL (CheckURL) and chosen no gateway; ctx is
// cancelled when the idle timeout passes or the fetch is abandoned, and
// must govern the whole transfer, up to the Close of the Response's Body.
type Opener interface {
	Open(ctx context.Context, req *Request) (*Response, error)
}

// Request is what an Opener gets: the URL and the Fetcher's settings that
// apply to every scheme.
type Request struct {
	// URL is the URL to fetch. Its fragment is never sent.
	URL *urlkit.URL
	// Trace, if set, receives the protocol transcript.
	Trace io.Writer
	// Prompt asks the user a question; nil if nobody can be asked.
	Prompt func(ctx context.Context, p Prompt) (string, error)

	f        *Fetcher
	wd       *watchdog
	redactor *safetext.Redactor // see secrets
}

// Response is a retrieved resource: its data as a stream, and what the
// protocol said about it.
type Response struct {
	// Body streams the resource. It must be closed; Close completes the
	// exchange (an FTP transfer's completion reply, for example) and
	// reports a transfer that did not end well.
	Body io.ReadCloser
	// URL is the URL of the resource (after HTTP redirects), password
	// redacted.
	URL string
	// ContentType is the media type if the protocol gave one or the
	// name suggests one ("text/plain"), else "".
	ContentType string
	// Size is the length of the data in bytes if known in advance, else -1.
	Size int64
	// ModTime is the modification time if the protocol gave one.
	ModTime time.Time
	// Listing reports that Body is a directory listing (a file: directory,
	// an FTP NLST) or a Gopher menu.
	Listing bool
	// GopherType is the item type of a gopher: URL (0 otherwise).
	GopherType gopher.ItemType
	// GopherPlus reports that a Gopher+ header framed the response.
	GopherPlus bool
	// Reply is the protocol's status for the resource: the FTP
	// preliminary reply ("150 Opening BINARY mode data connection for
	// hello.txt (26 bytes)"), the HTTP status line ("200 OK"), the
	// Gopher+ header ("+26").
	Reply string
	// Via is the gateway the resource was fetched through (password
	// redacted), "" when fetched directly.
	Via string
	// Warnings are the deviations from the access algorithm that the
	// opener accepted (see FTPOpener.NullCWD), and doubts about the data
	// found while the Body is read (a Gopher menu without its "." line):
	// look again after reading the Body to its end.
	Warnings []string

	fetched *body // the Body Fetch returned, for Render's errors
}

// Registry maps URL schemes to Openers. Schemes are case-insensitive.
// The zero Registry is empty; use NewRegistry or StandardRegistry.
type Registry struct {
	mu sync.RWMutex
	m  map[string]Opener
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return &Registry{m: map[string]Opener{}} }

// Register makes o the opener of scheme, replacing any other.
func (r *Registry) Register(scheme string, o Opener) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]Opener{}
	}
	r.m[strings.ToLower(scheme)] = o
}

// Lookup returns the opener of scheme.
func (r *Registry) Lookup(scheme string) (Opener, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	o, ok := r.m[strings.ToLower(scheme)]
	return o, ok
}

// Schemes returns the registered schemes, sorted.
func (r *Registry) Schemes() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s := make([]string, 0, len(r.m))
	for k := range r.m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// StandardRegistry returns a new Registry holding f's standard openers:
// file (&f.File), http and https (&f.HTTP), ftp (&f.FTP) and gopher
// (&f.Gopher). Add schemes to it and set it as f.Registry to extend f.
func (f *Fetcher) StandardRegistry() *Registry {
	r := NewRegistry()
	r.Register("file", &f.File)
	r.Register("http", &f.HTTP)
	r.Register("https", &f.HTTP)
	r.Register("ftp", &f.FTP)
	r.Register("gopher", &f.Gopher)
	return r
}

func (f *Fetcher) registry() *Registry {
	if f.Registry != nil {
		return f.Registry
	}
	return f.StandardRegistry()
}

// Get parses rawURL (RFC 1738, or RFC 3986 if RFC 1738 rejects it) and
// fetches it. A URL neither accepts fails with the *urlkit.Error of the
// RFC 1738 parse.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := urlkit.Parse(rawURL)
	if err != nil {
		var err2 error
		if u, _, err2 = urlkit.ParseMode(rawURL, urlkit.RFC3986); err2 != nil {
			return nil, err
		}
	}
	return f.Fetch(ctx, &u)
}

// Fetch retrieves the resource u names. It checks u first (CheckURL:
// nothing is sent for an unsafe URL or a blocked port), then fetches it
// through the gateway configured for its scheme, if any, or with the
// scheme's opener. The Response's Body must be closed. Every error is an
// *Error.
func (f *Fetcher) Fetch(ctx context.Context, u *urlkit.URL) (*Response, error) {
	req := &Request{URL: u, f: f}
	if !u.IsAbs() {
		return nil, req.errorf("check", ErrUnsupportedScheme, errors.New("not an absolute URL"))
	}
	if err := CheckURL(u, f.AllowPorts); err != nil {
		err.(*Error).secrets = req.secrets()
		return nil, err
	}
	// Every secret of this fetch goes through one redactor: the URL's
	// password, the gateway's, what the user types at a secret prompt.
	// The trace and every error message are filtered by it.
	red := req.secrets()
	if gw, ok := f.gatewayFor(u); ok {
		red.AddURLPasswords(gw.URL)
		red.AddURLPasswords("http://" + gw.URL)
	}
	if f.Trace != nil {
		req.Trace = red.Writer(f.Trace)
	}
	ctx, lim := f.newLimits(ctx)
	ctx, wd := newWatchdog(ctx, f.timeout())
	req.wd = wd
	if f.Prompt != nil {
		req.Prompt = func(ctx context.Context, p Prompt) (string, error) {
			resume := wd.pause()
			defer resume()
			lim.pause()
			defer lim.resume()
			answer, err := f.Prompt(ctx, p)
			if p.Secret {
				red.Add(answer)
			}
			return answer, err
		}
	}
	resp, err := f.dispatch(ctx, req)
	if err == nil && f.MaxSize > 0 && resp.Size > f.MaxSize {
		resp.Body.Close()
		err = &Error{Op: "open", Offset: -1, Kind: ErrTooLarge,
			Rule: fmt.Sprintf("the resource is %d bytes, more than the limit of %d", resp.Size, f.MaxSize)}
	}
	if err != nil {
		wd.stop()
		lim.stop()
		return nil, req.wrap(ctx, "open", err)
	}
	for i, w := range resp.Warnings {
		resp.Warnings[i] = safetext.Visible(red.Redact(w))
	}
	resp.Reply = safetext.Visible(red.Redact(resp.Reply))
	resp.fetched = &body{rc: resp.Body, ctx: ctx, req: req, wd: wd, lim: lim, max: f.MaxSize}
	resp.Body = resp.fetched
	if resp.URL == "" {
		resp.URL = u.Redacted()
	}
	return resp, nil
}

func (f *Fetcher) dispatch(ctx context.Context, req *Request) (*Response, error) {
	u := req.URL
	scheme := u.SchemeName()
	if gw, ok := f.gatewayFor(u); ok {
		return f.HTTP.openVia(ctx, req, gw)
	}
	o, ok := f.registry().Lookup(scheme)
	if !ok {
		return nil, req.errorf("check", ErrUnsupportedScheme, fmt.Errorf("no opener for %q and no gateway (%s_proxy, WWW_%s_GATEWAY)", scheme, scheme, scheme))
	}
	resp, err := o.Open(ctx, req)
	if errors.Is(err, ErrRemoteFile) && scheme == "file" && f.FileOverFTP {
		v := *u
		v.Scheme = "ftp"
		sub := &Request{URL: &v, Trace: req.Trace, Prompt: req.Prompt, f: f, wd: req.wd, redactor: req.redactor}
		if cerr := CheckURL(&v, f.AllowPorts); cerr != nil {
			return nil, cerr
		}
		fo, ok := f.registry().Lookup("ftp")
		if !ok {
			return nil, err
		}
		resp, err = fo.Open(ctx, sub)
		if err == nil {
			resp.Warnings = append(resp.Warnings, "file: URL for another host fetched over FTP")
		}
	}
	return resp, err
}

// connectTimeout returns the connect timeout for a client whose own
// setting is d: the Fetcher's ConnectTimeout when set and shorter.
func (req *Request) connectTimeout(d time.Duration) time.Duration {
	if req.f != nil && req.f.ConnectTimeout > 0 && (d <= 0 || req.f.ConnectTimeout < d) {
		return req.f.ConnectTimeout
	}
	return d
}

// progress tells the idle timeout that the exchange moved on (a reply
// arrived), so that only a silence of Timeout fails it.
func (req *Request) progress() {
	if req.wd != nil {
		req.wd.kick()
	}
}

func (f *Fetcher) timeout() time.Duration {
	switch {
	case f.Timeout == 0:
		return DefaultTimeout
	case f.Timeout < 0:
		return 0
	}
	return f.Timeout
}

// wrap turns any error into an *Error for req's URL, classifying it.
func (req *Request) wrap(ctx context.Context, op string, err error) error {
	var fe *Error
	if errors.As(err, &fe) {
		if fe.URL == "" {
			fe.URL = req.URL.Redacted()
		}
		if fe.Op == "" {
			fe.Op = op
		}
		if fe.secrets == nil {
			fe.secrets = req.secrets()
		}
		// A cancellation by the watchdog or a limit surfaces as whatever
		// the client saw when its connection was closed: name it.
		if k := causeKind(ctx); k != nil && fe.Kind != ErrUnsafe && !errors.Is(fe.Kind, ErrTimeout) {
			fe.Kind = k
		}
		return fe
	}
	return req.errorf(op, classify(ctx, err, op == "read" || op == "close"), err)
}

// body wraps an opener's Body: it kicks the watchdog on progress, turns
// errors into *Error, and releases the watchdog on Close.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	req    *Request
	wd     *watchdog
	lim    *limits
	max    int64 // Fetcher.MaxSize
	n      int64 // bytes read
	closed bool
	err    error
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.closed {
		return 0, b.req.errorf("read", nil, errors.New("read after Close"))
	}
	n, err := b.rc.Read(p)
	if n > 0 {
		b.wd.kick()
		b.lim.add(n)
		b.n += int64(n)
		if b.max > 0 && b.n > b.max {
			n -= int(b.n - b.max)
			b.err = b.req.wrap(b.ctx, "read", &Error{Offset: -1, Kind: ErrTooLarge,
				Rule: fmt.Sprintf("the data grew past the limit of %d bytes", b.max)})
			return n, b.err
		}
	}
	if err != nil && err != io.EOF {
		b.err = b.req.wrap(b.ctx, "read", err)
		return n, b.err
	}
	return n, err
}

func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	err := b.rc.Close()
	b.wd.stop()
	b.lim.stop()
	if err == nil && b.err != nil {
		err = b.err
	}
	if err != nil {
		return b.req.wrap(b.ctx, "close", err)
	}
	return nil
}
