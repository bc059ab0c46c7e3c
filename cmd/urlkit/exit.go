package main

import (
	"context"
	"errors"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/scheme"
)

// Exit statuses, the same for every command (CLI.md): 0 success (valid,
// equal, fetched), 1 the input is invalid, not equal, or the access
// failed, 2 usage error, 23 writing standard output failed (as get's
// status for it), 130 interrupted.
const (
	exitOK          = 0
	exitFail        = 1
	exitUsage       = 2
	exitInterrupted = 130
)

const exitHelp = `Exit status: 0 success (valid, equal, fetched); 1 an input is invalid,
not equal, or the access failed; 2 usage error; 23 writing the output failed;
130 interrupted.`

// The exit statuses of get that name the failure, curl's numbers where
// curl has one (curl(1) EXIT CODES). Stable once published: scripts test
// them. exitFail (1) stays for every other failure.
const (
	exitURLRefused  = 3  // the URL breaks its grammar or is refused as unsafe (curl: URL malformed)
	exitConnect     = 7  // could not connect
	exitShort       = 18 // the transfer was cut short (partial file)
	exitHTTPStatus  = 22 // the HTTP server answered with an error status (curl -f)
	exitWrite       = 23 // writing the output failed
	exitTimeout     = 28 // a timeout or limit on time passed
	exitTLS         = 35 // the TLS handshake failed (curl: SSL connect error)
	exitCertificate = 60 // the server's certificate is not trusted (curl: peer failed verification)
	exitTooLarge    = 63 // larger than --max-filesize
	exitLogin       = 67 // the server refused the login
	exitRemoteNoent = 78 // the remote file does not exist
)

// getExitHelp is the part of get -h that lists its exit statuses.
const getExitHelp = `Exit status of get (curl's numbers where curl has one; with several URLs,
the status of the last one that failed):
  0   every URL fetched
  1   another failure (a protocol error, an unsupported scheme, ...)
  2   usage error (also a netrc file that others may read)
  3   a URL refused: it breaks its grammar, or is unsafe (CR/LF/NUL, a
      blocked port)
  7   could not connect (refused, unreachable, unknown host)
  18  the transfer was cut short (fewer bytes than announced, reset)
  22  the HTTP server answered with an error status (4xx, 5xx)
  23  the output could not be written (or -O found no usable name)
  28  a timeout (--timeout, --connect-timeout, --max-time, --speed-limit)
  35  the TLS handshake failed (the server does not speak TLS there)
  60  the server's certificate is not trusted
  63  the resource is larger than --max-filesize
  67  the server refused the login (FTP 530, NNTP 480/481, rlogin, a
      password nobody can give)
  78  the remote file does not exist (FTP 550, Gopher error item, ENOENT)
  130 interrupted
With --retry, a URL that still fails after its retries exits with the
status of its last failure.`

// logsIn reports whether the access of a scheme logs in to the server
// (the registry's LogsIn: ftp, news, nntp, rlogin).
func logsIn(name string) bool {
	in, _ := scheme.Known(name)
	return in.LogsIn
}

// exitOf maps a fetch error to get's exit status: the one place where
// fetch's kinds of failure become numbers.
func exitOf(err error) int {
	var ue *urlkit.Error
	if errors.As(err, &ue) {
		return exitURLRefused
	}
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return exitFail
	}
	httpish := fe.Scheme == "http" || fe.Scheme == "https"
	switch {
	case fe.Kind == nil && errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, fetch.ErrInvalidURL), errors.Is(err, fetch.ErrUnsafe):
		return exitURLRefused
	case errors.Is(err, fetch.ErrTimeout):
		return exitTimeout
	case errors.Is(err, fetch.ErrConnect):
		return exitConnect
	case errors.Is(err, fetch.ErrShortTransfer):
		return exitShort
	case errors.Is(err, fetch.ErrTooLarge):
		return exitTooLarge
	case errors.Is(err, fetch.ErrCertificate):
		return exitCertificate
	case errors.Is(err, fetch.ErrTLS):
		return exitTLS
	case httpish && (errors.Is(err, fetch.ErrNotFound) || errors.Is(err, fetch.ErrAccessDenied) || errors.Is(err, fetch.ErrStatus)):
		return exitHTTPStatus
	case errors.Is(err, fetch.ErrAccessDenied) && logsIn(fe.Scheme), errors.Is(err, fetch.ErrNeedPassword):
		return exitLogin
	case errors.Is(err, fetch.ErrNotFound):
		return exitRemoteNoent
	}
	return exitFail
}
