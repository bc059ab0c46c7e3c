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

// Causes of the cancellations by limits, turned into kinds by causeKind.
var (
	errMaxTime = errors.New("the maximum time for the whole transfer passed")
	errTooSlow = errors.New("slower than the speed limit")
)

// causeKind returns the Kind of a fetch that ctx's watchdog or limits
// cancelled, or nil.
func causeKind(ctx context.Context) error {
	switch context.Cause(ctx) {
	case errIdle:
		return ErrTimeout
	case errMaxTime:
		return ErrMaxTime
	case errTooSlow:
		return ErrTooSlow
	}
	return nil
}

// limits enforces Fetcher.MaxTime and the speed limit on one fetch by
// cancelling its context. A nil *limits enforces nothing.
type limits struct {
	cancel context.CancelCauseFunc
	maxT   *time.Timer
	quit   chan struct{}
	once   sync.Once
	n      atomic.Int64 // bytes so far
	paused atomic.Int32
}

// newLimits returns ctx bound to f's MaxTime and speed limit.
func (f *Fetcher) newLimits(parent context.Context) (context.Context, *limits) {
	if f.MaxTime <= 0 && f.SpeedLimit <= 0 {
		return parent, nil
	}
	ctx, cancel := context.WithCancelCause(parent)
	l := &limits{cancel: cancel, quit: make(chan struct{})}
	if f.MaxTime > 0 {
		l.maxT = time.AfterFunc(f.MaxTime, func() { cancel(errMaxTime) })
	}
	if f.SpeedLimit > 0 {
		window := f.SpeedTime
		if window <= 0 {
			window = 30 * time.Second
		}
		go l.watchSpeed(f.SpeedLimit, window)
	}
	return ctx, l
}

// watchSpeed cancels the fetch when, over every check in the last window,
// the average rate stayed below limit bytes per second. It checks ten
// times per window (at least every second), as curl does once a second.
func (l *limits) watchSpeed(limit int64, window time.Duration) {
	every := min(window/10, time.Second)
	if every <= 0 {
		every = window
	}
	t := time.NewTicker(every)
	defer t.Stop()
	type sample struct {
		at time.Time
		n  int64
	}
	start := time.Now()
	samples := []sample{{start, 0}}
	for {
		select {
		case <-l.quit:
			return
		case now := <-t.C:
			n := l.n.Load()
			if l.paused.Load() > 0 {
				// A prompt waits for the user: start the window again.
				samples = append(samples[:0], sample{now, n})
				continue
			}
			samples = append(samples, sample{now, n})
			// Keep the samples of the last window (and one before it).
			for len(samples) > 2 && now.Sub(samples[1].at) >= window {
				samples = samples[1:]
			}
			first := samples[0]
			span := now.Sub(first.at)
			if span < window {
				continue
			}
			if float64(n-first.n)/span.Seconds() < float64(limit) {
				l.cancel(errTooSlow)
				return
			}
		}
	}
}

func (l *limits) add(n int) {
	if l != nil {
		l.n.Add(int64(n))
	}
}

func (l *limits) pause() {
	if l != nil {
		l.paused.Add(1)
	}
}

func (l *limits) resume() {
	if l != nil {
		l.paused.Add(-1)
	}
}

// stop releases the timers and cancels the context.
func (l *limits) stop() {
	if l == nil {
		return
	}
	l.once.Do(func() {
		if l.maxT != nil {
			l.maxT.Stop()
		}
		close(l.quit)
		l.cancel(context.Canceled)
	})
}
