package bufpool

import "testing"

// TestPool checks that Get gives buffers of the capacity asked, empty,
// and that Put keeps only buffers of the size given.
func TestPool(t *testing.T) {
	var p Pool
	b := p.Get(64)
	if len(b) != 0 || cap(b) != 64 {
		t.Fatalf("Get(64): len %d cap %d", len(b), cap(b))
	}
	b = append(b, "used"...)
	p.Put(b, 64)
	if c := p.Get(64); len(c) != 0 || cap(c) != 64 {
		t.Fatalf("Get(64) after Put: len %d cap %d", len(c), cap(c))
	}
	grown := append(p.Get(8), make([]byte, 9)...) // grew past 8
	p.Put(grown, 8)
	for range 10 {
		if c := p.Get(8); cap(c) != 8 {
			t.Fatalf("Get(8) gave a buffer of capacity %d: a grown one was kept", cap(c))
		}
	}
}
