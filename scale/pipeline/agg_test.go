package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// mergeAll merges runs as a shard's writer does, into a map, and checks
// that the keys come in increasing order.
func mergeAll(t testing.TB, runs [][]byte) (map[string]int64, map[string]string, error) {
	m, err := newMerger(runs)
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
