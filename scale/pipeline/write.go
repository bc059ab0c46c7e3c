package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// ShardName is the name of output shard i of n ("part-00001-of-00004.tsv.gz").
func ShardName(i, n int, ext string) string {
	return fmt.Sprintf("part-%05d-of-%05d%s", i, n, ext)
}

// VerticesDir is where the links pipeline writes its vertex list, under
// the output directory.
const VerticesDir = "vertices"

// joinPath joins a directory and a name for any of Beam's file systems
// (a local path, gs://bucket/dir, ...).
func joinPath(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// RunsDir is where the scanning DoFns write their sorted runs, under the
// output directory, for the shards' writers to merge. Only the runs'
// names cross Beam's shuffle: Prism's data path costs about as much per
// byte as the scan itself (measured: a third of the CPU of the extract
// benchmark, and a pause between the scan and the writers), and a path
// every worker sees is needed for the output anyway. Each writer removes
// the runs it merged, and the last one the directory; urlkit-scale
// removes what a failed local run left (on a cluster, the runs of a
// failed or retried bundle remain: remove OUTPUT/.runs after the job).
const RunsDir = ".runs"

// runWriter writes the runs of one scanning DoFn call; err is its first
// failure, after which it writes nothing more.
type runWriter struct {
	fs  filesystem.Interface
	dir string
	err error
}

func newRunWriter(ctx context.Context, o *Options) (*runWriter, error) {
	dir := joinPath(o.Output, RunsDir)
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return nil, err
	}
	return &runWriter{fs: fs, dir: dir}, nil
}

func (w *runWriter) close() { w.fs.Close() }

// write writes the run of shard under a name of its own, returned with
// ok true once the file is complete.
func (w *runWriter) write(ctx context.Context, shard int, run []byte) (name string, ok bool) {
	if w.err != nil {
		return "", false
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	name = joinPath(w.dir, fmt.Sprintf("%05d-%s.run", shard, hex.EncodeToString(rnd[:])))
	f, err := w.fs.OpenWrite(ctx, name)
	if err == nil {
		_, err = f.Write(run)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		w.err = fmt.Errorf("writing a run: %w", err)
		return "", false
	}
	return name, true
}

// writeShard merges the runs of shard, named by names (sorted in place),
// and writes the shard's file: sorted rows, gzip, under a temporary name
// in the same directory, renamed to its final name once closed, so that a
// file with the final name is always whole. The runs are removed once it
// is.
func writeShard(ctx context.Context, o *Options, shard int, names []string) (string, error) {
	slices.Sort(names) // the same merge whatever the order they came in
	fs, err := filesystem.New(ctx, joinPath(o.Output, RunsDir))
	if err != nil {
		return "", err
	}
	defer fs.Close()
	// The runs are read as they are merged (runReader).
	var open []io.ReadCloser
	closeAll := func() {
		for _, rc := range open {
			rc.Close()
		}
		open = nil
	}
	defer closeAll()
	srcs := make([]io.Reader, len(names))
	for i, name := range names {
		rc, err := fs.OpenRead(ctx, name)
		if err != nil {
			return "", fmt.Errorf("reading a run: %w", err)
		}
		open, srcs[i] = append(open, rc), rc
	}
	rows, err := newMerger(srcs, names)
	if err != nil {
		return "", err
	}
	final, err := writeShardFile(ctx, o, shard, rows)
	closeAll() // before the runs are removed
	if err != nil {
		return "", err
	}
	if r, ok := fs.(filesystem.Remover); ok {
		for _, name := range names {
			r.Remove(ctx, name)
		}
		// The last writer to finish leaves the directory empty, and
		// removes it; the others fail to (a local directory is
		// removed only empty; an object store has no directories).
		r.Remove(ctx, joinPath(o.Output, RunsDir))
	}
	return final, nil
}

// writeShardFile writes the rows of shard under a temporary name and
// renames it to its final name once closed.
func writeShardFile(ctx context.Context, o *Options, shard int, rows *merger) (string, error) {
	dir, i := o.Output, shard
	vertices := o.Pipeline == Links && shard >= o.Shards
	if vertices {
		dir, i = joinPath(o.Output, VerticesDir), shard-o.Shards
	}
	final := joinPath(dir, ShardName(i, o.Shards, o.ext()))
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := joinPath(dir, "."+ShardName(i, o.Shards, o.ext())+".tmp-"+hex.EncodeToString(rnd[:]))

	fs, err := filesystem.New(ctx, final)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return "", err
	}
	err = writeRows(f, o, rows, vertices)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = filesystem.Rename(ctx, fs, tmp, final)
	}
	if err != nil {
		if r, ok := fs.(filesystem.Remover); ok {
			r.Remove(ctx, tmp)
		}
		return "", fmt.Errorf("writing %s: %w", final, err)
	}
	return final, nil
}

// writeRows writes the merged rows of one shard, in order,
// gzip-compressed at deflate's best speed (on a shard of the extract
// benchmark, 30 MB of URLs, compress/flate took 0.40 s for 4.1 MB; its
// default level 0.84 s for 3.7 MB), on all the cores (gzipWriter).
func writeRows(w io.Writer, o *Options, rows *merger, vertices bool) error {
	// Rows are written into the gzip writer's chunks as they are: a
	// bufio.Writer in between copied every byte once more.
	bw := newGzipWriter(w)
	var num []byte
	for {
		ok, err := rows.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		k, n, aux := rows.key, rows.n, rows.aux
		num = strconv.AppendInt(num[:0], n, 10)
		switch {
		case vertices:
			bw.Write(k)
			bw.WriteByte('\n')
		case o.Pipeline == Canon && o.Dedup:
			bw.Write(aux)
			bw.WriteString(`,"count":`)
			bw.Write(num)
			bw.WriteString("}\n")
		case o.Pipeline == Canon:
			// Every occurrence has its line, as the input had it.
			for range n {
				bw.Write(aux)
				bw.WriteString("}\n")
			}
		default:
			bw.Write(k)
			bw.WriteByte('\t')
			bw.Write(num)
			bw.WriteByte('\n')
		}
	}
	return bw.Close()
}
