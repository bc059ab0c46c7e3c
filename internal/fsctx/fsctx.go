// Package fsctx opens files with a context: the open of a special file
// can wait without end (a FIFO's open waits for the other end), and a
// command or a fetch must still give up when its context is done.
package fsctx

import (
	"context"
	"os"
)

// OpenFile is os.OpenFile(name, flag, 0) that returns ctx's error as soon
// as ctx is done. An open that completes after that is closed, so no
// descriptor is leaked.
func OpenFile(ctx context.Context, name string, flag int) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(name, flag, 0)
		ch <- result{f, err}
	}()
	select {
	case r := <-ch:
		return r.f, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}
