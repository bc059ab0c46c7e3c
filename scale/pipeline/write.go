package pipeline

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
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

// writeShard merges the runs of shard (next yields them; an empty run
// is the marker that makes every shard exist) and writes the shard's
// file: sorted rows, gzip, under a temporary name in the same directory,
// renamed to its final name once closed, so that a file with the final
// name is always whole.
func writeShard(ctx context.Context, o *Options, shard int, next func(*[]byte) bool) (string, error) {
	var runs [][]byte
	var b []byte
	for next(&b) {
		if len(b) > 0 {
			runs = append(runs, b)
		}
		b = nil // the run is kept: the next one must not reuse it
	}
	rows, err := newMerger(runs)
	if err != nil {
		return "", err
	}
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
// gzip-compressed (at gzip's best speed: the default level cost several
// times the CPU for output a tenth smaller).
func writeRows(w io.Writer, o *Options, rows *merger, vertices bool) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	bw := bufio.NewWriterSize(zw, 256<<10)
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
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}
