package scheme

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// parseURL parses s in mode m (ParseLenient for Lenient) or fails the test.
func parseURL(t testing.TB, s string, m urlkit.Mode) *urlkit.URL {
	t.Helper()
	var u urlkit.URL
	var err error
	if m == urlkit.Lenient {
		u, _, err = urlkit.ParseMode(s, urlkit.Lenient)
	} else {
		u, _, err = urlkit.ParseMode(s, m)
	}
	if err != nil {
		t.Fatalf("parse %q (%v): %v", s, m, err)
	}
	return &u
}

// viewExamples are the example URLs of the specifications for each scheme
// (section named), with the view they stand for. back is the URL the view
// builds, when it differs from the input.
var viewExamples = []struct {
	section string
	mode    urlkit.Mode
	in      string
	want    View
	back    string
}{
	// ftp: RFC 1738 3.1 (absent and empty user and password).
	{"RFC 1738 3.1", urlkit.RFC1738, "ftp://@host.com/", &FTP{HasUser: true, Host: "host.com"}, ""},
	{"RFC 1738 3.1", urlkit.RFC1738, "ftp://host.com/", &FTP{Host: "host.com"}, ""},
	{"RFC 1738 3.1", urlkit.RFC1738, "ftp://foo:@host.com/", &FTP{User: "foo", HasUser: true, HasPassword: true, Host: "host.com"}, ""},
	// ftp: RFC 1738 3.2.2, %2F inside a segment and the null CWD.
	{"RFC 1738 3.2.2", urlkit.RFC1738, "ftp://myname@host.dom/%2Fetc/motd", &FTP{User: "myname", HasUser: true, Host: "host.dom", CWD: []string{"/etc"}, Name: "motd"}, ""},
	{"RFC 1738 3.2.2", urlkit.RFC1738, "ftp://myname@host.dom/etc/motd", &FTP{User: "myname", HasUser: true, Host: "host.dom", CWD: []string{"etc"}, Name: "motd"}, ""},
	{"RFC 1738 3.2.2", urlkit.RFC1738, "ftp://myname@host.dom//etc/motd", &FTP{User: "myname", HasUser: true, Host: "host.dom", CWD: []string{"", "etc"}, Name: "motd"}, ""},
	// ftp: RFC 1738 appendix and references.
	{"RFC 1738 appendix", urlkit.RFC1738, "ftp://info.cern.ch/pub/www/doc;type=d", &FTP{Host: "info.cern.ch", CWD: []string{"pub", "www"}, Name: "doc", Type: "d"}, ""},
	{"RFC 1738 appendix", urlkit.RFC1738, "ftp://ds.internic.net/rfc", &FTP{Host: "ds.internic.net", Name: "rfc"}, ""},
	{"RFC 1738 references", urlkit.RFC1738, "ftp://ds.internic.net/rfc/rfc1436.txt;type=a", &FTP{Host: "ds.internic.net", CWD: []string{"rfc"}, Name: "rfc1436.txt", Type: "a"}, ""},
	{"RFC 1738 references", urlkit.RFC1738, "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
		&FTP{Host: "boombox.micro.umn.edu", CWD: []string{"pub", "gopher", "gopher_protocol", "Gopher+"}, Name: "Gopher+.txt"}, ""},
	{"RFC 1738 section 5, ftptype (upper case)", urlkit.RFC1738, "ftp://h/f;TYPE=I", &FTP{Host: "h", Name: "f", Type: "i"}, "ftp://h/f;type=i"},
	{"RFC 1738 3.2 (no url-path)", urlkit.RFC1738, "ftp://h", &FTP{Host: "h", NoPath: true}, ""},
	{"RFC 1738 3.2.2 (a / in a name is %2F)", urlkit.RFC1738, "ftp://h/a%2Fb%3Bc", &FTP{Host: "h", Name: "a/b;c"}, ""},
	{"RFC 1738 section 5, fsegment (? is data)", urlkit.RFC1738, "ftp://h/a?b/c", &FTP{Host: "h", CWD: []string{"a?b"}, Name: "c"}, ""},
	{"draft-03 ftptype (lenient)", urlkit.Lenient, "ftp://h/f;type=EN", &FTP{Host: "h", Name: "f", Type: "en"}, "ftp://h/f;type=en"},
	{"draft-03 ftptype (lenient)", urlkit.Lenient, "ftp://h/f;type=L8", &FTP{Host: "h", Name: "f", Type: "l8"}, "ftp://h/f;type=l8"},
	// http: RFC 1738 appendix and references, RFC 1630 HTTP examples.
	{"RFC 1738 appendix", urlkit.RFC1738, "http://ds.internic.net/instructions/overview.HTM#WARNING", &HTTP{Host: "ds.internic.net", Path: "instructions/overview.HTM"}, "http://ds.internic.net/instructions/overview.HTM"},
	{"RFC 1630 HTTP examples", urlkit.RFC1738, "http://info.cern.ch:8000/imaginary/test", &HTTP{Host: "info.cern.ch", Port: "8000", Path: "imaginary/test"}, ""},
	{"RFC 1630 HTTP examples", urlkit.RFC1738, "http://info.my.org/AboutUs/Index/Phonebook?dobbins", &HTTP{Host: "info.my.org", Path: "AboutUs/Index/Phonebook", Search: "dobbins", HasSearch: true}, ""},
	{"RFC 1630 HTTP examples", urlkit.RFC1738, "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", &HTTP{Host: "www.library.my.town.va.us", Path: "Catalogue/76523471236%2Fwen44--4.98"}, ""},
	{"RFC 1630 HTTP examples", urlkit.RFC1738, "http://www.my.work.com/", &HTTP{Host: "www.my.work.com"}, ""},
	{"RFC 1738 3.3 (the / may be omitted)", urlkit.RFC1738, "http://www.my.work.com", &HTTP{Host: "www.my.work.com", NoPath: true}, ""},
	{"RFC 2818 (https)", urlkit.RFC3986, "https://[::1]:8443/a?b", &HTTP{Secure: true, Host: "[::1]", Port: "8443", Path: "a", Search: "b", HasSearch: true}, ""},
	// gopher: RFC 1738 3.4, draft-03's examples (host "host"), draft-06 3.4.
	{"RFC 1738 3.4 (empty gopher-path)", urlkit.RFC1738, "gopher://host", &Gopher{Host: "host", Type: '1'}, "gopher://host/1"},
	{"RFC 1738 3.4 (empty gopher-path)", urlkit.RFC1738, "gopher://host/", &Gopher{Host: "host", Type: '1'}, "gopher://host/1"},
	{"draft-03 gopher examples", urlkit.RFC1738, "gopher://host/0a_gopher_selector", &Gopher{Host: "host", Type: '0', Selector: "a_gopher_selector"}, ""},
	{"draft-03 gopher examples", urlkit.RFC1738, "gopher://host/7a_gopher_selector%09foobar", &Gopher{Host: "host", Type: '7', Selector: "a_gopher_selector", Search: "foobar", HasSearch: true}, ""},
	{"draft-03 gopher examples", urlkit.RFC1738, "gopher://host/0a_gopher_selector%09%09some_gplus_stuff",
		&Gopher{Host: "host", Type: '0', Selector: "a_gopher_selector", HasSearch: true, Plus: "some_gplus_stuff", HasPlus: true}, ""},
	{"draft-03 gopher examples", urlkit.RFC1738, "gopher://host/0a_gopher_selector%09%09!", &Gopher{Host: "host", Type: '0', Selector: "a_gopher_selector", HasSearch: true, Plus: "!", HasPlus: true}, ""},
	{"RFC 1738 3.4", urlkit.RFC1738, "gopher://host/0a_gopher_selector%09%09+application/postscript%20Es_ES",
		&Gopher{Host: "host", Type: '0', Selector: "a_gopher_selector", HasSearch: true, Plus: "+application/postscript Es_ES", HasPlus: true}, ""},
	{"RFC 1738 3.4", urlkit.RFC1738, "gopher://host/1sel%09%09!+ABSTRACT%20+SMELL", &Gopher{Host: "host", Type: '1', Selector: "sel", HasSearch: true, Plus: "!+ABSTRACT +SMELL", HasPlus: true}, ""},
	{"RFC 1738 3.4", urlkit.RFC1738, "gopher://host/1sel%09%09+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A",
		&Gopher{Host: "host", Type: '1', Selector: "sel", HasSearch: true, Plus: "+\t1\r\n+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n", HasPlus: true}, ""},
	{"draft-03 3.4 summary (%3F)", urlkit.RFC1738, "gopher://host/1sel%09%09%3F", &Gopher{Host: "host", Type: '1', Selector: "sel", HasSearch: true, Plus: "?", HasPlus: true}, "gopher://host/1sel%09%09?"},
	{"RFC 1738 3.4 (a selector starting with its type)", urlkit.RFC1738, "gopher://host/00/Information", &Gopher{Host: "host", Type: '0', Selector: "0/Information"}, ""},
	{"1993 draft references", urlkit.Lenient, "gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher",
		&Gopher{Host: "gopher.micro.umn.edu", Type: '0', Selector: "0/Information About Gopher/About Gopher"}, "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher"},
	// mailto: RFC 1738 3.5.
	{"RFC 1738 3.5", urlkit.RFC1738, "mailto:timbl@info.cern.ch", &Mailto{Address: "timbl@info.cern.ch"}, ""},
	{"RFC 1738 3.5 (% must be encoded)", urlkit.RFC1738, "mailto:user%25gw@relay.example", &Mailto{Address: "user%gw@relay.example"}, ""},
	{"RFC 822 6.1 (quoted local-part)", urlkit.RFC1738, "mailto:%22John%20Doe%22@example.com", &Mailto{Address: "\"John Doe\"@example.com"}, ""},
	{"RFC 822 6.1 (domain-literal)", urlkit.RFC1738, "mailto:postmaster@%5B10.0.0.1%5D", &Mailto{Address: "postmaster@[10.0.0.1]"}, ""},
	// Built with "?" as %3F: the same address in RFC 1738, and one that
	// RFC 6068 does not read as the start of hfields.
	{"RFC 1738 3.5 (no reserved characters)", urlkit.RFC1738, "mailto:a?b=c@example.com", &Mailto{Address: "a?b=c@example.com"}, "mailto:a%3Fb=c@example.com"},
	{"RFC 6068 2 (hfields and a quoted local part with a comma)", urlkit.RFC3986, "mailto:%22a%2Cb%22@example.com?subject=hi%26bye&body=x",
		&Mailto{Address: `"a,b"@example.com`, To: []string{`"a,b"@example.com`}, Fields: []HField{{Name: "Subject", Value: "hi&bye", at: Span{31, 47}}}, Body: "x", HasBody: true},
		"mailto:%22a%2Cb%22@example.com?Subject=hi%26bye&body=x"},
	// news: RFC 1738 3.6.
	{"RFC 1738 3.6", urlkit.RFC1738, "news:comp.infosystems.www.misc", &News{Group: "comp.infosystems.www.misc"}, ""},
	{"RFC 1738 3.6", urlkit.RFC1738, "news:*", &News{All: true}, ""},
	{"RFC 1738 3.6 (message-id)", urlkit.RFC1738, "news:12345667123asdghfh@info.cern.ch", &News{MessageID: "12345667123asdghfh@info.cern.ch"}, ""},
	{"RFC 1738 section 5, article", urlkit.RFC1738, "news:a%40b@host.dom", &News{MessageID: "a@b@host.dom"}, ""},
	// nntp: RFC 1738 3.7.
	{"RFC 1738 3.7", urlkit.RFC1738, "nntp://news.example/comp.infosystems.www/1234", &NNTP{Host: "news.example", Group: "comp.infosystems.www", Article: "1234"}, ""},
	{"RFC 1738 3.7", urlkit.RFC1738, "nntp://news.example:1119/comp.infosystems.www", &NNTP{Host: "news.example", Port: "1119", Group: "comp.infosystems.www"}, ""},
	// telnet: RFC 1738 3.8; rlogin and tn3270: RFC 1630.
	{"RFC 1738 3.8", urlkit.RFC1738, "telnet://user:password@host.dom:23/", &Telnet{Session: "telnet", User: "user", Password: "password", HasUser: true, HasPassword: true, Host: "host.dom", Port: "23"}, ""},
	{"RFC 1738 3.8 (the final / may be omitted)", urlkit.RFC1738, "telnet://host.dom", &Telnet{Session: "telnet", Host: "host.dom"}, "telnet://host.dom/"},
	{"RFC 1630 rlogin", urlkit.RFC1738, "rlogin://guest@host.dom", &Telnet{Session: "rlogin", User: "guest", HasUser: true, Host: "host.dom"}, "rlogin://guest@host.dom/"},
	{"RFC 1630 tn3270", urlkit.RFC1738, "tn3270://host.dom/", &Telnet{Session: "tn3270", Host: "host.dom"}, ""},
	// wais: RFC 1738 3.9; the 1993 draft's reference; RFC 1630's wpath fields.
	{"1993 draft references", urlkit.RFC1738, "wais://quake.think.com/wais-discussion-archives?lynch", &WAIS{Host: "quake.think.com", Database: "wais-discussion-archives", Search: "lynch", HasSearch: true}, ""},
	{"RFC 1738 3.9", urlkit.RFC1738, "wais://quake.think.com/directory-of-servers", &WAIS{Host: "quake.think.com", Database: "directory-of-servers"}, ""},
	{"RFC 1738 3.9", urlkit.RFC1738, "wais://h/db/TEXT/0%3D1%3B", &WAIS{Host: "h", Database: "db", WType: "TEXT", WPath: "0=1;", HasDocument: true}, ""},
	{"RFC 1630 WAIS (wpath fields)", urlkit.RFC1630, "wais://h/db/TEXT/1=abc;2=x%3By;", &WAIS{Host: "h", Database: "db", WType: "TEXT", WPath: "1=abc;2=x;y;", HasDocument: true,
		Fields: []WAISField{{1, "abc"}, {2, "x;y"}}}, ""},
	// file: RFC 1738 3.10.
	{"RFC 1738 3.10", urlkit.RFC1738, "file://vms.host.edu/disk$user/my/notes/note12345.txt", &File{Host: "vms.host.edu", Path: "/disk$user/my/notes/note12345.txt"}, ""},
	{"RFC 1738 3.10 (empty host)", urlkit.RFC1738, "file:///etc/motd", &File{Path: "/etc/motd"}, ""},
	{"RFC 1738 3.10 (localhost)", urlkit.RFC1738, "file://localhost/etc/motd", &File{Host: "localhost", Path: "/etc/motd"}, ""},
	{"RFC 1738 section 5, fsegment", urlkit.RFC1738, "file:///a%3Bb/c%20d", &File{Path: "/a;b/c d"}, ""},
	{"RFC 3986-era file:/path", urlkit.RFC3986, "file:/etc/motd", &File{Path: "/etc/motd"}, "file:///etc/motd"},
	// prospero: RFC 1738 3.11; RFC 1630's %00 version; the 1993 draft's attributes.
	{"RFC 1738 3.11", urlkit.RFC1738, "prospero://host.dom//pros/name", &Prospero{Host: "host.dom", HSOName: "/pros/name"}, ""},
	{"RFC 1738 3.11 (OBJECT-VERSION field)", urlkit.RFC1738, "prospero://host.dom//pros/name;OBJECT-VERSION=3",
		&Prospero{Host: "host.dom", HSOName: "/pros/name", Fields: []Field{{"OBJECT-VERSION", "3"}}}, ""},
	{"RFC 1738 3.11 (; encoded in an hsoname)", urlkit.RFC1738, "prospero://h/a%3Bb", &Prospero{Host: "h", HSOName: "a;b"}, ""},
	{"RFC 1630 Prospero (%00 version)", urlkit.RFC1738, "prospero://h/name%0012", &Prospero{Host: "h", HSOName: "name", Version: "12", HasVersion: true}, ""},
	{"1993 draft Prospero (%00%00 attributes)", urlkit.RFC1738, "prospero://h/name%00%00attr1%00attr2",
		&Prospero{Host: "h", HSOName: "name", HasVersion: true, Attributes: []string{"attr1", "attr2"}}, ""},
	// mid, cid, urn: RFC 1630; afs: the drafts.
	{"RFC 5538 2.1 (issue 10, D12: the rfc3986 mode)", urlkit.RFC3986, "news://server/comp.x", &News{Group: "comp.x", Host: "server"}, ""},
	{"RFC 1630 Message-Id", urlkit.RFC1738, "mid:960830.1639@xyzzy.com", &MID{ID: "960830.1639@xyzzy.com"}, ""},
	{"RFC 1630 Content-Id", urlkit.RFC1738, "cid:part1.960830@xyzzy.com", &CID{ID: "part1.960830@xyzzy.com"}, ""},
	{"RFC 1630 URN", urlkit.RFC1738, "urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", &URN{Name: "/iana/dns/ch/cern/cn/techdoc/94/1642-3"}, ""},
	{"draft-03 afsaddress", urlkit.Lenient, "afs://cern.ch/user/t/timbl", &AFS{Cell: "cern.ch", Path: "/user/t/timbl"}, ""},
}

func TestViewExamples(t *testing.T) {
	for _, tc := range viewExamples {
		u := parseURL(t, tc.in, tc.mode)
		v, err := Parse(u, tc.mode)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tc.section, tc.in, err)
			continue
		}
		if !sameView(v, tc.want) {
			t.Errorf("%s: Parse(%q) =\n%#v\nwant\n%#v", tc.section, tc.in, v, tc.want)
			continue
		}
		back := tc.back
		if back == "" {
			back = tc.in
		}
		if got := v.URL().String(); got != back {
			t.Errorf("%s: %q: URL() = %q, want %q", tc.section, tc.in, got, back)
		}
		if got := v.URL().SchemeName(); got != u.SchemeName() {
			t.Errorf("%s: URL() has scheme %q", tc.section, got)
		}
	}
}

// viewErrors are URLs valid in their mode that are not valid views.
var viewErrors = []struct {
	section string
	mode    urlkit.Mode
	in      string
	offset  int
	rule    string
}{
	{"RFC 1738 3.2.2", urlkit.RFC3986, "ftp://h/a;b/c", 9, "';' is reserved"},
	{"RFC 1738 section 5, ftptype", urlkit.RFC3986, "ftp://h/f;type=x", 15, "ftptype must be one of A I D a i d"},
	{"drafts' codes need the lenient mode", urlkit.RFC3986, "ftp://h/f;type=L8", 15, "accepted in the lenient mode"},
	{"draft-03 ftptype", urlkit.Lenient, "ftp://h/f;type=L", 15, "draft-ietf-uri-url-03 BNF"},
	{"RFC 1738 3.1", urlkit.RFC3986, "ftp:/h/f", 4, "common Internet scheme syntax"},
	{"RFC 1738 3.1", urlkit.RFC3986, "ftp://h?x", 7, "'/' must separate the host from the url-path"},
	{"RFC 1738 3.1", urlkit.RFC3986, "gopher://h?x", 10, "'/' must separate the host from the url-path"},
	{"RFC 1738 3.3", urlkit.RFC1630, "http://u@h/", 7, "not allowed in http URLs"},
	{"RFC 822 6.1", urlkit.RFC3986, "mailto:a%20b@c", 8, "space (written %20) may not appear unquoted"},
	{"RFC 6068 2 (to sending)", urlkit.RFC3986, "mailto:", 7, "no address to send to"},
	{"RFC 6068 2 (to sending)", urlkit.RFC3986, "mailto:?subject=x", 7, "RFC 6068 allows none"},
	{"RFC 822 6.1", urlkit.RFC3986, "mid:nodomain", 12, "no '@' and domain"},
	{"RFC 1738 3.6", urlkit.Lenient, "news://server/group", 5, "name no server"},
	{"RFC 1738 3.6", urlkit.Lenient, "news://u:pw@h/g", 5, "name no server"},
	{"RFC 1738 3.6", urlkit.Lenient, "news://x@h", 5, "name no server"},
	{"RFC 1738 3.6", urlkit.RFC3986, "news:", 5, "names a newsgroup"},
	{"RFC 1738 3.7", urlkit.RFC3986, "nntp://h", 8, "needs '/' and a newsgroup"},
	{"RFC 1738 3.7", urlkit.RFC3986, "nntp://h/g/1x", 12, "digits only"},
	{"RFC 1738 3.7", urlkit.RFC3986, "nntp://h/g/", 11, "an article number"},
	{"RFC 1738 3.8", urlkit.RFC3986, "telnet://h/x", 11, "optional '/'"},
	{"RFC 1738 3.9", urlkit.RFC3986, "wais://h", 8, "needs '/' and a database"},
	{"RFC 1738 3.9", urlkit.RFC3986, "wais://h/db/TEXT", 16, "the wpath are missing"},
	{"RFC 1738 3.9", urlkit.RFC3986, "wais://h/db/t/p?q", 15, "takes no search"},
	{"RFC 1738 3.10", urlkit.RFC3986, "file:///a%2Fb", 9, "%2F in a file path"},
	{"RFC 1738 3.11", urlkit.RFC3986, "prospero://h/n;a", 16, "the '=' is missing"},
	{"RFC 1738 3.11", urlkit.RFC3986, "prospero://h", 12, "needs '/' and an hsoname"},
}

func TestViewErrors(t *testing.T) {
	for _, tc := range viewErrors {
		u := parseURL(t, tc.in, tc.mode)
		v, err := Parse(u, tc.mode)
		var e *urlkit.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, %v; want an *urlkit.Error", tc.section, tc.in, v, err)
			continue
		}
		if v != nil || e.Offset != tc.offset || !strings.Contains(e.Rule, tc.rule) || !errors.Is(err, urlkit.ErrSchemeSyntax) {
			t.Errorf("%s: Parse(%q): offset %d, %q\nwant offset %d, ...%s...", tc.section, tc.in, e.Offset, e.Rule, tc.offset, tc.rule)
		}
	}
}

func TestNoView(t *testing.T) {
	u := parseURL(t, "x-private:thing", urlkit.RFC1738)
	if v, err := Parse(u, urlkit.RFC1738); v != nil || err != nil {
		t.Errorf("Parse(x-private:) = %v, %v; want no view", v, err)
	}
	// afs is the drafts' only: no view in the strict modes.
	u = parseURL(t, "afs://cern.ch/user", urlkit.RFC1738)
	if v, err := Parse(u, urlkit.RFC1738); v != nil || err != nil {
		t.Errorf("Parse(afs, rfc1738) = %v, %v; want no view", v, err)
	}
}

// TestBuildEncodes checks that views encode exactly what their production
// requires: the three examples, and characters left alone.
func TestBuildEncodes(t *testing.T) {
	for _, tc := range []struct {
		section string
		v       View
		want    string
	}{
		{"RFC 1738 3.4: a TAB in a selector is %09", &Gopher{Host: "h", Type: '0', Selector: "a\tb"}, "gopher://h/0a%09b"},
		{"RFC 1738 3.2.2: a / in an FTP name is %2F", &FTP{Host: "h", CWD: []string{"a/b"}, Name: "c/d;e"}, "ftp://h/a%2Fb/c%2Fd%3Be"},
		{"RFC 1738 3.11: a ; in an hsoname is %3B", &Prospero{Host: "h", HSOName: "/a;b/c", Fields: []Field{{"n=x", "v;y/z"}}}, "prospero://h//a%3Bb/c;n%3Dx=v%3By%2Fz"},
		{"RFC 1738 3.1: : @ / in a user or password, and ? (it ends the authority outside RFC 1738)", &FTP{Host: "h", User: "a:b@c/d?;&=", HasUser: true, Password: "p@ss:w", HasPassword: true}, "ftp://a%3Ab%40c%2Fd%3F;&=:p%40ss%3Aw@h/"},
		{"RFC 1738 section 5, fsegment keeps ? : @ & =", &FTP{Host: "h", Name: "a?b:c@d&e=f g"}, "ftp://h/a?b:c@d&e=f%20g"},
		{"RFC 1738 3.5: % in an address is %25", &Mailto{Address: "user%gw@relay.example"}, "mailto:user%25gw@relay.example"},
		{"RFC 1738 section 5, search: / and ? encoded", &Gopher{Host: "h", Type: '7', Selector: "s/x?y", Search: "a/b?c d", HasSearch: true}, "gopher://h/7s/x?y%09a%2Fb%3Fc%20d"},
		{"RFC 1738 section 5, group", &News{Group: "*"}, "news:%2A"},
		{"RFC 1738 section 5, article", &News{MessageID: "a@b@host.dom"}, "news:a%40b@host.dom"},
		{"RFC 1738 section 5, wpath = *uchar", &WAIS{Host: "h", Database: "d/b", WType: "TEXT", WPath: "x/y=z;", HasDocument: true}, "wais://h/d%2Fb/TEXT/x%2Fy%3Dz%3B"},
		{"RFC 1630 wpath fields", &WAIS{Host: "h", Database: "db", WType: "TEXT", HasDocument: true, Fields: []WAISField{{1, "a;b"}, {22, "c"}}}, "wais://h/db/TEXT/1=a%3Bb;22=c;"},
		{"RFC 1738 3.10", &File{Path: "/a;b/c d"}, "file:///a%3Bb/c%20d"},
		{"RFC 1738 3.7", &NNTP{Host: "h", Group: "a/b", Article: "7"}, "nntp://h/a%2Fb/7"},
	} {
		if got := tc.v.URL().String(); got != tc.want {
			t.Errorf("%s: URL() = %q, want %q", tc.section, got, tc.want)
		}
	}
}

func TestGopherPlus(t *testing.T) {
	for _, tc := range []struct {
		section, in string
		want        gopherPlus
	}{
		{"draft-06 3.4.4", "+", gopherPlus{Kind: plusView}},
		{"RFC 1738 3.4", "+application/postscript Es_ES", gopherPlus{Kind: plusView, View: "application/postscript", Language: "Es_ES"}},
		{"draft-06 3.4.4", "?", gopherPlus{Kind: plusAsk}},
		{"draft-06 3.4.6", "!", gopherPlus{Kind: plusItemAttributes}},
		{"draft-06 3.4.6", "$", gopherPlus{Kind: plusDirectoryAttributes}},
		{"draft-06 3.4.7", "!+ABSTRACT", gopherPlus{Kind: plusItemAttributes, Attributes: []string{"+ABSTRACT"}}},
		{"RFC 1738 3.4", "!+ABSTRACT +SMELL", gopherPlus{Kind: plusItemAttributes, Attributes: []string{"+ABSTRACT", "+SMELL"}}},
		{"draft-03 summary", "$+VIEWS", gopherPlus{Kind: plusDirectoryAttributes, Attributes: []string{"+VIEWS"}}},
		{"RFC 1738 3.4", "+\t1\r\n+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n", gopherPlus{Kind: plusView, Form: true, Values: []string{"ask_item1_value", "ask_item2_value"}}},
		{"draft-03 (view and ASK)", "+view_name language_name\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n", gopherPlus{Kind: plusView, View: "view_name", Language: "language_name", Form: true, Values: []string{"v1", "v2"}}},
		{"RFC 1738 3.4 (no values)", "+\t1\r\n+-1\r\n.\r\n", gopherPlus{Kind: plusView, Form: true}},
		{"no Gopher+ string", "", gopherPlus{}},
	} {
		got, err := parseGopherPlus(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: parseGopherPlus(%q) = %#v, %v; want %#v", tc.section, tc.in, got, err, tc.want)
		}
		if s := got.String(); s != tc.in {
			t.Errorf("%s: String() = %q, want %q", tc.section, s, tc.in)
		}
	}
	for _, in := range []string{"x", "?x", "!a  b", "!a\tb", "+\t2\r\n", "+\t1\r\n+-1\r\nv\r\n", "+\t1\r\n+-1\r\n.\r\n.\r\n", "+a\rb"} {
		if p, err := parseGopherPlus(in); err == nil {
			t.Errorf("parseGopherPlus(%q) = %#v; want an error", in, p)
		}
	}
}

func TestFTPTypes(t *testing.T) {
	for _, tc := range []struct{ code, cmd string }{
		{"a", "A"}, {"i", "I"}, {"d", ""}, {"", ""}, {"an", "A N"}, {"ec", "E C"}, {"e", "E"}, {"l8", "L 8"}, {"l36", "L 36"},
	} {
		f := FTP{Type: tc.code}
		if got := f.TypeCommand(); got != tc.cmd {
			t.Errorf("TypeCommand(%q) = %q, want %q", tc.code, got, tc.cmd)
		}
	}
	for _, tc := range []struct{ name, code string }{
		{"motd", "a"}, {"README", "a"}, {"rfc1436.txt", "a"}, {"overview.HTM", "a"}, {"http-spec.txt.Z", "i"},
		{"Gopher+.txt", "a"}, {"x.tar.gz", "i"}, {"picture.GIF", "i"}, {"noext", "i"}, {"data.xyz", "i"}, {"trailing.", "i"},
	} {
		if code, why := guessType(tc.name); code != tc.code || why == "" {
			t.Errorf("guessType(%q) = %q, %q; want %q", tc.name, code, why, tc.code)
		}
	}
}

func TestMailtoSplit(t *testing.T) {
	for _, tc := range []struct{ addr, local, domain string }{
		{"timbl@info.cern.ch", "timbl", "info.cern.ch"},
		{"\"a@b\"@c", "\"a@b\"", "c"},
		{"\"a\\\"@b\"@c", "\"a\\\"@b\"", "c"},
		{"x@[1.2.3.4]", "x", "[1.2.3.4]"},
	} {
		m := Mailto{Address: tc.addr}
		if l, d := m.Split(); l != tc.local || d != tc.domain {
			t.Errorf("Split(%q) = %q, %q", tc.addr, l, d)
		}
	}
}

func TestKnown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		port   int
		status Status
		ok     bool
	}{
		{"ftp", 21, Defined, true}, {"HTTP", 80, Defined, true}, {"gopher", 70, Defined, true}, {"mailto", 0, Defined, true},
		{"news", 0, Defined, true}, {"nntp", 119, Defined, true}, {"telnet", 23, Defined, true}, {"wais", 210, Defined, true},
		{"file", 0, Defined, true}, {"prospero", 1525, Defined, true}, {"rlogin", 513, Defined, true}, {"tn3270", 23, Defined, true},
		{"mid", 0, Defined, true}, {"cid", 0, Defined, true}, {"urn", 0, Reserved, true}, {"afs", 0, Historical, true},
		{"nfs", 0, Reserved, true}, {"z39.50", 0, Reserved, true}, {"https", 443, Modern, true},
		{"x-local", 0, Experimental, true}, {"x-", 0, 0, false}, {"gopher+", 0, 0, false},
	} {
		in, ok := Known(tc.name)
		if ok != tc.ok || ok && (in.Port != tc.port || in.Status != tc.status || in.Name != strings.ToLower(tc.name)) {
			t.Errorf("Known(%q) = %+v, %v", tc.name, in, ok)
		}
	}
	// RFC 1738 section 3's ten, RFC 1630's rlogin, tn3270, mid, cid and
	// urn, the drafts' afs, nfs, mailserver and z39.50, https, and RFC
	// 2056's z39.50r and z39.50s; and this package's tests' x-toy.
	if n := len(List()); n != 23 {
		t.Errorf("List() has %d schemes", n)
	}
}

func TestFileLocalPath(t *testing.T) {
	for _, tc := range []struct {
		goos, host, path, want string
	}{
		{"linux", "", "/etc/motd", "/etc/motd"},
		{"linux", "LocalHost", "/a b/c", "/a b/c"},
		{"windows", "", "/C:/Program Files/x.txt", `C:\Program Files\x.txt`},
		{"windows", "localhost", "/c|/dos/x.bat", `c:\dos\x.bat`},
		{"windows", "", "/C:", `C:\`},
		{"windows", "", "/dir/f", `\dir\f`},
	} {
		got, err := localPath(tc.goos, &File{Host: tc.host, Path: tc.path})
		if err != nil || got != tc.want {
			t.Errorf("localPath(%s, %q, %q) = %q, %v; want %q", tc.goos, tc.host, tc.path, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ goos, host, path string }{
		{"linux", "vms.host.edu", "/x"},
		{"linux", "", "/a\x00b"},
		{"windows", "", `/a\b`},
	} {
		if got, err := localPath(tc.goos, &File{Host: tc.host, Path: tc.path}); err == nil {
			t.Errorf("localPath(%s, %q, %q) = %q; want an error", tc.goos, tc.host, tc.path, got)
		}
	}
	for _, tc := range []struct{ goos, name, want string }{
		{"linux", "/etc/motd", "file:///etc/motd"},
		{"linux", "/tmp/a b;c?d", "file:///tmp/a%20b%3Bc?d"},
		{"windows", `C:\Program Files\x.txt`, "file:///C:/Program%20Files/x.txt"},
		{"windows", `\\server\share\f.txt`, "file://server/share/f.txt"},
	} {
		f, err := fileFromPath(tc.goos, tc.name)
		if err != nil {
			t.Errorf("fileFromPath(%s, %q): %v", tc.goos, tc.name, err)
			continue
		}
		if got := f.URL().String(); got != tc.want {
			t.Errorf("fileFromPath(%s, %q) = %q, want %q", tc.goos, tc.name, got, tc.want)
		}
		if f.Host == "" {
			back, err := localPath(tc.goos, f)
			if err != nil || back != tc.name {
				t.Errorf("localPath(fileFromPath(%s, %q)) = %q, %v", tc.goos, tc.name, back, err)
			}
		}
	}
	for _, tc := range []struct{ goos, name string }{{"linux", "rel/path"}, {"windows", `rel\path`}, {"windows", `\\`}} {
		if _, err := fileFromPath(tc.goos, tc.name); err == nil {
			t.Errorf("fileFromPath(%s, %q) accepted", tc.goos, tc.name)
		}
	}
}

// TestVMS checks RFC 1738 3.10's example both ways. The RFC's own text
// turns NOTE123456.TXT into note12345.txt, dropping a digit; the mapping
// keeps the name.
func TestVMS(t *testing.T) {
	f, err := FileFromVMS("vms.host.edu", "DISK$USER:[MY.NOTES]NOTE123456.TXT")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.URL().String(); got != "file://vms.host.edu/disk$user/my/notes/note123456.txt" {
		t.Errorf("FileFromVMS = %q", got)
	}
	u := parseURL(t, "file://vms.host.edu/disk$user/my/notes/note12345.txt", urlkit.RFC1738)
	g, err := parseFile(u)
	if err != nil {
		t.Fatal(err)
	}
	if spec, err := g.VMSPath(); err != nil || spec != "DISK$USER:[MY.NOTES]NOTE12345.TXT" {
		t.Errorf("VMSPath = %q, %v", spec, err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"SYS$SYSDEVICE:[000000]LOGIN.COM;3", "/sys$sysdevice/login.com%3B3"},
		{"DKA0:<USERS.SMITH>MAIL.MAI", "/dka0/users/smith/mail.mai"},
		{"[A.B]C.D", "/a/b/c.d"},
	} {
		f, err := FileFromVMS("h", tc.spec)
		if err != nil || f.URL().Path != tc.want {
			t.Errorf("FileFromVMS(%q) = %+v, %v; want path %q", tc.spec, f, err, tc.want)
			continue
		}
	}
	spec, err := (&File{Path: "/sys$sysdevice/login.com;3"}).VMSPath()
	if err != nil || spec != "SYS$SYSDEVICE:[000000]LOGIN.COM;3" {
		t.Errorf("VMSPath = %q, %v", spec, err)
	}
	for _, bad := range []string{"NODE::DISK:[A]B.C", "DISK:[.REL]X.Y", "DISK:[A]", "DISK:[A", ":X.Y", "DISK:[A..B]X.Y"} {
		if f, err := FileFromVMS("h", bad); err == nil {
			t.Errorf("FileFromVMS(%q) = %+v; want an error", bad, f)
		}
	}
	for _, bad := range []string{"/one", "/dev/a.b/name", "/dev/a]/x"} {
		if spec, err := (&File{Path: bad}).VMSPath(); err == nil {
			t.Errorf("VMSPath(%q) = %q; want an error", bad, spec)
		}
	}
}

// refusal returns the first concern of u that the access layer refuses
// (fetch.CheckURL turns it into its error), or nil.
func refusal(u *urlkit.URL) *Concern {
	for _, c := range Concerns(u, nil) {
		if c.Refuse {
			return &c
		}
	}
	return nil
}

func TestConcernsRefuse(t *testing.T) {
	for _, tc := range []struct {
		section string
		in      string
		offset  int // -1: safe
		rule    string
	}{
		{"RFC 1738 section 6", "ftp://h/a%0D%0ADELE%20x/f", 9, "%0D decodes to CR in the FTP CWD command"},
		{"RFC 1738 section 6", "ftp://h/f%0A", 9, "LF in the FTP RETR or NLST command"},
		{"RFC 1738 section 6", "ftp://u%00@h/f", 7, "NUL in the FTP USER command"},
		{"RFC 1738 section 6", "ftp://h/f%09g", -1, ""},
		{"RFC 1738 3.4", "gopher://h/1a%0Db", 13, "CR in the Gopher selector line"},
		{"RFC 1738 3.4", "gopher://h/7a%09b%0A", 17, "LF in the Gopher search"},
		{"RFC 1738 3.4", "gopher://h/1a%09%09!+A%09+B", 22, "TAB in the Gopher+ string"},
		{"RFC 1738 3.4 (the ASK form's own CR LF)", "gopher://h/1sel%09%09+%091%0D%0A+-1%0D%0Av1%0D%0A.%0D%0A", -1, ""},
		{"RFC 1738 3.4 (CR in an ASK view)", "gopher://h/1sel%09%09+a%0Db%091%0D%0A+-1%0D%0A.%0D%0A", 23, "CR in the Gopher+ string"},
		{"RFC 1738 3.4 (NUL in an ASK view)", "gopher://h/1sel%09%09+a%00b%091%0D%0A+-1%0D%0A.%0D%0A", 23, "NUL in the Gopher+ view"},
		{"RFC 1738 3.4 (NUL in an ASK value)", "gopher://h/1sel%09%09+%091%0D%0A+-1%0D%0Av%001%0D%0A.%0D%0A", 42, "NUL in the Gopher+ ASK value"},
		{"RFC 977", "news:a%20b", 6, "space in the NNTP command argument"},
		{"RFC 977", "nntp://h/g%09x", 10, "TAB in the NNTP command argument"},
		{"RFC 821", "mailto:%22a%0D%0Ab%22@c", 11, "CR in the SMTP RCPT TO address"},
		{"RFC 1630 Prospero (%00 is the version separator)", "prospero://h/n%001", -1, ""},
		{"RFC 1738 3.11", "prospero://h/n%0A", 14, "LF in the Prospero request"},
		{"RFC 1738 3.10", "file:///a%00b", 9, "no file name can hold NUL"},
		{"RFC 1282", "rlogin://a%00b@h", 10, "NUL in the rlogin handshake"},
		{"RFC 1738 3.8 (advisory, but printed and typed with --login)", "telnet://a%0Db@h/", 10, "CR in the login name"},
		{"RFC 1738 3.8 (typed with --login)", "tn3270://a:p%0Aw@h/", 12, "LF in the login password"},
		{"RFC 1738 3.3 (sent as written)", "http://h/a%0D%0Ab", -1, ""},
		{"RFC 1738 3.9 (binary protocol)", "wais://h/db?a%0Db", -1, ""},
		{"RFC 3986 reg-name", "http://a%0Db/", 8, "CR in the host name"},
	} {
		// RFC 3986 accepts all of them (the news group and the escaped
		// host are not RFC 1738's).
		u := parseURL(t, tc.in, urlkit.RFC3986)
		c := refusal(u)
		if tc.offset < 0 {
			if c != nil {
				t.Errorf("%s: %q refused: %v", tc.section, tc.in, c)
			}
			continue
		}
		if c == nil || c.Offset != tc.offset || !strings.Contains(c.Message, tc.rule) {
			t.Errorf("%s: %q refused for %v\nwant offset %d, ...%s...", tc.section, tc.in, c, tc.offset, tc.rule)
		}
	}
}

func TestConcernsPort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // substring; "" for none
	}{
		{"gopher://h:25/0x", "port 25 is not the gopher default (70); port 25 usually runs SMTP"},
		{"http://h:6667/", "port 6667 usually runs IRC"},
		{"ftp://h:119/", "usually runs NNTP"},
		{"telnet://h:999/", "a well-known port (below 1024)"},
		{"http://info.cern.ch:8000/imaginary/test", "port 8000 is not the http default (80) (RFC 1738 section 6)"},
		{"http://h:80/", ""},
		{"ftp://h:21/", ""},
		{"x-s://h:25/", ""},
	} {
		u := parseURL(t, tc.in, urlkit.RFC1738)
		cs := Concerns(u, nil)
		switch {
		case tc.want == "" && len(cs) > 0:
			t.Errorf("Concerns(%q) = %v", tc.in, cs)
		case tc.want != "" && (len(cs) != 1 || cs[0].Refuse || !strings.Contains(cs[0].Message, tc.want)):
			t.Errorf("Concerns(%q) = %v\nwant ...%s...", tc.in, cs, tc.want)
		}
		if c := refusal(u); c != nil {
			t.Errorf("%q refused for a port: %v", tc.in, c)
		}
	}
	if s, ok := portService(119); !ok || s != "NNTP" {
		t.Errorf("portService(119) = %q, %v", s, ok)
	}
}

// sameView compares two views' values, leaving out where the parts are
// written (the spans, tested on their own).
func sameView(a, b any) bool {
	return reflect.DeepEqual(withoutSpans(a), withoutSpans(b))
}

// withoutSpans returns a copy of the view v with its spans (and those of
// a mailto view's hfields) zeroed.
func withoutSpans(v any) any {
	switch v := v.(type) {
	case *FTP:
		return cleared(v, func(c *FTP) { c.at = ftpSpans{} })
	case *HTTP:
		return cleared(v, func(c *HTTP) { c.at = httpSpans{} })
	case *Gopher:
		return cleared(v, func(c *Gopher) { c.at = gopherSpans{} })
	case *NNTP:
		return cleared(v, func(c *NNTP) { c.at = nntpSpans{} })
	case *Telnet:
		return cleared(v, func(c *Telnet) { c.at = authSpans{} })
	case *WAIS:
		return cleared(v, func(c *WAIS) { c.at = waisSpans{} })
	case *Prospero:
		return cleared(v, func(c *Prospero) { c.at = prosperoSpans{} })
	case *File:
		return cleared(v, func(c *File) { c.at.Host, c.at.Path = Span{}, Span{} })
	case *Toy:
		return cleared(v, func(c *Toy) { c.at.Key = Span{} })
	case *Mailto:
		return cleared(v, func(c *Mailto) {
			c.at.Address = Span{}
			if c.Fields != nil {
				c.Fields = append([]HField{}, c.Fields...)
				for i := range c.Fields {
					c.Fields[i].at = Span{}
				}
			}
		})
	}
	return v // the views without spans
}

// cleared returns a copy of *v that clear has changed.
func cleared[T any](v *T, clear func(*T)) *T {
	c := *v
	clear(&c)
	return &c
}
