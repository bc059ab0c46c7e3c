package main

import (
	"slices"
	"strings"
)

// The query of `urlkit edit` as trurl handles it: a list of pairs split
// on the separator (--query-separator, "&" by default), each kept twice:
// normalized (decoded with "+" as a space, then encoded again: a space as
// "+", every byte but ALPHA DIGIT - . _ ~ * as %xx with lower-case hex)
// and decoded from the text as written (without the "+" rule: trurl's
// {query:KEY} and --json params show a "+" as it is). The query is written
// back only when a pair changed.

type editPair struct {
	enc string // normalized; "" for a removed or empty pair
	dec string // decoded from the text as written
}

type editQuery struct {
	sep      byte
	json     bool // keep a decoded NUL (JSON escapes it); else it is shown as "."
	pairs    []editPair
	modified bool
}

func newEditQuery(query string, sep byte, json bool) *editQuery {
	q := &editQuery{sep: sep, json: json}
	if query == "" {
		return q
	}
	for part := range strings.SplitSeq(query, string(sep)) {
		q.add(part)
	}
	return q
}

// add appends a pair given as written (or as built by encodeAssign).
func (q *editQuery) add(part string) {
	p := editPair{enc: normalizePair(part), dec: decodeShown(part, q.json)}
	if p.enc != part {
		q.modified = true
	}
	q.pairs = append(q.pairs, p)
}

// normalizePair decodes and encodes again each side of the first "=".
func normalizePair(s string) string {
	if s == "" {
		return ""
	}
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return encodeQueryPart(decodeQueryPart(s))
	}
	return encodeQueryPart(decodeQueryPart(k)) + "=" + encodeQueryPart(decodeQueryPart(v))
}

// decodeShown decodes each side of the first "=" (no "+" rule); a NUL in
// the value is shown as "." outside JSON, as trurl does.
func decodeShown(s string, json bool) string {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return curlUnescape(k)
	}
	v = curlUnescape(v)
	if !json {
		v = strings.ReplaceAll(v, "\x00", ".")
	}
	return curlUnescape(k) + "=" + v
}

func decodeQueryPart(s string) string { return curlUnescape(strings.ReplaceAll(s, "+", " ")) }

// encodeQueryPart writes a space as "+" and keeps "*" (trurl's choice).
func encodeQueryPart(s string) string {
	return escapeKeep(s, func(c byte) bool { return c == '*' || isCurlUnreserved(c) }, true, "0123456789abcdef")
}

// encodeAssign encodes both sides of the first "=" of an argument of
// --append query= or --replace, as curl_easy_escape does.
func encodeAssign(s string) string {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return curlEscape(s)
	}
	return curlEscape(k) + "=" + curlEscape(v)
}

func pairKey(enc string) string {
	k, _, _ := strings.Cut(enc, "=")
	return k
}

// trim removes the pairs whose key matches pattern, compared with the
// normalized key without regard to ASCII case: a trailing "*" matches any
// rest, and "\*" at the end is a literal "*".
func (q *editQuery) trim(pattern string) {
	prefix := false
	switch {
	case strings.HasSuffix(pattern, `\*`):
		pattern = pattern[:len(pattern)-2] + "*"
	case strings.HasSuffix(pattern, "*"):
		pattern, prefix = pattern[:len(pattern)-1], true
	}
	for i, p := range q.pairs {
		if p.enc == "" {
			continue
		}
		k := pairKey(p.enc)
		if prefix && len(k) >= len(pattern) && strings.EqualFold(k[:len(pattern)], pattern) || !prefix && strings.EqualFold(k, pattern) {
			q.pairs[i] = editPair{}
			q.modified = true
		}
	}
}

// replace gives the pairs with the key of kv (an encodeAssign result) its
// value: the first one in place, later ones removed; with appendMissing
// the pair is added when no pair has the key. trurl compares the first
// len(key) bytes only, so that "--replace a=1" also hits "ab=2"; edit
// compares the whole key.
func (q *editQuery) replace(kv string, appendMissing bool) {
	norm := normalizePair(kv)
	key := pairKey(norm)
	done := false
	for i, p := range q.pairs {
		if p.enc == "" || pairKey(p.enc) != key {
			continue
		}
		if done {
			q.pairs[i] = editPair{}
		} else {
			q.pairs[i] = editPair{enc: norm, dec: decodeShown(kv, q.json)}
			done = true
		}
		q.modified = true
	}
	if !done && appendMissing {
		q.add(kv)
		q.modified = true
	}
}

// sortPairs orders the normalized pairs and, apart, the decoded ones, by
// their text compared byte by byte with bit 0x20 set (ASCII case folded),
// as trurl does. trurl calls a pair that is a prefix of another equal to
// it, which is no ordering (its result then depends on the sort
// algorithm); here the shorter comes first. Removed pairs stay out.
func (q *editQuery) sortPairs() {
	cmp := func(a, b string) int {
		n := min(len(a), len(b))
		for i := 0; i < n; i++ {
			if x, y := a[i]|0x20, b[i]|0x20; x != y {
				return int(x) - int(y)
			}
		}
		return len(a) - len(b)
	}
	var enc, dec []string
	for _, p := range q.pairs {
		if p.enc != "" {
			enc = append(enc, p.enc)
		}
		if p.dec != "" {
			dec = append(dec, p.dec)
		}
	}
	slices.SortStableFunc(enc, cmp)
	slices.SortStableFunc(dec, cmp)
	q.pairs = q.pairs[:0]
	for i := range max(len(enc), len(dec)) {
		var p editPair
		if i < len(enc) {
			p.enc = enc[i]
		}
		if i < len(dec) {
			p.dec = dec[i]
		}
		q.pairs = append(q.pairs, p)
	}
	q.modified = true
}

// text joins the normalized pairs that are left.
func (q *editQuery) text() string {
	var b strings.Builder
	for _, p := range q.pairs {
		if p.enc == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(q.sep)
		}
		b.WriteString(p.enc)
	}
	return b.String()
}

// values returns the values of the pairs with key, encoded or decoded.
func (q *editQuery) values(key string, encoded bool) []string {
	var vs []string
	for _, p := range q.pairs {
		s := p.dec
		if encoded {
			s = p.enc
		}
		if p.enc == "" && p.dec == "" {
			continue
		}
		if k, v, ok := strings.Cut(s, "="); ok && k == key {
			vs = append(vs, v)
		}
	}
	return vs
}
