// Package registry is urlkit's one table of URL schemes: one Scheme row
// per scheme, with everything the generic code needs to know about it
// (default port, common Internet syntax or not, login allowed, host or
// hostport, its RFC 1738 section-5 production, status, title, section),
// and the splitters that cut a scheme's url-path into parts with their
// byte offsets.
//
// The root package (the strict RFC 1738 check), package scheme (the
// views, their safety concerns and access plans), extract (the list of
// schemes) and the command line (scheme_data, explain) all read these
// rows; none keeps a table or a per-scheme switch of its own. It is a
// leaf: the root may import nothing of the module but internal
// packages, and package scheme cannot be imported by the root, so the
// rows live below both.
//
// Adding a scheme is a row here (or, from a test, a call to Add) and a
// file in package scheme holding its view, concerns and plan. A scheme
// whose url-path has a production of its own also needs that production:
// a Production value here and its check in the root's grammar.go (see
// Production for why that is an enumeration).
package registry

import "strings"

// Status says where a scheme comes from.
type Status uint8

const (
	// Defined: RFC 1738 (or, for mid, cid, rlogin and tn3270, RFC 1630)
	// gives its syntax and meaning.
	Defined Status = iota
	// Modern: a later scheme urlkit knows (https).
	Modern
	// Reserved: named by the specifications but not defined (urn, nfs,
	// mailserver, z39.50).
	Reserved
	// Historical: defined only by the 1993-94 drafts (afs); read in the
	// lenient mode only.
	Historical
	// Experimental: an "x-" scheme, reserved for experiments by mutual
	// agreement (RFC 1738 section 4).
	Experimental
)

var statusNames = [...]string{"defined", "modern", "reserved", "historical", "experimental"}

// String returns the status in lower case ("defined", "reserved", ...).
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Production names a scheme-specific production of RFC 1738 section 5,
// which the root's strict check applies to the url-path after the
// generic rules. It is an enumeration rather than a function value: the
// parser switches on it and calls its own methods, so that the parser
// and the URL stay on the stack (an indirect call through a func value
// would make them escape to the heap, costing allocations on every
// parse; checked with -gcflags=-m and the benchmarks).
type Production uint8

const (
	Generic  Production = iota // only the generic rules
	FTP                        // ftpurl: fsegments, ";type=" ftptype
	HTTP                       // httpurl: hpath, "?" search
	Gopher                     // gopherurl: gtype selector "%09" search "%09" gopher+_string
	Mailto                     // mailtourl (and RFC 1630's mid, cid): an RFC 822 addr-spec
	News                       // newsurl: "*", group or article
	NNTP                       // nntpurl: "/" group [ "/" digits ]
	Telnet                     // telneturl: login [ "/" ]
	WAIS                       // waisurl: database, database "?" search, database "/" wtype "/" wpath
	File                       // fileurl: "/" fpath
	Prospero                   // prosperourl: ppath *fieldspec
)

// Scheme is one row of the registry.
type Scheme struct {
	Name    string // lower case
	Title   string // what the specification calls it
	Section string // where it is defined ("RFC 1738 3.2")
	Status  Status
	// Port is the default port, 0 when the scheme has none.
	Port int
	// IP: the scheme uses the common Internet scheme syntax "//" login
	// (RFC 1738 3.1).
	IP bool
	// Grammar1738: RFC 1738 section 5 (or, for mid and cid, RFC 1630)
	// gives the scheme a grammar, so the strict RFC 1738 check applies
	// IP, Login, HostOnly, EmptyHost and Production to it; other schemes
	// get the generic rules there (genericurl = scheme ":" schemepart).
	Grammar1738 bool
	// Login: a user name and password are allowed (ftpurl, telneturl).
	Login bool
	// Credentials: the access logs in with the URL's user name and
	// password (FTP USER and PASS, HTTP's Authorization), so a login
	// given outside the URL (get --user, a netrc file) applies to a URL
	// that names no user. Telnet's login is advisory, not sent.
	Credentials bool
	// LogsIn: the access logs in to the server (FTP USER and PASS, NNTP
	// AUTHINFO, rlogin's handshake), so a refused access is a refused
	// login (get's exit status 67), not a refused resource.
	LogsIn bool
	// HostOnly: the production has host, not hostport (fileurl).
	HostOnly bool
	// EmptyHost: the host may be empty (fileurl).
	EmptyHost bool
	// Production is the url-path's production of RFC 1738 section 5.
	Production Production
	// LenientOnly marks the drafts' historical schemes (afs), which the
	// strict modes treat as unknown.
	LenientOnly bool
}

// rows lists every scheme of the specifications (RFC 1738 sections 3
// and 5, RFC 1630, the 1993-94 drafts) and the modern ones urlkit knows.
// Ports: RFC 1738 3.x; https 443 (RFC 2818); rlogin 513 and tn3270 23
// (RFC 1630); z39.50r and z39.50s 210 (RFC 2056).
var rows = []Scheme{
	{Name: "ftp", Title: "File Transfer Protocol", Section: "RFC 1738 3.2", Port: 21, IP: true, Grammar1738: true, Login: true, Credentials: true, LogsIn: true, Production: FTP},
	{Name: "http", Title: "Hypertext Transfer Protocol", Section: "RFC 1738 3.3", Port: 80, IP: true, Grammar1738: true, Credentials: true, Production: HTTP},
	{Name: "gopher", Title: "The Gopher protocol", Section: "RFC 1738 3.4", Port: 70, IP: true, Grammar1738: true, Production: Gopher},
	{Name: "mailto", Title: "Electronic mail address", Section: "RFC 1738 3.5", Grammar1738: true, Production: Mailto},
	{Name: "news", Title: "USENET news", Section: "RFC 1738 3.6", Grammar1738: true, LogsIn: true, Production: News},
	{Name: "nntp", Title: "USENET news using NNTP access", Section: "RFC 1738 3.7", Port: 119, IP: true, Grammar1738: true, LogsIn: true, Production: NNTP},
	{Name: "telnet", Title: "Reference to interactive sessions", Section: "RFC 1738 3.8", Port: 23, IP: true, Grammar1738: true, Login: true, Production: Telnet},
	{Name: "wais", Title: "Wide Area Information Servers", Section: "RFC 1738 3.9", Port: 210, IP: true, Grammar1738: true, Production: WAIS},
	{Name: "file", Title: "Host-specific file names", Section: "RFC 1738 3.10", IP: true, Grammar1738: true, HostOnly: true, EmptyHost: true, Production: File},
	{Name: "prospero", Title: "Prospero Directory Service", Section: "RFC 1738 3.11", Port: 1525, IP: true, Grammar1738: true, Production: Prospero},
	// RFC 1630 gives rlogin and tn3270 no grammar of their own: the
	// strict RFC 1738 check reads them as generic.
	{Name: "rlogin", Title: "Reference to interactive sessions (rlogin)", Section: "RFC 1630 (Telnet, rlogin, tn3270)", Port: 513, IP: true, LogsIn: true},
	{Name: "tn3270", Title: "Interactive 3270 emulation sessions", Section: "RFC 1630 (Telnet, rlogin, tn3270)", Port: 23, IP: true},
	// RFC 1630: midaddress = "mid:" addr-spec, and a Content-ID has the
	// same form: the mailto production checks both.
	{Name: "mid", Title: "Message identifiers for electronic mail", Section: "RFC 1630 (Message-Id)", Grammar1738: true, Production: Mailto},
	{Name: "cid", Title: "Content identifiers for MIME body parts", Section: "RFC 1630 (Content-Id)", Grammar1738: true, Production: Mailto},
	{Name: "urn", Title: "Uniform Resource Names (reserved, opaque)", Section: "RFC 1630 (URN)", Status: Reserved},
	{Name: "afs", Title: "Andrew File System global file names", Section: "draft-ietf-uri-url-03 (afsaddress)", IP: true, Status: Historical, LenientOnly: true},
	{Name: "nfs", Title: "Network File System (NFS) file names", Section: "draft-ietf-uri-url-06 section 4", IP: true, Status: Reserved},
	{Name: "mailserver", Title: "Access to data available from mail servers", Section: "draft-ietf-uri-url-06 section 4", Status: Reserved},
	{Name: "z39.50", Title: "Access to ANSI Z39.50 services", Section: "draft-ietf-uri-url-06 section 4", Status: Reserved},
	{Name: "https", Title: "HTTP over TLS", Section: "RFC 2818", Port: 443, IP: true, Credentials: true, Status: Modern},
	{Name: "z39.50r", Title: "Z39.50 retrieval", Section: "RFC 2056", Port: 210, Status: Modern},
	{Name: "z39.50s", Title: "Z39.50 session", Section: "RFC 2056", Port: 210, Status: Modern},
}

// keys holds the packed name of each row (see key), and byFirst the
// rows by the first letter of their name (lower case), so that Lookup
// compares a name with the few rows it can be, without allocating: the
// strict check looks up the scheme of every URL it parses.
var keys, byFirst = buildKeys()

// httpRow and httpsRow are the rows of the commonest schemes.
var httpRow, httpsRow = row("http"), row("https")

// row returns the row named name, which must exist.
func row(name string) *Scheme {
	for i := range rows {
		if rows[i].Name == name {
			return &rows[i]
		}
	}
	panic("registry: no row " + name)
}

func buildKeys() ([]uint64, *[256][]uint8) {
	k := make([]uint64, len(rows))
	var first [256][]uint8
	for i := range rows {
		k[i], _ = key(rows[i].Name)
		c := rows[i].Name[0] | 0x20
		first[c] = append(first[c], uint8(i))
	}
	return k, &first
}

// Lookup returns the row of a scheme name (case-insensitive), or nil.
// It does not allocate.
func Lookup(name string) *Scheme {
	switch name { // most URLs: one comparison instead of a packed key
	case "https":
		return httpsRow
	case "http":
		return httpRow
	}
	k, ok := key(name)
	if !ok {
		for i := range rows { // a name longer than 8 bytes ("mailserver")
			if len(rows[i].Name) > 8 && strings.EqualFold(rows[i].Name, name) {
				return &rows[i]
			}
		}
		return nil
	}
	for _, i := range byFirst[name[0]|0x20] {
		if keys[i] == k {
			return &rows[i]
		}
	}
	return nil
}

// key packs a scheme name of at most 8 bytes, lower-cased, into a
// uint64. Setting bit 0x20 lower-cases letters and leaves digits, '+',
// '-' and '.' as they are; other bytes never match a row because no
// name holds them.
func key(name string) (uint64, bool) {
	if len(name) == 0 || len(name) > 8 {
		return 0, false
	}
	var k uint64
	for i := 0; i < len(name); i++ {
		k = k<<8 | uint64(name[i]|0x20)
	}
	return k, true
}

// All returns a copy of every row, in the order of RFC 1738 section 3
// and then the others.
func All() []Scheme { return append([]Scheme(nil), rows...) }

// Add appends a row, replacing a row of the same name. It is for
// package initialization and tests (a toy "x-" scheme), never for use
// while URLs are being parsed: the table is not locked.
func Add(s Scheme) {
	s.Name = strings.ToLower(s.Name)
	for i := range rows {
		if rows[i].Name == s.Name {
			rows[i] = s
			return
		}
	}
	rows = append(rows, s)
	keys, byFirst = buildKeys()
}

// DefaultPort returns the default port of a scheme (case-insensitive):
// its row's, or for a scheme of today without a row the port of
// currentPorts (ws 80, imap 143, ...); 0 when it has none or is unknown.
func DefaultPort(name string) int {
	if s := Lookup(name); s != nil {
		return s.Port
	}
	return currentPort(name)
}
