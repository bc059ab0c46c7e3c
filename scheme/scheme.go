// Package scheme gives each URL scheme of the specifications a typed view
// with decoded values: ftp, http (and https), gopher with Gopher+,
// mailto, news, nntp, telnet (and rlogin, tn3270), wais, file, prospero
// (RFC 1738 section 3), mid and cid (RFC 1630), urn (opaque), and the
// drafts' afs (lenient mode only). Parse builds the view of a
// *urlkit.URL, reading it in the dialect of the mode the URL was parsed
// in (the one way to choose a dialect: RFC 1738's or RFC 3986's login
// in http, RFC 1738's or RFC 6068's mailto, RFC 5538's news server, the
// drafts' FTP type codes); a type switch or assertion on the View gives
// the scheme's fields. The view turns back into a URL with its URL
// method, which encodes exactly what the scheme's production of RFC 1738
// section 5 says must be encoded; the round trip view -> URL -> view is
// lossless.
//
// Every scheme is one unit: its registry row (internal/registry: name,
// port, syntax, production) and one file here holding its view (with
// the Span of every part), its safety concerns and its access plan,
// registered from that file's init. Adding a scheme is adding the row
// and the file; nothing else switches on scheme names.
//
// PlanURL writes out the access a URL stands for as data (a Plan: the
// connection, each line sent with its reason, the replies expected, how
// the data ends), which the explain command renders and the access layer
// (package fetch) carries out; Concerns reports what the
// security considerations of RFC 1738 section 6 warn about: a
// non-default port, and decoded CR, LF, NUL or TAB bytes that would
// enter a protocol line (a Plan for such a URL sends nothing). Nothing
// here touches the network.
package scheme

import (
	"errors"
	"strings"

	"github.com/urlkit/urlkit"
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/percent"
	"github.com/urlkit/urlkit/internal/registry"
)

// View is a typed scheme view: *FTP, *HTTP, *Gopher, *Mailto, *News,
// *NNTP, *Telnet, *WAIS, *File, *Prospero, *MID, *CID, *URN or *AFS.
// Only this package's types are views.
type View interface {
	// URL builds the URL the view stands for.
	URL() *urlkit.URL
	// appendParts appends the view's parts, decoded, to dst for the
	// command line's scheme_data (internal/schemedata; absent parts
	// null) and returns the extended slice; a caller that reuses dst
	// lists the common views without allocating.
	appendParts(dst []part) []part
}

// Parse returns the typed view of u for its scheme: *FTP, *HTTP, *Gopher,
// *Mailto, *News, *NNTP, *Telnet, *WAIS, *File, *Prospero, *MID, *CID,
// *URN or *AFS; or nil and no error when urlkit has no view for the
// scheme (x- experimental, reserved and unknown schemes). The error of a
// URL that is no valid view of its scheme is a *urlkit.Error wrapping
// urlkit.ErrSchemeSyntax, with the offset of the fault.
//
// The mode m is the one u was parsed in, and chooses the dialect: RFC1738
// and RFC1630 read RFC 1738's views; RFC3986 also reads a user name and
// password in http URLs, RFC 6068's mailto (several addresses and header
// fields) and RFC 5538's news://HOST/GROUP; Lenient reads what RFC3986
// does (but RFC 5538's news form) and also what the 1993-94 drafts
// allowed: the FTP type codes E and L and the form codes, and the afs
// scheme.
func Parse(u *urlkit.URL, m urlkit.Mode) (View, error) {
	un := viewUnit(u, m)
	if un == nil {
		return nil, nil
	}
	return un.parse(u, m)
}

// viewUnit returns the unit of u's scheme if it gives u a view in the
// mode m, or nil.
func viewUnit(u *urlkit.URL, m urlkit.Mode) *unit {
	un, row := unitOf(u.SchemeName())
	if un == nil || un.parse == nil || row.LenientOnly && m != urlkit.Lenient {
		return nil
	}
	return un
}

// appendParts is schemedata.Append: it appends the parts of u's view
// to dst, as Parse(u, m) and the view's appendParts would, and reports
// whether it listed a view. The common schemes build their view on the
// stack (unit.parts).
func appendParts(dst []part, u *urlkit.URL, m urlkit.Mode) ([]part, bool, error) {
	un := viewUnit(u, m)
	if un == nil {
		return dst, false, nil
	}
	if un.parts != nil {
		parts, err := un.parts(dst, u, m)
		return parts, err == nil, err
	}
	v, err := un.parse(u, m)
	if err != nil {
		return dst, false, err
	}
	return v.appendParts(dst), true, nil
}

// nilView turns a typed nil pointer into a nil View, so that a failed
// parse never returns a non-nil interface holding nil.
func nilView[T View](v T, err error) (View, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Status says where a scheme comes from: Defined, Modern, Reserved,
// Historical or Experimental (the registry's own type).
type Status = registry.Status

// The statuses of a scheme.
const (
	// Defined: RFC 1738 (or, for mid, cid, rlogin and tn3270, RFC 1630)
	// gives its syntax and meaning.
	Defined = registry.Defined
	// Modern: a later scheme urlkit knows (https).
	Modern = registry.Modern
	// Reserved: named by the specifications but not defined (urn, nfs,
	// mailserver, z39.50).
	Reserved = registry.Reserved
	// Historical: defined only by the 1993-94 drafts (afs); urlkit reads
	// it in the Lenient mode only.
	Historical = registry.Historical
	// Experimental: an "x-" scheme, reserved for experiments by mutual
	// agreement (RFC 1738 section 4); accepted as generic.
	Experimental = registry.Experimental
)

// Info describes a scheme: its registry row, and what this package
// offers for it.
type Info struct {
	Name    string // lower case
	Title   string // what the specification calls it
	Section string // where it is defined ("RFC 1738 3.2")
	Port    int    // default port, 0 when there is none
	IPBased bool   // uses the common Internet scheme syntax "//" login
	// Credentials: the access logs in with the URL's user and password
	// (ftp, http, https), so a login given outside the URL (a netrc
	// file) can stand in for them.
	Credentials bool
	// LogsIn: the access logs in to the server (ftp, news, nntp,
	// rlogin), so a refused access is a refused login.
	LogsIn  bool
	Status  Status
	HasView bool // Parse returns a view for it
	// HasPlan: PlanURL gives an access plan for it (explain can write it
	// out; whether get can carry it out is the access layer's business).
	HasPlan bool
	// Retrieval: its URLs name resources to retrieve, which an HTTP proxy
	// or gateway can fetch too (RFC 1630); not interactive sessions
	// (telnet, rlogin, tn3270), mail (mailto) or local references.
	Retrieval bool
}

func infoOf(r *registry.Scheme) Info {
	u := units[r.Name]
	return Info{Name: r.Name, Title: r.Title, Section: r.Section, Port: r.Port, IPBased: r.IP, Credentials: r.Credentials, LogsIn: r.LogsIn,
		Status: r.Status, HasView: u != nil && u.parse != nil, HasPlan: u != nil && u.plan != nil,
		Retrieval: u != nil && u.proxied}
}

// Known returns what urlkit knows of the scheme name (case-insensitive).
// Every "x-" name is known as Experimental.
func Known(name string) (Info, bool) {
	if r := registry.Lookup(name); r != nil {
		return infoOf(r), true
	}
	name = strings.ToLower(name)
	if len(name) > 2 && strings.HasPrefix(name, "x-") {
		return Info{Name: name, Title: "experimental scheme", Section: "RFC 1738 section 4", Status: Experimental}, true
	}
	return Info{}, false
}

// List returns every named scheme of the specifications, in the order of
// RFC 1738 section 3 and then the others.
func List() []Info {
	rows := registry.All()
	l := make([]Info, len(rows))
	for i := range rows {
		l[i] = infoOf(&rows[i])
	}
	return l
}

// Errors of this package wrap one of these sentinels in a *urlkit.Error
// that names the offset in the URL's String form.
var (
	// ErrNoAccess: the scheme has no access algorithm (urn, reserved and
	// unknown schemes).
	ErrNoAccess = errors.New("no access algorithm for this scheme")
)

// newError builds the error of a view: the URL (password redacted), the
// offset in u.String(), the sentinel and the rule.
func newError(u *urlkit.URL, off int, cause error, rule string) *urlkit.Error {
	return &urlkit.Error{Op: "view", Input: u.Redacted(), Offset: off, Err: cause, Rule: rule}
}

// syntaxError is newError with urlkit.ErrSchemeSyntax.
func syntaxError(u *urlkit.URL, off int, rule string) *urlkit.Error {
	return newError(u, off, urlkit.ErrSchemeSyntax, rule)
}

// needAuthority checks that u uses the common Internet scheme syntax,
// with a host: the RFC3986 mode reads "http:///x" with an empty one,
// which a client would take for this machine (Go dials ":80" there).
func needAuthority(u *urlkit.URL) error {
	if !u.HasAuthority {
		off := len(u.Scheme) + 1
		return syntaxError(u, off, u.SchemeName()+" URLs use the common Internet scheme syntax: \"//\" and a host must follow \""+u.SchemeName()+":\" (RFC 1738 3.1)")
	}
	if u.Host == "" {
		return syntaxError(u, layoutOf(u).host, "empty host (RFC 1738 3.1: a host name or number is required)")
	}
	return nil
}

// layout holds the offsets of a URL's components in its String form.
type layout struct {
	ssp, user, pass, host, port, path, query, frag int
}

func layoutOf(u *urlkit.URL) layout {
	o := u.Offsets()
	return layout{ssp: o.SchemeSpecificPart, user: o.User, pass: o.Password, host: o.Host,
		port: o.Port, path: o.Path, query: o.Query, frag: o.Fragment}
}

// urlPath returns RFC 1738's url-path as written (the query rejoined: a
// "?" is data in most schemes' url-paths), its offset in u.String(), and
// whether there is one.
func urlPath(u *urlkit.URL) (string, int, bool) {
	p, ok := u.URLPath()
	return p, layoutOf(u).path + 1, ok
}

// noSlashBeforeQuery is the error of a URL whose "?" follows the host
// with no "/" between: RFC 1738 3.1's url-path starts after a "/", so
// the view would lose the query.
func noSlashBeforeQuery(u *urlkit.URL) error {
	return syntaxError(u, layoutOf(u).query-1, "'/' must separate the host from the url-path before '?' (RFC 1738 3.1)")
}

// setPath stores a url-path built by a view, splitting it at its first
// "?" as the parser does.
func setPath(u *urlkit.URL, p string) {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		u.Path, u.Query, u.HasQuery = p[:i], p[i+1:], true
		return
	}
	u.Path = p
}

// serverURL starts the URL of a view that uses the common Internet scheme
// syntax.
func serverURL(scheme, host, port string) *urlkit.URL {
	u := &urlkit.URL{Scheme: scheme, HasAuthority: true, Host: host}
	if port != "" {
		u.HasPort, u.Port = true, port
	}
	return u
}

// setLogin stores a decoded user and password, encoded for RFC 1738's
// user and password productions, with "?" encoded too: RFC 1738 allows
// it there, but in the other modes it ends the authority, and
// ftp://a?b@h/ would read as host "a". A password implies a user (RFC
// 1738 3.1: there is no way to give a password without a user name).
func setLogin(u *urlkit.URL, user, password string, hasUser, hasPassword bool) {
	if !hasUser && !hasPassword {
		return
	}
	u.HasUser, u.User = true, escape(user, &keepUser)
	if hasPassword {
		u.HasPassword, u.Password = true, escape(password, &keepUser)
	}
}

// port returns the written port, or "" when the URL has none.
func port(u *urlkit.URL) string {
	if u.HasPort {
		return u.Port
	}
	return ""
}

// Byte sets for escape: the bytes each production lets stay unencoded.
var (
	keepUser    = keepWithout(cc.User1738, "?")     // user, password: uchar ; & = (see setLogin)
	keepFseg    = keepOf(cc.Fsegment1738, "")       // fsegment, psegment: uchar ? : @ & =
	keepPpath   = keepOf(cc.Fsegment1738, "/")      // an hsoname, where "/" has no meaning
	keepSearch  = keepOf(cc.Hsegment1738, "")       // search: uchar ; : @ & =
	keepField   = keepOf(cc.Field1738, "")          // Prospero fieldname, fieldvalue: uchar ? : @ &
	keepUchar   = keepOf(cc.Uchar, "")              // uchar
	keepXchar   = keepOf(cc.Xchar, "")              // xchar
	keepAddress = keepWithout(cc.Xchar, ",?")       // a mailto address: xchar but RFC 6068's delimiters
	keepArticle = keepWithout(cc.Xchar, "@")        // article's unique part: uchar ; / ? : & =
	keepGroup   = keepOf(cc.Alpha|cc.Digit, "-.+_") // group
)

func keepOf(class cc.Class, more string) cc.ByteSet {
	return *cc.NewByteSet(func(c byte) bool { return cc.Is(c, class) || strings.IndexByte(more, c) >= 0 })
}

func keepWithout(class cc.Class, except string) cc.ByteSet {
	return *cc.NewByteSet(func(c byte) bool { return cc.Is(c, class) && strings.IndexByte(except, c) < 0 })
}

// escape percent-encodes every byte of s that keep does not list (the
// root's one encoder); it returns s itself when nothing changes.
func escape(s string, keep *cc.ByteSet) string { return keep.Escape(s) }

// unescape decodes the valid %XX escapes of s and keeps anything else as
// it is (the URL was checked by its parser; a view decodes, it does not
// validate escapes again).
func unescape(s string) string {
	return percent.Loose(s, false)
}

// unescapeMap is unescape that also returns, for each decoded byte, the
// offset in s where it was written (and one more entry: len(s)).
func unescapeMap(s string) (string, []int) {
	b := make([]byte, 0, len(s))
	from := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		from = append(from, i)
		if isEscape(s, i) {
			b = append(b, cc.Unhex(s[i+1])<<4|cc.Unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b), append(from, len(s))
}

// isEscape reports whether a valid %XX escape starts at s[i].
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && cc.IsHex(s[i+1]) && cc.IsHex(s[i+2])
}

// indexEscape returns the offset of the first %XX escape in s that
// decodes to c, skipping other escapes whole, or -1.
func indexEscape(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if isEscape(s, i) {
			if cc.Unhex(s[i+1])<<4|cc.Unhex(s[i+2]) == c {
				return i
			}
			i += 2
		}
	}
	return -1
}

// cutEscape cuts s around the first escape that decodes to c.
func cutEscape(s string, c byte) (before, after string, found bool) {
	if i := indexEscape(s, c); i >= 0 {
		return s[:i], s[i+3:], true
	}
	return s, "", false
}

// splitEscape splits s around every escape that decodes to c.
func splitEscape(s string, c byte) []string {
	var parts []string
	for {
		before, after, found := cutEscape(s, c)
		parts = append(parts, before)
		if !found {
			return parts
		}
		s = after
	}
}

// Span is where a part of a URL is written: the byte offsets At
// (inclusive) and End (exclusive) in the URL's String form (Step.At).
// Parse records the span of every part a view decodes, so that errors,
// safety concerns and access plans name the place without splitting the
// URL again.
type Span struct{ At, End int }

// authSpans holds the spans of the parts of the common Internet scheme
// syntax (RFC 1738 3.1): user, password, host, port. A missing part has
// an empty span where it would be.
type authSpans struct{ User, Password, Host, Port Span }

func serverSpans(u *urlkit.URL) authSpans { return serverSpansAt(u, u.Offsets()) }

// serverSpansAt is serverSpans with u's offsets at hand.
func serverSpansAt(u *urlkit.URL, o urlkit.Offsets) authSpans {
	return authSpans{
		User:     Span{o.User, o.User + len(u.User)},
		Password: Span{o.Password, o.Password + len(u.Password)},
		Host:     Span{o.Host, o.Host + len(u.Host)},
		Port:     Span{o.Port, o.Port + len(u.Port)},
	}
}

// currentReading reports whether the mode reads a URL by the documents
// that replaced RFC 1738 for its scheme: RFC 3986's login in an http URL,
// RFC 6068's lists of addresses and header fields in a mailto URL.
func currentReading(m urlkit.Mode) bool { return m == urlkit.RFC3986 || m == urlkit.Lenient }
