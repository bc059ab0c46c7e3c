package fetch

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// StatusError is the cause of a fetch that an HTTP server answered with
// an error status: the Err of its *Error.
type StatusError struct {
	// Code is the status code (404, 503, ...).
	Code int
	// Status is the status line's code and text ("503 Service
	// Unavailable").
	Status string
	// RetryAfter is the delay the server's Retry-After header asks for
	// (RFC 9110 10.2.3), 0 without one.
	RetryAfter time.Duration
}

// Error returns "HTTP " and the status.
func (e *StatusError) Error() string { return "HTTP " + e.Status }

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > 24*3600 {
			n = 24 * 3600
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), 24*time.Hour)
	}
	return 0
}

// transientRules are the protocols' own judgements of a cause (see
// Transient): decided reports whether the rule knows the cause.
var transientRules []func(err error) (transient, decided bool)

// Transient reports whether a failed fetch may succeed when tried again
// (curl's --retry rules): a connection refused, reset or cut short, a
// timeout, an FTP 4xx reply (RFC 959: "transient negative completion"),
// an HTTP 408, 429 or 5xx. after is the delay the server asked for (HTTP
// Retry-After), or 0. Everything else is permanent and never retried: a
// refused or invalid URL, FTP 5xx, HTTP 4xx, a refused login, a protocol
// error, a limit passed (ErrTooLarge), an unknown host.
func Transient(err error) (transient bool, after time.Duration) {
	if err == nil {
		return false, 0
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code == http.StatusRequestTimeout || se.Code == http.StatusTooManyRequests || se.Code/100 == 5, se.RetryAfter
	}
	if errors.Is(err, ErrUnsafe) || errors.Is(err, ErrInvalidURL) || errors.Is(err, ErrTooLarge) {
		return false, 0
	}
	for _, rule := range transientRules {
		if t, ok := rule(err); ok {
			return t, 0
		}
	}
	var de *net.DNSError
	switch {
	case errors.As(err, &de):
		return de.IsTemporary || de.IsTimeout, 0
	case errors.Is(err, ErrConnect), errors.Is(err, ErrShortTransfer), errors.Is(err, ErrTimeout):
		return true, 0
	}
	return false, 0
}
