package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
)

// counts gathers the rows of one file or split: each key's count, and
// for canon the JSON row kept for it (the least, so that the result does
// not depend on the order the files were read in).
type counts struct {
	n   map[string]int64
	aux map[string]string
}

// newCounts starts with room for some distinct keys: growing a map from
// nothing rehashed it over and over.
func newCounts() counts { return newCountsFor(1 << 14) }

// newCountsFor starts with room for about n distinct keys.
func newCountsFor(n int) counts {
	return counts{n: make(map[string]int64, n), aux: map[string]string{}}
}

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
// process, hence a hash of our own rather than maphash's per-process
// seeds.
func shardOf(key string, n int) int {
	return int(hash64(key) % uint64(n))
}

// hash64 hashes s eight bytes at a step (FNV-1a's byte at a step was a
// tenth of the scan's time), with a final mix so that the low bits
// depend on every byte.
func hash64(s string) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(s)) * m
	for ; len(s) >= 8; s = s[8:] {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * m
		h ^= h >> 29
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * m
	}
	h ^= h >> 32
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 29
	return h
}

// A run is the rows of one shard counted in one file or split, sorted by
// key, encoded so that the shard's writer merges runs as they are, never
// holding a row as a Go value: each row is
//
//	uvarint(shared) uvarint(len(rest)) rest uvarint(count) uvarint(len(aux)) aux
//
// where the key is the first shared bytes of the previous row's key
// followed by rest (front coding: sorted URLs share long prefixes, and
// every byte of a run crosses Beam's shuffle, the costliest part of a run
// after the scan).

// runs encodes c as one run per shard among n, offset by base (the links
// pipeline writes vertices to shards n..2n-1), calling emit with each
// non-empty run.
func (c counts) runs(n, base int, emit func(shard int, run []byte)) {
	if len(c.n) == 0 {
		return
	}
	type row struct {
		key string
		n   int64
	}
	rows := make([][]row, n)
	size := make([]int, n)
	for k, cnt := range c.n {
		s := shardOf(k, n)
		rows[s] = append(rows[s], row{k, cnt})
		size[s] += len(k) + 4*binary.MaxVarintLen64
		if len(c.aux) > 0 {
			size[s] += len(c.aux[k])
		}
	}
	for s, rs := range rows {
		if len(rs) == 0 {
			continue
		}
		slices.SortFunc(rs, func(a, b row) int { return strings.Compare(a.key, b.key) })
		// Sized first: growing the buffer copied it over and over (the
		// bound ignores front coding's saving).
		b := make([]byte, 0, size[s])
		prev := ""
		for _, r := range rs {
			k := r.key
			shared := commonPrefix(prev, k)
			var aux string
			if len(c.aux) > 0 {
				aux = c.aux[k]
			}
			b = binary.AppendUvarint(b, uint64(shared))
			b = binary.AppendUvarint(b, uint64(len(k)-shared))
			b = append(b, k[shared:]...)
			b = binary.AppendUvarint(b, uint64(r.n))
			b = binary.AppendUvarint(b, uint64(len(aux)))
			b = append(b, aux...)
			prev = k
		}
		emit(base+s, b)
	}
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

var errRun = errors.New("corrupt run")

// runReader reads the rows of a run in order. key and aux are valid until
// the next call of next.
type runReader struct {
	b       []byte
	key     []byte
	n       uint64
	aux     []byte
	started bool // a row was read: the next key must be greater
}

// next reads the next row: false at the end of the run or, with a non-nil
// error, at a corrupt row (lengths out of bounds, keys out of order).
func (r *runReader) next() (bool, error) {
	if len(r.b) == 0 {
		return false, nil
	}
	shared, ok := r.uvarint()
	if !ok || shared > uint64(len(r.key)) {
		return false, errRun
	}
	rest, ok := r.bytes()
	if !ok {
		return false, errRun
	}
	// Keys are strictly increasing: a run holds each key once.
	if shared < uint64(len(r.key)) && (len(rest) == 0 || rest[0] <= r.key[shared]) {
		return false, errRun
	}
	if shared == uint64(len(r.key)) && len(rest) == 0 && r.started {
		return false, errRun
	}
	r.key = append(r.key[:shared], rest...)
	r.started = true
	if r.n, ok = r.uvarint(); !ok {
		return false, errRun
	}
	if r.aux, ok = r.bytes(); !ok {
		return false, errRun
	}
	return true, nil
}

func (r *runReader) uvarint() (uint64, bool) {
	v, w := binary.Uvarint(r.b)
	if w <= 0 {
		return 0, false
	}
	r.b = r.b[w:]
	return v, true
}

func (r *runReader) bytes() ([]byte, bool) {
	l, ok := r.uvarint()
	if !ok || l > uint64(len(r.b)) {
		return nil, false
	}
	v := r.b[:l]
	r.b = r.b[l:]
	return v, true
}

// merger merges the runs of a shard: each key once, its counts summed,
// the least of its aux values kept.
type merger struct {
	heap []*runReader // ordered by key; the runs not yet read to their end
	key  []byte
	n    int64
	aux  []byte
}

// newMerger reads the first row of every run.
func newMerger(runs [][]byte) (*merger, error) {
	m := &merger{}
	for _, b := range runs {
		r := &runReader{b: b}
		ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if ok {
			m.heap = append(m.heap, r)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return m, nil
}

// next merges the rows of the least key: false at the end.
func (m *merger) next() (bool, error) {
	if len(m.heap) == 0 {
		return false, nil
	}
	m.key = append(m.key[:0], m.heap[0].key...)
	m.n, m.aux = 0, m.aux[:0]
	first := true
	for len(m.heap) > 0 && bytes.Equal(m.heap[0].key, m.key) {
		r := m.heap[0]
		m.n += int64(r.n)
		if len(r.aux) > 0 && (first || bytes.Compare(r.aux, m.aux) < 0) {
			m.aux = append(m.aux[:0], r.aux...)
			first = false
		}
		ok, err := r.next()
		if err != nil {
			return false, err
		}
		if !ok {
			last := len(m.heap) - 1
			m.heap[0] = m.heap[last]
			m.heap = m.heap[:last]
		}
		if len(m.heap) > 0 {
			m.down(0)
		}
	}
	return true, nil
}

// down restores the heap's order below i.
func (m *merger) down(i int) {
	h := m.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && bytes.Compare(h[r].key, h[l].key) < 0 {
			c = r
		}
		if bytes.Compare(h[c].key, h[i].key) >= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
