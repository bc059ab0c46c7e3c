package fetch

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// errIdle is the cause a watchdog cancels its context with.
var errIdle = errors.New("no progress within the timeout")

// watchdog cancels a context when nothing has happened for d: it is
// kicked by every read that returns data, and paused while the user is
// being asked something. Kicking costs one atomic store; the timer
// re-arms itself for the remaining time when it fires early.
type watchdog struct {
	d      time.Duration
	start  time.Time
	last   atomic.Int64 // nanoseconds since start of the last progress
	paused atomic.Int32
	cancel context.CancelCauseFunc

	mu    sync.Mutex
	timer *time.Timer
	done  bool
}

// newWatchdog returns a context derived from parent that is cancelled
// with cause errIdle after d without progress (never if d <= 0), and the
// watchdog. stop must be called to release it.
func newWatchdog(parent context.Context, d time.Duration) (context.Context, *watchdog) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &watchdog{d: d, start: time.Now(), cancel: cancel}
	if d > 0 {
		w.timer = time.AfterFunc(d, w.fire)
	}
	return ctx, w
}

func (w *watchdog) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	idle := time.Since(w.start) - time.Duration(w.last.Load())
	if w.paused.Load() > 0 || idle < w.d {
		rest := w.d - idle
		if w.paused.Load() > 0 || rest <= 0 {
			rest = w.d
		}
		w.timer.Reset(rest)
		return
	}
	w.done = true
	w.cancel(errIdle)
}

// kick records progress.
func (w *watchdog) kick() {
	if w.timer != nil {
		w.last.Store(int64(time.Since(w.start)))
	}
}

// pause stops the clock until the returned function is called (while a
// prompt waits for the user); the time spent paused does not count.
func (w *watchdog) pause() (resume func()) {
	w.paused.Add(1)
	return func() {
		w.kick()
		w.paused.Add(-1)
	}
}

// stop releases the timer and cancels the context (with context.Canceled
// as its cause) so that everything bound to it is let go.
func (w *watchdog) stop() {
	w.mu.Lock()
	if !w.done {
		w.done = true
		if w.timer != nil {
			w.timer.Stop()
		}
	}
	w.mu.Unlock()
	w.cancel(context.Canceled)
}
