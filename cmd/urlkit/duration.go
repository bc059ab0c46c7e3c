package main

import (
	"errors"
	"flag"
	"math"
	"strconv"
	"time"
)

// durationVar declares a duration flag that takes Go's durations (30s,
// 2m) and, as curl's --max-time and --connect-timeout do, a number of
// seconds (5, 0.5).
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationValue)(p), name, usage)
}

type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }

func (d *durationValue) Set(s string) error {
	if v, err := time.ParseDuration(s); err == nil {
		if v < 0 {
			return errors.New("a time limit cannot be negative")
		}
		*d = durationValue(v)
		return nil
	}
	secs, err := strconv.ParseFloat(s, 64)
	if err != nil || secs < 0 || math.IsInf(secs, 0) || math.IsNaN(secs) || secs > float64(math.MaxInt64/int64(time.Second)) {
		return errors.New("not a duration: write seconds (5, 0.5) or a Go duration (30s, 2m, 1h)")
	}
	*d = durationValue(secs * float64(time.Second))
	return nil
}
