package main

import (
	"strconv"
	"unicode/utf8"
)

// A small JSON writer: the contract fixes the order of the keys and wants
// null for absent values, which a hand-written encoder gives exactly and
// without reflection.

// jsonObject appends an object's members to a buffer.
type jsonObject struct {
	b     []byte
	count int
	// only, when not nil, names the members to write; the others are
	// left out (parse --fields).
	only map[string]bool
}

// skip reports whether member k is left out.
func (o *jsonObject) skip(k string) bool { return o.only != nil && !o.only[k] }

func (o *jsonObject) begin() { o.b = append(o.b, '{') }
func (o *jsonObject) end()   { o.b = append(o.b, '}') }

func (o *jsonObject) key(k string) {
	if o.count > 0 {
		o.b = append(o.b, ',')
	}
	o.count++
	o.b = appendJSONString(o.b, k)
	o.b = append(o.b, ':')
}

// str writes a string member.
func (o *jsonObject) str(k, v string) {
	if o.skip(k) {
		return
	}
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// optStr writes a string member, or null when ok is false.
func (o *jsonObject) optStr(k, v string, ok bool) {
	if o.skip(k) {
		return
	}
	o.key(k)
	if !ok {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = appendJSONString(o.b, v)
}

// optInt writes a number member, or null when ok is false.
func (o *jsonObject) optInt(k string, v int, ok bool) {
	if o.skip(k) {
		return
	}
	o.key(k)
	if !ok {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

func (o *jsonObject) boolean(k string, v bool) {
	if o.skip(k) {
		return
	}
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// raw writes a member whose value is already JSON.
func (o *jsonObject) raw(k string, v []byte) {
	if o.skip(k) {
		return
	}
	o.key(k)
	o.b = append(o.b, v...)
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does; "<", ">" and "&" stay as they are (URLs
// are full of them).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// jsonStrings encodes a list of strings.
func jsonStrings(list []string) []byte {
	b := []byte{'['}
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// offsetMessage is an error or a warning at an offset of an input.
type offsetMessage struct {
	offset  int
	message string
}

// jsonOffsetMessages encodes a list of {"offset": N, "message": "..."}.
func jsonOffsetMessages(list []offsetMessage) []byte {
	b := []byte{'['}
	for i, m := range list {
		if i > 0 {
			b = append(b, ',')
		}
		o := jsonObject{b: b}
		o.begin()
		o.optInt("offset", m.offset, true)
		o.str("message", m.message)
		o.end()
		b = o.b
	}
	return append(b, ']')
}
