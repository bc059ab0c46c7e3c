package pipeline

import (
	"encoding/binary"
	"errors"
)

// counts gathers the rows of one file or one shard: each key's count,
// and for canon the JSON row kept for it (the least, so that the result
// does not depend on the order the files were read in).
type counts struct {
	n   map[string]int64
	aux map[string]string
}

// newCounts starts with room for some distinct keys: growing a map from
// nothing rehashed it over and over.
func newCounts() counts { return counts{n: make(map[string]int64, 1<<14), aux: map[string]string{}} }

func (c counts) len() int { return len(c.n) }

func (c counts) add(key string, n int64, aux string) {
	c.n[key] += n
	if aux != "" {
		if old, ok := c.aux[key]; !ok || aux < old {
			c.aux[key] = aux
		}
	}
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
	if len(c.n) == 0 {
		return
	}
	// Sized first: growing the buffers copied them over and over.
	size := make([]int, n)
	for k := range c.n {
		size[shardOf(k, n)] += len(k) + len(c.aux[k]) + 3*binary.MaxVarintLen64
	}
	bufs := make([][]byte, n)
	for s := range bufs {
		if size[s] > 0 {
			bufs[s] = make([]byte, 0, size[s])
		}
	}
	for k, cnt := range c.n {
		s := shardOf(k, n)
		aux := c.aux[k]
		b := bufs[s]
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(cnt))
		b = binary.AppendUvarint(b, uint64(len(aux)))
		b = append(b, aux...)
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
