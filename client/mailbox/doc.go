// Package mailbox finds messages in local mailboxes by Message-ID, and
// MIME body parts by Content-ID: the lookups behind RFC 2392's mid: and
// cid: (and RFC 1630's mid:). It knows nothing of URLs: it takes paths,
// message-ids and content-ids as plain strings, with or without their
// angle brackets.
//
// Two mailbox formats are read: Maildir directories (one file per
// message in cur/ and new/) and mbox files (messages after "From "
// separator lines, with mboxrd ">From " quoting). Both are scanned
// streaming: only a message's header is held, and only up to
// MaxHeaderBytes, so a mailbox of any size needs constant memory. Body
// parts are found with net/mail and mime/multipart and returned with
// their Content-Transfer-Encoding (base64, quoted-printable) decoded.
//
//	m, err := mailbox.Find(ctx, "id@example.org", "/home/ann/Maildir", "/var/mail/ann")
//	if err != nil { ... } // errors.Is(err, mailbox.ErrNotFound)
//	rc, err := m.Open()   // the message, as stored
//	p, err := mailbox.FindPart(rc, "logo@example.org")
//	io.Copy(dst, p.Body)  // decoded
//	rc.Close()
//
// # Choices
//
//   - Message-IDs and Content-IDs compare exactly left of the last "@" and
//     without regard to ASCII case right of it (the domain).
//   - An mbox separator is a line starting with "From " at the start of
//     the file or after an empty line; mboxrd quoting (">From ",
//     ">>From ", ...) is undone by Message.Open. Maildir++ subfolders
//     (.Folder) are not searched: give each as a path.
//   - A decoded part keeps the line breaks of the stored message (CRLF
//     in canonical MIME, LF in most mailbox files): nothing is converted.
package mailbox
