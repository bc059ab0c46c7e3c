// Package bufpool keeps byte buffers of one size, once used, for reuse:
// the programs that stream hundreds of MB through buffers of a few KiB
// to a few MiB (extract's Scanner, extract -j's parts of input and of
// output) would otherwise allocate and clear one each time.
package bufpool

import "sync"

// A Pool keeps buffers of the capacity its callers give. The zero Pool is
// empty and ready.
type Pool struct{ pool sync.Pool }

// Get returns an empty buffer of capacity size: a kept one, or a new one.
func (p *Pool) Get(size int) []byte {
	if b, ok := p.pool.Get().(*[]byte); ok && cap(*b) == size {
		return (*b)[:0]
	}
	return make([]byte, 0, size)
}

// Put keeps b for Get, unless its capacity is not size (it grew): a few
// grown ones kept would be most of the memory.
func (p *Pool) Put(b []byte, size int) {
	if cap(b) == size {
		b = b[:0]
		p.pool.Put(&b)
	}
}
