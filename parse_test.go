package urlkit

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/safetext"
)

// u builds an expected URL from "key=value" pairs; a key without "=" sets
// the component present and empty. Keys: scheme user pass host port path
// query frag auth.
func want(pairs ...string) URL {
	var u URL
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		switch k {
		case "scheme":
			u.Scheme = v
		case "auth":
			u.HasAuthority = true
		case "user":
			u.User, u.HasUser, u.HasAuthority = v, true, true
		case "pass":
			u.Password, u.HasPassword = v, true
		case "host":
			u.Host, u.HasAuthority = v, true
		case "port":
			u.Port, u.HasPort = v, true
		case "path":
			u.Path = v
		case "query":
			u.Query, u.HasQuery = v, true
		case "frag":
			u.Fragment, u.HasFragment = v, true
		default:
			panic("bad key " + k)
		}
	}
	return u
}

// specExamples are the example URLs of the specifications, each with its
// components as urlkit splits them and the modes that accept it.
var specExamples = []struct {
	section string
	in      string
	want    URL
	modes   []Mode // modes that accept the input
}{
	// RFC 1738 3.1: absent and empty user name and password.
	{"RFC 1738 3.1", "ftp://@host.com/", want("scheme=ftp", "user=", "host=host.com", "path=/"), all},
	{"RFC 1738 3.1", "ftp://host.com/", want("scheme=ftp", "host=host.com", "path=/"), all},
	{"RFC 1738 3.1", "ftp://foo:@host.com/", want("scheme=ftp", "user=foo", "pass=", "host=host.com", "path=/"), all},
	// RFC 1738 3.2.2: the FTP url-path.
	{"RFC 1738 3.2.2", "ftp://myname@host.dom/%2Fetc/motd", want("scheme=ftp", "user=myname", "host=host.dom", "path=/%2Fetc/motd"), all},
	{"RFC 1738 3.2.2", "ftp://myname@host.dom/etc/motd", want("scheme=ftp", "user=myname", "host=host.dom", "path=/etc/motd"), all},
	{"RFC 1738 3.2.2", "ftp://myname@host.dom//etc/motd", want("scheme=ftp", "user=myname", "host=host.dom", "path=//etc/motd"), all},
	// RFC 1738 3.6, 3.10, 3.11.
	{"RFC 1738 3.6", "news:*", want("scheme=news", "path=*"), all},
	{"RFC 1738 3.10", "file://vms.host.edu/disk$user/my/notes/note12345.txt", want("scheme=file", "host=vms.host.edu", "path=/disk$user/my/notes/note12345.txt"), all},
	{"RFC 1738 3.11", "prospero://host.dom//pros/name", want("scheme=prospero", "host=host.dom", "path=//pros/name"), all},
	// RFC 1738 appendix, after the whitespace of the line break is dropped.
	{"RFC 1738 appendix", "ftp://info.cern.ch/pub/www/doc;type=d", want("scheme=ftp", "host=info.cern.ch", "path=/pub/www/doc;type=d"), all},
	{"RFC 1738 appendix", "ftp://ds.internic.net/rfc", want("scheme=ftp", "host=ds.internic.net", "path=/rfc"), all},
	{"RFC 1738 appendix", "http://ds.internic.net/instructions/overview.HTM#WARNING", want("scheme=http", "host=ds.internic.net", "path=/instructions/overview.HTM", "frag=WARNING"), all},
	// RFC 1738 references section.
	{"RFC 1738 references", "ftp://ds.internic.net/rfc/rfc1436.txt;type=a", want("scheme=ftp", "host=ds.internic.net", "path=/rfc/rfc1436.txt;type=a"), all},
	{"RFC 1738 references", "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt", want("scheme=ftp", "host=boombox.micro.umn.edu", "path=/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt"), all},
	{"RFC 1738 references", "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z", want("scheme=ftp", "host=info.cern.ch", "path=/pub/www/doc/http-spec.txt.Z"), all},
	{"RFC 1738 references", "ftp://uu.psi.com/wp/nir.txt", want("scheme=ftp", "host=uu.psi.com", "path=/wp/nir.txt"), all},
	{"RFC 1738 references", "http://www.acl.lanl.gov/URI/archive/uri-archive.index.HTM", want("scheme=http", "host=www.acl.lanl.gov", "path=/URI/archive/uri-archive.index.HTM"), all},
	// RFC 1630 examples.
	{"RFC 1630 example 1", "http://info.cern.ch/albert/bertram/marie-claude", want("scheme=http", "host=info.cern.ch", "path=/albert/bertram/marie-claude"), all},
	{"RFC 1630 example 1", "http://info.cern.ch/albert/bertram/marie%2Dclaude", want("scheme=http", "host=info.cern.ch", "path=/albert/bertram/marie%2Dclaude"), all},
	{"RFC 1630 example 2", "http://info.cern.ch/albert/bertram%2Fmarie-claude", want("scheme=http", "host=info.cern.ch", "path=/albert/bertram%2Fmarie-claude"), all},
	{"RFC 1630 partial forms", "magic://a/b/c//d/e/f", want("scheme=magic", "host=a", "path=/b/c//d/e/f"), all},
	{"RFC 1630 partial forms", "g:h", want("scheme=g", "path=h"), all},
	{"RFC 1630 HTTP examples", "http://www.my.work.com/", want("scheme=http", "host=www.my.work.com", "path=/"), all},
	{"RFC 1630 HTTP examples", "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", want("scheme=http", "host=www.library.my.town.va.us", "path=/Catalogue/76523471236%2Fwen44--4.98"), all},
	{"RFC 1630 HTTP examples", "http://www.my.org/462F4F2D4241522A314159265358979323846", want("scheme=http", "host=www.my.org", "path=/462F4F2D4241522A314159265358979323846"), all},
	{"RFC 1630 HTTP examples", "http://info.cern.ch:8000/imaginary/test", want("scheme=http", "host=info.cern.ch", "port=8000", "path=/imaginary/test"), all},
	{"RFC 1630 HTTP examples", "http://www.myu.edu/org/admin/people#andy", want("scheme=http", "host=www.myu.edu", "path=/org/admin/people", "frag=andy"), all},
	{"RFC 1630 HTTP examples", "http://info.my.org/AboutUs/Index/Phonebook?dobbins", want("scheme=http", "host=info.my.org", "path=/AboutUs/Index/Phonebook", "query=dobbins"), all},
	{"RFC 1630 URN", "urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", want("scheme=urn", "path=/iana/dns/ch/cern/cn/techdoc/94/1642-3"), all},
	{"RFC 1630 references", "http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html", want("scheme=http", "host=info.cern.ch", "path=/hypertext/WWW/Addressing/URL/URI_Overview.html"), all},
	// Schemes without "//" (RFC 1738 3.5, 3.6; RFC 1630 mid and cid).
	{"RFC 1738 3.5", "mailto:timbl@info.cern.ch", want("scheme=mailto", "path=timbl@info.cern.ch"), all},
	{"RFC 1738 3.6", "news:comp.infosystems.www", want("scheme=news", "path=comp.infosystems.www"), all},
	{"RFC 1630 mid", "mid:960830.1639@xyzzy.com", want("scheme=mid", "path=960830.1639@xyzzy.com"), all},
	// Gopher+ strings of RFC 1738 3.4 in a gopher URL.
	{"RFC 1738 3.4", "gopher://host.dom/1sel%09%09!+ABSTRACT%20+SMELL", want("scheme=gopher", "host=host.dom", "path=/1sel%09%09!+ABSTRACT%20+SMELL"), all},
	{"RFC 1738 3.4", "gopher://host.dom/0sel%09%09+application/postscript%20Es_ES", want("scheme=gopher", "host=host.dom", "path=/0sel%09%09+application/postscript%20Es_ES"), all},
	// Modern forms: RFC 3986 only.
	{"RFC 3986 3.2.2", "http://[::1]:8080/a", want("scheme=http", "host=[::1]", "port=8080", "path=/a"), modern},
	{"RFC 3986 3.2.2", "http://[v7.fe80::a+en1]/", want("scheme=http", "host=[v7.fe80::a+en1]", "path=/"), modern},
	{"RFC 3986 1.1.2", "ldap://[2001:db8::7]/c=GB?objectClass?one", want("scheme=ldap", "host=[2001:db8::7]", "path=/c=GB", "query=objectClass?one"), modern},
	{"RFC 3986 1.1.2", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", want("scheme=urn", "path=oasis:names:specification:docbook:dtd:xml:4.1.2"), all},
	{"RFC 3986 1.1.2", "https://user@example.com/~user/", want("scheme=https", "user=user", "host=example.com", "path=/~user/"), modern},
}

var (
	all    = []Mode{RFC1738, RFC1630, RFC3986, Lenient}
	modern = []Mode{RFC3986, Lenient}
)

func TestSpecExamples(t *testing.T) {
	for _, tc := range specExamples {
		for _, m := range []Mode{RFC1738, RFC1630, RFC3986, Lenient} {
			accepted := false
			for _, am := range tc.modes {
				accepted = accepted || am == m
			}
			u, _, err := ParseMode(tc.in, m)
			if !accepted {
				if err == nil {
					t.Errorf("%s: ParseMode(%q, %v) accepted; want an error", tc.section, tc.in, m)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: ParseMode(%q, %v): %v", tc.section, tc.in, m, err)
				continue
			}
			if !u.SameComponents(&tc.want) {
				t.Errorf("%s: ParseMode(%q, %v) =\n%+v\nwant\n%+v", tc.section, tc.in, m, u, tc.want)
			}
			if s := u.String(); s != tc.in {
				t.Errorf("%s: round trip %q -> %q", tc.section, tc.in, s)
			}
		}
	}
}

// TestAbsentVersusEmpty checks RFC 1738 3.1's three examples through the
// accessors.
func TestAbsentVersusEmpty(t *testing.T) {
	for _, tc := range []struct {
		in               string
		user             string
		hasUser, hasPass bool
	}{
		{"ftp://@host.com/", "", true, false},
		{"ftp://host.com/", "", false, false},
		{"ftp://foo:@host.com/", "foo", true, true},
	} {
		u, err := Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		user, hasUser := u.DecodedUser()
		pass, hasPass := u.DecodedPassword()
		if user != tc.user || hasUser != tc.hasUser || hasPass != tc.hasPass || pass != "" {
			t.Errorf("%s: user %q,%v password %q,%v", tc.in, user, hasUser, pass, hasPass)
		}
	}
}

// invalid inputs: the first error (offset, sentinel, rule) per mode.
var invalidCases = []struct {
	section string
	in      string
	mode    Mode
	offset  int
	err     error
	rule    string // a substring of the rule
}{
	{"CLI.md", "ftp://a b/", RFC1738, 7, ErrInvalidChar, "space is unsafe and must be encoded as %20"},
	{"RFC 1738 2.1", "", RFC1738, 0, ErrMissingScheme, "missing scheme"},
	{"RFC 1738 2.1", "www.example.com", RFC1738, 0, ErrMissingScheme, "missing scheme"},
	{"RFC 1738 2.1", "ht_tp://host/", RFC1738, 2, ErrBadScheme, "'_' is not allowed in a scheme name"},
	{"RFC 3986 3.1", "1http://host/", RFC3986, 0, ErrBadScheme, "must start with a letter"},
	{"RFC 1738 2.2", "http://host/a{b}", RFC1738, 13, ErrInvalidChar, "'{' is unsafe and must be encoded as %7B"},
	{"RFC 1738 2.2", "http://host/~user", RFC1738, 12, ErrInvalidChar, "'~' is unsafe and must be encoded as %7E"},
	{"RFC 1738 2.2", "http://host/a\"b", RFC1738, 13, ErrInvalidChar, "'\"' is unsafe"},
	{"RFC 1738 2.2", "http://host/a#b#c", RFC1738, 15, ErrInvalidChar, "'#' is unsafe and must be encoded as %23"},
	{"RFC 1738 2.2", "http://host/\xc3\xa9", RFC1738, 12, ErrInvalidChar, "non-ASCII byte 0xC3 must be encoded as %C3"},
	{"RFC 1738 2.2", "http://host/a\tb", RFC1738, 13, ErrInvalidChar, "control character 0x09 must be encoded as %09"},
	{"RFC 1630 example 3", "fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", RFC1738, 36, ErrBadEscape, "two hex digits"},
	{"RFC 1630 example 3", "news:12345667123%asdghfh@info.cern.ch", RFC1738, 16, ErrBadEscape, "two hex digits"},
	{"RFC 1630 example 3", "news:12345667123%asdghfh@info.cern.ch", RFC3986, 16, ErrBadEscape, "two hex digits"},
	// RFC 1630's own search example holds "%%3D", which its rule makes illegal.
	{"RFC 1630 HTTP examples", "http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins", RFC1738, 44, ErrBadEscape, "two hex digits"},
	{"RFC 1738 3.1", "ftp://us@er@host/", RFC1738, 8, ErrInvalidChar, "'@' is reserved and must be encoded as %40 in the user name"},
	{"RFC 1738 3.1", "ftp://user:pa/ss@host/", RFC1738, 11, ErrBadPort, "the password contains a character that must be encoded"}, // "/" cut it short; no byte of it named
	{"RFC 1738 3.3", "http://user:pass@host/", RFC1738, 7, ErrSchemeSyntax, "not allowed in http URLs"},
	{"RFC 1738 3.1", "http:host/path", RFC1738, 5, ErrSchemeSyntax, "\"//\" must follow \"http:\""},
	{"RFC 1738 3.1", "http://host?q", RFC1738, 11, ErrSchemeSyntax, "'/' must separate the host"},
	{"RFC 1738 3.1", "http:///path", RFC1738, 7, ErrBadHost, "empty host"},
	{"RFC 1738 hostname", "http://ex_ample.com/", RFC1738, 9, ErrBadHost, "'_' is not allowed in a hostname"},
	{"RFC 1738 hostname", "http://example.com./", RFC1738, 18, ErrBadHost, "may not end with '.'"},
	{"RFC 1738 hostname", "http://a..b/", RFC1738, 9, ErrBadHost, "empty label"},
	{"RFC 1738 hostname", "http://-a.b/", RFC1738, 7, ErrBadHost, "may not start with '-'"},
	{"RFC 1738 hostname", "http://a-.b/", RFC1738, 8, ErrBadHost, "may not end with '-'"},
	{"RFC 1738 toplabel", "http://a.b.3com/", RFC1738, 11, ErrBadHost, "must start with a letter"},
	{"RFC 1738 hostnumber", "http://1.2.3/", RFC1738, 7, ErrBadHost, "3 groups, not 4"},
	{"RFC 1738 hostnumber", "http://1.2..4/", RFC1738, 11, ErrBadHost, "empty group"},
	{"RFC 1738 hostname", "http://[::1]/", RFC1738, 7, ErrInvalidChar, "'[' is unsafe"},
	{"RFC 1738 port", "http://host:/", RFC1738, 12, ErrBadPort, "empty port"},
	{"RFC 1738 port", "http://host:8a/", RFC1738, 13, ErrBadPort, "'a' in the port"},
	{"TCP", "http://host:65536/", RFC3986, 12, ErrBadPort, "out of range"},
	{"RFC 1630 BNF", "http://host/~user", RFC1630, 12, ErrInvalidChar, "national character '~'"},
	{"RFC 1630 BNF", "http://host/a<b", RFC1630, 13, ErrInvalidChar, "punctuation"},
	{"RFC 1630 BNF", "http://host/a#b/c", RFC1630, 15, ErrInvalidChar, "'/' is reserved"},
	{"RFC 1630 BNF", "svn+ssh://host/", RFC1630, 3, ErrInvalidChar, "'+' is reserved"},
	{"RFC 3986 3.2.2", "http://[::1/", RFC3986, 7, ErrBadHost, "IP literal without its closing"},
	{"RFC 3986 3.2.2", "http://[::1]x/", RFC3986, 12, ErrBadHost, "after an IP literal"},
	{"RFC 3986 3.2.2", "http://[1.2.3.4]/", RFC3986, 8, ErrBadHost, "must hold an IPv6 address"},
	{"RFC 3986 3.2.2", "http://[::1%25eth0]/", RFC3986, 11, ErrBadHost, "zone identifiers"},
	{"RFC 3986 3.2.2", "http://[fe80::g]/", RFC3986, 8, ErrBadHost, "invalid IPv6 address"},
	{"RFC 3986 3.2.2", "http://[v.x]/", RFC3986, 8, ErrBadHost, "IPvFuture"},
	{"RFC 3986 3.3", "http://host/a b", RFC3986, 13, ErrInvalidChar, "space is unsafe"},
	{"RFC 3986 3.3", "http://host/a[b", RFC3986, 13, ErrInvalidChar, "'[' is not allowed in the path (RFC 3986)"},
	{"RFC 3986 3.2.1", "http://a[b@host/", RFC3986, 8, ErrInvalidChar, "'[' is not allowed in the userinfo"},
	{"RFC 3986 3.2.1, a \"[\" before the \"@\"", "http://[A0/]@x", RFC3986, 7, ErrInvalidChar, "'[' is not allowed in the userinfo"},
	{"RFC 3986 3.2.1, a literal then \"@\"", "//[::1]@x/", RFC3986, 2, ErrInvalidChar, "'[' is not allowed in the userinfo"},
	{"RFC 3986 4.2", "a:b/c", RFC3986, -1, nil, ""}, // valid: a scheme
	{"RFC 3986 4.2", "1a:b/c", RFC3986, 0, ErrBadScheme, "must start with a letter"},
	{"RFC 3986 3.5", "http://host/#a#b", RFC3986, 14, ErrInvalidChar, "'#' is not allowed in the fragment"},
	{"RFC 1630 midaddress = mid: addr-spec", "mid:foo", RFC1738, 7, ErrSchemeSyntax, "addr-spec"},
}

func TestInvalid(t *testing.T) {
	for _, tc := range invalidCases {
		_, _, err := ParseMode(tc.in, tc.mode)
		if tc.err == nil {
			if err != nil {
				t.Errorf("%s: ParseMode(%q, %v): %v; want success", tc.section, tc.in, tc.mode, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: ParseMode(%q, %v) = %v; want *Error", tc.section, tc.in, tc.mode, err)
			continue
		}
		if e.Offset != tc.offset || !errors.Is(err, tc.err) || !strings.Contains(e.Rule, tc.rule) {
			t.Errorf("%s: ParseMode(%q, %v):\n got offset %d, %v: %s\nwant offset %d, %v: ...%s...", tc.section, tc.in, tc.mode, e.Offset, e.Err, e.Rule, tc.offset, tc.err, tc.rule)
		}
		// Check must agree: its first error is Parse's.
		list := Check(tc.in, tc.mode)
		if len(list) == 0 || list[0].Offset != e.Offset || list[0].Rule != e.Rule {
			t.Errorf("%s: Check(%q, %v) = %v; first should be %v", tc.section, tc.in, tc.mode, list, e)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Parse("ftp://a b/")
	const msg = `urlkit: "ftp://a b/": offset 7: space is unsafe and must be encoded as %20`
	if err == nil || err.Error() != msg {
		t.Errorf("got %v\nwant %s", err, msg)
	}
}

func TestCheckCollectsEverything(t *testing.T) {
	list := Check("ht tp://a b/{}#x#", RFC1738)
	var offsets []int
	for _, e := range list {
		offsets = append(offsets, e.Offset)
	}
	wantOffsets := []int{2, 9, 12, 13, 16}
	if len(offsets) != len(wantOffsets) {
		t.Fatalf("Check offsets = %v, want %v\n%v", offsets, wantOffsets, list)
	}
	for i := range offsets {
		if offsets[i] != wantOffsets[i] {
			t.Fatalf("Check offsets = %v, want %v", offsets, wantOffsets)
		}
	}
	if list.Err() == nil || ErrorList(nil).Err() != nil {
		t.Error("ErrorList.Err is wrong")
	}
	if !errors.Is(list, ErrInvalidChar) || !errors.Is(list, ErrBadScheme) {
		t.Error("errors.Is does not see through ErrorList")
	}
}

// TestPasswordRedacted: no error message ever shows a password.
func TestPasswordRedacted(t *testing.T) {
	for _, in := range []string{
		"ftp://user:s3cr3t@host/a b",
		"ftp://user:s3cr3t@ho_st/",
		"ftp://user:s3cr3t{@host/",
		"http://user:s3cr3t@host/",
		"ftp://user:s3cr3t@host:99999/",
		"x://user:s3cr3t@host/%zz",
		// The password runs past a raw space to the last "@": the lenient
		// host before the "/" is part of it, and IDNA's message quoted it.
		"http://user:x y@\u0301s3cr3t/a@h",
		// Past a raw "\\" too, which the parser reads in the authority.
		"ftp://user:x@s3cr3t\\y@host/",
	} {
		for _, m := range all {
			for _, e := range Check(in, m) {
				if strings.Contains(e.Error(), "s3cr3t") || strings.Contains(e.Error(), "3cr") {
					t.Errorf("%v: password in %q", m, e.Error())
				}
			}
		}
	}
	// Nor a byte of one: the message beside the hidden password does
	// not name what the parser stopped at in it, nor a repair's warning
	// (a raw "/", "?" or "#" ends the authority, and the rest of the
	// password is read as a port or a path).
	for _, in := range []string{
		"ftp://user:Q{é Z@host/x",
		"ftp://user:Q/Z{@host/x",
		"ftp://user:Q#Z{@host/x",
		"ftp://user:Q?Z{é@host/x",
		"ftp://us:Q:Z@host/x",
		"ftp://user:Q@Z@host/x",
		"ftp://user:Q%zZ@host/x",
		"http://user:Q\tZ@host/x",
	} {
		lo, hi := safetext.PasswordSpan(in)
		if lo < 0 {
			t.Fatalf("no password in %q", in)
		}
		var named []string // what a message names a byte by
		for i := lo; i < hi; i++ {
			if c := in[i]; strings.IndexByte(in[:lo], c) < 0 && strings.IndexByte(in[hi:], c) < 0 {
				named = append(named, describe(c), encoded(c))
			}
		}
		named = append(named, "é")
		for _, m := range all {
			var msgs []string
			for _, e := range Check(in, m) {
				msgs = append(msgs, e.Error())
			}
			_, warnings, _ := ParseMode(in, m)
			for _, w := range warnings {
				msgs = append(msgs, w.Message)
			}
			for _, msg := range msgs {
				for _, n := range named {
					if strings.Contains(msg, n) {
						t.Errorf("%v: %q: a byte of the password (%s) in %q", m, in, n, msg)
					}
				}
			}
		}
	}
	u, _ := Parse("ftp://user:s3cr3t@host/")
	if r := u.Redacted(); r != "ftp://user:xxxxx@host/" {
		t.Errorf("Redacted = %q", r)
	}
}

func TestAccessors(t *testing.T) {
	u, _, err := ParseMode("HTTP://user:p%40ss@[::1]:8080/a%20b/c?x=1+2#frag%21", RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	check("SchemeName", u.SchemeName(), "http")
	check("Hostname", u.Hostname(), "::1")
	a, _ := u.Authority()
	check("Authority", a, "user:p%40ss@[::1]:8080")
	p, _ := u.DecodedPassword()
	check("DecodedPassword", p, "p@ss")
	d, _ := PathUnescape(u.Path)
	check("PathUnescape(Path)", d, "/a b/c")
	q, _ := QueryUnescape(u.Query)
	check("QueryUnescape(Query)", q, "x=1 2")
	q, _ = PathUnescape(u.Query)
	check("PathUnescape(Query)", q, "x=1+2")
	f, _ := PathUnescape(u.Fragment)
	check("PathUnescape(Fragment)", f, "frag!")
	up, ok := u.URLPath()
	check("URLPath", up, "a%20b/c?x=1+2")
	if !ok {
		t.Error("URLPath absent")
	}
	check("SchemeSpecificPart", u.SchemeSpecificPart(), "//user:p%40ss@[::1]:8080/a%20b/c?x=1+2")
	if n, ok := u.EffectivePort(); n != 8080 || !ok {
		t.Errorf("EffectivePort = %d, %v", n, ok)
	}
	g, _ := Parse("gopher://host/")
	if n, ok := g.EffectivePort(); n != 70 || !ok {
		t.Errorf("gopher EffectivePort = %d, %v", n, ok)
	}
	m, _ := Parse("mailto:a@b")
	if _, ok := m.EffectivePort(); ok {
		t.Error("mailto has a port")
	}
	// Built by hand: a written port that is no number names no port.
	for _, port := range []string{"99999999999999999999", "-1", "+80", " 80"} {
		bad := URL{Scheme: "http", Host: "h", HasAuthority: true, Port: port, HasPort: true}
		if n, ok := bad.EffectivePort(); ok {
			t.Errorf("a port of %q is %d", bad.Port, n)
		}
	}
	empty := URL{Scheme: "http", Host: "h", HasAuthority: true, HasPort: true}
	if n, ok := empty.EffectivePort(); n != 80 || !ok {
		t.Errorf("an empty port (RFC 3986 6.2.3: the default) is %d, %v", n, ok)
	}
	if _, ok := m.URLPath(); ok {
		t.Error("mailto has a url-path")
	}
	h, _ := Parse("http://host")
	if _, ok := h.URLPath(); ok {
		t.Error("http://host has a url-path")
	}
}

func TestDefaultPort(t *testing.T) {
	for scheme, port := range map[string]int{
		"ftp": 21, "http": 80, "gopher": 70, "nntp": 119, "telnet": 23, "wais": 210,
		"prospero": 1525, "https": 443, "HTTP": 80, "rlogin": 513, "tn3270": 23,
		"mailto": 0, "news": 0, "file": 0, "x-unknown": 0, "": 0, "averylongschemename": 0,
	} {
		if got := DefaultPort(scheme); got != port {
			t.Errorf("DefaultPort(%q) = %d, want %d", scheme, got, port)
		}
	}
}

func TestModeNames(t *testing.T) {
	for _, m := range all {
		var got Mode
		if err := got.UnmarshalText([]byte(m.String())); err != nil || got != m {
			t.Errorf("UnmarshalText(%q) = %v, %v", m.String(), got, err)
		}
	}
	var m Mode
	if err := m.UnmarshalText([]byte("rfc2396")); err == nil {
		t.Error("UnmarshalText accepted rfc2396")
	}
}

func TestRelativeReferences(t *testing.T) {
	for _, tc := range []struct {
		in   string
		mode Mode
		want URL
	}{
		{"../g;x?y#s", RFC3986, want("path=../g;x", "query=y", "frag=s")},
		{"//g/x", RFC3986, want("host=g", "path=/x")},
		{"#frag", RFC1738, want("frag=frag")},
		{"", RFC1630, want()},
		{"/g", RFC1630, want("path=/g")},
		{"//g", RFC1630, want("host=g")},
		{"../g", RFC1738, want("path=../g")},
	} {
		u, _, err := ParseReference(tc.in, tc.mode)
		if err != nil {
			t.Errorf("ParseReference(%q, %v): %v", tc.in, tc.mode, err)
			continue
		}
		if !u.SameComponents(&tc.want) || u.String() != tc.in {
			t.Errorf("ParseReference(%q, %v) = %+v (%q)", tc.in, tc.mode, u, u.String())
		}
	}
	if _, _, err := ParseReference("a:b/c d", RFC1738); err == nil {
		t.Error("ParseReference accepted a space")
	}
}

// TestParseDoesNotAllocate pins the promise of the package documentation:
// parsing a valid URL allocates nothing, in every strict mode.
func TestParseDoesNotAllocate(t *testing.T) {
	for _, tc := range specExamples {
		for _, m := range tc.modes {
			if m == Lenient {
				continue
			}
			if n := testing.AllocsPerRun(20, func() { _, _, _ = ParseMode(tc.in, m) }); n != 0 {
				t.Errorf("ParseMode(%q, %v) allocates %v times", tc.in, m, n)
			}
		}
	}
	// The Lenient mode on input it does not repair (ParseMode's doc): IP
	// literals included, whose brackets it encodes anywhere but the host.
	for _, s := range []string{"http://a/b?c#d", "http://[::1]/x", "http://u@[v1.x]:80/", "ftp://[2001:db8::7]/c=GB?objectClass?one"} {
		if n := testing.AllocsPerRun(20, func() { _, _, _ = ParseMode(s, Lenient) }); n != 0 {
			t.Errorf("ParseMode(%q, Lenient) allocates %v times", s, n)
		}
	}
}

// TestRedactInput: passwords are hidden even when written with characters
// that end the authority (found in review), and ports are left alone.
func TestRedactInput(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://user:pa#ss@host/x":  "ftp://user:xxxxx@host/x",
		"ftp://user:pa/ss@host/x":  "ftp://user:xxxxx@host/x",
		"ftp://user:pa?ss@host/x":  "ftp://user:xxxxx@host/x",
		"ftp://user:secret@host/x": "ftp://user:xxxxx@host/x",
		"https://h:8080/@user/p":   "https://h:8080/@user/p",
		"https://medium.com/@user": "https://medium.com/@user",
		"news:a:b@c":               "news:a:b@c",
	} {
		if got := safetext.RedactURL(in); got != want {
			t.Errorf("safetext.RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckLimit checks that CheckLimit keeps what Check lists first, and
// counts the rest, on inputs with many errors in and out of order.
func TestCheckLimit(t *testing.T) {
	inputs := []string{
		"http://a b/c d?e f#g h",
		"ftp://u s:p w@h o/%zz/%/{}|" + strings.Repeat("%", 300),
		"http://[::1/" + strings.Repeat("a b%", 50),
		"mailto:a b@c d,e f@g h",
		"%%%:%%%",
		"http://ok.example/",
	}
	for _, in := range inputs {
		for _, m := range []Mode{RFC1738, RFC1630, RFC3986, Lenient} {
			all := Check(in, m)
			for _, limit := range []int{1, 2, 3, 10, 1000} {
				got, total := CheckLimit(in, m, limit)
				if total != len(all) {
					t.Errorf("%q %v limit %d: total %d, Check has %d", in, m, limit, total, len(all))
				}
				want := all[:min(limit, len(all))]
				if len(got) != len(want) {
					t.Fatalf("%q %v limit %d: %d errors, want %d", in, m, limit, len(got), len(want))
				}
				for i := range want {
					if got[i].Offset != want[i].Offset || got[i].Rule != want[i].Rule {
						t.Errorf("%q %v limit %d: error %d is %v, want %v", in, m, limit, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestCheckLimitBoundsMemory checks that a megabyte of "%" does not
// build a million errors.
func TestCheckLimitBoundsMemory(t *testing.T) {
	in := "http://h/" + strings.Repeat("%", 1<<20)
	allocs := testing.AllocsPerRun(1, func() {
		l, total := CheckLimit(in, RFC1738, 100)
		if len(l) != 100 || total < 1<<20 {
			t.Fatalf("%d errors kept of %d", len(l), total)
		}
	})
	if allocs > 1000 {
		t.Errorf("%v allocations for 100 errors kept", allocs)
	}
}

// TestUnknownMode: a Mode outside the five is an error, not a panic.
func TestUnknownMode(t *testing.T) {
	for _, f := range []func() error{
		func() error { _, _, err := ParseMode("http://a/", Mode(9)); return err },
		func() error { _, _, err := ParseReference("a", Mode(200)); return err },
		func() error { return Check("http://a/", Mode(6))[0] },
		func() error { l, _ := CheckLimit("http://a/", Mode(5), 3); return l[0] },
	} {
		if err := f(); !errors.Is(err, ErrUnknownMode) {
			t.Errorf("err = %v", err)
		}
	}
}
