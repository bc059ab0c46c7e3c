package edit

import (
	"slices"
	"strings"
)

// Query is a query as trurl handles it: a list of pairs split on the
// separator (--query-separator, "&" by default), each kept twice:
// normalized (decoded with "+" as a space, then encoded again: a space as
// "+", every byte but ALPHA DIGIT - . _ ~ * as %xx with lower-case hex)
// and decoded from the text as written (without the "+" rule: trurl's
// {query:KEY} and --json params show a "+" as it is). The query is
// written back (Text) only when Modified: when a pair changed, or an
// empty pair was dropped, as trurl drops them ("e&&a" is "e&a").
type Query struct {
	sep      byte
	json     bool // keep a decoded NUL (JSON escapes it); else it is shown as "."
	Pairs    []Pair
	Modified bool
}

// Pair is one query pair; a removed pair has both forms empty.
type Pair struct {
	Enc string // normalized
	Dec string // decoded from the text as written
}

// NewQuery splits query on sep. With json, a NUL in a decoded value is
// kept; else it is shown as ".", as trurl does.
func NewQuery(query string, sep byte, json bool) *Query {
	q := &Query{sep: sep, json: json}
	if query == "" {
		return q
	}
	for part := range strings.SplitSeq(query, string(sep)) {
		if part == "" {
			q.Modified = true // dropped: the query is written back without it
			continue
		}
		q.Add(part)
	}
	return q
}

// Add appends a pair given as written (or as built by EncodeAssign).
func (q *Query) Add(part string) {
	p := Pair{Enc: normalizePair(part), Dec: decodeShown(part, q.json)}
	if p.Enc != part {
		q.Modified = true
	}
	q.Pairs = append(q.Pairs, p)
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
		return Unescape(k)
	}
	v = Unescape(v)
	if !json {
		v = strings.ReplaceAll(v, "\x00", ".")
	}
	return Unescape(k) + "=" + v
}

func decodeQueryPart(s string) string { return Unescape(strings.ReplaceAll(s, "+", " ")) }

// encodeQueryPart writes a space as "+" and keeps "*" (trurl's choice).
func encodeQueryPart(s string) string { return queryPart.EscapeLower(s, true) }

// EncodeAssign encodes both sides of the first "=" of an argument of
// --append query= or --replace, as curl_easy_escape does.
func EncodeAssign(s string) string {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return Escape(s)
	}
	return Escape(k) + "=" + Escape(v)
}

func pairKey(enc string) string {
	k, _, _ := strings.Cut(enc, "=")
	return k
}

// Trim removes the pairs whose key matches pattern, compared with the
// normalized key without regard to ASCII case: a trailing "*" matches any
// rest, and "\*" at the end is a literal "*".
func (q *Query) Trim(pattern string) {
	prefix := false
	switch {
	case strings.HasSuffix(pattern, `\*`):
		pattern = pattern[:len(pattern)-2] + "*"
	case strings.HasSuffix(pattern, "*"):
		pattern, prefix = pattern[:len(pattern)-1], true
	}
	for i, p := range q.Pairs {
		if p.Enc == "" {
			continue
		}
		k := pairKey(p.Enc)
		if prefix && len(k) >= len(pattern) && strings.EqualFold(k[:len(pattern)], pattern) || !prefix && strings.EqualFold(k, pattern) {
			q.Pairs[i] = Pair{}
			q.Modified = true
		}
	}
}

// Replace gives the pairs with the key of kv (an EncodeAssign result) its
// value: the first one in place, later ones removed; with appendMissing
// the pair is added when no pair has the key. trurl compares the first
// len(key) bytes only, so that "--replace a=1" also hits "ab=2"; edit
// compares the whole key.
func (q *Query) Replace(kv string, appendMissing bool) {
	norm := normalizePair(kv)
	key := pairKey(norm)
	done := false
	for i, p := range q.Pairs {
		if p.Enc == "" || pairKey(p.Enc) != key {
			continue
		}
		if done {
			q.Pairs[i] = Pair{}
		} else {
			q.Pairs[i] = Pair{Enc: norm, Dec: decodeShown(kv, q.json)}
			done = true
		}
		q.Modified = true
	}
	if !done && appendMissing {
		q.Add(kv)
		q.Modified = true
	}
}

// Sort orders the normalized pairs and, apart, the decoded ones, by
// their text compared byte by byte with bit 0x20 set (ASCII case folded),
// as trurl does. trurl calls a pair that is a prefix of another equal to
// it, which is no ordering (its result then depends on the sort
// algorithm); here the shorter comes first. Removed pairs stay out.
func (q *Query) Sort() {
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
	for _, p := range q.Pairs {
		if p.Enc != "" {
			enc = append(enc, p.Enc)
		}
		if p.Dec != "" {
			dec = append(dec, p.Dec)
		}
	}
	slices.SortStableFunc(enc, cmp)
	slices.SortStableFunc(dec, cmp)
	q.Pairs = q.Pairs[:0]
	for i := range max(len(enc), len(dec)) {
		var p Pair
		if i < len(enc) {
			p.Enc = enc[i]
		}
		if i < len(dec) {
			p.Dec = dec[i]
		}
		q.Pairs = append(q.Pairs, p)
	}
	q.Modified = true
}

// Text joins the normalized pairs that are left.
func (q *Query) Text() string {
	var b strings.Builder
	for _, p := range q.Pairs {
		if p.Enc == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(q.sep)
		}
		b.WriteString(p.Enc)
	}
	return b.String()
}

// Values returns the values of the pairs with key, encoded or decoded.
func (q *Query) Values(key string, encoded bool) []string {
	var vs []string
	for _, p := range q.Pairs {
		s := p.Dec
		if encoded {
			s = p.Enc
		}
		if p.Enc == "" && p.Dec == "" {
			continue
		}
		if k, v, ok := strings.Cut(s, "="); ok && k == key {
			vs = append(vs, v)
		}
	}
	return vs
}
