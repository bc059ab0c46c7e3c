// Package prospero is a client for the Prospero directory service (USC/ISI,
// protocol version 5), the system behind RFC 1738's prospero: URLs:
// request and reply messages of text lines, carried over UDP by ARDP, the
// Asynchronous Reliable Delivery Protocol. It knows nothing of URLs: it
// takes host:port addresses and hsonames (host-specific object names,
// such as "AFTP/pub").
//
//	var c prospero.Client // zero value: defaults below
//	links, err := c.List(ctx, "127.0.0.1:1525", "AFTP/pub", nil, []string{})
//	for _, l := range links {
//		// l.Name, l.Target (FILE, DIRECTORY, ...), l.Host, l.Hsoname, l.Attributes
//	}
//	data, err := c.Contents(ctx, "127.0.0.1:1525", "AFTP/pub/hello.txt")
//
// Written from "The Prospero Protocol, Version 5" (Neuman and Augart,
// draft of 12 June 1993, doc/protocol.tex of the Prospero release),
// including its ARDP appendix, and checked against Prospero Alpha.5.2a's
// dirsrv and its vls client.
//
// # Requests
//
// ListRequest and ObjectInfoRequest build the exact request messages
// (VERSION, AUTHENTICATE with UNAUTHENTICATED, DIRECTORY, LIST with
// components and attributes, GET-OBJECT-INFO), so a plan can print what
// Exchange sends; Client.Trace shows the same lines. Hsonames and
// components are always quoted (Quote: a quote is doubled); CR, LF and
// NUL are refused before anything is sent (*ArgError, ErrUnsafeArg), and
// so are names longer than MaxName (1024, Prospero's MAXPATHLEN;
// ErrNameTooLong): dirsrv crashes on longer ones. LIST components form a
// multiple-component name relative to the directory, the last of which
// may hold wildcards ("sub", "*").
//
// # Replies
//
// ParseReply reads LINK, ATTRIBUTE (with > nesting), FAILURE, WARNING,
// ERROR, NONE-FOUND and UNRESOLVED lines. Tokens follow the protocol's
// quoting (Tokens): a quote may start inside a token (AFTP'/pub/x'), a
// doubled quote inside quotes is a quote, and a quoted token may span
// lines. A FAILURE is returned as a *Failure, an ERROR as a
// *ProtocolError; a reply that breaks the grammar gives a *ParseError
// (ErrMalformed) with its line and byte offset.
//
// # ARDP
//
// A request goes out in packets with 9-byte headers (connection id,
// packet number, total, received-through); replies come with 3-byte
// headers (one packet) or longer ones (packet number and total, flags)
// and are reassembled in order. Packets the server marks "please
// acknowledge" (the end of each window of its multi-packet replies) are
// acknowledged; without progress the request is sent again with a
// doubling timeout (RetryTimeout, Retries), and a server's wait notice
// postpones the next retransmission (at most MaxWait). MaxTime bounds an
// exchange whatever happens.
//
// # Safety
//
// Each exchange uses its own UDP socket connected to the server's
// address, so the kernel drops datagrams from any other address, and a
// fresh random connection id: datagrams with another id or a malformed
// header are dropped without effect on timers. (One exception to "the
// id sent": Prospero's own server swaps the id's two bytes in what it
// sends after an acknowledgement or a retransmitted request, so once one
// of those went out, that form is accepted too.) A flood of bogus
// datagrams thus neither stalls an exchange beyond its retry schedule
// nor grows memory: one fixed receive buffer, and reassembly bounded by
// MaxReply bytes and MaxPackets packets. Server text in errors is made
// printable.
package prospero
