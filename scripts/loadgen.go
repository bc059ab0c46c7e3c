//go:build ignore

// loadgen sends requests through an HTTP proxy (the gateway's proxy
// form) from C concurrent clients, N requests in all, taking the target
// URLs in turn, and reports the errors, the requests per second and the
// latency percentiles. scripts/bench-serve.sh runs it; loopback only.
//
//	go run scripts/loadgen.go -proxy http://127.0.0.1:8070 -c 200 -n 10000 gopher://127.0.0.1:7070/1/ ...
//
// A response is an error unless its status is 200 and its body is the
// same length as the first good answer for that URL (a truncated or
// different object is an error too). The output is one line of
// key=value pairs.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	proxy := flag.String("proxy", "http://127.0.0.1:8070", "the gateway")
	conc := flag.Int("c", 200, "concurrent clients")
	total := flag.Int("n", 10000, "requests in all")
	flag.Parse()
	targets := flag.Args()
	if len(targets) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: give the target URLs")
		os.Exit(2)
	}
	pu, err := url.Parse(*proxy)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	// One keep-alive connection per client, as browsers and curl keep
	// them.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conc, DisableCompression: true}, Timeout: 2 * time.Minute}
	// The exact length of each target's answer, set by its first good
	// answer (a gateway that truncates or mixes objects up fails).
	lengths := make([]atomic.Int64, len(targets))
	for i := range lengths {
		lengths[i].Store(-1)
	}
	var next, errs atomic.Int64
	lat := make([][]time.Duration, *conc)
	var firstErr sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for c := range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(*total) {
					break
				}
				k := int(i) % len(targets)
				t0 := time.Now()
				n, err := get(client, pu, targets[k])
				lat[c] = append(lat[c], time.Since(t0))
				if err == nil {
					if !lengths[k].CompareAndSwap(-1, n) && lengths[k].Load() != n {
						err = fmt.Errorf("%d bytes, want %d", n, lengths[k].Load())
					}
				}
				if err != nil {
					errs.Add(1)
					firstErr.Do(func() { fmt.Fprintf(os.Stderr, "loadgen: %s: %v\n", targets[k], err) })
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(float64(len(all))*p))]
	}
	fmt.Printf("requests=%d errors=%d seconds=%.2f rps=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
		len(all), errs.Load(), elapsed.Seconds(), float64(len(all))/elapsed.Seconds(),
		ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(all[len(all)-1]))
	if errs.Load() > 0 {
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// get sends one proxy-form GET for target to the gateway and reads the
// response; it returns the body's length. The target goes on the
// request line as the URL's opaque part: net/http sends no gopher: or
// ftp: URL otherwise, even to a proxy.
func get(c *http.Client, gw *url.URL, target string) (int64, error) {
	u := *gw
	u.Opaque = target
	req, err := http.NewRequest("GET", gw.String(), nil)
	if err != nil {
		return 0, err
	}
	req.URL = &u
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("status %d", resp.StatusCode)
	}
	return n, err
}
