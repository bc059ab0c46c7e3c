package main

import (
	"strconv"
	"unicode/utf8"

	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/safetext"
)

// A small JSON writer: the contract fixes the order of the keys and wants
// null for absent values, which a hand-written encoder gives exactly and
// without reflection.

// jsonObject appends an object's members to a buffer.
type jsonObject struct {
	b     []byte
	count int
}

func (o *jsonObject) begin() { o.b = append(o.b, '{') }
func (o *jsonObject) end()   { o.b = append(o.b, '}') }

// key writes a member's name: one of the program's own identifiers,
// which need no escaping.
func (o *jsonObject) key(k string) {
	if o.count > 0 {
		o.b = append(o.b, ',', '"')
	} else {
		o.b = append(o.b, '"')
	}
	o.count++
	o.b = append(append(o.b, k...), '"', ':')
}

// str writes a string member.
func (o *jsonObject) str(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// optStr writes a string member, or null when ok is false.
func (o *jsonObject) optStr(k, v string, ok bool) {
	o.key(k)
	if !ok {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = appendJSONString(o.b, v)
}

// optInt writes a number member, or null when ok is false.
func (o *jsonObject) optInt(k string, v int, ok bool) {
	o.key(k)
	if !ok {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

func (o *jsonObject) boolean(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// raw writes a member whose value is already JSON.
func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

// jsonPlain marks the bytes that appendJSONString copies as they are:
// printable ASCII other than '"' and a backslash. Runs of them are appended in
// one copy, so that a URL (nearly all plain bytes) costs one append.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainPrefix returns the length of the longest prefix of s made of
// jsonPlain bytes, eight bytes at a time; when 1 to 7 bytes are left, the
// last eight bytes are tested as one word, overlapping what was tested.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainWord(cc.Word(s[i:])) {
			break
		}
	}
	if i < len(s) && i+8 > len(s) && len(s) >= 8 && plainWord(cc.Word(s[len(s)-8:])) {
		return len(s)
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

// plainWord reports whether the eight bytes of w are all jsonPlain (the
// classic "has a byte less than n" and "has a zero byte" word tricks).
func plainWord(w uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	// A high bit in special marks a byte < 0x20, '"', '\\', 0x7f or
	// >= 0x80 (these last set their own high bit; 0x7f+1 does).
	special := (w - ones*0x20) | (quote - ones) | (backslash - ones) | (w + ones*0x01)
	return (special|w)&highs == 0
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does; "<", ">" and "&" stay as they are (URLs
// are full of them); every character that could act on a terminal is
// escaped, C1 and bidirectional controls too (safetext.JSONEscaped).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		run := i + plainPrefix(s[i:])
		b = append(b, s[i:run]...)
		if i = run; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // the other controls and DEL
				b = safetext.AppendUnicodeEscape(b, rune(c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case safetext.JSONEscaped(r):
			b = safetext.AppendUnicodeEscape(b, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// appendJSONStrings appends a list of strings as a JSON array.
func appendJSONStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendOffsetMessages appends n messages as a JSON array of
// {"offset": N, "message": "..."}; at(i) gives the i-th.
func appendOffsetMessages(b []byte, n int, at func(i int) (int, string)) []byte {
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		off, msg := at(i)
		o := jsonObject{b: b}
		o.begin()
		o.optInt("offset", off, true)
		o.str("message", msg)
		o.end()
		b = o.b
	}
	return append(b, ']')
}

// jsonRecord writes parse's records, whose members are known in advance
// (parseFields): each member's `,"key":` (or `,"key":null`, or `,"key":"`
// for a string) is prepared once and written with one append, and
// --fields is a bit test. Half of parse --json's time was the small
// writes of its thirty members.
type jsonRecord struct {
	b     []byte
	start int      // where the record starts in b
	only  fieldSet // the members to write; the others are left out
}

// memberKeys, memberNulls and memberStrings are `,"key":`, `,"key":null`
// and `,"key":"` for each field.
var memberKeys, memberNulls, memberStrings = func() (keys, nulls, strs [numFields]string) {
	for f, k := range parseFields {
		keys[f] = `,"` + k + `":`
		nulls[f], strs[f] = keys[f]+"null", keys[f]+`"`
	}
	return keys, nulls, strs
}()

// begin starts the record. Every member is written with a leading
// comma; end turns the first one into the "{".
func (o *jsonRecord) begin() { o.start = len(o.b) }

// end ends the record.
func (o *jsonRecord) end() {
	if len(o.b) == o.start {
		o.b = append(o.b, '{')
	} else {
		o.b[o.start] = '{'
	}
	o.b = append(o.b, '}')
}

// member writes text, the prepared start of member f, unless the member
// is left out; it reports whether it was written.
func (o *jsonRecord) member(f parseField, text string) bool {
	if o.only&(1<<f) == 0 {
		return false
	}
	o.b = append(o.b, text...)
	return true
}

// key writes the member's name, unless it is left out: the caller then
// writes its value.
func (o *jsonRecord) key(f parseField) bool { return o.member(f, memberKeys[f]) }

// null writes the member with the value null.
func (o *jsonRecord) null(f parseField) { o.member(f, memberNulls[f]) }

// str writes a string member.
func (o *jsonRecord) str(f parseField, v string) {
	if o.key(f) {
		o.b = appendJSONString(o.b, v)
	}
}

// optStr writes a string member, or null when ok is false.
func (o *jsonRecord) optStr(f parseField, v string, ok bool) {
	if !ok {
		o.null(f)
	} else {
		o.str(f, v)
	}
}

// strPlain is str for a value known to be plain or not (plainPrefix).
func (o *jsonRecord) strPlain(f parseField, v string, plain bool) {
	if !plain {
		o.str(f, v)
	} else if o.member(f, memberStrings[f]) {
		o.b = append(append(o.b, v...), '"')
	}
}

// optStrPlain is optStr for a value known to be plain or not: the parts
// of a plain URL are plain.
func (o *jsonRecord) optStrPlain(f parseField, v string, ok, plain bool) {
	if !ok {
		o.null(f)
	} else {
		o.strPlain(f, v, plain)
	}
}

// optInt writes a number member, or null when ok is false.
func (o *jsonRecord) optInt(f parseField, v int, ok bool) {
	if !ok {
		o.null(f)
	} else if o.key(f) {
		o.b = strconv.AppendInt(o.b, int64(v), 10)
	}
}

// boolean writes a true or false member.
func (o *jsonRecord) boolean(f parseField, v bool) {
	if o.key(f) {
		o.b = strconv.AppendBool(o.b, v)
	}
}
