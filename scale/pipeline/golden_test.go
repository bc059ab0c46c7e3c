package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

func TestMain(m *testing.M) {
	beam.Init()
	// Prism logs every stage at INFO; a failure is in the run's error.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	os.Exit(m.Run())
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds urlkit (the CLI the goldens come from), urlkit-scale
// and Beam's prism job server once for all the tests.
func binaries(t *testing.T) string {
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "urlkit-scale-bin")
		if buildErr != nil {
			return
		}
		// urlkit is built in the root module, with its own go.sum.
		for _, p := range [][2]string{{"../..", "./cmd/urlkit"}, {".", "github.com/urlkit/urlkit/scale/cmd/urlkit-scale"}, {".", "github.com/apache/beam/sdks/v2/go/cmd/prism"}} {
			cmd := exec.Command("go", "build", "-o", binDir, p[1])
			cmd.Dir = p[0]
			out, err := cmd.CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", p, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

// sh runs a shell pipeline of urlkit commands in dir with bin on PATH.
func sh(t *testing.T, bin, dir, script string) string {
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	return string(out)
}

// uniqC reads "uniq -c" output as a map.
func uniqC(t *testing.T, out string) map[string]int64 {
	m := map[string]int64{}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		l = strings.TrimLeft(l, " ")
		n, key, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		c, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			t.Fatalf("uniq -c line %q", l)
		}
		m[key] += c
	}
	return m
}

// runPrism runs the pipeline of o on Prism in-process and returns the
// lines of its shards (and of its vertex shards for links), checking
// that every shard is there, whole, and alone.
func runPrism(t *testing.T, o Options) (rows, vertices []string) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		t.Fatalf("%s on prism: %v", o.Pipeline, err)
	}
	return readShards(t, o)
}

func readShards(t *testing.T, o Options) (rows, vertices []string) {
	t.Helper()
	dirs := []string{o.Output}
	if o.Pipeline == Links {
		dirs = append(dirs, filepath.Join(o.Output, VerticesDir))
	}
	var out [2][]string
	for d, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			if e.Name() == RunsDir {
				t.Errorf("%s: the runs' directory is left", dir)
			}
			if !e.IsDir() && e.Name() != "_SUCCESS" {
				names = append(names, e.Name())
			}
		}
		var want []string
		for i := range o.Shards {
			want = append(want, ShardName(i, o.Shards, o.ext()))
		}
		if !slices.Equal(names, want) {
			t.Fatalf("%s holds %q, want %q", dir, names, want)
		}
		for _, n := range names {
			f, err := os.Open(filepath.Join(dir, n))
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(zr)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if !slices.IsSorted(lines) && o.Pipeline != Canon {
				t.Errorf("%s is not sorted", n)
			}
			if len(b) > 0 {
				out[d] = append(out[d], lines...)
			}
		}
	}
	return out[0], out[1]
}

// tsvCounts reads KEY<TAB>COUNT rows (the key may hold tabs).
func tsvCounts(t *testing.T, rows []string) map[string]int64 {
	m := map[string]int64{}
	for _, r := range rows {
		i := strings.LastIndexByte(r, '\t')
		n, err := strconv.ParseInt(r[i+1:], 10, 64)
		if i < 0 || err != nil {
			t.Fatalf("row %q", r)
		}
		if _, dup := m[r[:i]]; dup {
			t.Fatalf("key %q twice", r[:i])
		}
		m[r[:i]] = n
	}
	return m
}

func sameCounts(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the golden is empty", what)
	}
	if maps.Equal(got, want) {
		return
	}
	n := 0
	for k, v := range want {
		if got[k] != v && n < 10 {
			t.Errorf("%s: %q counted %d, the CLI %d", what, k, got[k], v)
			n++
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok && n < 10 {
			t.Errorf("%s: %q counted %d, absent from the CLI's", what, k, v)
			n++
		}
	}
	t.Fatalf("%s: %d keys, the CLI %d", what, len(got), len(want))
}

// cliHosts is the golden of hosts: the host of each URL of the files as
// urlkit normalize and urlkit parse give it, counted by sort | uniq -c.
func cliHosts(t *testing.T, bin, dir, listCmd string) map[string]int64 {
	out := sh(t, bin, dir, listCmd+` | urlkit normalize --mode rfc3986 2>/dev/null | grep -v '^$' | urlkit parse --mode rfc3986 --json --fields host | grep -v '"host":null' | sort | uniq -c`)
	m := map[string]int64{}
	for k, v := range uniqC(t, out) {
		var h struct{ Host string }
		if err := json.Unmarshal([]byte(k), &h); err != nil || h.Host == "" {
			t.Fatalf("parse output %q", k)
		}
		m[h.Host] += v
	}
	return m
}

func TestGoldenHosts(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	writeInputs(t, dir)
	want := cliHosts(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; }`)
	for _, in := range []string{"urls-*", "crawl.warc.gz"} {
		rows, _ := runPrism(t, Options{Pipeline: Hosts, Inputs: []string{filepath.Join(dir, in)}, Output: t.TempDir(), Shards: 3})
		got := tsvCounts(t, rows)
		if in == "crawl.warc.gz" {
			// The WARC holds the URLs without a space (the others are
			// invalid anyway).
			sameCounts(t, "hosts of "+in, got, cliHosts(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; } | grep -v '[[:blank:]]'`))
			continue
		}
		sameCounts(t, "hosts of "+in, got, want)
	}
	// CDX: the CDXJ half and the classic half.
	rows, _ := runPrism(t, Options{Pipeline: Hosts, Inputs: []string{filepath.Join(dir, "index-*")}, Output: t.TempDir(), Shards: 2})
	sameCounts(t, "hosts of CDX", tsvCounts(t, rows), cliHosts(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; } | grep -v '[[:blank:]]'`))
}

func TestGoldenExtract(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	writeInputs(t, dir)
	want := uniqC(t, sh(t, bin, dir, `urlkit extract -q prose.txt | urlkit normalize --mode rfc3986 2>/dev/null | grep -v '^$' | sort | uniq -c`))
	for _, in := range []string{"prose.txt", "text.warc.wet.gz"} {
		rows, _ := runPrism(t, Options{Pipeline: Extract, Inputs: []string{filepath.Join(dir, in)}, Output: t.TempDir(), Shards: 4})
		sameCounts(t, "extract of "+in, tsvCounts(t, rows), want)
	}
	// In the RFC 1738 mode the keys come from each URL's text parsed
	// again, not from the extractor's parsed URL (scanner.found).
	want1738 := uniqC(t, sh(t, bin, dir, `urlkit extract -q prose.txt | urlkit normalize --mode rfc1738 2>/dev/null | grep -v '^$' | sort | uniq -c`))
	rows1738, _ := runPrism(t, Options{Pipeline: Extract, Inputs: []string{filepath.Join(dir, "prose.txt")}, Output: t.TempDir(), Shards: 2, Mode: "rfc1738"})
	sameCounts(t, "extract --mode rfc1738", tsvCounts(t, rows1738), want1738)
	// --by-host: the hosts of those URLs.
	rows, _ := runPrism(t, Options{Pipeline: Extract, Inputs: []string{filepath.Join(dir, "prose.txt")}, Output: t.TempDir(), Shards: 2, ByHost: true})
	sameCounts(t, "extract --by-host", tsvCounts(t, rows), cliHosts(t, bin, dir, `urlkit extract -q prose.txt`))
}

func TestGoldenCanon(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	writeInputs(t, dir)
	// The CLI's canonical form and SURT key of every valid URL, by input.
	list := sh(t, bin, dir, `cat urls-0.txt; gzip -dc urls-1.txt.gz`)
	canonical := sh(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; } | urlkit normalize --mode rfc3986 2>/dev/null`)
	surts := sh(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; } | urlkit normalize --surt --mode rfc3986 2>/dev/null`)
	type forms struct{ canonical, surt string }
	want := map[string]forms{}
	wantLines := 0
	in, c, s := strings.Split(list, "\n"), strings.Split(canonical, "\n"), strings.Split(surts, "\n")
	for i, u := range in[:len(in)-1] {
		if c[i] == "" {
			continue // invalid: an empty line
		}
		want[u] = forms{c[i], s[i]}
		wantLines++
	}
	rows, _ := runPrism(t, Options{Pipeline: Canon, Inputs: []string{filepath.Join(dir, "urls-*")}, Output: t.TempDir(), Shards: 3})
	if len(rows) != wantLines {
		t.Errorf("%d rows, the CLI normalizes %d URLs", len(rows), wantLines)
	}
	for _, r := range rows {
		var v struct {
			URL, Canonical, SURT string
			HostName             *string `json:"host_name"`
			HostNameReversed     *string `json:"host_name_reversed"`
		}
		if err := json.Unmarshal([]byte(r), &v); err != nil {
			t.Fatalf("%v: %s", err, r)
		}
		w, ok := want[v.URL]
		if !ok || v.Canonical != w.canonical || v.SURT != w.surt {
			t.Errorf("canon %s: canonical %q surt %q; urlkit normalize: %q, --surt: %q", v.URL, v.Canonical, v.SURT, w.canonical, w.surt)
		}
		if v.HostName != nil && (v.HostNameReversed == nil || reverseHost(*v.HostNameReversed) != *v.HostName) {
			t.Errorf("canon %s: host %v reversed %v", v.URL, v.HostName, v.HostNameReversed)
		}
	}
	// --dedup: one line per canonical form, its count that of sort | uniq -c.
	wantDedup := uniqC(t, sh(t, bin, dir, `{ cat urls-0.txt; gzip -dc urls-1.txt.gz; } | urlkit normalize --mode rfc3986 2>/dev/null | grep -v '^$' | sort | uniq -c`))
	rows, _ = runPrism(t, Options{Pipeline: Canon, Inputs: []string{filepath.Join(dir, "urls-*")}, Output: t.TempDir(), Shards: 2, Dedup: true})
	got := map[string]int64{}
	for _, r := range rows {
		var v struct {
			Canonical string
			Count     int64
		}
		if err := json.Unmarshal([]byte(r), &v); err != nil {
			t.Fatal(err)
		}
		got[v.Canonical] = v.Count
	}
	sameCounts(t, "canon --dedup", got, wantDedup)
}

// cliLinks is the golden host graph: each link resolved against its page
// by urlkit resolve, normalized by urlkit normalize, its host read by
// urlkit parse; edges between reversed hosts, without self-loops.
func cliLinks(t *testing.T, bin, dir string, set inputSet) (edges map[string]int64, vertices []string) {
	// hosts gives the host of each URL (one per line), "" for none.
	hosts := func(urls []string) []string {
		write(t, filepath.Join(dir, "hosts.in"), []byte(strings.Join(urls, "\n")+"\n"))
		out := strings.Split(sh(t, bin, dir, "urlkit parse --mode rfc3986 --json --fields host < hosts.in"), "\n")
		hs := make([]string, len(urls))
		for i := range urls {
			var h struct{ Host *string }
			if json.Unmarshal([]byte(out[i]), &h) == nil && h.Host != nil {
				hs[i] = *h.Host
			}
		}
		return hs
	}
	var pages []string
	for _, p := range set.pages {
		pages = append(pages, p.TargetURI)
	}
	write(t, filepath.Join(dir, "pages.in"), []byte(strings.Join(pages, "\n")+"\n"))
	pages = strings.Split(sh(t, bin, dir, "urlkit normalize --mode rfc3986 < pages.in"), "\n")
	pageHosts := hosts(pages[:len(set.pages)])
	var targets, from []string
	for i, p := range set.pages {
		base := pages[i]
		if p.Base != "" {
			base = strings.TrimSpace(sh(t, bin, dir, "urlkit resolve "+shQuote(base)+" "+shQuote(p.Base)))
		}
		write(t, filepath.Join(dir, "links.in"), []byte(strings.Join(p.Links, "\n")+"\n"))
		out := sh(t, bin, dir, "urlkit resolve "+shQuote(base)+" < links.in 2>/dev/null | urlkit normalize --mode rfc3986 2>/dev/null")
		for _, u := range strings.Split(strings.TrimSpace(out), "\n") {
			if u != "" {
				targets = append(targets, u)
				from = append(from, reverseHost(pageHosts[i]))
			}
		}
	}
	edges = map[string]int64{}
	verts := map[string]bool{}
	for i, h := range hosts(targets) {
		if to := reverseHost(h); h != "" && to != from[i] {
			edges[from[i]+"\t"+to]++
			verts[from[i]], verts[to] = true, true
		}
	}
	return edges, slices.Sorted(maps.Keys(verts))
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestGoldenLinks(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	set := writeInputs(t, dir)
	wantEdges, wantVerts := cliLinks(t, bin, dir, set)
	rows, verts := runPrism(t, Options{Pipeline: Links, Inputs: []string{filepath.Join(dir, "*.wat.gz")}, Output: t.TempDir(), Shards: 2})
	sameCounts(t, "links", tsvCounts(t, rows), wantEdges)
	slices.Sort(verts)
	if !slices.Equal(verts, wantVerts) {
		t.Errorf("vertices %q\nwant %q", verts, wantVerts)
	}
}

// TestJobServer runs the four pipelines through a Prism job server
// started as its own process (Beam's go/cmd/prism), submitted by
// urlkit-scale with --runner universal and a LOOPBACK environment: the
// portable path Flink and Spark take. Their output must be what the
// in-process runs give, which the goldens above check against the CLI.
func TestJobServer(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	writeInputs(t, dir)
	port := freePort(t)
	js := exec.Command(filepath.Join(bin, "prism"), "--job_port", strconv.Itoa(port), "--serve_http=false", "--log_level=warn")
	var jsLog bytes.Buffer
	js.Stdout, js.Stderr = &jsLog, &jsLog
	if err := js.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		js.Process.Kill()
		js.Wait()
		if t.Failed() {
			t.Logf("job server log:\n%s", jsLog.String())
		}
	}()
	endpoint := "localhost:" + strconv.Itoa(port)
	waitListening(t, endpoint)
	for _, o := range []Options{
		{Pipeline: Hosts, Inputs: []string{filepath.Join(dir, "urls-*")}, Shards: 2},
		{Pipeline: Extract, Inputs: []string{filepath.Join(dir, "text.warc.wet.gz")}, Shards: 2},
		{Pipeline: Canon, Inputs: []string{filepath.Join(dir, "urls-*")}, Shards: 2, Dedup: true},
		{Pipeline: Links, Inputs: []string{filepath.Join(dir, "*.wat.gz")}, Shards: 2},
	} {
		o.Output = t.TempDir()
		args := []string{o.Pipeline, "--input", o.Inputs[0], "--output", o.Output, "--shards", strconv.Itoa(o.Shards),
			"--runner", "universal", "--endpoint", endpoint, "--environment_type", "LOOPBACK"}
		if o.Dedup {
			args = append(args, "--dedup")
		}
		cmd := exec.Command(filepath.Join(bin, "urlkit-scale"), args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("urlkit-scale %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if _, err := os.Stat(filepath.Join(o.Output, "_SUCCESS")); err != nil {
			t.Errorf("%s: no _SUCCESS", o.Pipeline)
		}
		got, gotV := readShards(t, o)
		o.Output = t.TempDir()
		want, wantV := runPrism(t, o)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || !slices.Equal(gotV, wantV) {
			t.Errorf("%s through the job server: %d rows, in-process %d", o.Pipeline, len(got), len(want))
		}
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(t *testing.T, addr string) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("the job server does not listen on %s", addr)
}
