// Command urlkit parses, checks, escapes, resolves, extracts and fetches
// URLs as RFC 1738 and RFC 1630 define them. Run "urlkit help" for the
// commands; the contract is ../shared/contract/CLI.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// SIGTERM and SIGHUP too: get -o removes its temporary file when the
	// context ends, whichever way the command is stopped.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], SystemStreams())
	if ctx.Err() != nil && code != exitOK {
		code = exitInterrupted
	}
	stop()
	os.Exit(code)
}
