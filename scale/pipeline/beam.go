package pipeline

import (
	"context"
	"runtime"

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
// (runs.go), and emits the runs' names.
type scanFn struct {
	O Options
}

// scanning holds a place for each scanning call under way in this
// process, as many as it has cores: Prism hands a worker more calls than
// that (on the extract benchmark, a new one about every half second,
// whatever the ones under way), and each call's keys, tens of megabytes
// written as fast as the text is read, then compete for the caches and
// for new memory. With as many calls as cores, a finished call's keys
// are reused by the next (spare), and the peak memory of the benchmark
// fell from 305 to 221 MB.
var scanning = make(chan struct{}, runtime.GOMAXPROCS(0))

// ProcessElement scans one file, or one split of it.
func (f *scanFn) ProcessElement(ctx context.Context, sp Split, emit func(int, string)) error {
	select {
	case scanning <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-scanning }()
	format, err := f.O.formatOf(sp.Path)
	if err != nil {
		return err
	}
	r, off, closeFile, err := openSplit(ctx, sp, format)
	if err != nil {
		return err
	}
	defer closeFile()
	s, err := newScanner(&f.O)
	if err != nil {
		return err
	}
	runs, err := newRunWriter(ctx, &f.O)
	if err != nil {
		return err
	}
	defer runs.close()
	put := func(shard int, run []byte) {
		if name, ok := runs.write(ctx, shard, run); ok {
			emit(shard, name)
		}
	}
	s.expect(sp.End - sp.Start)
	s.flush = func(s *scanner) { s.emit(put) }
	err = s.scan(sp.Path, r, off, sp.Whole)
	if err != nil {
		return err
	}
	s.emit(put)
	putKeys(s.keys)
	if runs.err != nil {
		return runs.err
	}
	st := &s.stats
	cFiles.Inc(ctx, st.Files)
	cRecords.Inc(ctx, st.Records)
	cURLs.Inc(ctx, st.URLs)
	cInvalid.Inc(ctx, st.Invalid)
	cSkipped.Inc(ctx, st.Skipped)
	cUnread.Inc(ctx, st.Unread)
	return nil
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
	O Options
}

// ProcessElement merges the runs of a shard and writes its file.
func (f *writeFn) ProcessElement(ctx context.Context, shard int, runs func(*string) bool, emit func(string)) error {
	name, err := writeShard(ctx, &f.O, shard, runs)
	if err != nil {
		return err
	}
	emit(name)
	return nil
}
