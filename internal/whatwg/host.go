package whatwg

import (
	"strconv"
	"strings"
)

// forbiddenHost reports the Standard's forbidden host code points.
func forbiddenHost(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// forbiddenDomain reports the forbidden domain code points: the
// forbidden host code points, C0 controls, "%" and DEL.
func forbiddenDomain(c byte) bool {
	return c < 0x20 || c == '%' || c == 0x7f || forbiddenHost(c)
}

// host is the host parser over s (at offset off of the input), writing
// the serialized host; opaque is the Standard's isOpaque (the URL is not
// special).
func (p *parser) host(s string, off int, opaque bool) bool {
	if len(s) > 0 && s[0] == '[' {
		if s[len(s)-1] != ']' {
			p.fail("IPv6-unclosed", off)
			return false
		}
		a, name, at := parseIPv6(s[1 : len(s)-1])
		if name != "" {
			p.fail(name, off+1+at)
			return false
		}
		var buf [48]byte
		p.b.writeBytes(appendIPv6(buf[:0], &a))
		return true
	}
	if opaque {
		for i := 0; i < len(s); i++ {
			if forbiddenHost(s[i]) {
				p.fail("host-invalid-code-point", off+i)
				return false
			}
		}
		if p.collect {
			p.unitErrors(off, off+len(s))
		}
		encodeTo(&p.b, s, setC0)
		return true
	}
	// Domain to ASCII: an ASCII domain needs only lower-casing, as the
	// web-platform-tests data reads the Standard (an ASCII "xn--" label is
	// not decoded to be checked: "xn--a" and "xn--" are hosts); anything
	// else goes through UTS #46.
	slow := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == '%' {
			slow = true
			break
		}
	}
	ascii := s
	if !slow {
		for i := 0; i < len(s); i++ {
			if forbiddenDomain(s[i]) {
				p.fail("domain-invalid-code-point", off+i)
				return false
			}
		}
	} else {
		var ok bool
		ascii, ok = domainToASCII(percentDecode(s))
		if !ok {
			p.fail("domain-to-ASCII", off)
			return false
		}
		for i := 0; i < len(ascii); i++ {
			if forbiddenDomain(ascii[i]) {
				p.fail("domain-invalid-code-point", off)
				return false
			}
		}
	}
	if endsInNumber(ascii) {
		v, name := parseIPv4(ascii, p)
		if name != "" {
			p.fail(name, off)
			return false
		}
		var buf [16]byte
		p.b.writeBytes(appendIPv4(buf[:0], v))
		return true
	}
	p.b.writeLower(ascii)
	return true
}

// endsInNumber is the Standard's "ends in a number": the last label
// (a final empty one aside) is decimal digits or "0x" and hex digits.
func endsInNumber(s string) bool {
	// Most hosts end in a letter that is no hex digit: not a number.
	if n := len(s); n > 1 {
		c := s[n-1]
		if c == '.' {
			c = s[n-2]
		}
		if c|0x20 > 'f' && c|0x20 != 'x' {
			return false
		}
	}
	if strings.HasSuffix(s, ".") {
		if len(s) == 1 {
			return false
		}
		s = s[:len(s)-1]
	}
	last := s[strings.LastIndexByte(s, '.')+1:]
	if last == "" {
		return false
	}
	digits := true
	for i := 0; i < len(last); i++ {
		if !isDigit(last[i]) {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && last[1]|0x20 == 'x' {
		for i := 2; i < len(last); i++ {
			if !isHex(last[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// parseIPv4 is the IPv4 parser; name is the failure's validation
// error, "" on success. The non-failure validation errors go to p.
func parseIPv4(s string, p *parser) (uint32, string) {
	var nums [4]uint64
	n := 0
	if strings.HasSuffix(s, ".") {
		p.verr("IPv4-empty-part", 0)
		s = s[:len(s)-1]
	}
	for {
		part, rest, more := strings.Cut(s, ".")
		if n == 4 {
			return 0, "IPv4-too-many-parts"
		}
		v, ok, nonDecimal := ipv4Number(part)
		if !ok {
			return 0, "IPv4-non-numeric-part"
		}
		if nonDecimal {
			p.verr("IPv4-non-decimal-part", 0)
		}
		nums[n] = v
		n++
		if !more {
			break
		}
		s = rest
	}
	for i := 0; i < n; i++ {
		if nums[i] > 255 {
			p.verr("IPv4-out-of-range-part", 0)
			if i < n-1 {
				return 0, "IPv4-out-of-range-part"
			}
		}
	}
	if nums[n-1] >= 1<<(8*(5-n)) {
		return 0, "IPv4-out-of-range-part"
	}
	v := nums[n-1]
	for i := 0; i < n-1; i++ {
		v += nums[i] << (8 * (3 - i))
	}
	return uint32(v), ""
}

// ipv4Number is the IPv4 number parser: decimal, "0x" hex or "0" octal.
// Values past 2^32 are kept at 2^32 (out of range either way).
func ipv4Number(s string) (v uint64, ok, nonDecimal bool) {
	if s == "" {
		return 0, false, false
	}
	base := uint64(10)
	if len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x' {
		base, s, nonDecimal = 16, s[2:], true
	} else if len(s) >= 2 && s[0] == '0' {
		base, s, nonDecimal = 8, s[1:], true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case base == 16 && isHex(c):
			d = uint64(unhex(c))
		default:
			return 0, false, nonDecimal
		}
		if d >= base {
			return 0, false, nonDecimal
		}
		if v <= 1<<32 {
			v = v*base + d
		}
		if v > 1<<32 {
			v = 1<<32 + 1
		}
	}
	return v, true, nonDecimal
}

func appendIPv4(b []byte, v uint32) []byte {
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(v>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// parseIPv6 is the IPv6 parser; name is the failure's validation error,
// "" on success, at its offset in s.
func parseIPv6(s string) (a [8]uint16, name string, at int) {
	piece, compress, i := 0, -1, 0
	if i < len(s) && s[i] == ':' {
		if i+1 >= len(s) || s[i+1] != ':' {
			return a, "IPv6-invalid-compression", i
		}
		i += 2
		piece++
		compress = piece
	}
	for i < len(s) {
		if piece == 8 {
			return a, "IPv6-too-many-pieces", i
		}
		if s[i] == ':' {
			if compress >= 0 {
				return a, "IPv6-multiple-compression", i
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && i < len(s) && isHex(s[i]) {
			value = value*16 + int(unhex(s[i]))
			i++
			length++
		}
		if i < len(s) && s[i] == '.' {
			if length == 0 {
				return a, "IPv4-in-IPv6-invalid-code-point", i
			}
			i -= length
			if piece > 6 {
				return a, "IPv4-in-IPv6-too-many-pieces", i
			}
			seen := 0
			for i < len(s) {
				v := -1
				if seen > 0 {
					if s[i] == '.' && seen < 4 {
						i++
					} else {
						return a, "IPv4-in-IPv6-invalid-code-point", i
					}
				}
				if i >= len(s) || !isDigit(s[i]) {
					return a, "IPv4-in-IPv6-invalid-code-point", i
				}
				for i < len(s) && isDigit(s[i]) {
					d := int(s[i] - '0')
					switch v {
					case -1:
						v = d
					case 0:
						return a, "IPv4-in-IPv6-invalid-code-point", i
					default:
						v = v*10 + d
					}
					if v > 255 {
						return a, "IPv4-in-IPv6-out-of-range-part", i
					}
					i++
				}
				a[piece] = a[piece]<<8 | uint16(v)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return a, "IPv4-in-IPv6-too-few-parts", i
			}
			break
		} else if i < len(s) && s[i] == ':' {
			i++
			if i == len(s) {
				return a, "IPv6-invalid-code-point", i
			}
		} else if i < len(s) {
			return a, "IPv6-invalid-code-point", i
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress >= 0 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return a, "IPv6-too-few-pieces", len(s)
	}
	return a, "", 0
}

// appendIPv6 is the IPv6 serializer, with the brackets: the first
// longest run of two or more zero pieces is compressed to "::".
func appendIPv6(b []byte, a *[8]uint16) []byte {
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	b = append(b, '[')
	for i := 0; i < 8; i++ {
		if i == best {
			if i == 0 {
				b = append(b, "::"...)
			} else {
				b = append(b, ':')
			}
			i += bestLen - 1
			continue
		}
		b = strconv.AppendUint(b, uint64(a[i]), 16)
		if i != 7 {
			b = append(b, ':')
		}
	}
	return append(b, ']')
}
