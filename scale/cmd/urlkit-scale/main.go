// Command urlkit-scale runs urlkit's pipelines over crawl data with Apache
// Beam: in-process on the Prism runner by default, or on Flink, Spark,
// a portable job server or Dataflow (see the README of the scale module).
//
//	urlkit-scale PIPELINE --input GLOB [--input GLOB]... --output DIR [flags] [runner flags]
//
// Pipelines: hosts, extract, canon, links. The output is
// DIR/part-NNNNN-of-MMMMM.tsv.gz (.jsonl.gz for canon), complete files
// only, and DIR/_SUCCESS once the whole run has succeeded.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/urlkit/urlkit/scale/pipeline"
)

const usage = `usage: urlkit-scale PIPELINE --input GLOB [--input GLOB]... --output DIR [flags] [runner flags]

Pipelines:
  hosts    KEY<TAB>COUNT per host (--by host), registered domain (--by domain)
           or public suffix (--by suffix), from URL lists, CDX, WAT (link
           targets) or WARC (record URIs)
  extract  URL<TAB>COUNT of the URLs urlkit's extractor finds in text or WET
           records, normalized in --mode; HOST<TAB>COUNT with --by-host
  canon    one JSON object per URL of a list or CDX: url, canonical, surt,
           host_name, host_name_reversed, registered_domain, registry_suffix,
           private_domain, protocol, port, path, query (count with --dedup)
  links    FROM<TAB>TO<TAB>COUNT host graph edges from WAT links (reversed
           host names, no self-loops), and DIR/vertices/ the host list

Inputs are local files or globs (plain or gzip, multi-member gzip too);
--format is urls, text, cdx, warc, wat or wet, else told from each file name
(.warc.gz, .wat.gz, .wet.gz, .cdx, .cdxj; anything else is the pipeline's
first format). Bad input (a truncated gzip, a WARC record whose
Content-Length lies, an over-long line, binary data) stops the run with the
file and offset, or with --skip-bad is skipped and counted.

Runners: --runner prism (default, in-process, no service), or Beam's
--runner universal|flink|spark --endpoint HOST:PORT [--environment_type
LOOPBACK|PROCESS|DOCKER] [--worker_binary BIN], --runner dataflow --project P
--region R --staging_location gs://... (see the README).

Flags:
`

// inputs is the repeatable --input flag.
type inputs []string

func (i *inputs) String() string     { return strings.Join(*i, ",") }
func (i *inputs) Set(s string) error { *i = append(*i, s); return nil }

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) int {
	// A worker is started again as "bin --worker --id=..." with no
	// pipeline name: beam.Init must run before a name is required.
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	var o pipeline.Options
	var in inputs
	fs := flag.CommandLine
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		for _, n := range []string{"input", "output", "format", "shards", "mode", "by", "by-host", "dedup", "skip-bad", "max-line", "runner", "endpoint", "environment_type", "worker_binary"} {
			if f := fs.Lookup(n); f != nil {
				fmt.Fprintf(stderr, "  --%s\n    \t%s\n", f.Name, f.Usage)
			}
		}
	}
	fs.Var(&in, "input", "an input file or `GLOB` (repeatable)")
	fs.StringVar(&o.Output, "output", "", "the output `DIR`ectory")
	fs.StringVar(&o.Format, "format", "", "the input format: urls, text, cdx, warc, wat or wet (default: from each file name)")
	fs.IntVar(&o.Shards, "shards", 4, "the number of output files")
	fs.StringVar(&o.Mode, "mode", "rfc3986", "the urlkit mode URLs are parsed and normalized in")
	fs.StringVar(&o.By, "by", "host", "hosts: count per host, domain (registered domain) or suffix (public suffix)")
	fs.BoolVar(&o.ByHost, "by-host", false, "extract: count per host instead of per URL")
	fs.BoolVar(&o.Dedup, "dedup", false, "canon: one line per canonical form, with its count")
	fs.BoolVar(&o.SkipBad, "skip-bad", false, "skip and count bad input instead of stopping")
	fs.IntVar(&o.MaxLine, "max-line", 0, "the longest line, in bytes (default 1 MiB)")
	verbose := fs.Bool("v", false, "log the runner's progress")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run (in-process runners) to `FILE`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	beam.Init() // a worker runs here and does not return
	if !*verbose {
		// Prism logs each stage of a job at INFO, and a failure several
		// times at ERROR: the run's error is printed once, below.
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	if name == "" {
		fs.Usage()
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "urlkit-scale: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	o.Pipeline, o.Inputs = name, in
	if err := o.Check(); err != nil {
		fmt.Fprintf(stderr, "urlkit-scale: %v\nrun 'urlkit-scale -h' for help\n", err)
		return 2
	}
	if err := prepareOutput(o.Output); err != nil {
		fmt.Fprintf(stderr, "urlkit-scale: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "urlkit-scale: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, o); err != nil {
		fmt.Fprintf(stderr, "urlkit-scale: %v\n", err)
		return 2
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if !strings.Contains(o.Output, "://") {
		// The runs the writers did not remove: a failed run's.
		os.RemoveAll(filepath.Join(o.Output, pipeline.RunsDir))
	}
	if err != nil {
		fmt.Fprintf(stderr, "urlkit-scale: %s failed: %s\n", name, cause(err))
		return 1
	}
	if res != nil {
		report(stderr, res.Metrics())
	}
	if !strings.Contains(o.Output, "://") {
		if err := os.WriteFile(filepath.Join(o.Output, "_SUCCESS"), nil, 0o644); err != nil {
			fmt.Fprintf(stderr, "urlkit-scale: %v\n", err)
			return 1
		}
	}
	return 0
}

// prepareOutput creates a local output directory, and refuses one that
// already holds shards: a part file from an earlier run would pass for
// one of this run's.
func prepareOutput(dir string) error {
	if strings.Contains(dir, "://") {
		return nil // a remote file system: Beam's writers create it
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "part-*"))
	if len(old) > 0 || fileExists(filepath.Join(dir, "_SUCCESS")) {
		return errors.New(dir + " already holds the output of a run: remove it or choose another --output")
	}
	return nil
}

func fileExists(name string) bool { _, err := os.Stat(name); return err == nil }

// report prints the run's counters: what was read and what was left out.
func report(w io.Writer, m metrics.Results) {
	sums := map[string]int64{}
	for _, c := range m.AllMetrics().Counters() {
		if c.Namespace() == "urlkit" {
			sums[c.Name()] += c.Result()
		}
	}
	fmt.Fprintf(w, "urlkit-scale: %d files, %d records, %d URLs counted, %d invalid or without host, %d bad records skipped, %d files not read to their end\n",
		sums["files"], sums["records"], sums["urls"], sums["invalid"], sums["skipped"], sums["unread_files"])
}

// cause is the root of a failed job's error: the runner wraps a DoFn's
// error in the plan of its bundle, which says nothing to a user.
func cause(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "caused by:\n"); i >= 0 {
		msg = msg[i+len("caused by:\n"):]
		if first, rest, ok := strings.Cut(msg, "\n"); ok && strings.HasPrefix(first, "DoFn[") {
			msg = rest
		}
	}
	return strings.TrimSpace(msg)
}
