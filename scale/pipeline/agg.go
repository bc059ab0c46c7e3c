package pipeline

import (
	"encoding/binary"
	"errors"
)

// entry is a row being counted: its count, and for canon the JSON row
// kept for it (the least, so that the result does not depend on the
// order the files were read in).
type entry struct {
	n   int64
	aux string
}

// counts gathers the rows of one file or one shard.
type counts map[string]*entry

func (c counts) add(key string, n int64, aux string) {
	if e := c[key]; e != nil {
		e.n += n
		if aux != "" && (e.aux == "" || aux < e.aux) {
			e.aux = aux
		}
		return
	}
	c[key] = &entry{n: n, aux: aux}
}

// shardOf is the output shard of key among n: the same in every worker
// process, hence FNV rather than maphash's per-process seeds.
func shardOf(key string, n int) int {
	return int(fnv64(key) % uint64(n))
}

// fnv64 is FNV-1a, 64 bits.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// batches encodes c as one batch per shard among n, offset by base (the
// links pipeline writes vertices to shards n..2n-1), calling emit with
// each non-empty batch.
func (c counts) batches(n, base int, emit func(shard int, batch []byte)) {
	bufs := make([][]byte, n)
	for k, e := range c {
		s := shardOf(k, n)
		b := bufs[s]
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(e.n))
		b = binary.AppendUvarint(b, uint64(len(e.aux)))
		b = append(b, e.aux...)
		bufs[s] = b
	}
	for s, b := range bufs {
		if len(b) > 0 {
			emit(base+s, b)
		}
	}
}

var errBatch = errors.New("corrupt batch")

// merge adds the rows of a batch to c.
func (c counts) merge(b []byte) error {
	for len(b) > 0 {
		var k, aux string
		var n uint64
		var err error
		if k, b, err = str(b); err != nil {
			return err
		}
		var w int
		if n, w = binary.Uvarint(b); w <= 0 {
			return errBatch
		}
		b = b[w:]
		if aux, b, err = str(b); err != nil {
			return err
		}
		c.add(k, int64(n), aux)
	}
	return nil
}

func str(b []byte) (string, []byte, error) {
	l, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < l {
		return "", nil, errBatch
	}
	return string(b[w : w+int(l)]), b[w+int(l):], nil
}
