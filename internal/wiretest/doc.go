// Package wiretest provides test-only helpers for urlkit's protocol
// clients: a scripted fake server for fault injection, and [ServerEnv] for
// tests that talk to the real servers started by scripts/with-servers.sh.
//
// The fake server exists to produce what real servers will not produce on
// demand: a connection reset in the middle of a transfer, a stall, a
// garbage or over-long reply. Normal protocol behaviour is tested against
// the real servers (ProFTPD, pygopherd, Gophernicus), never against a
// script, because a script only encodes the test author's reading of the
// RFC.
//
// A script is a list of [Step]s played against the first connection the
// server accepts:
//
//	srv := wiretest.Start(t,
//		wiretest.Send("220 fake"),
//		wiretest.Expect("USER anonymous"),
//		wiretest.SendRaw("220 " + strings.Repeat("x", 1<<20)), // over-long line
//	)
//	c, err := d.Dial(ctx, srv.Addr())
//
// A failing step (an Expect that does not match or does not get a line)
// is reported with t.Errorf when the test ends, so a script the client did
// not play to its end fails the test. Writes that fail because the client
// already hung up are not failures: clients under test are expected to
// give up in the middle of an over-long or endless reply. After the last
// step the server keeps the connection open until the client closes it or
// the test ends.
//
// The scaffolding the clients' tests share lives here too: [Context] for
// a per-test bound, [Open] to dial and close with the test, [Script] and
// [Steps] to build a script from a package's opening and a test's own
// steps, and [Buffer] (with [WaitFor]) for output another goroutine
// writes.
//
// This package is imported only from _test.go files; it imports nothing
// from the module.
package wiretest
