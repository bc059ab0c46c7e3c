package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
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
	// width is the terminal's width in columns (0: unknown, taken as
	// 80); the line is made to fit in one column less, since writing the
	// last column wraps on some terminals.
	width int
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
	io.WriteString(p.w, "\r"+p.line(now)+"\x1b[K") // \x1b[K clears the rest of a longer previous line
}

// line returns the progress line: the longest of its forms that fits
// the width. The full form is the name, the bytes so far and the total,
// the percentage, a bar, the rate and the ETA; the shorter ones narrow the
// bar, then drop it, clip the name, drop it, and end with the figures
// alone.
func (p *progress) line(now time.Time) string {
	room := p.width
	if room <= 0 {
		room = 80
	}
	room-- // not the last column
	elapsed := now.Sub(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.n) / elapsed
	}
	const nameWidth, nameMin, barMax, barMin = 24, 12, 20, 10
	if p.total < 0 {
		tail := fmt.Sprintf(" %9s %9s/s  %s", size(p.n), size(int64(rate)), clock(now.Sub(p.start)))
		return fitLine(room, p.name, nameWidth, tail, size(p.n))
	}
	pct := 100
	if p.total > 0 {
		pct = int(p.n * 100 / p.total)
	}
	amount := fmt.Sprintf(" %9s / %-9s %3d%%", size(p.n), size(p.total), pct)
	speed := fmt.Sprintf(" %9s/s", size(int64(rate)))
	if rate > 0 && p.n < p.total {
		eta := time.Duration(float64(p.total-p.n) / rate * float64(time.Second))
		speed += " ETA " + clock(eta)
	} else {
		speed += " in  " + clock(now.Sub(p.start))
	}
	// The bar takes what the name leaves, up to barMax; the name gives
	// up to nameWidth-nameMin columns for a bar of barMin.
	free := room - len(amount) - len(speed) - 3 // " [" and "]"
	if nw := min(nameWidth, free-barMin); nw >= nameMin {
		w := min(barMax, free-nw)
		fill := min(w, pct*w/100)
		return clipName(p.name, nw) + amount + " [" + strings.Repeat("=", fill) + strings.Repeat(" ", w-fill) + "]" + speed
	}
	return fitLine(room, p.name, nameWidth, amount+speed, strings.TrimLeft(amount, " "), fmt.Sprintf("%d%%", pct))
}

// fitLine returns the name (clipped to at most nameWidth, at least 8
// columns) followed by tail when that fits in room, else tail alone
// without its leading spaces, else the first of the shorter forms that
// fits, else the last one cut to room.
func fitLine(room int, name string, nameWidth int, tail string, shorter ...string) string {
	if w := min(nameWidth, room-len(tail)); w >= 8 {
		return clipName(name, w) + tail
	}
	forms := append([]string{strings.TrimLeft(tail, " ")}, shorter...)
	for _, f := range forms {
		if len(f) <= room {
			return f
		}
	}
	last := forms[len(forms)-1]
	return last[:max(min(room, len(last)), 0)]
}

// clipName fits s in n columns, counted as runes (a name may be UTF-8):
// cut with "..." when longer, padded with spaces when shorter.
func clipName(s string, n int) string {
	if r := []rune(s); len(r) > n {
		s = string(r[:n-3]) + "..."
	}
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
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
