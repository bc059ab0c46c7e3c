package pipeline

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	// The file systems inputs and outputs may live on.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// Workers run the binary again and find the DoFns by their registered
// names: closures would fail there.
func init() {
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(Split), error](&splitFn{})
	register.Emitter1[Split]()
	register.DoFn3x1[context.Context, Split, func(int, string), error](&scanFn{})
	register.Emitter2[int, string]()
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&writeFn{})
	register.Emitter1[string]()
	register.Function2x0(countShard)
	register.Iter1[string]()
	register.Function1x2(shardMarker)
}

// The counters of a run, in the "urlkit" namespace: what was read, and
// what was left out and why.
var (
	cFiles   = beam.NewCounter("urlkit", "files")
	cRecords = beam.NewCounter("urlkit", "records")
	cURLs    = beam.NewCounter("urlkit", "urls")
	cInvalid = beam.NewCounter("urlkit", "invalid")
	cSkipped = beam.NewCounter("urlkit", "skipped")
	cUnread  = beam.NewCounter("urlkit", "unread_files")
	cShards  = beam.NewCounter("urlkit", "shards")
)

// Build adds the pipeline o describes to the scope.
func Build(s beam.Scope, o Options) error {
	if err := o.Check(); err != nil {
		return err
	}
	globs := beam.CreateList(s, o.Inputs)
	matched := fileio.MatchAll(s, globs, fileio.MatchEmptyDisallow())
	// Spread the files, or the splits of large ones, over the workers
	// before the heavy work.
	splits := beam.ParDo(s, &splitFn{O: o}, matched)
	runs := beam.ParDo(s, &scanFn{O: o}, beam.Reshuffle(s, splits))
	n := o.Shards
	if o.Pipeline == Links {
		n *= 2 // the vertex shards follow the edge shards
	}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	markers := beam.ParDo(s, shardMarker, beam.CreateList(s, ids))
	grouped := beam.GroupByKey(s, beam.Flatten(s, runs, markers))
	// The writer emits the name of each shard it wrote, and the names
	// cross a Reshuffle: a stage with no output to the runner makes
	// Prism's progress loop spin on a core while the stage runs (its
	// data is "ready" at once, worker/bundle.go), which cost a third of
	// the CPU of a run on two cores.
	written := beam.ParDo(s, &writeFn{O: o}, grouped)
	beam.ParDo0(s, countShard, beam.Reshuffle(s, written))
	return nil
}

// countShard counts the shards written.
func countShard(ctx context.Context, _ string) { cShards.Inc(ctx, 1) }

// shardMarker is the empty run name that makes shard i exist, so that
// every output file is written even when no row falls in it.
func shardMarker(i int) (int, string) { return i, "" }

// scanFn reads one file or Split, writes its rows as one sorted run per shard
// (agg.go), and emits the runs' names.
type scanFn struct {
	O     Options
	calls calls[scanned]
}

// ProcessElement starts scanning one file, or one split of it; the run
// names are emitted by a later call or by FinishBundle.
func (f *scanFn) ProcessElement(ctx context.Context, sp Split, emit func(int, string)) error {
	return f.calls.start(ctx, func() (scanned, error) { return scanSplit(ctx, &f.O, sp) }, f.emitter(ctx, emit))
}

// FinishBundle waits for the scans of the bundle, and emits their runs.
func (f *scanFn) FinishBundle(ctx context.Context, emit func(int, string)) error {
	return f.calls.finish(f.emitter(ctx, emit))
}

// emitter emits a finished scan's runs and adds its counts to the
// counters, on the bundle's goroutine.
func (f *scanFn) emitter(ctx context.Context, emit func(int, string)) func(scanned) {
	return func(sc scanned) {
		for _, r := range sc.runs {
			emit(r.shard, r.name)
		}
		st := &sc.stats
		cFiles.Inc(ctx, st.Files)
		cRecords.Inc(ctx, st.Records)
		cURLs.Inc(ctx, st.URLs)
		cInvalid.Inc(ctx, st.Invalid)
		cSkipped.Inc(ctx, st.Skipped)
		cUnread.Inc(ctx, st.Unread)
	}
}

// scanned is what one scanning call wrote: its runs, and its counts.
type scanned struct {
	runs  []shardRun
	stats Stats
}

// shardRun names a run written for a shard.
type shardRun struct {
	shard int
	name  string
}

// scanSplit scans one file, or one split of it, into runs.
func scanSplit(ctx context.Context, o *Options, sp Split) (scanned, error) {
	var out scanned
	format, err := o.formatOf(sp.Path)
	if err != nil {
		return out, err
	}
	r, off, closeFile, err := openSplit(ctx, sp, format)
	if err != nil {
		return out, err
	}
	defer closeFile()
	s, err := newScanner(o)
	if err != nil {
		return out, err
	}
	runs, err := newRunWriter(ctx, o)
	if err != nil {
		return out, err
	}
	defer runs.close()
	put := func(shard int, run []byte) {
		if name, ok := runs.write(ctx, shard, run); ok {
			out.runs = append(out.runs, shardRun{shard, name})
		}
	}
	s.expect(sp.End - sp.Start)
	s.flush = func(s *scanner) { s.emit(put) }
	if err = s.scan(sp.Path, r, off, sp.Whole); err != nil {
		return out, err
	}
	s.emit(put)
	putKeys(s.keys)
	out.stats = s.stats
	return out, runs.err
}

// emit hands the rows counted so far on as runs, and starts afresh.
func (s *scanner) emit(put func(shard int, run []byte)) {
	s.rows.runs(s.o.Shards, 0, put)
	s.verts.runs(s.o.Shards, s.o.Shards, put)
	s.keys.runs(put)
	// A new map only for one that was used: sizing one for nothing,
	// and clearing it, cost as much as filling it.
	if s.rows.len() > 0 {
		s.rows = newCountsFor(s.room)
	}
	if s.verts.len() > 0 {
		s.verts = newCounts()
	}
}

// writeFn writes one output shard.
type writeFn struct {
	O     Options
	calls calls[string]
}

// ProcessElement starts merging the runs of a shard into its file; the
// file's name is emitted by a later call or by FinishBundle.
func (f *writeFn) ProcessElement(ctx context.Context, shard int, runs func(*string) bool, emit func(string)) error {
	// The names are read here: the iterator is valid only in this call.
	var names []string
	var name string
	for runs(&name) {
		if name != "" {
			names = append(names, name)
		}
	}
	return f.calls.start(ctx, func() (string, error) {
		return writeShard(ctx, &f.O, shard, names)
	}, emit)
}

// FinishBundle waits for the shards of the bundle, and emits their names.
func (f *writeFn) FinishBundle(_ context.Context, emit func(string)) error {
	return f.calls.finish(emit)
}
