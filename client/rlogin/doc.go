// Package rlogin is an rlogin client (RFC 1282). It knows nothing of
// URLs: it takes a host:port address and plain user names.
//
//	d := rlogin.Dialer{Term: "xterm", Width: 80, Height: 24}
//	c, err := d.Dial(ctx, "host:513", localUser, remoteUser)
//	go io.Copy(c, os.Stdin)
//	io.Copy(os.Stdout, c)
//
// # Protocol
//
// The client sends NUL, the local user name, NUL, the remote user name,
// NUL, "terminal/speed", NUL (Handshake builds these bytes; names holding
// CR, LF or NUL are refused before connecting). The server answers with
// one NUL byte, or refuses with byte 1 and a message (*HandshakeError,
// errors.Is ErrRefused; the message is escaped and bounded). Then both
// directions carry raw bytes.
//
// The server's control messages travel as TCP urgent data: 0x80 asks for
// the window size (sent then as FF FF 's' 's' rows cols xpixels ypixels,
// AppendWindowSize, and again on every Conn.SetWindowSize), 0x02 asks to
// discard the output received up to the urgent mark, 0x10 and 0x20 switch
// between raw and cooked flow control (Conn.RawMode: whether ^S/^Q are
// data). Go's net package cannot read urgent data, and on Linux a normal
// read that passes an urgent byte not yet fetched discards it, so
// Conn.Read polls the socket (through its syscall.RawConn) for POLLIN and
// POLLPRI, fetches a pending urgent byte with recv(MSG_OOB) first, and
// uses SIOCATMARK to find the mark of a flush. This needs Linux and a
// real socket; elsewhere Read is a plain read and control bytes are not
// seen.
//
// # Trust
//
// rlogind trusts the local user name only from a privileged source port
// (512-1023), which needs root: as root, Dial binds the first free port
// from 1023 down (as rresvport does); otherwise (or with
// Dialer.Unprivileged) it uses an ordinary port, Conn.Privileged reports
// it, and UnprivilegedNote explains it to the user. Most rlogind refuse
// such connections outright (a close without a message).
//
// rsh-redone's in.rlogind, the test server, sends the window request
// twice in a row. Read fetches an urgent byte as soon as poll reports it,
// but if the second arrives before the first was fetched (a busy
// machine), Linux turns the first into a data byte: a stray 0x80 then
// appears in the output once. Nothing in the stream tells it from data.
package rlogin
