// Package fetch retrieves the resource a URL names: it is the only bridge
// between urlkit's URLs and the protocol clients (client/ftp,
// client/gopher, client/wais, client/prospero, net/http, the file
// system). A URL is an access algorithm
// (RFC 1738 section 1); fetch carries it out exactly as the specifications
// give it.
//
//	var f fetch.Fetcher // zero value: standard openers, 30 s idle timeout
//	resp, err := f.Get(ctx, "ftp://ftp.example.org/pub/file.txt")
//	if err != nil { ... }         // an *Error: errors.Is(err, fetch.ErrNotFound), ...
//	defer resp.Body.Close()
//	_, err = io.Copy(dst, resp.Body)
//	if cerr := resp.Body.Close(); err == nil { err = cerr } // the transfer's final check
//
// # Openers
//
// A Fetcher's zero value serves its standard schemes, one opener per
// file, each configured by a field of the Fetcher whose zero value works:
// File (file), HTTP (http, https), FTP (ftp, RFC 1738 3.2), Gopher
// (gopher and Gopher+, RFC 1738 3.4), NNTP (news and nntp), Mail (cid;
// mid with NNTP), WAIS (wais, RFC 1738 3.9) and Prospero (prospero, RFC
// 1738 3.11); the documentation of their types gives each algorithm. A
// program serves another scheme, or one of these its own way, with an
// Opener of its own: Fetcher.Register. Nothing registers itself.
//
// An opener carries out the URL's access plan (scheme.PlanURL), the one
// "urlkit explain" prints: it walks the plan's steps and makes the
// protocol client call that sends each line, so explain and get cannot
// disagree; TestPlanEqualsWire compares the plan's lines with the bytes
// on the wire against the real servers. A plan that refuses the URL is
// refused here with the same reason and offset, before anything is sent.
//
// # Sessions
//
// telnet, rlogin and tn3270 URLs designate interactive services, not data
// (RFC 1738 3.8, RFC 1630), so they have no Opener: Fetcher.Session runs
// the session between the server and a Terminal (the user's streams, the
// terminal's type and size, the escape prompt). It carries out the same
// kind of plan: the telnet client accepts the options the plan's
// negotiation answers name and announces its terminal type; rlogin sends
// the plan's handshake; TestPlanEqualsWire compares them with the wire
// against inetutils telnetd, rsh-redone's in.rlogind and Hercules.
//
// The core (Fetcher, Request, Response, Error) knows no protocol: an
// opener gets everything it needs on the Request, names the kind of its
// client's errors, and fills the protocol-neutral Response fields; the
// standard openers are looked up in a table built once.
//
// # Safety
//
// Before anything is sent, Fetch checks the URL (CheckURL): a URL whose
// decoded parts would put CR, LF or NUL into a protocol line (an FTP
// argument, a Gopher selector or search, a user name or password) fails
// with ErrUnsafe and the offset of the escape, and a non-default port on
// the Fetch standard's list of blocked ports (SMTP's 25, NNTP's 119, ...)
// fails with ErrBlockedPort unless Fetcher.AllowPorts lists it (RFC 1738
// section 6). Redirects are checked the same way. Passwords never appear
// in errors (Error.URL is redacted) or in traces.
//
// # Gateways
//
// A scheme's URLs can be fetched through an HTTP gateway (RFC 1738
// section 4, RFC 1630), from Fetcher.Gateways or the environment
// (<scheme>_proxy, no_proxy, WWW_<scheme>_GATEWAY): see Gateway.
//
// # For net/http
//
// Transport is an http.RoundTripper on a Fetcher: an http.Client, or a
// gateway (urlkit serve), gets every scheme as HTTP responses, with the
// status codes and header fields its documentation gives.
//
// Fetcher.DialCheck is a destination policy: every connection of every
// opener, FTP data connections included, is checked on the address
// actually dialled, after name resolution and before anything is sent.
//
// # Contexts and timeouts
//
// The context of Fetch governs the whole transfer, up to the Close of the
// Body. Fetcher.Timeout is an idle timeout: a fetch fails with ErrTimeout
// when nothing arrives for that long, however long the whole transfer
// takes. The limits with curl's names bound the rest: ConnectTimeout
// (ErrConnectTimeout), MaxTime for the whole transfer (ErrMaxTime),
// SpeedLimit and SpeedTime against a trickle (ErrTooSlow; all three match
// ErrTimeout), and MaxSize (ErrTooLarge, before any data when the size is
// announced). HTTP bodies are not decompressed unless HTTPOpener.Compressed
// is set; file: URLs open FIFOs and devices only with
// FileOpener.AllowSpecial.
//
// # Secrets and untrusted text
//
// Each fetch has one redactor of its secrets (the URL's password, the
// gateway's, the answers to secret prompts): the Trace and every error
// message go through it, so a password is masked even where a server
// echoes it back. Text from the server in errors, warnings, Reply, the
// HTTP trace and Render's output is escaped (package internal/safetext):
// no control byte reaches a terminal.
//
// # Errors
//
// Every error is an *Error with the redacted URL, the operation, the
// offset of the offending part of the URL where there is one, a Kind
// (ErrNotFound, ErrUnsafe, ErrTimeout, ErrShortTransfer, ...) and the
// cause from the protocol client.
package fetch
