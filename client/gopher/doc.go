// Package gopher is a Gopher (RFC 1436) and Gopher+ client, built for
// urlkit's gopher: access but independent of URLs: it takes host:port
// addresses and plain selector and search strings, which it never decodes
// or escapes.
//
//	var c gopher.Client // zero value: no timeout besides ctx
//	resp, err := c.Fetch(ctx, "gopher.example.org:70", "/docs", nil, nil)
//	if err != nil { ... }
//	defer resp.Close()
//	m := resp.Menu()
//	for m.Next() {
//		it := m.Item() // it.Type, it.Display, it.Selector, it.Addr()
//	}
//	if err := m.Err(); err != nil { ... }
//
// A request is one line, "selector [TAB search [TAB gopher+]] CRLF"; the
// response is a menu (types 1 and 7), a text (0 and the other text types)
// or binary data (9, 5, images...), and the client must know which from
// the item type: Response.Menu, Response.Text, or Response.Read for raw
// bytes. Gopher+ requests ("+", "!", "$") get a header giving the data
// length ("+N", "+-1" until a "." line, "+-2" until close) or an error
// ("-N", "--1", "--2": *PlusError); "!" and "$" return attribute blocks
// (+INFO, +ADMIN, +VIEWS, +ABSTRACT, +ASK, ...) parsed by
// Response.Attributes. SubmitAsk answers an ASK form.
//
// # Tolerance
//
// Real servers bend RFC 1436, so the readers accept, and the tests check
// against pygopherd and Gophernicus:
//
//   - the end of the input in place of the final "." line of a plain
//     (not Gopher+) response (pygopherd never sends it for menus and
//     files; Gophernicus not for files and CGI output); since a response
//     cut short looks the same, Response.Terminated tells the caller
//     whether the "." came, for a warning (urlkit's fetch gives one);
//   - LF instead of CRLF line ends;
//   - menu lines with missing fields (left empty) or extra ones (kept in
//     Item.Plus);
//   - no Gopher+ header in answer to a Gopher+ request (Gophernicus
//     ignores Gopher+ and sends the plain document: Response.Plus is false);
//   - a Gopher+ "+-2" header on a body that still ends with "." (pygopherd
//     for script output).
//
// # Where the data ends
//
// When the protocol says where the data ends, an early end is an error
// matching ErrShortTransfer from Response.Read: fewer bytes than a
// Gopher+ "+N" header announced, or a "+-1" response whose connection
// closes before its "." line. A "+-2" response ends at the close. A plain
// response is judged by the caller, with Response.Terminated and
// Response.BytesRead (see Tolerance).
//
// Errors a plain Gopher server reports as a type 3 menu item (pygopherd)
// or as text (Gophernicus) are not turned into Go errors: only the caller
// knows what it asked for.
//
// # Safety
//
// Selectors, search strings and Gopher+ fields are checked before anything
// is sent: CR, LF, NUL and TAB fail with an *ArgError (ErrUnsafeArg).
// Menu, header and attribute lines are bounded (Client.MaxLine), as are
// attribute line counts (Client.MaxLines) and Gopher+ error texts; bodies
// are streamed. Every network operation takes a context whose deadline
// applies to the connection and whose cancellation closes it.
package gopher
