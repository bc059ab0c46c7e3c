// Package telnet is a TELNET client (RFC 854, 855): the network virtual
// terminal with its IAC command layer, option negotiation, and a Session
// that connects a server to a user's streams. It knows nothing of URLs:
// it takes host:port addresses and plain strings.
//
//	d := telnet.Dialer{Width: 80, Height: 24, TermTypes: []string{"XTERM"}}
//	c, err := d.Dial(ctx, "host:23")
//	s := telnet.Session{Conn: c, In: os.Stdin, Out: os.Stdout,
//		Escape: telnet.DefaultEscape, Prompt: myPrompt}
//	err = s.Run(ctx)
//
// # Protocol
//
// Conn.Read returns the server's data with the commands taken out: IAC IAC
// is a data byte 255, CR NUL is a bare CR (NVT rule, not in BINARY mode),
// negotiations are answered, a subnegotiation longer than
// Dialer.MaxSubneg and any other violation end the connection with a
// *ProtocolError naming the byte offset and the rule. Conn.Write doubles
// IAC and applies the NVT end-of-line rule (LF -> CR LF, lone CR -> CR NUL)
// unless our side is in BINARY mode. AppendData, AppendOption,
// AppendSubneg, AppendNAWS and AppendTermType build the exact bytes the
// Conn sends, for a plan to show.
//
// Options follow RFC 1143's Q method, so negotiation cannot loop: an
// answer is never answered, a repeated request for a settled option gets
// no reply, and refusals of one option are capped (8). Accepted by
// default: on our side BINARY (856), SUPPRESS-GO-AHEAD (858),
// TERMINAL-TYPE (1091; Dialer.TermTypes, default "DUMB") and NAWS (1073,
// when a window size is known; Conn.SetWindowSize updates it); on the
// server's side BINARY, ECHO (857) and SUPPRESS-GO-AHEAD. Everything else
// is refused. Dialer.Local/Remote change the policy (TN3270 uses EOR);
// Dialer.OnOption reports each change (a terminal client turns its local
// echo off when the server WILL ECHO). A failed answer does not fail the
// read: the data received stays readable and the read reports the end.
//
// # Synch
//
// A Synch (RFC 854) is TCP urgent data plus IAC DM in the stream. Go
// cannot read urgent data, so the connection sets SO_OOBINLINE (the DM
// stays in the stream, where the parser needs it) and, after each read,
// polls the socket for POLLPRI (urgent data pending, Linux): while a Synch
// is pending, data is dropped and commands are obeyed until the DM. On
// other systems, or over a conn that is not a socket, DM is a no-op.
//
// # Session
//
// Session pipes In to the server and the server's output to Out (no
// filtering: a caller printing to a terminal decides what is safe). It
// ends when the server closes, when In ends (after Linger), at the Quit
// command of the local prompt (Escape, ^] as in BSD telnet, then Prompt;
// ParseCommand reads BSD telnet's "send brk", "send ip", "send ao",
// "send ayt", "quit"), or with ctx. Login answers the "login:" and
// "Password:" prompts once, only when asked: telnet has no login
// protocol and a URL's user name is advisory (RFC 1738 3.8). The lines
// it types are the caller's (an access plan's), which Conn.SendLine
// sends by AppendLine's rules: CR LF in the NVT (RFC 854), CR alone once
// BINARY is on for our side (RFC 856).
package telnet
