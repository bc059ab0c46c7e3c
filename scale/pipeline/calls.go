package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// busy holds a place for each DoFn call under way in this process, as
// many as it has cores. Prism hands a worker one bundle of a stage's
// elements and splits it only once it sees the bundle's progress (on the
// extract benchmark, a fifth of a second with one core idle), and then a
// new one about every half second whatever the calls under way, whose
// keys, tens of megabytes written as fast as the text is read, compete
// for the caches and for new memory. So the scanning and writing DoFns
// run their calls on goroutines of their own, one a core: the bundle's
// elements are all under way at once, and a finished call's keys are
// reused by the next (spare).
var busy = make(chan struct{}, runtime.GOMAXPROCS(0))

// calls runs a DoFn's calls on goroutines, at most one per core in the
// process (busy), and hands their results to the bundle's emitter: a
// call's ProcessElement starts its work and emits what finished before
// it; FinishBundle waits for the rest. The zero value is ready.
type calls[T any] struct {
	mu      sync.Mutex
	running sync.WaitGroup
	done    []T
	err     error
}

// start runs work on a goroutine once a place is free, after emitting
// the results of the calls that finished. work may use the bundle's
// context after ProcessElement returns: the bundle lasts until
// FinishBundle has waited for it. After a failure it waits for
// the calls under way (so that none writes after the bundle failed) and
// returns the first error.
func (c *calls[T]) start(ctx context.Context, work func() (T, error), emit func(T)) error {
	if err := c.emitDone(emit); err != nil {
		return c.finish(emit)
	}
	select {
	case busy <- struct{}{}:
	case <-ctx.Done():
		// The bundle ends here: its calls' results go with it, and the
		// plan starts its next bundle empty.
		c.finish(func(T) {})
		return ctx.Err()
	}
	c.running.Add(1)
	go func() {
		defer c.running.Done()
		defer func() { <-busy }()
		var out T
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			out, err = work()
		}()
		c.mu.Lock()
		defer c.mu.Unlock()
		if err != nil {
			if c.err == nil {
				c.err = err
			}
			return
		}
		c.done = append(c.done, out)
	}()
	return nil
}

// finish waits for every call under way, emits their results, and
// returns the first error of any call.
func (c *calls[T]) finish(emit func(T)) error {
	c.running.Wait()
	err := c.emitDone(emit)
	c.mu.Lock()
	c.err = nil // a plan is reused for later bundles
	c.mu.Unlock()
	return err
}

// emitDone emits the results of the finished calls, or returns the first
// error.
func (c *calls[T]) emitDone(emit func(T)) error {
	c.mu.Lock()
	done, err := c.done, c.err
	c.done = nil
	c.mu.Unlock()
	if err != nil {
		return err
	}
	for _, d := range done {
		emit(d)
	}
	return nil
}
