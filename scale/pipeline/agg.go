package pipeline

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
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
		h = (h ^ le64(s)) * m
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
			var aux string
			if len(c.aux) > 0 {
				aux = c.aux[r.key]
			}
			b = appendRow(b, prev, r.key, r.n, aux)
			prev = r.key
		}
		emit(base+s, b)
	}
}

// appendRow appends the row of key, after the row of prev, to a run.
func appendRow[K string | []byte](b []byte, prev, key K, n int64, aux string) []byte {
	shared := commonPrefix(prev, key)
	b = binary.AppendUvarint(b, uint64(shared))
	b = binary.AppendUvarint(b, uint64(len(key)-shared))
	b = append(b, key[shared:]...)
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(len(aux)))
	return append(b, aux...)
}

// commonPrefix is the length of the prefix a and b share, compared eight
// bytes at a step (sorted URLs share long prefixes: a byte at a step was
// a twentieth of the scan).
func commonPrefix[K string | []byte](a, b K) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := le64(a[i:]) ^ le64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// le64 is the first eight bytes of s, little-endian.
func le64[K string | []byte](s K) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// keys gathers the URLs of one file or split for the extract pipeline,
// where most keys are distinct (half the benchmark's URLs carry a query
// of their own): each is appended to its shard's arena and list, and
// the lists are sorted once, when the runs are written, with equal keys
// counted as neighbours. A map counting them cost more than the rest of
// the per-URL work (a map entry and a string per URL, growing and
// clearing the table, and the garbage collector scanning it). An arena a
// shard, not one for all: a shard's sort and encoding read its keys in
// sorted order, all over its arena, and a quarter of the bytes stays in
// the caches better.
type keys struct {
	arenas [][]byte // each shard's keys
	arena  []byte   // the arena of the shard being sorted (key)
	size   int      // bytes of keys held
	shards [][]keyRef
	n      int    // keys added
	run    []byte // the run being encoded, reused
	room   int    // the keys to make room for in a shard's list
	roomB  int    // the bytes of keys to make room for, in all
	tmp    []keyRef
}

// spare keeps the keys of finished scanning calls for the next ones in
// the same process: a fresh arena grown to tens of megabytes in each
// call cost more than the sort (its copies, page faults on new memory,
// and garbage collections started by the large allocations).
var spare = make(chan *keys, 4)

// getKeys returns empty keys, with room for size bytes of keys and n keys
// per shard if new.
func getKeys(size, n int) *keys {
	select {
	case k := <-spare:
		return k
	default:
		return &keys{roomB: min(size, maxArena), room: n}
	}
}

// putKeys hands k, emptied, to a later scanning call; k may be nil. An
// arena grown past 64 MiB (a huge file's) is left to the garbage
// collector, so that an idle worker does not hold on to gigabytes.
func putKeys(k *keys) {
	if k == nil {
		return
	}
	held := 0
	for _, a := range k.arenas {
		held += cap(a)
	}
	if held > 64<<20 {
		return
	}
	select {
	case spare <- k:
	default:
	}
}

// keyRef is one key of the arena; p is the sort's cache of eight of its
// bytes.
type keyRef struct {
	p        uint64
	off, len uint32
}

// len is the number of keys added; k may be nil.
func (k *keys) len() int {
	if k == nil {
		return 0
	}
	return k.n
}

// full reports whether k holds as many key bytes as it may; k may be nil.
func (k *keys) full() bool { return k != nil && k.size > maxArena }

// maxArena bounds the bytes of the keys a scanner holds before it hands
// them on (a key's offset in its arena is 32 bits).
const maxArena = 256 << 20

// add adds one occurrence of key, to its shard among n.
func (k *keys) add(key string, n int) {
	if len(k.shards) != n { // new, or from a pipeline of other shards
		k.shards = make([][]keyRef, n)
		k.arenas = make([][]byte, n)
		for i := range k.shards {
			k.shards[i] = make([]keyRef, 0, k.room)
			k.arenas[i] = make([]byte, 0, k.roomB/n)
		}
	}
	s := shardOf(key, n)
	a := k.arenas[s]
	r := keyRef{off: uint32(len(a)), len: uint32(len(key))}
	a = append(a, key...)
	r.p = wordAt(a[r.off:], 0) // the sort's first digit, read while the key is in the cache
	k.arenas[s] = a
	k.shards[s] = append(k.shards[s], r)
	k.size += len(key)
	k.n++
}

func (k *keys) key(r keyRef) []byte { return k.arena[r.off : r.off+r.len] }

// runs encodes the keys as one run per shard (as counts.runs does), and
// empties k for reuse. A run is valid until emit returns.
func (k *keys) runs(emit func(shard int, run []byte)) {
	if k == nil {
		return
	}
	for s, rs := range k.shards {
		if len(rs) == 0 {
			continue
		}
		k.arena = k.arenas[s]
		k.sort(rs, 0)
		// The buffer is kept from run to run (and with the keys, from
		// call to call): sized for each run from the keys' lengths, it
		// was allocated, cleared and faulted in again and again, at
		// four times what front coding writes.
		b := k.run[:0]
		var prev []byte
		for i := 0; i < len(rs); {
			key := k.key(rs[i])
			j := i + 1
			// Equal keys have equal lengths and sort words (sort):
			// the bytes are compared only then.
			for j < len(rs) && rs[j].len == rs[i].len && rs[j].p == rs[i].p && bytes.Equal(k.key(rs[j]), key) {
				j++
			}
			b = appendRow(b, prev, key, int64(j-i), "")
			prev, i = key, j
		}
		emit(s, b)
		k.shards[s], k.arenas[s], k.run = rs[:0], k.arena[:0], b
	}
	k.arena, k.size, k.n = nil, 0, 0
}

// sort sorts rs by key; the keys share their first depth bytes (the
// bytes past a key's end read as zeros). It sorts by the next eight
// bytes as one number, then each group that shares them by the eight
// after (a most-significant-digit radix sort with eight bytes a digit):
// URLs share long prefixes ("https://www."), over which comparing whole
// keys went byte by byte, each time from the start, from keys out of the
// cache.
func (k *keys) sort(rs []keyRef, depth int) {
	if depth > 0 { // add read the first
		for i := range rs {
			rs[i].p = k.word(rs[i], depth)
		}
	}
	if len(rs) <= 16 {
		// Insertion, on the words where they differ: the keys' bytes
		// are compared only when their next eight are equal.
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0; j-- {
				a, b := rs[j], rs[j-1]
				if a.p > b.p || a.p == b.p && !k.less(a, b, depth) {
					break
				}
				rs[j], rs[j-1] = b, a
			}
		}
		return
	}
	k.sortByWord(rs)
	for i := 0; i < len(rs); {
		j, ended := i+1, int(rs[i].len) <= depth+8
		for j < len(rs) && rs[j].p == rs[i].p {
			ended = ended && int(rs[j].len) <= depth+8
			j++
		}
		switch {
		case j-i == 1:
		case ended:
			// Equal but for trailing zero bytes: the shorter first.
			slices.SortFunc(rs[i:j], func(a, b keyRef) int { return cmp.Compare(a.len, b.len) })
		default:
			k.sort(rs[i:j], depth+8)
		}
		i = j
	}
}

// sortByWord sorts rs by p, a byte a pass from the least significant
// (LSD radix), passing over the bytes all share ("https://" at depth 0):
// pdqsort on the words was half of the sort.
func (k *keys) sortByWord(rs []keyRef) {
	if len(rs) < 256 {
		slices.SortFunc(rs, func(a, b keyRef) int { return cmp.Compare(a.p, b.p) })
		return
	}
	var count [8][256]int
	for _, r := range rs {
		for d := range 8 {
			count[d][byte(r.p>>(8*d))]++
		}
	}
	k.tmp = slices.Grow(k.tmp[:0], len(rs))[:len(rs)]
	src, dst := rs, k.tmp
	for d := range 8 {
		c := &count[d]
		if c[byte(rs[0].p>>(8*d))] == len(rs) {
			continue
		}
		sum := 0
		for i, n := range c {
			c[i], sum = sum, sum+n
		}
		for _, r := range src {
			b := byte(r.p >> (8 * d))
			dst[c[b]] = r
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &rs[0] {
		copy(rs, src)
	}
}

// less compares two keys that share their first depth bytes.
func (k *keys) less(a, b keyRef, depth int) bool {
	d := min(depth, int(a.len), int(b.len))
	return bytes.Compare(k.key(a)[d:], k.key(b)[d:]) < 0
}

// word is the eight bytes of r's key from depth, big-endian, zeros past
// its end.
func (k *keys) word(r keyRef, depth int) uint64 { return wordAt(k.key(r), depth) }

// wordAt is the eight bytes of key from depth, big-endian, zeros past its
// end.
func wordAt(key []byte, depth int) uint64 {
	if depth+8 <= len(key) {
		return binary.BigEndian.Uint64(key[depth:])
	}
	var w uint64
	for i := depth; i < depth+8; i++ {
		w <<= 8
		if i < len(key) {
			w |= uint64(key[i])
		}
	}
	return w
}

var errRun = errors.New("corrupt run")

// runReader reads the rows of a run in order, from src through a buffer
// of its own (a shard's writer reads its runs as it merges them, 64 KiB
// at a time: read whole first, each run was out of the caches by the
// time the merge came to it, and its buffer new memory to clear and
// fault in). key and aux are valid until the next call of advance.
type runReader struct {
	name    string // the run's, for errors
	src     io.Reader
	buf     []byte // src's buffer; b is its unread part
	eof     bool   // src is read to its end
	b       []byte
	key     []byte
	n       uint64
	aux     []byte
	started bool // a row was read: the next key must be greater
	// code is key's offset-value code (merger) relative to the key
	// before it in the run, or to the empty key for the first: front
	// coding gives it for nothing. At the run's end it is codeDone.
	code uint64
}

// advance reads the next row, or codes the run done at its end; the
// error is a corrupt row's (lengths out of bounds, keys out of order, a
// row cut short) or a failed read's.
func (r *runReader) advance() error {
	ok, err := r.read()
	if !ok {
		r.code = codeDone
	}
	if err != nil && r.name != "" {
		err = fmt.Errorf("the run %s: %w", r.name, err)
	}
	return err
}

func (r *runReader) read() (bool, error) {
	for {
		ok, err := r.decode()
		if err != errShort {
			return ok, err
		}
		if r.eof {
			return false, errRun // the run ends inside a row
		}
		if err := r.fill(); err != nil {
			return false, err
		}
	}
}

// errShort: the row goes on past the bytes at hand.
var errShort = errors.New("row continues past the buffer")

// decode decodes the row at the start of b; nothing changes unless it is
// whole.
func (r *runReader) decode() (bool, error) {
	b := r.b
	if len(b) == 0 {
		if !r.eof {
			return false, errShort
		}
		return false, nil
	}
	shared, b, err := uvarintOf(b)
	if err != nil {
		return false, err
	}
	if shared > uint64(len(r.key)) {
		return false, errRun
	}
	rest, b, err := bytesOf(b)
	if err != nil {
		return false, err
	}
	n, b, err := uvarintOf(b)
	if err != nil {
		return false, err
	}
	aux, b, err := bytesOf(b)
	if err != nil {
		return false, err
	}
	// Keys are strictly increasing: a run holds each key once.
	if shared < uint64(len(r.key)) && (len(rest) == 0 || rest[0] <= r.key[shared]) {
		return false, errRun
	}
	if shared == uint64(len(r.key)) && len(rest) == 0 && r.started {
		return false, errRun
	}
	if r.started {
		r.code = codeAt(int(shared), rest)
	} else {
		r.code = codeAt(0, rest) // the empty key shares no byte
	}
	r.key = append(r.key[:shared], rest...)
	r.started = true
	r.n, r.aux, r.b = n, aux, b
	return true, nil
}

// fill reads more of src after the unread bytes, growing the buffer when
// they fill it (a row longer than the buffer).
func (r *runReader) fill() error {
	if r.buf == nil {
		r.buf = make([]byte, 64<<10)
	}
	n := copy(r.buf, r.b)
	if n == len(r.buf) {
		r.buf = append(r.buf, make([]byte, len(r.buf))...)
	}
	m, err := io.ReadAtLeast(r.src, r.buf[n:], 1)
	r.b = r.buf[:n+m]
	if err == io.EOF {
		r.eof, err = true, nil
	}
	if err != nil {
		return fmt.Errorf("reading a run: %w", err)
	}
	return nil
}

// uvarintOf decodes the uvarint at the start of b.
func uvarintOf(b []byte) (uint64, []byte, error) {
	v, w := binary.Uvarint(b)
	switch {
	case w > 0:
		return v, b[w:], nil
	case w == 0:
		return 0, nil, errShort
	default:
		return 0, nil, errRun // longer than 64 bits
	}
}

// bytesOf decodes the length-prefixed bytes at the start of b.
func bytesOf(b []byte) ([]byte, []byte, error) {
	l, b, err := uvarintOf(b)
	if err != nil {
		return nil, nil, err
	}
	if l > uint64(len(b)) {
		return nil, nil, errShort
	}
	return b[:l], b[l:], nil
}

// merger merges the runs of a shard: each key once, its counts summed,
// the least of its aux values kept. The runs are the leaves of a tree of
// losers (Knuth, TAOCP 5.4.1): each inner node holds the run that lost
// the match played there, so that after the least key's run moves on,
// one match a level finds the next, where a heap played two.
//
// Keys are compared by offset-value codes (Graefe, "Offset-value coding
// in database query processing", 2021), not byte by byte from the start:
// comparing URLs that share long prefixes was most of the merge. A run's
// code says where its key first differs from a base key and the byte it
// has there; two keys coded against the same base are ordered by their
// codes alone unless the codes are equal, and then by their bytes from
// just past that offset. Each node's loser is coded against the key that
// beat it there; the least key beat every loser on its way up, so when
// its run moves on, its next key (coded against it by the run's front
// coding) and those losers share their base, and the codes decide most
// matches; a key equal to the one before it has the code of equality,
// so repeats are found without comparing bytes either.
type merger struct {
	runs []runReader
	tree []int // tree[0] the run of the least key; tree[1:] the losers
	key  []byte
	n    int64
	aux  []byte
}

// An offset-value code orders the keys that share a base key B: a key K
// that first differs from B at offset i, where it has the byte c, is
// coded (maxOffset-i)<<9 | (c+1), so that a key closer to B has a smaller
// code (B <= K); K equal to B is coded (maxOffset-len(B))<<9, below every
// key longer than B. A run at its end is coded codeDone, above all.
const (
	maxOffset = 1<<55 - 1
	codeDone  = math.MaxUint64
)

// codeAt codes a key whose bytes from offset i on are rest (none: the key
// ends at i, equal to the base).
func codeAt(i int, rest []byte) uint64 {
	c := uint64(maxOffset-i) << 9
	if len(rest) > 0 {
		c |= uint64(rest[0]) + 1
	}
	return c
}

// newMerger reads the first row of every run, read from srcs, and plays
// the tree; names are the runs', for errors.
func newMerger(srcs []io.Reader, names []string) (*merger, error) {
	rs := make([]runReader, len(srcs))
	for i, src := range srcs {
		rs[i].src, rs[i].name = src, names[i]
	}
	m := &merger{runs: rs, tree: make([]int, max(len(rs), 1))}
	for i := range rs {
		if err := rs[i].advance(); err != nil {
			return nil, err
		}
	}
	if len(rs) > 0 {
		m.tree[0] = m.play(1)
	}
	return m, nil
}

// play plays the matches of the subtree at node (the leaves are nodes
// len(runs) and up), recording each loser, and returns its winner. Every
// run's first key is coded against the empty key, the one base they
// share.
func (m *merger) play(node int) int {
	k := len(m.runs)
	if node >= k {
		return node - k
	}
	a, b := m.match(m.play(2*node), m.play(2*node+1))
	m.tree[node] = b
	return a
}

// match plays runs a and b, whose keys are coded against the same base,
// and returns the winner (the lesser key) and the loser, coded against
// the winner.
func (m *merger) match(a, b int) (winner, loser int) {
	ra, rb := &m.runs[a], &m.runs[b]
	switch {
	case ra.code < rb.code:
		return a, b // b's first difference from a is its first from the base
	case rb.code < ra.code:
		return b, a
	case ra.code == codeDone || ra.code&0x1ff == 0:
		return a, b // both done, or both equal to the base and so to each other
	}
	// The same byte at the same offset: the bytes after it decide.
	i := maxOffset - int(ra.code>>9) + 1
	i += commonPrefix(ra.key[i:], rb.key[i:])
	if i < len(ra.key) && (i == len(rb.key) || rb.key[i] < ra.key[i]) {
		a, b, rb = b, a, ra
	}
	rb.code = codeAt(i, rb.key[i:])
	return a, b
}

// next merges the rows of the least key: false at the end.
func (m *merger) next() (bool, error) {
	if len(m.runs) == 0 {
		return false, nil
	}
	w := m.tree[0]
	if m.runs[w].code == codeDone {
		return false, nil
	}
	m.key = append(m.key[:0], m.runs[w].key...)
	m.n, m.aux = 0, m.aux[:0]
	same := codeAt(len(m.key), nil) // the code of a key equal to m.key
	first := true
	for {
		r := &m.runs[w]
		m.n += int64(r.n)
		if len(r.aux) > 0 && (first || bytes.Compare(r.aux, m.aux) < 0) {
			m.aux = append(m.aux[:0], r.aux...)
			first = false
		}
		if err := r.advance(); err != nil {
			return false, err
		}
		// The run's next key plays its way up from its leaf, against
		// losers coded against the key it follows.
		for node := (w + len(m.runs)) / 2; node >= 1; node /= 2 {
			w, m.tree[node] = m.match(w, m.tree[node])
		}
		m.tree[0] = w
		if m.runs[w].code != same {
			return true, nil
		}
	}
}
