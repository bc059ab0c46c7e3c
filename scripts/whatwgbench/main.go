// Command whatwgbench compares WHATWG URL parsers on the bench URL sets
// (../../../shared/bench/urls, or URLKIT_BENCH_DIR), side by side in one
// run: urlkit's WHATWG mode, net/url.Parse (not WHATWG: the yardstick of
// issue 40), nlnwa/whatwg-url (the other Go implementation of the
// standard) and, when node is installed, Node's new URL() (ada) in a
// loop. It is a module of its own so that nlnwa/whatwg-url stays out of
// urlkit's dependencies.
//
// Each parser runs over a whole file, the parsers alternating, for
// -rounds rounds; the figure kept is the least CPU time of the thread
// that ran it (CLOCK_THREAD_CPUTIME_ID), per URL: on a machine shared with
// other work, CPU time moves less than the wall clock, and the least of
// several rounds is the one least disturbed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	nlnwa "github.com/nlnwa/whatwg-url/url"
	"github.com/urlkit/urlkit"
	"golang.org/x/sys/unix"
)

var files = []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"}

func main() {
	rounds := flag.Int("rounds", 8, "rounds per parser and file")
	dir := flag.String("dir", "", "the bench URL sets (default $URLKIT_BENCH_DIR or ../shared/bench/urls)")
	flag.Parse()
	if *dir == "" {
		*dir = os.Getenv("URLKIT_BENCH_DIR")
	}
	if *dir == "" {
		*dir = filepath.Join("..", "shared", "bench", "urls")
	}
	runtime.LockOSThread()
	nl := nlnwa.NewParser()
	parsers := []struct {
		name  string
		parse func(string) bool
	}{
		{"urlkit-whatwg", func(s string) bool { _, _, err := urlkit.ParseMode(s, urlkit.WHATWG); return err == nil }},
		{"net/url", func(s string) bool { _, err := url.Parse(s); return err == nil }},
		{"nlnwa/whatwg-url", func(s string) bool { _, err := nl.Parse(s); return err == nil }},
	}
	node, _ := exec.LookPath("node")
	fmt.Printf("%-14s %8s %14s %10s %18s %10s %12s %10s\n", "file", "URLs", "urlkit-whatwg", "net/url", "nlnwa/whatwg-url", "node URL", "vs net/url", "nlnwa/us")
	for _, f := range files {
		path := filepath.Join(*dir, f)
		lines, err := load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		best := make([]time.Duration, len(parsers))
		passes := max(1, 100000/len(lines)) // a round of at least 100,000 URLs
		for r := 0; r < *rounds; r++ {
			for i, p := range parsers {
				t0 := threadCPU()
				for range passes {
					for _, l := range lines {
						p.parse(l)
					}
				}
				d := (threadCPU() - t0) / time.Duration(passes*len(lines))
				if best[i] == 0 || d < best[i] {
					best[i] = d
				}
			}
		}
		nodeNS := "-"
		if node != "" {
			if ns, err := nodeLoop(node, path, *rounds); err == nil {
				nodeNS = strconv.FormatFloat(ns, 'f', 0, 64)
			} else {
				nodeNS = "error"
				fmt.Fprintln(os.Stderr, "node:", err)
			}
		}
		fmt.Printf("%-14s %8d %11d ns %7d ns %15d ns %7s ns %12.2f %9.1fx\n", strings.TrimSuffix(f, ".txt"), len(lines),
			best[0].Nanoseconds(), best[1].Nanoseconds(), best[2].Nanoseconds(), nodeNS,
			float64(best[0])/float64(best[1]), float64(best[2])/float64(best[0]))
	}
}

// load reads a data set as its README says every tool reads it.
func load(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > 0 {
			lines = append(lines, string(line))
		}
	}
	return lines, nil
}

// threadCPU is the CPU time of the calling thread, to the nanosecond
// (getrusage counts in scheduler ticks).
func threadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

// nodeScript parses every line with new URL() in a loop, rounds times,
// and prints the least CPU time per URL in nanoseconds (process.cpuUsage;
// Node's main thread does the work, a warm-up round first).
const nodeScript = `
const fs = require('fs');
const [file, rounds] = [process.argv[1], +process.argv[2]];
const lines = fs.readFileSync(file).toString('latin1').split('\n').map(l => l.replace(/\r$/, '')).filter(l => l.length > 0)
  .map(l => Buffer.from(l, 'latin1').toString('utf8'));
let ok = 0, best = Infinity;
for (let r = 0; r <= rounds; r++) {
  const t0 = process.cpuUsage();
  for (const l of lines) { try { new URL(l); ok++; } catch (e) {} }
  const d = process.cpuUsage(t0);
  if (r > 0) best = Math.min(best, (d.user + d.system) * 1000 / lines.length);
}
console.log(best);
`

func nodeLoop(node, path string, rounds int) (float64, error) {
	out, err := exec.Command(node, "-e", nodeScript, path, strconv.Itoa(rounds)).Output()
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
}
