package pipeline

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// mergeAll merges runs as a shard's writer does, into a map, and checks
// that the keys come in increasing order; and that the runs read a byte
// at a time through runReader's buffer (which then grows for any row
// longer than it) merge the same, or fail the same.
func mergeAll(t testing.TB, runs [][]byte) (map[string]int64, map[string]string, error) {
	merge := func(reader func(io.Reader) io.Reader) (map[string]int64, map[string]string, error) {
		srcs := make([]io.Reader, len(runs))
		names := make([]string, len(runs))
		for i, b := range runs {
			srcs[i], names[i] = reader(bytes.NewReader(b)), fmt.Sprint("run", i)
		}
		m, err := newMerger(srcs, names)
		n, aux, err := drain(t, m, err)
		if err != nil && !strings.Contains(err.Error(), "run") {
			t.Fatalf("a run's error names no run: %v", err)
		}
		return n, aux, err
	}
	n, aux, err := merge(func(r io.Reader) io.Reader { return r })
	n2, aux2, err2 := merge(iotest.OneByteReader)
	if (err == nil) != (err2 == nil) || !maps.Equal(n, n2) || !maps.Equal(aux, aux2) {
		t.Fatalf("runs read in one piece and a byte at a time merge apart: %v, %v", err, err2)
	}
	return n, aux, err
}

func drain(t testing.TB, m *merger, err error) (map[string]int64, map[string]string, error) {
	if err != nil {
		return nil, nil, err
	}
	n, aux := map[string]int64{}, map[string]string{}
	prev := ""
	for i := 0; ; i++ {
		ok, err := m.next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return n, aux, nil
		}
		k := string(m.key)
		if i > 0 && k <= prev {
			t.Fatalf("merged key %q after %q", k, prev)
		}
		prev = k
		n[k] = m.n
		if len(m.aux) > 0 {
			aux[k] = string(m.aux)
		}
	}
}

// TestRunsMerge: the runs of several files, each split by shard, merge
// into every key once with its counts summed and the least aux kept, in
// order, whatever the order of the runs.
func TestRunsMerge(t *testing.T) {
	files := []counts{newCounts(), newCounts(), newCounts()}
	want, wantAux := map[string]int64{}, map[string]string{}
	for i := range 3000 {
		k := fmt.Sprintf("http://h%d.example/p/%d?q=%d", i%7, i%500, i%3)
		c := files[i%3]
		aux := fmt.Sprintf("row%d", i%11)
		c.add(k, 1, aux)
		want[k]++
		if old, ok := wantAux[k]; !ok || aux < old {
			wantAux[k] = aux
		}
	}
	files[1].add("", 2, "") // an empty key is a key too
	want[""] = 2
	// Rows longer than a streamed run's buffer.
	long := "http://h.example/" + strings.Repeat("x", 100<<10)
	files[2].add(long, 1, strings.Repeat("a", 70<<10))
	files[0].add(long+"y", 3, "")
	want[long], wantAux[long], want[long+"y"] = 1, strings.Repeat("a", 70<<10), 3
	const shards = 3
	runs := make([][][]byte, shards)
	for _, c := range files {
		c.runs(shards, 0, func(s int, b []byte) { runs[s] = append(runs[s], b) })
	}
	got, gotAux := map[string]int64{}, map[string]string{}
	for s := range shards {
		slices.Reverse(runs[s])
		n, aux, err := mergeAll(t, runs[s])
		if err != nil {
			t.Fatal(err)
		}
		for k := range n {
			if shardOf(k, shards) != s {
				t.Errorf("%q in shard %d, want %d", k, s, shardOf(k, shards))
			}
		}
		maps.Copy(got, n)
		maps.Copy(gotAux, aux)
	}
	if !maps.Equal(got, want) || !maps.Equal(gotAux, wantAux) {
		t.Fatalf("merged %d keys (aux %d), want %d (%d)", len(got), len(gotAux), len(want), len(wantAux))
	}
}

// rowsOf hands the rows s counted on as runs, as a scanning call does
// at its end, and merges the runs of each shard, as the shards' writers
// do.
func rowsOf(t *testing.T, s *scanner) map[string]int64 {
	t.Helper()
	runs := map[int][][]byte{}
	s.emit(func(shard int, run []byte) { runs[shard] = append(runs[shard], bytes.Clone(run)) })
	rows := map[string]int64{}
	for _, rs := range runs {
		n, _, err := mergeAll(t, rs)
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(rows, n)
	}
	return rows
}

// TestKeys: the extract pipeline's keys, sorted eight bytes at a step,
// come out as runs in the order of bytes.Compare, each key once with its
// count, in its shard: keys that share long prefixes, end at or around
// a multiple of eight bytes, repeat, or differ only in trailing zero
// bytes (which the sort reads past a key's end).
func TestKeys(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var all []string
	for range 5000 {
		k := fmt.Sprintf("https://www.h%d.example/%s?id=%d", rnd.IntN(40), strings.Repeat("p/", rnd.IntN(12)), rnd.IntN(300))
		all = append(all, k[:len(k)-rnd.IntN(3)*rnd.IntN(len(k))/2])
	}
	all = append(all, "", "", "a", "a\x00", "a\x00\x00", "https:/", "https://", "https://\x00", "https://www.h1\x00\x00\x00")
	all = append(all, all[:700]...)
	const shards = 3
	for _, flush := range []int{0, 1000} { // one run per shard, or several
		k := getKeys(0, 0)
		want := map[string]int64{}
		runs := make([][][]byte, shards)
		put := func(s int, b []byte) { runs[s] = append(runs[s], bytes.Clone(b)) }
		for i, key := range all {
			k.add(key, shards)
			want[key]++
			if flush > 0 && i%flush == flush-1 {
				k.runs(put)
			}
		}
		k.runs(put)
		if k.len() != 0 || k.size != 0 || len(k.arenas[0]) != 0 {
			t.Fatalf("keys not emptied: %d, %d bytes", k.len(), k.size)
		}
		got := map[string]int64{}
		for s, rs := range runs {
			if flush == 0 && len(rs) != 1 {
				t.Fatalf("shard %d: %d runs", s, len(rs))
			}
			// mergeAll fails on a run whose keys are out of order.
			n, _, err := mergeAll(t, rs)
			if err != nil {
				t.Fatal(err)
			}
			for key := range n {
				if shardOf(key, shards) != s {
					t.Errorf("%q in shard %d", key, s)
				}
			}
			maps.Copy(got, n)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("flush %d: %d keys, want %d", flush, len(got), len(want))
		}
		putKeys(k)
	}
}

// TestKeysSort: the sort agrees with bytes.Compare on keys that tie over
// many eight-byte words.
func TestKeysSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	k := &keys{}
	var want []string
	for range 3000 {
		b := []byte(strings.Repeat("abcdefgh", rnd.IntN(4)))
		for range rnd.IntN(10) {
			b = append(b, "\x00ab"[rnd.IntN(3)])
		}
		k.add(string(b), 1)
		want = append(want, string(b))
	}
	rs := k.shards[0]
	k.arena = k.arenas[0]
	k.sort(rs, 0)
	got := make([]string, len(rs))
	for i, r := range rs {
		got[i] = string(k.key(r))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatal("keys sorted out of bytes.Compare's order")
	}
}

// TestRunCorrupt: a run whose rows are cut short, out of order or
// repeated is an error, not a wrong count.
func TestRunCorrupt(t *testing.T) {
	c := newCounts()
	c.add("http://a.example/", 1, "")
	c.add("http://b.example/", 2, "")
	var run []byte
	c.runs(1, 0, func(_ int, b []byte) { run = b })
	for name, b := range map[string][]byte{
		"cut":       run[:len(run)-3],
		"shared":    {5, 1, 'a', 1, 0},
		"length":    {0, 9, 'a', 1, 0},
		"order":     {0, 1, 'b', 1, 0, 0, 1, 'a', 1, 0},
		"repeated":  {0, 1, 'a', 1, 0, 1, 0, 1, 0},
		"no count":  {0, 1, 'a'},
		"aux large": {0, 1, 'a', 1, 4, 'x'},
	} {
		if _, _, err := mergeAll(t, [][]byte{b}); err == nil {
			t.Errorf("%s: a corrupt run merged", name)
		}
	}
	if n, _, err := mergeAll(t, [][]byte{run}); err != nil || n["http://b.example/"] != 2 {
		t.Fatalf("%v %v", n, err)
	}
}

// FuzzRun: any bytes given as runs are merged or refused, never a panic;
// merged keys come in increasing order; and rows encoded as runs merge
// back to themselves.
func FuzzRun(f *testing.F) {
	c := newCounts()
	c.add("http://a.example/x", 3, `{"url":"a"`)
	c.add("http://a.example/y", 1, "")
	c.runs(1, 0, func(_ int, b []byte) { f.Add(b, "http://a.example/", "http://a.example/z") })
	f.Fuzz(func(t *testing.T, run []byte, k1, k2 string) {
		mergeAll(t, [][]byte{run, run[len(run)/2:]})
		c := newCounts()
		c.add(k1, 1, k2)
		c.add(k2, 2, "")
		var runs [][]byte
		c.runs(2, 0, func(_ int, b []byte) { runs = append(runs, b) })
		n, _, err := mergeAll(t, runs)
		if err != nil || !maps.Equal(n, c.n) {
			t.Fatalf("%q %q: merged %v %v, want %v", k1, k2, n, err, c.n)
		}
	})
}

// TestMergeCodes: runs whose keys share prefixes at every length, are
// prefixes of each other, repeat across runs or are empty merge into
// each key once with its counts summed, in order, for any number of
// runs: the offset-value codes decide matches on every path (codes
// apart, equal codes, keys equal to the base).
func TestMergeCodes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, nruns := range []int{1, 2, 3, 5, 8, 17, 33} {
		for round := range 20 {
			files := make([]counts, nruns)
			for i := range files {
				files[i] = newCounts()
			}
			want := map[string]int64{}
			for range 40 * nruns {
				b := make([]byte, rnd.IntN(7))
				for i := range b {
					b[i] = "ab"[rnd.IntN(2)]
				}
				if round%2 == 1 && len(b) > 2 {
					b[1] = 0 // a zero byte: coded as 1, above a key's end
				}
				k := "http://x/" + string(b)
				if rnd.IntN(9) == 0 {
					k = string(b) // no shared prefix at all
				}
				n := int64(1 + rnd.IntN(3))
				files[rnd.IntN(nruns)].add(k, n, "")
				want[k] += n
			}
			var runs [][]byte
			for _, c := range files {
				c.runs(1, 0, func(_ int, b []byte) { runs = append(runs, b) })
			}
			got, _, err := mergeAll(t, runs)
			if err != nil || !maps.Equal(got, want) {
				t.Fatalf("%d runs: merged %d keys (%v), want %d", nruns, len(got), err, len(want))
			}
		}
	}
}

// FuzzMerge: keys given as lines, dealt to runs by their first byte,
// merge to what a map counts.
func FuzzMerge(f *testing.F) {
	f.Add([]byte("a\nab\nabc\n\nab\nb\nba\na"), uint8(3))
	f.Add([]byte("http://x/a\nhttp://x/a\nhttp://x/\x00\nhttp://x/"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, nruns uint8) {
		n := 1 + int(nruns%16)
		files := make([]counts, n)
		for i := range files {
			files[i] = newCounts()
		}
		want := map[string]int64{}
		for i, k := range strings.Split(string(data), "\n") {
			r := i % n
			if len(k) > 0 {
				r = int(k[0]) % n
			}
			files[r].add(k, 1, "")
			want[k]++
		}
		var runs [][]byte
		for _, c := range files {
			c.runs(1, 0, func(_ int, b []byte) { runs = append(runs, b) })
		}
		got, _, err := mergeAll(t, runs)
		if err != nil || !maps.Equal(got, want) {
			t.Fatalf("merged %v (%v), want %v", got, err, want)
		}
	})
}

// TestSortByWord: the radix sort of the words, whichever of their bytes
// vary (an odd or even number of passes, some passed over).
func TestSortByWord(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	k := &keys{}
	for _, mask := range []uint64{0, 0xff, 0xff00ff, 0xff00ff00ff, 0xf0f0f0f0f0f0f0f0, ^uint64(0)} {
		for _, n := range []int{255, 256, 3000} {
			rs := make([]keyRef, n)
			for i := range rs {
				rs[i] = keyRef{p: 0x6874747073000000 | rnd.Uint64()&mask, off: uint32(i)}
			}
			k.sortByWord(rs)
			if !slices.IsSortedFunc(rs, func(a, b keyRef) int { return cmp.Compare(a.p, b.p) }) {
				t.Fatalf("mask %x, %d words: not sorted", mask, n)
			}
			seen := make([]bool, n)
			for _, r := range rs {
				seen[r.off] = true
			}
			if slices.Contains(seen, false) {
				t.Fatalf("mask %x, %d words: a word lost", mask, n)
			}
		}
	}
}

// TestHash64: every byte of a key changes its hash (the words overlap at
// the end), and URLs that differ in a number spread evenly over shards.
func TestHash64(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for n := 1; n <= 40; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		h := hash64(string(b))
		for i := range b {
			b[i]++
			if hash64(string(b)) == h {
				t.Fatalf("length %d: byte %d does not change the hash", n, i)
			}
			b[i]--
		}
		if hash64(string(b[:n-1])) == h {
			t.Fatalf("length %d: the last byte does not change the hash", n)
		}
	}
	const shards, keys = 8, 80000
	var per [shards]int
	for i := range keys {
		per[shardOf(fmt.Sprintf("https://www.example.com/item/%d", i), shards)]++
	}
	for s, c := range per {
		if c < keys/shards*95/100 || c > keys/shards*105/100 {
			t.Fatalf("shard %d holds %d of %d keys: %v", s, c, keys, per)
		}
	}
}
