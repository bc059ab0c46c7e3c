//go:build race

package main

// raceEnabled: the race detector multiplies memory use; the memory test
// skips.
const raceEnabled = true
