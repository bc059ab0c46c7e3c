package urlkit

import (
	"slices"
	"strings"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/percent"
)

// QuerySyntax says how a query string is split into pairs and decoded.
// The zero value splits on "&" and leaves "+" as it is; set PlusAsSpace
// for RFC 1630's query-string rule (and HTML forms), where "+" stands for
// a space. The choice is explicit because the two readings differ for
// every "+" in a query.
type QuerySyntax struct {
	Separator   byte // between pairs; 0 means '&' (";" and ":" are seen too); see sep
	PlusAsSpace bool // "+" decodes to a space and a space encodes as "+"
}

// sep returns the separator, '&' for the zero value and for bytes that
// cannot separate pairs: '=', '%', '+', a hex digit (it would split the
// escapes Encode writes), or a byte outside US-ASCII's graphic characters.
func (s QuerySyntax) sep() byte {
	c := s.Separator
	if c <= ' ' || c >= 0x7f || c == '=' || c == '%' || c == '+' || cc.IsHex(c) {
		return '&'
	}
	return c
}

// QueryPair is one key=value pair of a query, decoded. HasValue tells
// "k=" (an empty value) from "k" (no "=" at all).
type QueryPair struct {
	Key, Value string
	HasValue   bool
	raw        string // the text as written, "" once changed
}

// Query is a query string as an ordered list of pairs. It keeps the text
// of every pair as written, so that Encode gives back the original query
// byte for byte until a pair is changed, and then re-encodes only the
// pairs that changed.
type Query struct {
	syntax QuerySyntax
	pairs  []QueryPair
}

// ParseQuery splits raw (the query without its "?") into pairs and
// decodes them. It never fails: a "%" that starts no escape is kept as it
// is, and Encode writes it back unchanged. Empty pairs ("a=1&&b=2") are
// kept, so that the text survives a round trip.
func ParseQuery(raw string, syntax QuerySyntax) Query {
	q := Query{syntax: syntax}
	if raw == "" {
		return q
	}
	sep := syntax.sep()
	for {
		i := strings.IndexByte(raw, sep)
		part := raw
		if i >= 0 {
			part = raw[:i]
		}
		q.pairs = append(q.pairs, decodePair(part, syntax.PlusAsSpace))
		if i < 0 {
			return q
		}
		raw = raw[i+1:]
	}
}

func decodePair(part string, plus bool) QueryPair {
	p := QueryPair{raw: part}
	k, v, ok := strings.Cut(part, "=")
	p.Key = percent.Loose(k, plus)
	if ok {
		p.Value, p.HasValue = percent.Loose(v, plus), true
	}
	return p
}

// Pairs returns a copy of the pairs in order.
func (q *Query) Pairs() []QueryPair { return slices.Clone(q.pairs) }

// Get returns the value of the first pair with the key (compared after
// decoding, case-sensitively) and whether there is one (net/url's Has
// is this second result).
func (q *Query) Get(key string) (string, bool) {
	for _, p := range q.pairs {
		if p.Key == key && (p.HasValue || p.Key != "") {
			return p.Value, true
		}
	}
	return "", false
}

// Set gives the key the one value: the first pair with the key takes it
// in place and the others are removed; if there is none, the pair is
// added at the end.
func (q *Query) Set(key, value string) {
	first := -1
	out := q.pairs[:0]
	for _, p := range q.pairs {
		if p.Key != key {
			out = append(out, p)
			continue
		}
		if first < 0 {
			first = len(out)
			out = append(out, QueryPair{Key: key, Value: value, HasValue: true})
		}
	}
	clear(q.pairs[len(out):])
	q.pairs = out
	if first < 0 {
		q.Add(key, value)
	}
}

// Add appends a key=value pair.
func (q *Query) Add(key, value string) {
	q.pairs = append(q.pairs, QueryPair{Key: key, Value: value, HasValue: true})
}

// Del removes every pair with the key.
func (q *Query) Del(key string) {
	q.pairs = slices.DeleteFunc(q.pairs, func(p QueryPair) bool { return p.Key == key })
}

// DeleteFunc removes every pair for which del returns true.
func (q *Query) DeleteFunc(del func(QueryPair) bool) {
	q.pairs = slices.DeleteFunc(q.pairs, del)
}

// Encode returns the query text (without "?"). Pairs that were parsed
// and not changed are written as they were; new and changed ones are
// percent-encoded: everything but RFC 1738's unreserved characters, ":"
// and "@" is escaped (with PlusAsSpace, a space is "+" and a
// "+" is %2B; without it, "+" is escaped too, so that no reader takes it
// for a space).
func (q *Query) Encode() string {
	var b strings.Builder
	for i, p := range q.pairs {
		if i > 0 {
			b.WriteByte(q.syntax.sep())
		}
		if p.raw != "" || (p.Key == "" && !p.HasValue) {
			b.WriteString(p.raw)
			continue
		}
		b.WriteString(q.escape(p.Key))
		if p.HasValue {
			b.WriteByte('=')
			b.WriteString(q.escape(p.Value))
		}
	}
	return b.String()
}

func (q *Query) escape(s string) string {
	set := queryComponent
	if sep := q.syntax.sep(); queryComponent[sep] {
		// A separator that the set keeps (":", "@" or an unreserved
		// character) must be encoded in keys and values.
		set = new(cc.ByteSet)
		*set = *queryComponent
		set[sep] = false
	}
	return set.EscapeForm(s, q.syntax.PlusAsSpace)
}

// queryComponent is what stays unencoded in a key or a value: RFC 1738's
// unreserved characters except "+", and ":" and "@" (RFC 1738's search
// allows them; it reserves "/" and "?", which are encoded).
var queryComponent = cc.NewByteSet(func(c byte) bool {
	return c != '+' && percent.All.Keeps(c) || c == ':' || c == '@'
})

// QueryEscape escapes s for use as a key or a value in a query, as HTML
// forms and Go's net/url.QueryEscape do: a space becomes "+", and
// everything but RFC 1738's unreserved characters is percent-encoded
// ("+" included).
func QueryEscape(s string) string {
	return queryValue.EscapeForm(s, true)
}

var queryValue = cc.NewByteSet(func(c byte) bool { return c != '+' && percent.All.Keeps(c) })

// QueryUnescape is QueryEscape's inverse: "+" is a space and every %XX
// escape is decoded; a "%" that starts no escape is an error naming its
// offset.
func QueryUnescape(s string) (string, error) { return unescape(s, true) }

// PathEscape escapes s for use as one path segment: "/" and ";" are
// encoded (they would split it, RFC 1738 3.3), and so is everything
// outside RFC 1738's unreserved characters and ":", "@", "&", "=".
func PathEscape(s string) string { return percent.Escape(s, percent.Segment, false) }

// PathUnescape decodes every %XX escape of s ("+" stays a "+"); a "%" that
// starts no escape is an error naming its offset.
func PathUnescape(s string) (string, error) { return unescape(s, false) }

// unescape decodes s, "+" as a space with plus; a "%" that starts no
// escape is an *Error naming its offset.
func unescape(s string, plus bool) (string, error) {
	d, bad := percent.Unescape(s, plus)
	if bad >= 0 {
		return "", &Error{Op: "unescape", Input: s, Offset: bad, Err: ErrBadEscape,
			Rule: "'%' must be followed by two hex digits (RFC 1630 reserves other uses)"}
	}
	return d, nil
}
