// Package wire holds the plumbing shared by urlkit's protocol clients
// (client/ftp, client/gopher, ...): dialing with a context, tying a
// connection's lifetime to a context, bounded line reading, argument
// validation against command injection, and a transcript tee.
//
// It is a leaf package: it imports only the standard library and knows
// nothing about URLs or about any particular protocol.
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
// # Errors
//
// Errors from this package carry no package prefix: clients wrap them with
// their own ("ftp: CWD: ...") so the message names the layer the caller used.
// They are matched with [errors.Is] against [ErrLineTooLong] and
// [ErrUnsafeArg], which the clients re-export.
package wire
