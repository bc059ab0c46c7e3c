// Command urlkit parses, checks, escapes, resolves, extracts and fetches
// URLs as RFC 1738 and RFC 1630 define them. Run "urlkit help" for the
// commands; the contract is ../shared/contract/CLI.md.
package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"
)

// signalGrace is how long a command has, after SIGINT, SIGTERM or
// SIGHUP, to stop by itself (get -o removes its temporary file when its
// context ends) before the process exits anyway: some waits (a read of
// standard input, the open of a FIFO) cannot be interrupted.
const signalGrace = 500 * time.Millisecond

// memoryLimit is the soft limit of the Go heap (GOMEMLIMIT overrides
// it): urlkit's working set for one input line of up to 1 MiB is a few
// times the line, and the garbage collector keeps the process near it
// instead of letting the heap double between collections.
const memoryLimit = 20 << 20

// gcPercent lets the heap grow to 5 times what is live before a
// collection (GOGC overrides it): a stream of URLs keeps little alive,
// so that at the default (100) the collector ran every few thousand
// lines, a quarter of parse --json's time. memoryLimit still bounds the
// heap.
const gcPercent = 400

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	// net/http logs some of a server's faults with the standard logger
	// (bytes after a complete response: "Unsolicited response received
	// on idle HTTP channel"), a line urlkit's messages would not have,
	// passed by no redaction. The response it follows was whole; like
	// curl without -v, urlkit says nothing of the excess.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	os.Exit(runUntilSignal(ctx, stop, func(ctx context.Context) int {
		return run(ctx, os.Args[1:], SystemStreams())
	}))
}

// runUntilSignal runs cmd and returns its exit status, or
// exitInterrupted once ctx (cancelled by a signal) is done and cmd has
// not returned within signalGrace; the temporary files of get -o are
// then removed. stop restores the default handling of the signals, so
// that a second one kills the process at once.
func runUntilSignal(ctx context.Context, stop func(), cmd func(context.Context) int) int {
	done := make(chan int, 1)
	go func() { done <- cmd(ctx) }()
	select {
	case code := <-done:
		if ctx.Err() != nil && code != exitOK {
			code = exitInterrupted
		}
		stop()
		return code
	case <-ctx.Done():
	}
	stop()
	select {
	case <-done:
	case <-time.After(signalGrace):
		removePendingTemps()
	}
	restorePendingTerminals() // a session's raw mode, whatever happened
	return exitInterrupted
}
