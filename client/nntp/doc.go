// Package nntp is a client for reading and posting news (RFC 3977, with
// the RFC 977 and RFC 2980 commands older servers know, and RFC 4643
// AUTHINFO USER/PASS), built for urlkit's news: and nntp: access but
// independent of URLs: it takes host:port addresses, group names,
// message-ids and article numbers as plain strings.
//
//	var d nntp.Dialer // zero value: no timeout besides ctx, default limits
//	c, err := d.Dial(ctx, "news.example.org:119") // greeting, CAPABILITIES, MODE READER
//	if err != nil { ... }
//	defer c.Close()
//	g, err := c.Group(ctx, "comp.infosystems.www")
//	s := c.Overview(ctx, g.Low, g.High) // OVER in batches, constant memory
//	for s.Next() {
//		o := s.Item() // o.Number, o.Subject, o.From, o.Date, o.MessageID
//	}
//	if err := s.Err(); err != nil { ... }
//	a, err := c.Article(ctx, "<id@example.org>")
//	_, err = io.Copy(dst, a)
//	if cerr := a.Close(); err == nil { err = cerr }
//	c.Quit(ctx)
//
// # Reading
//
// Multi-line responses (articles, overview data, group lists) are
// streamed: an [Article] is an io.Reader of its lines, dot-unstuffed and
// ended with LF; [OverviewScanner] and [GroupScanner] hold one line at a
// time. Overview asks for OVER when the server lists it, else XOVER, and
// falls back to LISTGROUP and HEAD per article on servers without
// either; it requests Dialer.OverviewBatch articles per command.
//
// # Posting
//
// [CheckArticle] checks an article's header per RFC 5536 and adds a
// Message-ID and a Date when they are absent; [Conn.Post] sends it with
// POST (340, the article dot-stuffed with CRLF line ends, 240).
//
// # Contexts, limits and safety
//
// Every network operation takes a context first: its deadline becomes
// the connection's, and cancelling it closes the connection (which then
// reports ErrClosed). Articles and scanners keep using their context
// until closed. Every line read is bounded by Dialer.MaxLine. Every
// argument is checked before anything is sent: CR, LF or NUL (and, in
// group names and message-ids, space and TAB) fail with an *ArgError
// (ErrUnsafeArg). The AUTHINFO PASS argument is masked in traces and
// never part of an error. Text from the server in error messages has its
// control bytes replaced.
//
// # Errors
//
// A negative reply is a *ReplyError{Cmd, Code, Msg}, which matches
// sentinels by code (ErrNoSuchGroup 411, ErrNoSuchArticle 420/423/430,
// ErrPostingNotAllowed 440, ErrAuthFailed 481, ...); the connection stays
// usable. Transport and protocol failures (ErrMalformedReply,
// ErrLineTooLong, timeouts, resets) close it.
package nntp
