package main

// get's retries (curl's --retry, --retry-delay, --retry-max-time): a URL
// whose fetch fails for a transient reason (fetch.Transient) is tried
// again after an exponential backoff with jitter, or after the delay the
// server asked for (HTTP Retry-After); a permanent failure never is.

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/urlkit/urlkit/fetch"
)

// retryOptions are the retry flags.
type retryOptions struct {
	count   int           // --retry: retries after the first try
	delay   time.Duration // --retry-delay: a fixed delay instead of the backoff
	maxTime time.Duration // --retry-max-time: no retry starts after this long
}

// Backoff bounds: the first wait, and the longest (curl's are 1s and 10
// minutes).
const (
	retryFirst = time.Second
	retryMax   = 10 * time.Minute
)

func (r *retryOptions) flags(fs *flag.FlagSet) {
	fs.IntVar(&r.count, "retry", 0, "try a URL that fails for a transient reason up to `N` more times")
	durationVar(fs, &r.delay, "retry-delay", 0, "wait `D` between retries (default: 1s, doubling, with jitter)")
	durationVar(fs, &r.maxTime, "retry-max-time", 0, "start no retry once `D` has passed since the first try (0: no limit)")
}

// wait returns the delay before retry number n (from 1): the server's
// request when it made one, else --retry-delay, else 1s doubling up to
// retryMax, each with up to a quarter of random jitter so that many
// clients do not return at once.
func (r *retryOptions) wait(n int, asked time.Duration) time.Duration {
	if asked > 0 {
		return asked
	}
	if r.delay > 0 {
		return r.delay
	}
	d := retryFirst << min(n-1, 20)
	if d > retryMax || d <= 0 {
		d = retryMax
	}
	return d + time.Duration(rand.Int64N(int64(d)/4+1))
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// getWithRetries fetches one URL, retrying transient failures as the
// flags allow, prints its error (and, on a terminal, its summary) and
// returns its exit status: that of the last try.
func (o *getOptions) getWithRetries(ctx context.Context, st *Streams, f *fetch.Fetcher, job getJob, stdout *sync.Mutex) int {
	start := time.Now()
	var a attempt
	for try := 0; ; try++ {
		a = o.get(ctx, st, f, job, stdout)
		if a.code == exitOK || try >= o.retry.count || ctx.Err() != nil {
			break
		}
		transient, asked := fetch.Transient(a.cause)
		if !transient || a.touched {
			break
		}
		d := o.retry.wait(try+1, asked)
		if o.retry.maxTime > 0 && time.Since(start)+d > o.retry.maxTime {
			break
		}
		fmt.Fprintf(st.Err, "%s; retry %d of %d in %s\n", a.msg, try+1, o.retry.count, d.Round(time.Millisecond))
		if !sleep(ctx, d) {
			break
		}
	}
	if a.code != exitOK {
		fmt.Fprintln(st.Err, a.msg)
	}
	if ctx.Err() != nil {
		a.code = exitInterrupted
	}
	if st.ErrTTY && !o.quiet && ctx.Err() == nil {
		summary(st, job, a.n, time.Since(start), a.code)
	}
	return a.code
}

// retryHelp is the part of get -h about retries.
const retryHelp = `Retries: --retry N tries a URL that failed for a transient reason up to N
more times: a connection refused, reset or cut short, a timeout, an FTP
4xx reply, an HTTP 408, 429 or 5xx (waiting as its Retry-After asks).
The wait starts at 1s and doubles (with up to 25% random jitter), or is
--retry-delay D; no retry starts once --retry-max-time D has passed. A
permanent failure (FTP 5xx, HTTP 4xx, a refused URL or login) is never
retried, nor a transfer that already wrote to standard output.`
