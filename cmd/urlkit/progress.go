package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressDelay is how long a transfer runs before the bar appears: short
// transfers show none.
const progressDelay = 500 * time.Millisecond

// progressEvery is the interval between redraws.
const progressEvery = 200 * time.Millisecond

// progress draws a one-line progress bar on a terminal (standard error)
// while a body is read through it: bytes so far, the total and percentage
// and an ETA when the size is known, the rate. It shows only a name (the
// last segment of the URL's path), never the URL, so no password can
// reach it.
type progress struct {
	w     io.Writer
	name  string
	total int64 // -1: unknown
	n     int64
	start time.Time
	last  time.Time
	drawn bool
	now   func() time.Time // for tests
}

func newProgress(w io.Writer, name string, total int64) *progress {
	p := &progress{w: w, name: name, total: total, now: time.Now}
	p.start = p.now()
	return p
}

// reader returns r counting through p.
func (p *progress) reader(r io.Reader) io.Reader { return progressReader{r, p} }

type progressReader struct {
	r io.Reader
	p *progress
}

func (pr progressReader) Read(b []byte) (int, error) {
	n, err := pr.r.Read(b)
	pr.p.add(n)
	return n, err
}

func (p *progress) add(n int) {
	p.n += int64(n)
	now := p.now()
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	p.draw(now)
}

// done finishes the line (if a bar was drawn) with the final figures.
func (p *progress) done() {
	if !p.drawn {
		return
	}
	p.draw(p.now())
	fmt.Fprintln(p.w)
}

func (p *progress) draw(now time.Time) {
	p.drawn = true
	elapsed := now.Sub(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.n) / elapsed
	}
	var b strings.Builder
	b.WriteString("\r")
	b.WriteString(clipName(p.name, 24))
	if p.total >= 0 {
		pct := 100
		if p.total > 0 {
			pct = int(p.n * 100 / p.total)
		}
		const width = 20
		fill := min(width, pct*width/100)
		fmt.Fprintf(&b, " %9s / %-9s %3d%% [%s%s]", size(p.n), size(p.total), pct,
			strings.Repeat("=", fill), strings.Repeat(" ", width-fill))
		fmt.Fprintf(&b, " %9s/s", size(int64(rate)))
		if rate > 0 && p.n < p.total {
			eta := time.Duration(float64(p.total-p.n) / rate * float64(time.Second))
			fmt.Fprintf(&b, " ETA %s", clock(eta))
		} else {
			fmt.Fprintf(&b, " in  %s", clock(now.Sub(p.start)))
		}
	} else {
		fmt.Fprintf(&b, " %9s %9s/s  %s", size(p.n), size(int64(rate)), clock(now.Sub(p.start)))
	}
	b.WriteString("\x1b[K") // clear the rest of a longer previous line
	io.WriteString(p.w, b.String())
}

func clipName(s string, n int) string {
	if len(s) > n {
		s = s[:n-3] + "..."
	}
	return fmt.Sprintf("%-*s", n, s)
}

// size formats a byte count with IEC units.
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n), 0
	for v >= unit && u < 5 {
		v /= unit
		u++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[u-1])
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
