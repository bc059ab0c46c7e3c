// Package smtp is a message submission client (RFC 5321, RFC 3207
// STARTTLS, RFC 4954 AUTH PLAIN, RFC 1870 SIZE) for urlkit's mailto:
// access, built on the same bounded-line, context-aware plumbing as the
// other clients (net/smtp is frozen and takes no context). It knows
// nothing of URLs: it takes host:port addresses, RFC 5321 mailbox
// strings and message bytes.
//
//	d := smtp.Dialer{StartTLS: true} // EHLO, STARTTLS, EHLO again
//	c, err := d.Dial(ctx, "mail.example.org:587")
//	if err != nil { ... }
//	defer c.Close()
//	if err := c.Auth(ctx, user, pass); err != nil { ... } // only over TLS
//	msg, err := smtp.BuildMessage([]smtp.Field{{"From", from}, {"To", to}, {"Subject", "hi"}}, body, smtp.MessageOptions{})
//	err = c.Send(ctx, from, []string{to}, msg) // MAIL, RCPT per address, DATA
//	var re *smtp.RecipientsError
//	if errors.As(err, &re) { ... } // per-address refusals
//	c.Quit(ctx)
//
// # Safety
//
// Addresses are checked as RFC 5321 mailboxes (CheckAddress) before
// MAIL or RCPT is sent, and every command argument is refused if it holds
// CR, LF or NUL. BuildMessage refuses CR, LF and NUL in header names and
// values, so a value cannot add a field (header injection). AUTH PLAIN is
// refused on a connection without TLS, and its credentials are masked in
// traces. Replies are read with bounded line length and line count, and
// their text is made safe for a terminal in errors.
//
// # Deviations and choices
//
//   - STARTTLS is used only when Dialer.StartTLS asks for it, and then a
//     server that does not offer it is an error, never a silent fall
//     back to clear text.
//   - In DATA, LF and CRLF line ends are sent as CRLF and a bare CR is
//     sent as CRLF (RFC 5321 section 2.3.8 forbids bare CR and LF).
//   - SMTPUTF8 (non-ASCII addresses), BDAT/CHUNKING and pipelining are
//     not used.
package smtp
