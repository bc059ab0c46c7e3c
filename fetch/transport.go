package fetch

import (
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/httpstatus"
	"github.com/urlkit/urlkit/internal/wire"
	"github.com/urlkit/urlkit/listing"
	"github.com/urlkit/urlkit/scheme"
)

// Transport is an http.RoundTripper for every scheme a Fetcher reaches,
// as http.NewFileTransport is one for files: with
//
//	c := &http.Client{Transport: &fetch.Transport{}}
//	resp, err := c.Get("gopher://gopher.example/0/hello.txt")
//
// the response's Body is the object's bytes as a proxy returns them (a
// Gopher menu as the server sent it, text still dot-stuffed, an FTP
// directory as its NLST names), and its header says what the protocol
// said about it:
//
//   - Content-Type: from the Gopher item type ("application/gopher-menu"
//     for menus, "text/plain" for text, "image/gif", and for other
//     binary items the selector's extension), from the FTP URL's
//     ";type=" or the name's extension, from a file's extension, from an
//     article or a MIME part ("message/rfc822", the part's type). A
//     charset is given only where the protocol names one: the bytes of
//     FTP, Gopher and file objects are sent as they are, so the charset
//     that the table of extensions guesses is left out;
//   - Content-Length: FTP SIZE (TYPE I), a Gopher+ "+N" header, a file's
//     size; absent when the protocol gives none;
//   - Last-Modified: FTP MDTM (asked after SIZE), a file's time.
//
// GET and HEAD are served (HEAD of an ftp URL asks SIZE, MDTM and MLST
// only); other methods get 405. http and https requests go to HTTP as
// they are (a proxy's absolute URL, its hop-by-hop headers are the
// caller's business), after the checks every URL gets (CheckURL: the
// blocked ports, CR, LF and NUL); every other scheme to the Fetcher.
//
// # Failures
//
// When the fetch fails with an *Error, RoundTrip returns a response, not
// an error, as a gateway answers: the status says what the protocol
// answered, the Body is the error's message as one line of text
// ("text/plain; charset=utf-8"), and that Body is also an error whose
// Unwrap returns the *Error, so that
//
//	if e, ok := resp.Body.(error); ok && errors.As(e, &fe) { ... }
//
// finds it (a successful response's Body is no error). The statuses:
//
//   - 400: the URL does not parse or breaks its scheme's grammar
//     (ErrInvalidURL; the message names the offset and the rule), a
//     message or an input the fetch needs is missing (ErrBadMessage,
//     ErrNeedInput);
//   - 401: the login was refused or needs a password (ErrAccessDenied,
//     ErrNeedPassword), with a Basic challenge (WWW-Authenticate) whose
//     realm is the scheme and host;
//   - 403: refused before anything was sent: an unsafe URL, a blocked
//     port, a destination that Fetcher.DialCheck refused (ErrUnsafe), a
//     file: URL of another host or a special file, a file the system
//     does not let the gateway read;
//   - 404: the server says there is no such object (ErrNotFound: FTP 550,
//     a Gopher error item, NNTP 430, ENOENT), or it is a directory named
//     as a file (ErrIsDirectory: add a "/");
//   - 501: no opener serves the scheme (ErrUnsupportedScheme);
//   - 502: the server failed (cannot connect, a protocol error, a short
//     transfer, an error status, a limit passed);
//   - 504: the server did not answer in time (ErrTimeout and the limits
//     that match it).
//
// A fetch that the request's context cancelled returns the context's
// error; an error once the Body flows is the Body's Read error, an
// *Error too.
//
// # Passwords
//
// A password for one request comes in the URL (ftp://user:pass@host/)
// or in the request's Basic credentials (Authorization, as
// http.Request.SetBasicAuth sets them, and as a browser sends them after
// a 401): for a scheme that logs in with the URL's user and password
// (ftp), those fill in the user and password the URL does not give.
// An empty password in the credentials counts as none (http.Client
// sends a URL's user that way). The password is used for that request
// only; it is never in the response, an error or the trace (Error.URL
// is redacted).
//
// # Listings
//
// A directory-like object (an FTP directory, a news server's group list
// or a group's overview, WAIS search results, a Prospero directory)
// comes as a proxy returns it (text). A request whose Accept header
// names "application/x-ndjson" asks for it as JSON objects, one per
// line, the lines "urlkit get --json" writes (FTP: as with --list),
// with Content-Type "application/x-ndjson"; a Gopher menu is sent as it
// is either way (client/gopher's MenuReader reads it). The Body of such
// a JSON listing also has a method
//
//	Entries() *listing.List
//
// that gives the same entries as values, for a caller in this process
// that renders them itself (the gateway's web form): read the entries
// or the Body, not both, and Close the Body after either.
type Transport struct {
	// Fetcher fetches every scheme but http and https, with its settings
	// (limits, DialCheck, AllowPorts, gateways). Nil means a Fetcher with
	// its zero value, made on first use.
	Fetcher *Fetcher
	// HTTP carries http and https requests. Nil means
	// http.DefaultTransport, or, when the Fetcher has a DialCheck or a
	// Resolver, a copy of it whose connections use them and that uses
	// no proxy (a proxy's address would be the one checked).
	HTTP http.RoundTripper

	once       sync.Once
	fetcher    *Fetcher
	httpTarget http.RoundTripper
}

// ndjson is the media type of JSON objects one per line, with which a
// request asks for a structured listing.
const ndjson = "application/x-ndjson"

// init settles the Transport's Fetcher and HTTP transport on first use.
func (t *Transport) init() {
	t.once.Do(func() {
		t.fetcher = t.Fetcher
		if t.fetcher == nil {
			t.fetcher = new(Fetcher)
		}
		t.httpTarget = t.HTTP
		if t.httpTarget == nil {
			t.httpTarget = http.DefaultTransport
			if f := t.fetcher; f.DialCheck != nil || f.Resolver != nil {
				ht := http.DefaultTransport.(*http.Transport).Clone()
				ht.Proxy = nil
				ht.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
					return wire.Dial(f.withCheck(ctx), &d, network, addr)
				}
				t.httpTarget = ht
			}
		}
	})
}

// RoundTrip fetches the object r's URL names (see Transport).
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.init()
	f := t.fetcher
	raw := r.URL.String()
	if strings.Contains(r.RequestURI, "://") {
		// A proxy's request line: the URL exactly as the client wrote it
		// (net/url would write some URLs of other schemes differently).
		raw = r.RequestURI
	}
	u, perr := ParseURL(raw, urlkit.RFC1738)
	if perr != nil {
		return failure(r, &urlkit.URL{}, invalid(perr), raw)
	}
	if !u.IsAbs() {
		return failure(r, &u, (&Request{URL: &u}).notAbsolute(), raw)
	}
	name := u.SchemeName()
	if name == "http" || name == "https" {
		return t.roundTripHTTP(r, &u, f)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		resp := respond(r, http.StatusMethodNotAllowed, "text/plain; charset=utf-8",
			errorBody("fetch: "+strconv.Quote(u.Redacted())+": method "+strconv.Quote(r.Method)+" not allowed: GET or HEAD\n", nil))
		resp.Header.Set("Allow", "GET, HEAD")
		return resp, nil
	}
	if err := withLogin(r, &u); err != nil {
		return failure(r, &u, err, raw)
	}
	req := f.newRequest(&u)
	// The openers of news, WAIS and Prospero write their listings as
	// JSON lines when asked; an FTP directory is listed below; a Gopher
	// menu stays as the server sent it.
	req.json = wantsJSON(r) && (name == "file" || name == "news" || name == "nntp" || name == "wais" || name == "prospero")
	req.modTime = true
	head := r.Method == http.MethodHead
	var fresp *Response
	var err error
	switch {
	case name == "ftp" && wantsJSON(r) && ftpDir(&u):
		// The structured listing of a directory: MLSD, LIST or NLST
		// parsed (as get --list --json).
		fresp, err = f.List(r.Context(), &u)
		if err == nil {
			fresp.Body = readCloser{listing.NewReader(fresp.Entries, true), fresp.Body}
			fresp.ContentType, fresp.Size = ndjson, -1
		}
	case name == "ftp" && head:
		req.Head = true
		fresp, err = f.do(r.Context(), req)
	default:
		fresp, err = f.do(r.Context(), req)
	}
	if err != nil {
		return failure(r, &u, err, raw)
	}
	ct := contentType(&u, fresp, req)
	body := fresp.Body
	if ct == ndjson && fresp.Entries != nil {
		body = listingBody{body, fresp.Entries}
	}
	resp := respond(r, http.StatusOK, ct, body)
	for _, fd := range fresp.Fields {
		if fd.Name == "Content-Length" && fresp.Size < 0 {
			if n, err := strconv.ParseInt(fd.Value, 10, 64); err == nil {
				fresp.Size = n
			}
		}
	}
	if fresp.Size >= 0 {
		resp.ContentLength = fresp.Size
		resp.Header.Set("Content-Length", strconv.FormatInt(fresp.Size, 10))
	}
	if !fresp.ModTime.IsZero() {
		resp.Header.Set("Last-Modified", fresp.ModTime.UTC().Format(http.TimeFormat))
	}
	if head {
		fresp.Body.Close()
		resp.Body = http.NoBody
	}
	return resp, nil
}

// roundTripHTTP hands an http or https request to the HTTP transport,
// after the checks every URL gets.
func (t *Transport) roundTripHTTP(r *http.Request, u *urlkit.URL, f *Fetcher) (*http.Response, error) {
	req := f.newRequest(u)
	if err := req.check(urlkit.RFC3986, f.AllowPorts); err != nil {
		return failure(r, u, err, u.String())
	}
	if r.RequestURI != "" {
		// A request a server received: a client request may not carry it.
		r = r.Clone(r.Context())
		r.RequestURI = ""
	}
	resp, err := t.httpTarget.RoundTrip(r)
	if err != nil && r.Context().Err() == nil {
		// As for the other schemes: a refused destination is 403, a
		// connection that failed 502, a timeout 504.
		return failure(r, u, req.wrap(r.Context(), "open", err), u.String())
	}
	return resp, err
}

// withLogin fills in the user and password that u leaves out from r's
// Basic credentials, for a scheme that logs in with them (ftp).
func withLogin(r *http.Request, u *urlkit.URL) error {
	user, pass, ok := r.BasicAuth()
	// An empty password is none: http.Client sends the user of a URL
	// without a password as Basic credentials with an empty one.
	if in, _ := scheme.Known(u.SchemeName()); !ok || pass == "" || !in.Credentials || u.HasPassword {
		return nil
	}
	if u.HasUser && u.User != "" {
		// The URL names the user: the credentials give its password only.
		if dec, ok := u.DecodedUser(); !ok || dec != user {
			return nil
		}
	} else if err := u.SetUser(user); err != nil {
		return invalid(err)
	}
	if err := u.SetPassword(pass); err != nil {
		return invalid(err)
	}
	return nil
}

// wantsJSON reports whether r's Accept header asks for JSON lines.
func wantsJSON(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), ndjson) {
				return true
			}
		}
	}
	return false
}

// respond returns a response to r with the status, content type and
// body.
func respond(r *http.Request, code int, contentType string, body io.ReadCloser) *http.Response {
	h := make(http.Header)
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &http.Response{
		Status:        strconv.Itoa(code) + " " + http.StatusText(code),
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          body,
		ContentLength: -1,
		Request:       r,
	}
}

// failure turns the error of a fetch of u into the response a gateway
// gives (see Transport), or returns a cancellation as the error it is.
func failure(r *http.Request, u *urlkit.URL, err error, raw string) (*http.Response, error) {
	var fe *Error
	if !errors.As(err, &fe) {
		fe = &Error{Op: "open", Offset: -1, Err: err}
	}
	if fe.URL == "" {
		fe.URL, fe.Scheme = u.Redacted(), u.SchemeName()
		if fe.URL == "" {
			fe.URL = redactRaw(raw) // a URL that does not parse
		}
	}
	if fe.Kind == nil && r.Context().Err() != nil {
		return nil, r.Context().Err()
	}
	code := statusOf(fe)
	resp := respond(r, code, "text/plain; charset=utf-8", errorBody(fe.Error()+"\n", fe))
	if code == http.StatusUnauthorized {
		realm := u.SchemeName() + "://" + u.Hostname()
		realm = strings.NewReplacer(`"`, "", `\`, "").Replace(realm)
		resp.Header.Set("WWW-Authenticate", `Basic realm="`+realm+`", charset="UTF-8"`)
	}
	return resp, nil
}

func init() { httpstatus.Of = errorStatus }

// errorStatus is the HTTP status that answers a fetch that failed with
// err: a *Error's (statusOf), 502 for another error.
func errorStatus(err error) int {
	var fe *Error
	if errors.As(err, &fe) {
		return statusOf(fe)
	}
	return http.StatusBadGateway
}

// statusOf is the HTTP status that answers a fetch that failed with e.
func statusOf(e *Error) int {
	switch k := e.Kind; {
	case k == nil:
		return http.StatusBadGateway
	case errors.Is(k, ErrInvalidURL), errors.Is(k, ErrBadMessage), errors.Is(k, ErrNeedInput):
		return http.StatusBadRequest
	case errors.Is(k, ErrNeedPassword):
		return http.StatusUnauthorized
	case errors.Is(k, ErrAccessDenied):
		if e.Scheme == "file" {
			return http.StatusForbidden // the system's refusal, not a login
		}
		return http.StatusUnauthorized
	case errors.Is(k, ErrUnsafe), errors.Is(k, ErrRemoteFile), errors.Is(k, ErrSpecialFile):
		return http.StatusForbidden
	case errors.Is(k, ErrNotFound), errors.Is(k, ErrIsDirectory):
		return http.StatusNotFound
	case errors.Is(k, ErrUnsupportedScheme):
		return http.StatusNotImplemented
	case errors.Is(k, ErrTimeout):
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

// contentType is the Content-Type of a fetched object (see Transport).
func contentType(u *urlkit.URL, resp *Response, req *Request) string {
	if req.json && resp.Listing || resp.ContentType == ndjson {
		return ndjson
	}
	ct := resp.ContentType
	switch u.SchemeName() {
	case "ftp", "gopher", "file":
		if resp.Listing && u.SchemeName() != "gopher" {
			return ct // a listing urlkit wrote, or names as the server sent them
		}
		name := ""
		if a := req.read(urlkit.Lenient); a.view != nil {
			switch v := a.view.(type) {
			case *scheme.FTP:
				name = v.Name
				if ct == "" && v.Type == "a" {
					ct = "text/plain"
				}
			case *scheme.Gopher:
				name = v.Selector
			}
		}
		if ct == "application/octet-stream" || ct == "" {
			if byExt := mime.TypeByExtension(path.Ext(name)); byExt != "" {
				ct = byExt
			}
		}
		// The extension table's charset is a guess: the bytes are the
		// server's, in whatever charset they were written.
		if mt, params, err := mime.ParseMediaType(ct); err == nil && strings.HasPrefix(mt, "text/") && params["charset"] != "" {
			delete(params, "charset")
			ct = mime.FormatMediaType(mt, params)
		}
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	return ct
}

// listingBody is the Body of a JSON listing's response: its lines, and
// the entries they are written from (see Transport).
type listingBody struct {
	io.ReadCloser
	entries *listing.List
}

// Entries returns the listing's entries, read as they are asked for
// (the Body's lines are written from the same ones).
func (b listingBody) Entries() *listing.List { return b.entries }

// errBody is the Body of a failure's response: the message, and the
// *Error for errors.As.
type errBody struct {
	*strings.Reader
	err *Error
}

func errorBody(msg string, e *Error) io.ReadCloser {
	if e == nil {
		return io.NopCloser(strings.NewReader(msg))
	}
	return &errBody{strings.NewReader(msg), e}
}

func (b *errBody) Close() error  { return nil }
func (b *errBody) Error() string { return b.err.Error() }
func (b *errBody) Unwrap() error { return b.err }

// ftpDir reports an ftp URL that names a directory.
func ftpDir(u *urlkit.URL) bool {
	fv, err := viewOf[*scheme.FTP](u, urlkit.Lenient)
	return err == nil && fv.IsDir()
}
