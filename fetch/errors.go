package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/internal/wire"
	"github.com/urlkit/urlkit/scheme"
)

// Sentinel kinds of failure. Every error a Fetcher returns is an *Error
// whose Kind is one of them (or nil for a plain cancellation), matched
// with errors.Is.
var (
	// ErrInvalidURL: the URL breaks its scheme's grammar (package
	// scheme's view rejects it); Error.Offset names the place.
	ErrInvalidURL = errors.New("invalid URL")
	// ErrUnsupportedScheme: no opener is registered for the URL's scheme
	// (and no gateway is configured for it).
	ErrUnsupportedScheme = errors.New("unsupported scheme")
	// ErrUnsafe: the URL would put CR, LF or NUL into a protocol line once
	// decoded (RFC 1738 section 6); nothing was sent. Error.Offset names
	// the escape. Also a connection that Fetcher.DialCheck refused: none
	// was made, and the cause names the address.
	ErrUnsafe = errors.New("unsafe URL")
	// ErrBlockedPort: the URL names a port other than its scheme's default
	// that is on the Fetch standard's list of blocked ports (RFC 1738
	// section 6: a URL aimed at another protocol's server); nothing was
	// sent. Also an FTP server's EPSV or PASV reply naming such a port or
	// one below 1024: no data connection was made. It matches ErrUnsafe
	// too.
	ErrBlockedPort = fmt.Errorf("%w: blocked port", ErrUnsafe)
	// ErrNotFound: the server (or file system) says the resource does not
	// exist: FTP 550/450, HTTP 404/410, a Gopher error item, ENOENT.
	ErrNotFound = errors.New("not found")
	// ErrAccessDenied: login refused or access forbidden: FTP 530, HTTP
	// 401/403/407, EACCES.
	ErrAccessDenied = errors.New("access denied")
	// ErrNeedPassword: the server asks for a password the URL does not
	// give, and there is no way to ask the user (Fetcher.Prompt is nil or
	// failed).
	ErrNeedPassword = errors.New("password required")
	// ErrNeedInput: a Gopher+ ASK form needs answers and there is no way
	// to ask the user, or what the URL leaves to the user (the news or
	// mail server, the sender) was not given.
	ErrNeedInput = errors.New("input required")
	// ErrNullCWD: the FTP server refused the null-argument CWD that an
	// empty path segment stands for (RFC 1738 section 3.2.2); see
	// FTPOpener.SkipNullCWD.
	ErrNullCWD = errors.New("null CWD refused")
	// ErrIsDirectory: the URL names a directory as a file (FTP RETR of a
	// directory, or a file: URL with a trailing name that is a directory
	// when a file was required); add a trailing "/" to list it.
	ErrIsDirectory = errors.New("is a directory")
	// ErrSpecialFile: a file: URL names a FIFO, device or socket and
	// FileOpener.AllowSpecial is not set.
	ErrSpecialFile = errors.New("special file")
	// ErrRemoteFile: a file: URL names another host (see
	// Fetcher.FileOverFTP).
	ErrRemoteFile = errors.New("file URL names another host")
	// ErrTimeout: nothing arrived for Fetcher.Timeout, or a connection
	// could not be established in time.
	ErrTimeout = errors.New("timed out")
	// ErrConnectTimeout: a connection was not established within
	// Fetcher.ConnectTimeout. It matches ErrTimeout too.
	ErrConnectTimeout = fmt.Errorf("%w: connecting", ErrTimeout)
	// ErrMaxTime: the fetch took longer than Fetcher.MaxTime. It matches
	// ErrTimeout too.
	ErrMaxTime = fmt.Errorf("%w: the maximum time for the whole transfer passed", ErrTimeout)
	// ErrTooSlow: the data arrived slower than Fetcher.SpeedLimit for
	// Fetcher.SpeedTime. It matches ErrTimeout too.
	ErrTooSlow = fmt.Errorf("%w: slower than the speed limit", ErrTimeout)
	// ErrTooLarge: the resource is larger than Fetcher.MaxSize.
	ErrTooLarge = errors.New("larger than the maximum size")
	// ErrConnect: the connection could not be established (refused,
	// unreachable, unknown host).
	ErrConnect = errors.New("cannot connect")
	// ErrShortTransfer: the data ended early or broke off (connection
	// reset, fewer bytes than announced, a missing completion reply).
	ErrShortTransfer = errors.New("short transfer")
	// ErrLongTransfer: the data went on past the size the server had
	// announced (FTP SIZE): the resource changed during the transfer, or
	// the server ignored the restart offset. What arrived is not the
	// resource, and a partial copy made of it cannot be continued.
	ErrLongTransfer = errors.New("more data than announced")
	// ErrProtocol: the server sent something its protocol does not allow
	// (a garbage or over-long reply line, a malformed header).
	ErrProtocol = errors.New("protocol error")
	// ErrRedirect: an HTTP redirect was refused (to a scheme other than
	// http or https, too many of them, or to an unsafe URL).
	ErrRedirect = errors.New("redirect refused")
	// ErrStatus: the server answered with an error status not covered by
	// another kind (HTTP 5xx, an FTP reply the access algorithm cannot go
	// on after).
	ErrStatus = errors.New("error status")
	// ErrTLS: the TLS handshake of an https URL failed (the server does
	// not speak TLS there, or refused the connection's terms).
	ErrTLS = errors.New("TLS handshake failed")
	// ErrCertificate: the server's certificate is not trusted (unknown
	// authority, expired, for another name). It matches ErrTLS too.
	ErrCertificate = fmt.Errorf("%w: the server's certificate is not trusted", ErrTLS)
	// ErrBadMessage: the message given to Send breaks its format (an
	// article's header, RFC 5536): nothing was sent, and the URL is not
	// at fault.
	ErrBadMessage = errors.New("message refused")
	// ErrGateway: a gateway is misconfigured (not an http or https URL) or
	// answered with an error.
	ErrGateway = errors.New("gateway error")
)

// Error is the error of a fetch: the URL (password redacted), the kind of
// failure, and the underlying cause. Offset is the byte offset in URL of
// the part of the URL that caused the failure, or -1.
type Error struct {
	// Op is what failed: "check" (before any connection), "open" (setting
	// up the transfer), "read" or "close" (the transfer).
	Op string
	// URL is the URL as written, with its password replaced by "xxxxx".
	URL string
	// Scheme is the scheme of URL, in lower case.
	Scheme string
	// Offset is the byte offset in URL of the problem (ErrUnsafe,
	// ErrBlockedPort), or -1.
	Offset int
	// Port is the URL's port that ErrBlockedPort refuses (CheckURL), or
	// 0 (a data port the server named is in Rule).
	Port int
	// Kind is the sentinel (ErrNotFound, ErrUnsafe, ...); nil for a
	// cancellation, where Err is context.Canceled.
	Kind error
	// Rule, if set, explains the problem in place of Kind and Err.
	Rule string
	// Err is the underlying error (from the protocol client or the
	// operating system), or nil.
	Err error

	secrets *safetext.Redactor // the fetch's secrets, hidden in the message
}

// Error formats the error as `fetch: "URL": offset N: RULE` when the
// offset is known, else `fetch: "URL": KIND: RULE` or
// `fetch: "URL": KIND: CAUSE`. The fetch's secrets (the URL's password, a
// gateway's, a password typed at a prompt) are masked wherever a lower
// layer or a server's reply quoted them, and bytes from the server are
// escaped (safetext.Visible): the message is one safe line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("fetch: ")
	b.WriteString(strconv.Quote(e.URL))
	if e.Offset >= 0 {
		b.WriteString(": offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	b.WriteString(": ")
	switch {
	case e.Rule != "" && e.Offset < 0 && e.Kind != nil:
		b.WriteString(e.Kind.Error())
		b.WriteString(": ")
		b.WriteString(e.Rule)
	case e.Rule != "":
		b.WriteString(e.Rule)
	case e.Kind != nil && e.Err != nil:
		b.WriteString(e.Kind.Error())
		// A cause that only repeats the kind (the limit that cancelled
		// the fetch) is not said twice.
		if msg := e.Err.Error(); !strings.Contains(e.Kind.Error(), msg) {
			b.WriteString(": ")
			b.WriteString(msg)
		}
	case e.Kind != nil:
		b.WriteString(e.Kind.Error())
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("failed")
	}
	return safetext.Visible(e.secrets.Redact(b.String()))
}

// Unwrap returns Kind and Err, for errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// errorf builds an *Error for req's URL.
func (req *Request) errorf(op string, kind, err error) *Error {
	return &Error{Op: op, URL: req.URL.Redacted(), Scheme: req.URL.SchemeName(), Offset: -1, Kind: kind, Err: err, secrets: req.secrets()}
}

// notAbsolute is the error for a URL without a scheme: a relative
// reference names nothing to fetch (curl: URL malformed).
func (req *Request) notAbsolute() *Error {
	e := req.errorf("check", ErrInvalidURL, nil)
	e.Offset, e.Rule = 0, "not an absolute URL: a URL to fetch starts with its scheme (RFC 1738 2.1)"
	return e
}

// secrets returns the redactor of req's secrets, made on first use with
// the URL's password as written and decoded.
func (req *Request) secrets() *safetext.Redactor {
	if req.redactor == nil {
		req.redactor = new(safetext.Redactor)
		p, _ := req.URL.DecodedPassword()
		req.redactor.Add(req.URL.Password, p)
	}
	return req.redactor
}

// invalid turns the *urlkit.Error of a scheme view into an *Error with
// its offset and rule.
func invalid(err error) error {
	var ue *urlkit.Error
	if errors.As(err, &ue) {
		return &Error{Op: "check", Offset: ue.Offset, Kind: ErrInvalidURL, Rule: ue.Rule, Err: ue.Err}
	}
	return &Error{Op: "check", Offset: -1, Kind: ErrInvalidURL, Err: err}
}

// viewOf returns the view of u read in the mode m (scheme.Parse), as
// the scheme's own type T, or the *Error of a URL that is no valid view.
func viewOf[T scheme.View](u *urlkit.URL, m urlkit.Mode) (T, error) {
	v, err := scheme.Parse(u, m)
	t, ok := v.(T)
	switch {
	case err != nil:
		return t, invalid(err)
	case !ok:
		return t, &Error{Op: "check", Offset: -1, Kind: ErrInvalidURL, Rule: "this opener does not read " + u.SchemeName() + " URLs"}
	}
	return t, nil
}

// classify chooses the Kind of a failure from the error of a client or
// the operating system: first as the opener's classifier says (c, may be
// nil), then by the rules every protocol shares. body tells whether the
// data was being read: then a broken connection is a short transfer
// rather than a failed connect.
func classify(ctx context.Context, err error, body bool, c classifier) error {
	if err == nil {
		return nil
	}
	if k := causeKind(ctx); k != nil {
		return k
	}
	var ne net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return nil // Err carries context.Canceled
	case dialTimeout(err):
		return ErrConnectTimeout
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return ErrTimeout
	case errors.Is(err, ErrUnsafe), errors.Is(err, wire.ErrUnsafeArg), errors.Is(err, wire.ErrDestination):
		return ErrUnsafe
	case errors.Is(err, ErrLongTransfer):
		return ErrLongTransfer
	}
	if c != nil {
		if k := c.classify(err); k != nil {
			return k
		}
	}
	var cve *tls.CertificateVerificationError
	var rhe tls.RecordHeaderError
	var ae tls.AlertError
	switch {
	case body:
		// A TLS error once the data flows (a record garbled in the
		// body) breaks the transfer off: that is a short transfer,
		// and --retry tries again, below.
	case errors.As(err, &cve):
		return ErrCertificate
	case errors.As(err, &rhe), errors.As(err, &ae), strings.HasPrefix(unwrapOp(err).Error(), "tls: "):
		return ErrTLS
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return ErrShortTransfer
	case errors.Is(err, wire.ErrLineTooLong):
		return ErrProtocol
	case errors.Is(err, os.ErrNotExist):
		return ErrNotFound
	case errors.Is(err, os.ErrPermission):
		return ErrAccessDenied
	case errors.As(err, &ne) && ne.Timeout():
		return ErrTimeout
	}
	if body {
		return ErrShortTransfer
	}
	var oe *net.OpError
	var de *net.DNSError
	if errors.As(err, &oe) && oe.Op == "dial" || errors.As(err, &de) || errors.Is(err, syscall.ECONNREFUSED) {
		return ErrConnect
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return ErrShortTransfer
	}
	return ErrStatus
}

// unwrapOp returns the cause of a *net.OpError (crypto/tls's handshake
// errors come as "remote error: tls: ..." in one), or err.
func unwrapOp(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}

// dialTimeout reports a connection attempt that a dialer's Timeout (see
// Fetcher.ConnectTimeout) cut short.
func dialTimeout(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial" && oe.Timeout()
}
