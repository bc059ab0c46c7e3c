package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/internal/wire"
	urlscheme "github.com/urlkit/urlkit/scheme"
)

// DefaultTimeout is the idle timeout a Fetcher uses when its Timeout is
// zero.
const DefaultTimeout = 30 * time.Second

// Fetcher retrieves resources named by URLs. Its zero value is ready to
// use: the standard openers (file, http, https, ftp, gopher, news, nntp,
// mid, cid, wais, prospero) with their zero-value settings, an idle
// timeout of DefaultTimeout, gateways from the environment, no way to
// prompt the user, no trace. A Fetcher may be
// used concurrently once configured; do not change its fields meanwhile.
type Fetcher struct {
	// The standard openers' settings, one field per scheme family (see
	// Register for openers of other schemes).
	File     FileOpener
	HTTP     HTTPOpener
	FTP      FTPOpener
	Gopher   GopherOpener
	NNTP     NNTPOpener
	Mail     MailOpener
	WAIS     WAISOpener
	Prospero ProsperoOpener

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

	// DialCheck, if set, is the destination policy: it is called with
	// each address a connection is about to be made to, after the name
	// was resolved and before any packet is sent (net.Dialer's Control
	// hook), so a name that resolves to another address the next time
	// (DNS rebinding) cannot pass it. Every connection goes through it:
	// the control and data connections of FTP (an EPSV or PASV reply's
	// address, the peer of an active-mode data connection), Gopher,
	// NNTP, SMTP, WAIS, telnet, rlogin and tn3270 sessions, Prospero's
	// UDP exchanges (whose socket is connected, so every reply comes
	// from the checked address), and HTTP through the standard
	// transport (an HTTPOpener.Client of your own dials its own way).
	// network is "tcp4", "tcp6", "udp4" or "udp6"; an IPv4-mapped
	// address comes unmapped. A non-nil error refuses the address: the
	// dialer tries the name's next address, and when none is left the
	// fetch fails with ErrUnsafe, its cause naming the address refused.
	DialCheck func(network string, addr netip.AddrPort) error
	// Resolver looks up the host names of every connection (DialCheck
	// then sees the addresses it returns); nil means net.DefaultResolver.
	Resolver *net.Resolver

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

	openers map[string]Opener // by Register, by scheme in lower case
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

// Opener retrieves the resources of a scheme the standard openers do not
// serve, or serves one of theirs instead (see Fetcher.Register). Open is
// called after the Fetcher has checked the URL (CheckURL) and chosen no
// gateway; ctx is cancelled when the idle timeout passes or the fetch is
// abandoned, and must govern the whole transfer, up to the Close of the
// Response's Body. Its errors get a Kind by the rules every protocol
// shares (timeouts, connection failures, file system errors), unless it
// returns an *Error with a Kind of its own.
type Opener interface {
	Open(ctx context.Context, req *Request) (*Response, error)
}

// opener is how a Fetcher calls its openers: the standard ones (the
// FileOpener, FTPOpener, ... of its fields) and the Openers registered.
type opener interface {
	open(ctx context.Context, req *Request) (*Response, error)
}

// registered is an Opener of the program's, as a Fetcher calls it.
type registered struct{ o Opener }

func (r registered) open(ctx context.Context, req *Request) (*Response, error) {
	return r.o.Open(ctx, req)
}

// Request is what an Opener gets: the URL and the Fetcher's settings that
// apply to every scheme. An Opener learns everything it needs from it;
// it never reaches back into the Fetcher.
type Request struct {
	// URL is the URL to fetch. Its fragment is never sent.
	URL *urlkit.URL
	// Trace, if set, receives the protocol transcript.
	Trace io.Writer
	// Prompt asks the user a question; nil if nobody can be asked.
	Prompt func(ctx context.Context, p Prompt) (string, error)
	// Getenv reads the environment (the Fetcher's Getenv, or os.Getenv).
	Getenv func(key string) string
	// AllowPorts are the blocked ports the user allowed (see CheckURL),
	// for URLs the opener meets on the way (HTTP redirects).
	AllowPorts []int
	// Gateway returns the gateway configured for a URL, if any (for the
	// proxies of HTTP redirects); nil means none.
	Gateway func(u *urlkit.URL) (Gateway, bool)
	// Reopen fetches another URL in place of this one, through the
	// Fetcher's checks and openers (a file: URL of another host fetched
	// as ftp:); nil when the Opener is called outside a Fetcher.
	Reopen func(ctx context.Context, u *urlkit.URL) (*Response, error)

	// ConnectTimeout bounds each connection attempt (the Fetcher's
	// ConnectTimeout); zero means the client's own setting.
	ConnectTimeout time.Duration
	// List asks for a listing with the facts of each entry
	// (Fetcher.List).
	List bool
	// Head asks for what the server says about the resource instead of
	// its data (Fetcher.Head): the Response's Fields, an empty Body.
	Head bool
	// Resume asks to continue a partial copy (Fetcher.FetchFrom); an
	// opener that cannot leaves Response.Offset 0 and says why in a
	// warning.
	Resume Resume

	modTime  bool       // FTP: MDTM for Response.ModTime (the Transport's Last-Modified)
	json     bool       // listings as JSON lines, as the openers' JSON settings give them
	kinds    classifier // the opener's, for its errors; nil when it names none
	acc      access     // the view and concerns, read once
	wd       *watchdog
	redactor *safetext.Redactor // see secrets
}

// A classifier is an opener that names the kind of its protocol's
// errors (ErrNotFound for an FTP 550, ErrProtocol for a malformed Gopher+
// block, ...), so that the Fetcher's core needs to know no protocol. It
// returns nil for an error it does not recognise; the core then applies
// the generic rules (timeouts, connection failures, file system errors).
type classifier interface {
	classify(err error) error
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
	// DotStuffed reports that Body is text in the form line-based
	// protocols send it (a Gopher text item, RFC 1436; an NNTP article,
	// RFC 977): a line starting with "." has it doubled, and a line
	// holding "." may end it. Render undoes both.
	DotStuffed bool
	// Reply is the protocol's status for the resource: the FTP
	// preliminary reply ("150 Opening BINARY mode data connection for
	// hello.txt (26 bytes)"), the HTTP status line ("200 OK"), the
	// Gopher+ header ("+26").
	Reply string
	// Via is the gateway the resource was fetched through (password
	// redacted), "" when fetched directly.
	Via string
	// Warnings are the deviations from the access algorithm that the
	// opener accepted (see FTPOpener.SkipNullCWD), and doubts about the data
	// found while the Body is read (a Gopher menu without its "." line):
	// look again after reading the Body to its end.
	Warnings []string

	// Offset is the byte of the resource where Body starts: 0, or the
	// Resume.Offset of FetchFrom when the protocol continued there (FTP
	// REST, HTTP 206). Size counts the bytes of Body, from Offset.
	Offset int64
	// Fields are what the server said about the resource, in order, for
	// Fetcher.Head: the HTTP status and header fields, FTP's SIZE, MDTM
	// and MLST.
	Fields []Field
	// ListFormat names the form of a Fetcher.List listing's lines:
	// "MLSD" (RFC 3659 facts), "LIST" (the server's own, usually ls -l
	// or DOS) or "NLST" (names only); see client/ftp's ParseMLSD and
	// ParseList.
	ListFormat string
	// Validator identifies this version of the resource for a later
	// FetchFrom (HTTP: the strong ETag, else Last-Modified), or "".
	Validator string

	fetched      *body // the Body Fetch returned, for Render's errors
	restartNoted bool  // the opener explained why it did not resume
}

// Field is one thing a server said about a resource (Response.Fields).
type Field struct {
	Name, Value string
}

// headOpeners are the schemes Head can ask about.
var headOpeners = map[string]bool{"http": true, "https": true, "ftp": true}

// Head asks the server what it knows about the resource u names without
// fetching its data (curl's -I): HTTP HEAD, FTP SIZE, MDTM and (when the
// server's FEAT lists it) MLST. The Response's Fields hold the answer,
// its Body is empty (and must be closed). Other schemes fail with
// ErrUnsupportedScheme.
func (f *Fetcher) Head(ctx context.Context, u *urlkit.URL) (*Response, error) {
	if !u.IsAbs() {
		return nil, f.newRequest(u).notAbsolute()
	}
	if _, gw := f.gatewayFor(u); !headOpeners[u.SchemeName()] || gw && !strings.HasPrefix(u.SchemeName(), "http") {
		req := f.newRequest(u)
		return nil, req.errorf("check", ErrUnsupportedScheme, fmt.Errorf("-I (head) is for http, https and ftp URLs, not %s", u.SchemeName()))
	}
	return f.fetch(ctx, u, Resume{}, true)
}

// List fetches the listing of the FTP directory u names (its last
// segment too, with or without a trailing "/"): MLSD when the server's
// FEAT lists MLST, else LIST, else NLST; Response.ListFormat says which.
// Other schemes fail with ErrUnsupportedScheme.
func (f *Fetcher) List(ctx context.Context, u *urlkit.URL) (*Response, error) {
	if !u.IsAbs() {
		return nil, f.newRequest(u).notAbsolute()
	}
	if _, gw := f.gatewayFor(u); u.SchemeName() != "ftp" || gw {
		req := f.newRequest(u)
		return nil, req.errorf("check", ErrUnsupportedScheme, fmt.Errorf("--list is for ftp URLs, not %s", u.SchemeName()))
	}
	req := f.newRequest(u)
	req.List = true
	return f.do(ctx, req)
}

// Resume asks FetchFrom to continue a partial copy of a resource.
type Resume struct {
	// Offset is the number of bytes already held.
	Offset int64
	// Validator is the Response.Validator of the fetch that gave them,
	// or "": an HTTP server then sends the rest only if the resource is
	// still that version (If-Range), else all of it.
	Validator string
}

// Register makes o the opener of the scheme's URLs (case-insensitive), in
// place of the standard opener if there is one; a nil o leaves the
// scheme without an opener, so that its URLs fail with
// ErrUnsupportedScheme. Register is configuration: call it before f is
// used.
func (f *Fetcher) Register(scheme string, o Opener) {
	if f.openers == nil {
		f.openers = map[string]Opener{}
	}
	f.openers[strings.ToLower(scheme)] = o
}

// standardOpeners maps each scheme of the standard openers to the
// Fetcher field that serves it; built once, for every Fetcher.
var standardOpeners = map[string]func(f *Fetcher) opener{
	"file": func(f *Fetcher) opener {
		if f.FileOverFTP {
			return &fileOverFTP{&f.File}
		}
		return &f.File
	},
	"http":     func(f *Fetcher) opener { return &f.HTTP },
	"https":    func(f *Fetcher) opener { return &f.HTTP },
	"ftp":      func(f *Fetcher) opener { return &f.FTP },
	"gopher":   func(f *Fetcher) opener { return &f.Gopher },
	"news":     func(f *Fetcher) opener { return &f.NNTP },
	"nntp":     func(f *Fetcher) opener { return &f.NNTP },
	"mid":      func(f *Fetcher) opener { return &midOpener{f} },
	"cid":      func(f *Fetcher) opener { return &f.Mail },
	"wais":     func(f *Fetcher) opener { return &f.WAIS },
	"prospero": func(f *Fetcher) opener { return &f.Prospero },
}

// lookup returns the opener of a scheme: the one registered, or the
// standard one (no table is built per fetch).
func (f *Fetcher) lookup(scheme string) (opener, bool) {
	scheme = strings.ToLower(scheme)
	if o, ok := f.openers[scheme]; ok {
		return registered{o}, o != nil
	}
	o, ok := standardOpeners[scheme]
	if !ok {
		return nil, false
	}
	return o(f), true
}

// Get parses rawURL (ParseURL, RFC 1738) and fetches it.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := ParseURL(rawURL, urlkit.RFC1738)
	if err != nil {
		return nil, err
	}
	return f.Fetch(ctx, &u)
}

// ParseURL parses a URL to fetch in the mode m and, when m rejects it,
// as RFC 3986 (IPv6 literals, a user in an http URL, which RFC 1738
// lacks). A URL neither accepts fails with the *urlkit.Error of mode m.
func ParseURL(s string, m urlkit.Mode) (urlkit.URL, error) {
	u, _, err := urlkit.ParseMode(s, m)
	if err != nil && m != urlkit.RFC3986 {
		if v, _, err2 := urlkit.ParseMode(s, urlkit.RFC3986); err2 == nil {
			return v, nil
		}
	}
	return u, err
}

// Fetch retrieves the resource u names. It checks u first (CheckURL:
// nothing is sent for an unsafe URL or a blocked port), then fetches it
// through the gateway configured for its scheme, if any, or with the
// scheme's opener. The Response's Body must be closed. Every error is an
// *Error.
func (f *Fetcher) Fetch(ctx context.Context, u *urlkit.URL) (*Response, error) {
	return f.FetchFrom(ctx, u, Resume{})
}

// FetchFrom is Fetch continuing a partial copy of r.Offset bytes: FTP
// with REST (TYPE I only, checked against SIZE), HTTP with Range (and
// If-Range on r.Validator). The Response's Offset says where its Body
// starts: r.Offset when the protocol continued there (an empty Body of
// Size 0 when the copy is already complete: FTP SIZE, HTTP 416 naming
// that length), or 0 when the whole resource comes again (HTTP 200 to a
// range, a copy longer than the resource, a TYPE A transfer, Gopher and
// file URLs, which cannot resume), with a warning.
func (f *Fetcher) FetchFrom(ctx context.Context, u *urlkit.URL, r Resume) (*Response, error) {
	return f.fetch(ctx, u, r, false)
}

func (f *Fetcher) fetch(ctx context.Context, u *urlkit.URL, r Resume, head bool) (*Response, error) {
	req := f.newRequest(u)
	req.Head = head
	if r.Offset > 0 {
		req.Resume = r
	}
	return f.do(ctx, req)
}

// do carries out the fetch req describes.
func (f *Fetcher) do(ctx context.Context, req *Request) (*Response, error) {
	u := req.URL
	if !u.IsAbs() {
		return nil, req.notAbsolute()
	}
	if err := req.check(f.readMode(u), f.AllowPorts); err != nil {
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
	ctx = f.withCheck(ctx)
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
	if req.Resume.Offset > 0 && resp.Offset == 0 && !resp.restartNoted {
		resp.Warnings = append(resp.Warnings, fmt.Sprintf("%s URLs cannot resume a transfer (the protocol has no way to start at a byte): fetched again from the start", u.SchemeName()))
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

// CloseIdle ends the connections kept for later URLs (FTPOpener.Keep,
// NNTPOpener.Keep) politely (QUIT). The Fetcher stays usable.
func (f *Fetcher) CloseIdle() {
	f.FTP.closeIdle()
	f.NNTP.closeIdle()
}

// noOpener says why a scheme cannot be fetched, with a hint only where it
// is true: a gateway helps a retrieval scheme, not a session or mail.
func noOpener(name string) error {
	in, known := urlscheme.Known(name)
	switch {
	case name == "mailto":
		return errors.New("mailto URLs are sent, not retrieved: urlkit send mailto:ADDRESS reads the message from standard input")
	case known && in.Retrieval:
		return fmt.Errorf("no opener for %q: fetch it through a gateway (%s_proxy, WWW_%s_GATEWAY)", name, name, name)
	case known && in.HasPlan:
		return fmt.Errorf("%s URLs are not retrieved: urlkit has no opener for them (explain shows their access)", name)
	}
	return fmt.Errorf("no opener for %q: urlkit knows no access algorithm for it", name)
}

// withCheck returns ctx carrying DialCheck and Resolver (wire.WithCheck,
// wire.WithResolver), which every client's dial reads from it.
func (f *Fetcher) withCheck(ctx context.Context) context.Context {
	return wire.WithResolver(wire.WithCheck(ctx, f.DialCheck), f.Resolver)
}

// newRequest returns the Request of a fetch of u.
func (f *Fetcher) newRequest(u *urlkit.URL) *Request {
	return &Request{URL: u, Getenv: f.getenv, AllowPorts: f.AllowPorts, Gateway: f.gatewayFor, ConnectTimeout: f.ConnectTimeout}
}

func (f *Fetcher) dispatch(ctx context.Context, req *Request) (*Response, error) {
	u := req.URL
	scheme := u.SchemeName()
	if gw, ok := f.gatewayFor(u); ok {
		req.kinds = nil // HTTP names no kinds of its own
		return f.HTTP.openVia(ctx, req, gw)
	}
	o, ok := f.lookup(scheme)
	if !ok {
		return nil, req.errorf("check", ErrUnsupportedScheme, noOpener(scheme))
	}
	req.kinds, _ = o.(classifier)
	req.Reopen = func(ctx context.Context, v *urlkit.URL) (*Response, error) {
		sub := f.newRequest(v)
		if err := sub.check(f.readMode(v), f.AllowPorts); err != nil {
			return nil, err
		}
		sub.Trace, sub.Prompt, sub.wd, sub.redactor = req.Trace, req.Prompt, req.wd, req.redactor
		resp, err := f.dispatch(ctx, sub)
		req.kinds = sub.kinds // its errors are classified by its opener
		return resp, err
	}
	return o.open(ctx, req)
}

// connectTimeout returns the connect timeout for a client whose own
// setting is d: the Fetcher's ConnectTimeout when set and shorter.
func (req *Request) connectTimeout(d time.Duration) time.Duration {
	if req.ConnectTimeout > 0 && (d <= 0 || req.ConnectTimeout < d) {
		return req.ConnectTimeout
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
			fe.URL, fe.Scheme = req.URL.Redacted(), req.URL.SchemeName()
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
	return req.errorf(op, classify(ctx, err, op == "read" || op == "close", req.kinds), err)
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
