package smtp

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// AddressError reports an address that is not an RFC 5321 mailbox: the
// byte offset in the address and the rule broken.
type AddressError struct {
	Addr   string // made safe for a terminal
	Offset int
	Rule   string
}

// Error describes the problem.
func (e *AddressError) Error() string {
	return fmt.Sprintf("smtp: bad address %q at offset %d: %s", e.Addr, e.Offset, e.Rule)
}

// Is matches ErrBadAddress, and ErrUnsafeArg for CR, LF and NUL.
func (e *AddressError) Is(target error) bool {
	return target == ErrBadAddress || (target == ErrUnsafeArg && strings.HasPrefix(e.Rule, "CR, LF or NUL"))
}

// RFC 5321 section 4.5.3.1 size limits.
const (
	maxLocalPart = 64
	maxDomain    = 255
	maxPath      = 256 // including the angle brackets
)

// CheckAddress checks that addr is a Mailbox of RFC 5321 section 4.1.2,
// as it goes between the angle brackets of MAIL FROM and RCPT TO:
//
//	Mailbox    = Local-part "@" ( Domain / address-literal )
//	Local-part = Dot-string / Quoted-string
//	Dot-string = Atom *("." Atom)        Atom = 1*atext
//	Domain     = sub-domain *("." sub-domain)
//	sub-domain = Let-dig [Ldh-str]       (letters, digits, inner hyphens)
//
// with the section 4.5.3.1 limits (64 octets of local part, 255 of
// domain, 256 for the whole path). CR, LF and NUL are refused first, so
// the error also matches ErrUnsafeArg. Non-ASCII (SMTPUTF8) addresses
// and source routes are not accepted.
func CheckAddress(addr string) error {
	bad := func(off int, rule string) error {
		return &AddressError{Addr: wire.Clip(addr), Offset: off, Rule: rule}
	}
	for i := 0; i < len(addr); i++ {
		switch addr[i] {
		case '\r', '\n', 0:
			return bad(i, "CR, LF or NUL in an address (command injection)")
		}
	}
	if len(addr)+2 > maxPath {
		return bad(maxPath-2, "path longer than 256 octets (RFC 5321 section 4.5.3.1.3)")
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return bad(len(addr), `no "@" (RFC 5321 section 4.1.2 Mailbox)`)
	}
	local, domain := addr[:at], addr[at+1:]
	if local == "" {
		return bad(0, "empty local part")
	}
	if len(local) > maxLocalPart {
		return bad(maxLocalPart, "local part longer than 64 octets (RFC 5321 section 4.5.3.1.1)")
	}
	if local[0] == '"' {
		if off, rule := checkQuoted(local); rule != "" {
			return bad(off, rule)
		}
	} else {
		for _, atom := range splitOffsets(local, '.') {
			if atom.s == "" {
				return bad(atom.off, `empty atom in the local part (a leading, trailing or doubled ".")`)
			}
			for i := 0; i < len(atom.s); i++ {
				if !isAtext(atom.s[i]) {
					return bad(atom.off+i, fmt.Sprintf("byte %s is not atext (RFC 5321 section 4.1.2; quote the local part)", byteName(atom.s[i])))
				}
			}
		}
	}
	off := at + 1
	if domain == "" {
		return bad(off, "empty domain")
	}
	if len(domain) > maxDomain {
		return bad(off+maxDomain, "domain longer than 255 octets (RFC 5321 section 4.5.3.1.2)")
	}
	if domain[0] == '[' {
		if domain[len(domain)-1] != ']' {
			return bad(off+len(domain)-1, `address literal without "]"`)
		}
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			// netip takes a zone ("%eth0", any bytes up to the "]"), which
			// IPv6-address-literal has not: it could carry a space or ">".
			if a, err := netip.ParseAddr(v6); err != nil || !a.Is6() || a.Zone() != "" {
				return bad(off+1, "not an IPv6 address literal (RFC 5321 section 4.1.3)")
			}
		} else if a, err := netip.ParseAddr(lit); err != nil || !a.Is4() {
			return bad(off+1, "not an IPv4 address literal (RFC 5321 section 4.1.3)")
		}
		return nil
	}
	for _, sub := range splitOffsets(domain, '.') {
		if sub.s == "" {
			return bad(off+sub.off, "empty label in the domain")
		}
		if sub.s[0] == '-' || sub.s[len(sub.s)-1] == '-' {
			return bad(off+sub.off, "a domain label starts or ends with a hyphen (RFC 5321 sub-domain)")
		}
		for i := 0; i < len(sub.s); i++ {
			if b := sub.s[i]; !(isAlnum(b) || b == '-') {
				return bad(off+sub.off+i, fmt.Sprintf("byte %s in a domain (letters, digits and hyphens only)", byteName(b)))
			}
		}
	}
	return nil
}

// Quoted returns addr, an address with its local part unquoted (as
// net/mail gives it), as RFC 5321 writes it: a local part that is no
// dot-string goes back in its quotes, with "\\" before each '"' and "\\".
func Quoted(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 {
		return addr
	}
	local := addr[:at]
	dotString := true
	for _, atom := range splitOffsets(local, '.') {
		dotString = dotString && atom.s != ""
		for i := 0; dotString && i < len(atom.s); i++ {
			dotString = isAtext(atom.s[i])
		}
	}
	if dotString {
		return addr
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(local); i++ {
		if c := local[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(local[i])
	}
	b.WriteByte('"')
	return b.String() + addr[at:]
}

// checkQuoted checks a Quoted-string local part (RFC 5321 section 4.1.2):
// DQUOTE *(qtextSMTP / "\" %d32-126) DQUOTE.
func checkQuoted(s string) (int, string) {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return len(s), "unterminated quoted local part"
	}
	for i := 1; i < len(s)-1; i++ {
		b := s[i]
		switch {
		case b == '\\':
			if i+1 >= len(s)-1 || s[i+1] < 32 || s[i+1] > 126 {
				return i, "bad quoted-pair in the local part"
			}
			i++
		case b == '"':
			return i, "unescaped quote inside the quoted local part"
		case b < 32 || b > 126:
			return i, fmt.Sprintf("byte %s in the quoted local part", byteName(b))
		}
	}
	return 0, ""
}

type part struct {
	s   string
	off int
}

func splitOffsets(s string, sep byte) []part {
	var parts []part
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == sep {
			parts = append(parts, part{s[start:i], start})
			start = i + 1
		}
	}
	return parts
}

func isAlnum(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || isDigit(b) }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// isAtext: RFC 5322 atext, which RFC 5321 uses for Atom.
func isAtext(b byte) bool {
	return isAlnum(b) || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", b) >= 0
}

func byteName(b byte) string {
	if b > ' ' && b < 0x7f {
		return fmt.Sprintf("%q", string(rune(b)))
	}
	return fmt.Sprintf("0x%02x", b)
}
