package pipeline

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestCalls: every call's result is emitted once, by a later start or by
// finish; no more calls run at once than there are cores; a failed call,
// or a panicking one, is the bundle's error, returned only once every
// call under way has ended.
func TestCalls(t *testing.T) {
	var c calls[int]
	var running, most atomic.Int32
	work := func(i int) func() (int, error) {
		return func() (int, error) {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			running.Add(-1)
			return i, nil
		}
	}
	var got []int
	emit := func(i int) { got = append(got, i) }
	for i := range 20 {
		if err := c.start(context.Background(), work(i), emit); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.finish(emit); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if len(got) != 20 || got[0] != 0 || got[19] != 19 {
		t.Fatalf("emitted %v", got)
	}
	if m := most.Load(); m > int32(runtime.GOMAXPROCS(0)) {
		t.Fatalf("%d calls at once on %d cores", m, runtime.GOMAXPROCS(0))
	}

	for name, fail := range map[string]func() (int, error){
		"error": func() (int, error) { return 0, errFail },
		"panic": func() (int, error) { panic("bad input") },
	} {
		var c calls[int]
		var ended atomic.Bool
		slow := func() (int, error) { time.Sleep(20 * time.Millisecond); ended.Store(true); return 1, nil }
		c.start(context.Background(), slow, emit)
		c.start(context.Background(), fail, emit)
		err := c.finish(emit)
		if err == nil || name == "error" && !errors.Is(err, errFail) {
			t.Fatalf("%s: finish returned %v", name, err)
		}
		if !ended.Load() {
			t.Fatalf("%s: finish returned before the calls under way ended", name)
		}
		// The plan is reused for the next bundle: no error left over.
		if err := c.finish(emit); err != nil {
			t.Fatalf("%s: the next bundle starts with %v", name, err)
		}
	}

	// A bundle cancelled while its calls wait for a place: the error is
	// the context's, and nothing of it is left for the next bundle.
	hold := make(chan struct{})
	var c2 calls[int]
	got = nil
	for range runtime.GOMAXPROCS(0) {
		c2.start(context.Background(), func() (int, error) { <-hold; return 7, nil }, emit)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel(); close(hold) }()
	if err := c2.start(ctx, work(8), emit); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled bundle's call: %v", err)
	}
	if err := c2.finish(emit); err != nil || len(got) != 0 {
		t.Fatalf("the next bundle starts with %v, %v", got, err)
	}
}
