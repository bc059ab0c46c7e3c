// Package pipeline holds urlkit-scale's four Apache Beam pipelines (hosts,
// extract, canon, links) and the plain Go functions they run on each
// file, so that the work of a DoFn can be tested without a runner.
//
// Every pipeline has the same shape, shaped by what was measured on the
// Beam Go SDK: the input globs are matched (fileio.MatchFiles), large
// plain text files and URL lists split into byte ranges (split.go), the
// files and ranges reshuffled so that they spread over workers, and each
// is read by our own readers (package records) in one DoFn call that
// parses, normalizes and counts inside the call (per-element overhead on
// Beam is about 5 times a plain loop), and writes its rows as one sorted,
// front-coded run per output shard, a file under the output directory
// (only the runs' names cross Beam's shuffle: its data path costs per
// byte about what the scan does). The names of a shard meet in one
// GroupByKey, and the shard's writer merges the runs and writes one gzip
// file under a temporary name, renamed when complete (textio.Write would
// funnel all output through one worker, apache/beam#21031; textio.Read
// would lose lines of gzip input).
package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scale/records"
)

// The pipelines.
const (
	Hosts   = "hosts"
	Extract = "extract"
	Canon   = "canon"
	Links   = "links"
)

// Names lists the pipelines.
func Names() []string { return []string{Hosts, Extract, Canon, Links} }

// Options configure a pipeline run. They travel to the workers inside
// the DoFns, so every field is exported and plain data.
type Options struct {
	Pipeline string   // hosts, extract, canon or links
	Inputs   []string // globs of input files
	Output   string   // the directory of the output shards
	Format   string   // urls, text, cdx, warc, wat, wet; "" tells it from each file name
	Shards   int      // output files (default 4)
	By       string   // hosts: host, domain or suffix
	Mode     string   // the urlkit mode URLs are parsed and normalized in (default rfc3986)
	ByHost   bool     // extract: count per host instead of per URL
	Dedup    bool     // canon: one line per canonical form, with its count
	SkipBad  bool     // count and skip bad input instead of failing
	MaxLine  int      // the longest line (records.DefaultMaxLine when 0)
}

// formats lists the formats each pipeline reads, the first its default
// for a file whose name says nothing.
var formats = map[string][]records.Format{
	Hosts:   {records.URLs, records.CDX, records.WAT, records.WARC},
	Extract: {records.Text, records.WET},
	Canon:   {records.URLs, records.CDX},
	Links:   {records.WAT},
}

// Check validates o and fills in the defaults.
func (o *Options) Check() error {
	fs, ok := formats[o.Pipeline]
	if !ok {
		return fmt.Errorf("unknown pipeline %q (want %s)", o.Pipeline, strings.Join(Names(), ", "))
	}
	if len(o.Inputs) == 0 {
		return fmt.Errorf("no --input")
	}
	if o.Output == "" {
		return fmt.Errorf("no --output")
	}
	if o.Format != "" {
		f, err := records.ParseFormat(o.Format)
		if err != nil {
			return err
		}
		if !slices.Contains(fs, f) {
			return fmt.Errorf("%s does not read %s (it reads %s)", o.Pipeline, f, formatList(fs))
		}
	}
	if o.Shards == 0 {
		o.Shards = 4
	}
	if o.Shards < 1 || o.Shards > 99999 {
		return fmt.Errorf("--shards must be between 1 and 99999")
	}
	if o.Mode == "" {
		o.Mode = "rfc3986"
	}
	if _, err := o.mode(); err != nil {
		return err
	}
	switch o.By {
	case "":
		o.By = "host"
	case "host", "domain", "suffix":
	default:
		return fmt.Errorf("--by is host, domain or suffix, not %q", o.By)
	}
	if o.By != "host" && o.Pipeline != Hosts {
		return fmt.Errorf("--by is for hosts")
	}
	if o.ByHost && o.Pipeline != Extract {
		return fmt.Errorf("--by-host is for extract")
	}
	if o.Dedup && o.Pipeline != Canon {
		return fmt.Errorf("--dedup is for canon")
	}
	return nil
}

func (o *Options) mode() (urlkit.Mode, error) {
	var m urlkit.Mode
	err := m.UnmarshalText([]byte(o.Mode))
	return m, err
}

// formatOf is the format of the file name under o.
func (o *Options) formatOf(name string) (records.Format, error) {
	fs := formats[o.Pipeline]
	if o.Format != "" {
		return records.ParseFormat(o.Format)
	}
	if f, ok := records.FormatOf(name); ok {
		if !slices.Contains(fs, f) {
			return 0, fmt.Errorf("%s: a %s file, which %s does not read (it reads %s)", name, f, o.Pipeline, formatList(fs))
		}
		return f, nil
	}
	return fs[0], nil
}

func formatList(fs []records.Format) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, ", ")
}

// ext is the output files' extension.
func (o *Options) ext() string {
	if o.Pipeline == Canon {
		return ".jsonl.gz"
	}
	return ".tsv.gz"
}
