package fetch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
)

// A part of a URL, with its offset in the URL's String form.
type part struct {
	name string // "user name", "password", "host", "path", "search"
	text string // as written (escaped)
	off  int    // offset of text in u.String()
}

// parts returns the components of u that can reach the wire, with their
// offsets in u.String() (which is the input for every URL Parse accepted).
func parts(u *urlkit.URL) (user, pass, host, path, query part) {
	off := 0
	if u.Scheme != "" {
		off += len(u.Scheme) + 1
	}
	if u.HasAuthority {
		off += 2
		if u.HasUser {
			user = part{"user name", u.User, off}
			off += len(u.User)
			if u.HasPassword {
				off++
				pass = part{"password", u.Password, off}
				off += len(u.Password)
			}
			off++ // "@"
		}
		host = part{"host", u.Host, off}
		off += len(u.Host)
		if u.HasPort {
			off += 1 + len(u.Port)
		}
	}
	path = part{"path", u.Path, off}
	off += len(u.Path)
	if u.HasQuery {
		query = part{"search", u.Query, off + 1}
	}
	return
}

// lineRule says what one scheme puts into protocol lines.
type lineRule struct {
	proto string // "FTP command", "Gopher request line", ...
	path  bool   // the decoded path and search are sent (else only the authority)
	// crlfOK: CR and LF in the path are harmless (file names); NUL is
	// still refused.
	crlfOK bool
}

var lineRules = map[string]lineRule{
	"ftp":    {proto: "FTP command", path: true},
	"gopher": {proto: "Gopher request line", path: true},
	// HTTP sends the path and search as written: an escaped CR LF stays
	// "%0D%0A" on the request line (RFC 1630: "Spaces and control
	// characters in URLs must be escaped for transmission in HTTP").
	"http":  {proto: "HTTP request"},
	"https": {proto: "HTTP request"},
	"file":  {proto: "file name", path: true, crlfOK: true},
}

// defaultRule applies to schemes urlkit has no rule for: every decoded
// part is assumed to reach a protocol line.
var defaultRule = lineRule{proto: "protocol line", path: true}

// CheckURL reports, before anything is sent, whether fetching u would
// put a CR, LF or NUL byte into a protocol line once the URL's escapes
// are decoded (RFC 1738 section 6: "Care should be taken when URLs
// contain embedded encoded delimiters for a given protocol ... that these
// are not unencoded before transmission"), and whether u names a blocked
// port (see BlockedPort) other than its scheme's default that allow does
// not list. The error is an *Error with Kind ErrUnsafe or ErrBlockedPort
// and the offset of the offending escape or port in u.String().
//
// What is checked depends on the scheme: for ftp and gopher every decoded
// part (user name, password, host, path segments, search, Gopher+
// string; the one exception is a Gopher+ ASK submission, whose CR LF
// structure RFC 1738 section 3.4 defines); for http and https only the
// authority, as their path and search are sent escaped; for file only NUL
// in the path; for other schemes everything.
func CheckURL(u *urlkit.URL, allow []int) error {
	scheme := u.SchemeName()
	rule, ok := lineRules[scheme]
	if !ok {
		rule = defaultRule
	}
	user, pass, host, path, query := parts(u)
	for _, p := range []part{user, pass, host} {
		if err := checkPart(u, p, rule.proto, false, -1, -1); err != nil {
			return err
		}
	}
	if rule.path {
		// A Gopher+ ASK submission keeps its CR LF, and only there.
		skipLo, skipHi := -1, -1
		if scheme == "gopher" {
			skipLo, skipHi = askSpan(u)
		}
		for _, p := range []part{path, query} {
			if err := checkPart(u, p, rule.proto, rule.crlfOK, skipLo, skipHi); err != nil {
				return err
			}
		}
	}
	return checkPort(u, scheme, allow)
}

// checkPart looks for a raw or escaped CR, LF or NUL in p. Bytes of the
// URL in [skipLo, skipHi) may hold CR and LF.
func checkPart(u *urlkit.URL, p part, proto string, crlfOK bool, skipLo, skipHi int) error {
	s := p.text
	for i := 0; i < len(s); i++ {
		c, n := s[i], 1
		if c == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				c, n = byte(v), 3
			}
		}
		off := p.off + i
		bad := c == 0 || (c == '\r' || c == '\n') && !crlfOK && !(off >= skipLo && off < skipHi)
		if bad {
			return &Error{Op: "check", URL: u.Redacted(), Offset: off, Kind: ErrUnsafe,
				Rule: unsafeRule(s[i:i+n], c, p.name, proto)}
		}
		i += n - 1
	}
	return nil
}

func unsafeRule(written string, c byte, where, proto string) string {
	name, effect := "NUL", "which many servers take as the end of the argument"
	switch c {
	case '\r':
		name, effect = "CR", "which would end the "+proto+" early and start another"
	case '\n':
		name, effect = "LF", "which would end the "+proto+" early and start another"
	}
	if len(written) == 1 {
		return fmt.Sprintf("a raw %s in the %s, %s (RFC 1738 section 6)", name, where, effect)
	}
	return fmt.Sprintf("%s in the %s decodes to %s, %s (RFC 1738 section 6)", written, where, name, effect)
}

// checkPort refuses a blocked port that is not the scheme's default.
func checkPort(u *urlkit.URL, scheme string, allow []int) error {
	port, ok := u.PortNumber()
	if !ok || port == urlkit.DefaultPort(scheme) || slices.Contains(allow, port) {
		return nil
	}
	service, blocked := BlockedPort(port)
	if !blocked {
		return nil
	}
	_, _, host, _, _ := parts(u)
	return &Error{Op: "check", URL: u.Redacted(), Offset: host.off + len(u.Host) + 1, Kind: ErrBlockedPort,
		Rule: fmt.Sprintf("port %d (%s) is not the %s port and is on the list of ports browsers block: "+
			"a %s request sent there could be read as %s commands (RFC 1738 section 6); allow the port explicitly to fetch it anyway",
			port, service, scheme, scheme, service)}
}

// askSpan returns the byte range, in u.String(), of the Gopher+ string of
// a gopher URL when it is a well-formed ASK submission (RFC 1738 section
// 3.4, draft-ietf-uri-url-06 3.4.9), and -1, -1 otherwise:
//
//	gopher://host/Tselector%09search%09+%091%0D%0A+-1%0D%0Avalue1%0D%0A...%0D%0A.%0D%0A
func askSpan(u *urlkit.URL) (int, int) {
	urlPath, ok := u.URLPath()
	if !ok || urlPath == "" {
		return -1, -1
	}
	_, _, _, path, _ := parts(u)
	start := path.off + 1 // after the "/" before the gopher-path
	// The gopher-path has no reserved characters: the escaped TABs are
	// its only field separators. Skip the type and find the second one.
	i, tabs := 1, 0
	for ; i+2 < len(urlPath) && tabs < 2; i++ {
		if urlPath[i] == '%' && urlPath[i+1] == '0' && urlPath[i+2] == '9' {
			tabs++
			i += 2
		}
	}
	if tabs < 2 {
		return -1, -1
	}
	plus, err := urlkit.Unescape(urlPath[i:])
	if err != nil {
		return -1, -1
	}
	if _, ok := parseAskSubmission(plus); !ok {
		return -1, -1
	}
	return start + i, start + len(urlPath)
}

// askPrefix opens every ASK submission: the Gopher+ "+" command, the
// "1" that says a data block follows, and the "+-1" length of a block
// ending with a "." line.
const askPrefix = "+\t1\r\n+-1\r\n"

// parseAskSubmission returns the values of a decoded Gopher+ string that
// is an ASK submission, undoing the dot-stuffing of lines that start with
// ".", and whether it is one: askPrefix, then one CRLF-terminated line per
// value, then ".\r\n". Any other CR or LF makes it not one.
func parseAskSubmission(plus string) ([]string, bool) {
	rest, ok := strings.CutPrefix(plus, askPrefix)
	if !ok {
		return nil, false
	}
	values := []string{}
	for {
		line, after, ok := strings.Cut(rest, "\r\n")
		if !ok || strings.ContainsAny(line, "\r\n") {
			return nil, false
		}
		if line == "." {
			if after != "" {
				return nil, false
			}
			return values, true
		}
		if strings.HasPrefix(line, "..") {
			line = line[1:]
		}
		values = append(values, line)
		rest = after
	}
}
