// Package ipv4 reads the numeric IPv4 forms that inet_aton accepts
// (POSIX inet_addr), which browsers and curl read in a host name as an
// address. The root's normalizer (FlagDecodeNumericHost) and the
// command line's edit (curl's reading) both write such a host as four
// decimals; this is the one reader they share.
package ipv4

import (
	"net/netip"
	"strconv"
	"strings"
)

// Aton reads h as inet_aton does: one to four parts separated by dots,
// each decimal, octal with a leading 0 or hexadecimal with 0x; the last
// part fills the bytes that remain ("127.1" is 127.0.0.1, "646464646"
// 38.136.68.134). Anything else, a name or a number out of range, is not
// an address.
func Aton(h string) (netip.Addr, bool) {
	if h == "" {
		return netip.Addr{}, false
	}
	var nums [4]uint64
	n := 0
	for s := range strings.SplitSeq(h, ".") {
		if n == len(nums) {
			return netip.Addr{}, false
		}
		base := 10
		switch {
		case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
			s, base = s[2:], 16
		case len(s) > 1 && s[0] == '0':
			s, base = s[1:], 8
		}
		// ParseUint refuses a sign, an empty part and "0x" alone (read
		// in base 10), so a name never gets this far.
		v, err := strconv.ParseUint(s, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[n] = v
		n++
	}
	last := n - 1
	var addr uint64
	for i := 0; i < last; i++ {
		if nums[i] > 255 {
			return netip.Addr{}, false
		}
		addr |= nums[i] << (8 * (3 - i))
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	addr |= nums[last]
	return netip.AddrFrom4([4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}), true
}
