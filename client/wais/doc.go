// Package wais is a client for the WAIS protocol (Wide Area Information
// Servers, Thinking Machines 1990-1991), the system behind RFC 1738's
// wais: URLs: Z39.50-1988 APDUs with the WAIS extensions, each behind a
// 25-byte WAIS header, on one TCP connection. It knows nothing of URLs: it
// takes host:port addresses, database names, seed words and DocIDs.
//
//	c, err := wais.Dial(ctx, "127.0.0.1:210")
//	if err != nil { ... }
//	defer c.Close()
//	sr, err := c.Search(ctx, &wais.SearchRequest{Database: "test", SeedWords: "gopher"})
//	for _, h := range sr.Hits {
//		// h.Headline, h.Score, h.Lines, h.Length, h.Types, h.DocID
//	}
//	doc := c.Open(ctx, "test", h.DocID, h.Types[0], h.Length) // io.ReadCloser
//
// # Protocol
//
// Written from the WAIS Interface Protocol Prototype Functional
// Specification 1.5 (Davis, Kahle et al., 1990), Z39.50-1988 (its encoding:
// fixed binary fields, then fields with 7-bit variable-length tags and
// lengths) and what freeWAIS-sf 2.2 puts on the wire:
//
//   - InitRequest/InitResponse (PDU 20/21) are optional: the server
//     answers a search without one, as Lynx relied on.
//   - A search is a SearchRequest (PDU 22) of query type "3": the seed
//     words and any relevance-feedback documents (DocRef: a whole document
//     or a byte range of one) in the user information field (tag 99).
//   - The SearchResponse (PDU 23) holds one header group per hit: DocID,
//     score, length, lines, types and headline (Hit), and any Z39.50-1988
//     diagnostic records (*Diagnostic, e.g. code "S1", database not
//     available).
//   - A document is retrieved with a search of query type "1" asking for
//     the element set "Document Text", whose type-1 query names the DocID,
//     the type and a byte range (TextRequest); Open fetches a document in
//     chunks of Dialer.ChunkSize bytes as it is read.
//   - A database's description is its source record, the "name.src"
//     document of the server's INFO database (Conn.Source).
//
// The request encoders (the Marshal methods) are exported, and
// FormatMessage renders bytes the way Dialer.Trace shows them, so a plan
// can print exactly what will be sent; ParseRequest and ParseResponse
// decode both directions.
//
// # freeWAIS-sf's answers
//
// What the tests against freeWAIS-sf 2.2.10 rely on: a search that finds
// nothing returns one hit, the database's catalog (score 0, headline
// "Search produced no result. Here's the Catalog for database: NAME");
// an unknown database gives diagnostic "S1" with no hit; a byte range
// past the end of a document gives diagnostic "SF" (Open treats it as the
// end when the length is unknown); DocIDs hold the server's host name,
// port and local paths, so they are taken from search responses; and a
// relevance-feedback DocRef needs its Type (the server process for the
// connection crashes without one). Seed words are required: a search with
// only documents returns the catalog.
//
// The Z39.50-1995 servers of today (Zebra, YAZ) speak a different
// protocol: BER-encoded ASN.1 without the WAIS header, other PDUs and
// query forms. It shares nothing with this encoding beyond the idea of
// tagged fields, so this package does not speak it.
//
// # Safety
//
// Seed words and DocIDs are binary fields: they are sent exactly as given,
// length-prefixed, never escaped or split. Every length read from the
// server is checked before it is used: the WAIS header's length against
// Dialer.MaxMessage before the message is read (and the buffer grows only
// as bytes arrive), every field's length against the bytes left in its
// enclosing field. A malformed message fails with a *DecodeError
// (ErrMalformed) giving its byte offset, a message cut short with
// ErrTruncated, and the connection is closed after either. Server text in
// error messages is made printable.
package wais
