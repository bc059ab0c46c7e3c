package fetch

import "sync"

// keptMu guards the kept connections of every opener (a lock inside an
// opener would forbid copying an unused Fetcher).
var keptMu sync.Mutex

// keptConns holds connections kept for the next URL of the same server
// and login (FTPOpener.Keep, NNTPOpener.Keep), by a session key that
// names both. Its zero value is empty.
type keptConns[C any] struct {
	idle map[string][]C
}

// take returns a kept connection of key, false when there is none.
func (k *keptConns[C]) take(key string) (C, bool) {
	keptMu.Lock()
	defer keptMu.Unlock()
	l := k.idle[key]
	if len(l) == 0 {
		var none C
		return none, false
	}
	c := l[len(l)-1]
	k.idle[key] = l[:len(l)-1]
	return c, true
}

// put keeps c for the next URL of key.
func (k *keptConns[C]) put(key string, c C) {
	keptMu.Lock()
	defer keptMu.Unlock()
	if k.idle == nil {
		k.idle = map[string][]C{}
	}
	k.idle[key] = append(k.idle[key], c)
}

// drain returns every kept connection and forgets them.
func (k *keptConns[C]) drain() []C {
	keptMu.Lock()
	defer keptMu.Unlock()
	var all []C
	for _, l := range k.idle {
		all = append(all, l...)
	}
	k.idle = nil
	return all
}
