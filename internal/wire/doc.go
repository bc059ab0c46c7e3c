// Package wire holds the plumbing shared by urlkit's protocol clients
// (client/ftp, client/gopher, ...): dialing with a context, tying a
// connection's lifetime to a context, bounded line reading, argument
// validation against command injection, a transcript tee, and the session
// state and status lines of command/reply protocols.
//
// It is a leaf package: it imports only the standard library and knows
// nothing about URLs or about any particular protocol's commands.
//
// # Contexts
//
// Every network operation of a client takes a context. [Bind] applies it to a
// connection for the duration of one operation: the context's deadline
// becomes the connection's deadline, and the connection is closed as soon as
// the context is cancelled (the crypto/tls HandshakeContext pattern, built on
// [context.AfterFunc]). [ContextError] then reports the context's error
// instead of the "use of closed network connection" or i/o timeout that the
// blocked call returned.
//
// # Bounded reads
//
// [LineReader] never buffers more than its limit for one line and fails with
// [ErrLineTooLong] instead; protocol replies, menu lines and headers are read
// through it. Bodies are streamed and never buffered whole.
//
// # Arguments
//
// [CheckArg] rejects CR, LF and NUL (and TAB where TAB separates fields) in
// every string a client puts on the wire, before anything is sent, with an
// [*ArgError] carrying the offset.
//
// # Sessions
//
// NNTP and SMTP clients run one command at a time over a connection that a
// failure leaves in an unknown state. [Session] holds what they share: the
// busy flag of an open response, the broken state every later command
// fails with, and the begin/fail/send/quit/close steps around each
// command; [ParseStatus] splits the "ddd text" status lines of these
// protocols and FTP. What a reply code means stays in each client.
//
// # Errors
//
// Errors from this package carry no package prefix: clients wrap them with
// their own ("ftp: CWD: ...") so the message names the layer the caller used.
// They are matched with [errors.Is] against [ErrLineTooLong] and
// [ErrUnsafeArg], which the clients re-export. A [Session] wraps its
// failures itself, as an [*OpError] with its Name as the prefix.
package wire
