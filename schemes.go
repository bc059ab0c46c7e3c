package urlkit

// schemeSyntax is what the parser knows of one scheme's RFC 1738 grammar.
// Adding a scheme-specific production means adding a row here (and a check
// function): the generic parser calls it for the url-path.
type schemeSyntax struct {
	name      string
	port      int  // default port, 0 if the scheme has none
	ip        bool // RFC 1738 ip-schemepart: "//" login [ "/" urlpath ]
	login     bool // user and password are allowed (ftpurl, telneturl)
	emptyHost bool // the host may be empty (fileurl)
	// grammar selects the scheme-specific production that
	// (*parser).schemeGrammar applies beyond the generic rules. It is an
	// enumeration rather than a function value so that the parser and the
	// URL stay on the stack (an indirect call would make them escape).
	grammar grammar
	// lenientOnly marks historical schemes (draft-era) that the strict
	// RFC 1738 mode treats as generic.
	lenientOnly bool
}

// grammar names a scheme-specific production of RFC 1738 section 5.
type grammar uint8

const (
	grammarGeneric  grammar = iota // only the generic rules
	grammarFTP                     // ftpurl: fsegments, ";type=" ftptype
	grammarHTTP                    // httpurl: hpath, "?" search
	grammarGopher                  // gopherurl: gtype selector "%09" search "%09" gopher+_string
	grammarMailto                  // mailtourl: an RFC 822 addr-spec
	grammarNews                    // newsurl: "*", group or article
	grammarNNTP                    // nntpurl: "/" group [ "/" digits ]
	grammarTelnet                  // telneturl: login [ "/" ]
	grammarWAIS                    // waisurl: database, database "?" search, database "/" wtype "/" wpath
	grammarFile                    // fileurl: "/" fpath
	grammarProspero                // prosperourl: ppath *fieldspec
)

// schemeTable lists every scheme of the specifications (RFC 1738 section
// 3 and 5, RFC 1630, the 1993-94 drafts) and the modern ones urlkit knows
// a default port for. Ports: RFC 1738 3.x; https 443 (RFC 2818);
// rlogin 513, tn3270 23 (RFC 1630); z39.50r/z39.50s 210 (RFC 2056).
var schemeTable = [...]schemeSyntax{
	{name: "ftp", port: 21, ip: true, login: true, grammar: grammarFTP},
	{name: "http", port: 80, ip: true, grammar: grammarHTTP},
	{name: "gopher", port: 70, ip: true, grammar: grammarGopher},
	{name: "mailto", grammar: grammarMailto},
	{name: "news", grammar: grammarNews},
	{name: "nntp", port: 119, ip: true, grammar: grammarNNTP},
	{name: "telnet", port: 23, ip: true, login: true, grammar: grammarTelnet},
	{name: "wais", port: 210, ip: true, grammar: grammarWAIS},
	{name: "file", ip: true, emptyHost: true, grammar: grammarFile},
	{name: "prospero", port: 1525, ip: true, grammar: grammarProspero},
	{name: "rlogin", port: 513},
	{name: "tn3270", port: 23},
	// RFC 1630: midaddress = "mid:" addr-spec, and a Content-ID has the
	// same form; the mailto production checks it (review: the check
	// accepted "mid:foo", which the mid view rejects).
	{name: "mid", grammar: grammarMailto},
	{name: "cid", grammar: grammarMailto},
	{name: "urn"},
	{name: "afs", lenientOnly: true},
	{name: "https", port: 443},
	{name: "z39.50r", port: 210},
	{name: "z39.50s", port: 210},
}

// lookupScheme finds a scheme case-insensitively without allocating: the
// name is packed into a uint64 and compared with the packed names of the
// table.
func lookupScheme(name string) *schemeSyntax {
	k, ok := schemeKey(name)
	if !ok {
		return nil
	}
	for i := range schemeKeys {
		if schemeKeys[i] == k {
			return &schemeTable[i]
		}
	}
	return nil
}

// schemeKey packs a scheme name of at most 8 bytes, lower-cased, into a
// uint64. Setting bit 0x20 lower-cases letters and leaves digits, '+', '-'
// and '.' as they are; other bytes never match a table name because the
// table names hold none.
func schemeKey(name string) (uint64, bool) {
	if len(name) == 0 || len(name) > 8 {
		return 0, false
	}
	var k uint64
	for i := 0; i < len(name); i++ {
		k = k<<8 | uint64(name[i]|0x20)
	}
	return k, true
}

var schemeKeys = func() (keys [len(schemeTable)]uint64) {
	for i, s := range schemeTable {
		keys[i], _ = schemeKey(s.name)
	}
	return keys
}()

// DefaultPort returns the default port of a scheme (case-insensitive), or
// 0 when the scheme has none or is unknown: ftp 21, http 80, gopher 70,
// nntp 119, telnet 23, wais 210, prospero 1525, https 443, rlogin 513,
// tn3270 23, z39.50r and z39.50s 210; and the schemes of today listed in
// ports.go (ws 80, wss 443, imap 143, ldap 389, ...).
func DefaultPort(scheme string) int {
	if s := lookupScheme(scheme); s != nil {
		return s.port
	}
	return currentPort(scheme)
}

// equalFoldASCII reports whether lower (all lower case) equals s ignoring
// ASCII case.
func equalFoldASCII(lower, s string) bool {
	if len(lower) != len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
