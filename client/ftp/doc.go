// Package ftp is an FTP client (RFC 959, with RFC 2428 EPSV/EPRT and RFC
// 3659 SIZE) for retrieving files and listings, built for urlkit's ftp:
// access but independent of URLs: it takes host:port addresses and plain,
// already decoded path strings, and never splits, joins or escapes them.
//
//	var d ftp.Dialer // zero value: passive mode, no timeout besides ctx
//	c, err := d.Dial(ctx, "ftp.example.org:21")
//	if err != nil { ... }
//	defer c.Close()
//	if err := c.Login(ctx, "", ""); err != nil { ... } // anonymous
//	if err := c.Type(ctx, ftp.TypeImage); err != nil { ... }
//	body, err := c.Retr(ctx, "/pub/file.bin")
//	if err != nil { ... }
//	_, err = io.Copy(dst, body)
//	if cerr := body.Close(); err == nil { err = cerr } // completion reply
//	c.Quit(ctx)
//
// # Contexts and timeouts
//
// Every network operation takes a context first. Its deadline becomes the
// deadline of the connections involved, and cancelling it closes them
// (after which the Conn reports ErrClosed: an interrupted exchange leaves
// the session in an unknown state). Retr, Nlst and List keep using their
// context until the body or listing is closed. Dialer.Timeout additionally
// bounds each connection establishment.
//
// # Safety
//
// Every argument is checked before anything is sent: CR, LF or NUL would
// let a string run a second command, so they fail with an *ArgError
// (ErrUnsafeArg) and nothing reaches the server. Replies are read with a
// bounded line length (Dialer.MaxLine) and number of lines
// (Dialer.MaxReplyLines). In passive mode only the port of a PASV reply
// is used by default, never its address (see Dialer.TrustPASVAddr), and
// the port of an EPSV or PASV reply must pass Dialer.CheckDataPort (by
// default, RefuseWellKnownPort: not below 1024) before anything connects
// to it, so a server cannot aim the data connection at the SMTP or X11
// server of its host; a refusal is ErrDataPort. In active mode only a
// data connection from the server's address is accepted. The control
// connection is a Telnet NVT (RFC 959 section 4.1): a 0xFF byte in an
// argument is sent as IAC IAC, so that it cannot start a Telnet command
// (IAC IP, IAC DM) on the server. Passwords (and ACCT accounts) are masked in traces and never
// part of errors.
//
// # Errors
//
// A negative reply is a *ReplyError{Cmd, Code, Msg}; the connection stays
// usable and the caller decides (ProFTPD answers the null-argument "CWD"
// of RFC 1738 section 3.2.2 with 501). Transport and protocol failures
// (ErrMalformedReply, ErrLineTooLong, ErrReplyTooLong, timeouts) close the
// connection. A data connection that breaks or ends early is reported as
// ErrShortTransfer, together with the cause (for example a connection
// reset, or context.DeadlineExceeded). "Early" means before the size the
// 150 reply announced, whatever the completion reply says, in TYPE I and
// TYPE A alike: in TYPE A the announced size is the file's and the stream
// is the file with CRLF line ends, never shorter.
//
// # Deviations and choices
//
//   - Cwd("") sends "CWD" with no argument, as RFC 1738 requires, rather
//     than skipping the command or sending "CWD " with a trailing space.
//   - Login("", "") logs in as "anonymous" with password "anonymous@".
//   - TYPE A transfers are converted from the network's CRLF line ends to
//     LF (RFC 959 section 3.1.1.1); TYPE I transfers are byte-exact.
//   - Only stream mode and file structure are supported (the RFC 959
//     minimum implementation); REST before RETR (RetrFrom); no STOR, TLS or MLSD yet.
package ftp
