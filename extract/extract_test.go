package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// A urlCase is one URL as it is written in text. Every case runs alone
// and inside each of the contexts below.
type urlCase struct {
	src     string // where the example comes from
	in      string // the text as written
	want    string // the URL extracted
	at      int    // offset in `in` of the URL's first byte
	wrapped bool
	alt     string // the other reading of the hyphen rule
	repairs int    // how many repairs the lenient parser reports
}

// urlCases are drawn from the specifications' own examples, with the
// section named; syntax-only rows use the section's template.
var urlCases = []urlCase{
	// Bare URLs, one per scheme the specifications define.
	{src: "RFC 1738 3.1", in: "ftp://@host.com/", want: "ftp://@host.com/"},
	{src: "RFC 1738 3.1", in: "ftp://foo:@host.com/", want: "ftp://foo:@host.com/"},
	{src: "RFC 1738 3.2.2", in: "ftp://myname@host.dom/%2Fetc/motd", want: "ftp://myname@host.dom/%2Fetc/motd"},
	{src: "RFC 1738 appendix", in: "ftp://ds.internic.net/rfc/rfc1436.txt;type=a", want: "ftp://ds.internic.net/rfc/rfc1436.txt;type=a"},
	{src: "RFC 1630 Example 1", in: "http://info.cern.ch/albert/bertram/marie-claude", want: "http://info.cern.ch/albert/bertram/marie-claude"},
	{src: "RFC 1630 query strings", in: "http://info.my.org/AboutUs/Index/Phonebook?dobbins", want: "http://info.my.org/AboutUs/Index/Phonebook?dobbins"},
	{src: "RFC 1630 fragment identifiers", in: "http://www.myu.edu/org/admin/people#andy", want: "http://www.myu.edu/org/admin/people#andy"},
	{src: "RFC 1630 escapes", in: "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", want: "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98"},
	{src: "RFC 1630 (port)", in: "http://info.cern.ch:8000/imaginary/test", want: "http://info.cern.ch:8000/imaginary/test"},
	{src: "RFC 1738 2.1 (scheme case)", in: "HTTP://INFO.CERN.CH/", want: "HTTP://INFO.CERN.CH/"},
	{src: "RFC 2818 https", in: "https://example.com/a?b=c#d", want: "https://example.com/a?b=c#d"},
	{src: "RFC 1738 3.4 gopher", in: "gopher://gopher.micro.umn.edu/00/Information", want: "gopher://gopher.micro.umn.edu/00/Information"},
	{src: "RFC 1738 3.5 mailto", in: "mailto:timbl@info.cern.ch", want: "mailto:timbl@info.cern.ch"},
	// Issue 10, D2 and D9: punctuation the scheme gives a meaning stays.
	{src: "RFC 1738 3.6 (issue 10, D2)", in: "<URL:news:*>", want: "news:*", at: 5, wrapped: true},
	{src: "RFC 1738 3.6 (issue 10, D2)", in: "news:*", want: "news:*"},
	{src: "draft-ietf-uri-url-03 gopher+ (issue 10, D9)", in: "gopher://host/0a_gopher_selector%09%09!", want: "gopher://host/0a_gopher_selector%09%09!"},
	{src: "RFC 1738 3.6 news", in: "news:comp.infosystems.www", want: "news:comp.infosystems.www"},
	{src: "RFC 1738 3.7 nntp", in: "nntp://news.cern.ch/comp.infosystems.www/42", want: "nntp://news.cern.ch/comp.infosystems.www/42"},
	{src: "RFC 1738 3.8 telnet", in: "telnet://guest:guest@info.cern.ch:23/", want: "telnet://guest:guest@info.cern.ch:23/"},
	{src: "RFC 1738 3.9 wais (October 1993 draft)", in: "wais://quake.think.com/wais-discussion-archives?lynch", want: "wais://quake.think.com/wais-discussion-archives?lynch"},
	{src: "RFC 1738 3.10 file", in: "file://vms.host.edu/disk$user/my/notes/note12345.txt", want: "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
	{src: "RFC 1738 3.10 file (empty host)", in: "file:///etc/motd", want: "file:///etc/motd"},
	{src: "draft-06 3.11 prospero", in: "prospero://host.dom//pros/name", want: "prospero://host.dom//pros/name"},
	{src: "RFC 1630 rlogin", in: "rlogin://timbl@info.cern.ch", want: "rlogin://timbl@info.cern.ch"},
	{src: "RFC 1630 tn3270", in: "tn3270://info.cern.ch", want: "tn3270://info.cern.ch"},
	{src: "RFC 1630 mid", in: "mid:12345.678@info.cern.ch", want: "mid:12345.678@info.cern.ch"},
	{src: "RFC 1630 cid", in: "cid:part1.960830@info.cern.ch", want: "cid:part1.960830@info.cern.ch"},
	{src: "RFC 1630 URN", in: "urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", want: "urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3"},
	{src: "draft-03 afsaddress", in: "afs://cern.ch/usr/timbl", want: "afs://cern.ch/usr/timbl"},
	{src: "draft-03 experimental x- prefix", in: "x-exp:anything/goes", want: "x-exp:anything/goes"},
	{src: "any registered-looking scheme://", in: "svn+ssh://host.example/repo", want: "svn+ssh://host.example/repo"},
	{src: "draft-03 prefixedurl", in: "URL:ftp://info.cern.ch/pub", want: "ftp://info.cern.ch/pub", at: 4},
	{src: "draft-03 prefixedurl, unknown scheme", in: "URL:fxqn:/us/va/reston", want: "fxqn:/us/va/reston", at: 4},

	// Repairs by the lenient parser.
	{src: "RFC 1630 Example 3 (illegal '%', repaired)", in: "news:12345667123%asdghfh@info.cern.ch", want: "news:12345667123%25asdghfh@info.cern.ch", repairs: 1},
	{src: "RFC 1630 queries ('%%3D', repaired)", in: "http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins", want: "http://info.cern.ch/RDB/EMP?*%20where%20name%25%3Ddobbins", repairs: 1},
	{src: "lenient: IDNA host, raw non-ASCII", in: "http://bücher.example/über", want: "http://xn--bcher-kva.example/%C3%BCber", repairs: 2},
	{src: "lenient: national characters", in: "http://host/a|b{c}", want: "http://host/a%7Cb%7Bc%7D", repairs: 3},

	// Balanced parentheses and brackets are kept.
	{src: "balanced parentheses", in: "http://en.wikipedia.org/wiki/URL_(disambiguation)", want: "http://en.wikipedia.org/wiki/URL_(disambiguation)"},
	{src: "balanced brackets", in: "http://host/a[1]", want: "http://host/a%5B1%5D", repairs: 2},

	// Wrappers: RFC 1738 appendix, with the line breaks the scrape lost
	// restored (specs/README.md errata).
	{src: "RFC 1738 appendix", in: "<URL:ftp://info.cern.ch/pub/www/doc;\n   type=d>", want: "ftp://info.cern.ch/pub/www/doc;type=d", at: 5, wrapped: true, repairs: 1},
	{src: "RFC 1738 appendix", in: "<URL:ftp://ds.in\n   ternic.net/rfc>", want: "ftp://ds.internic.net/rfc", at: 5, wrapped: true, repairs: 1},
	{src: "RFC 1738 appendix (fragment inside)", in: "<URL:http://ds.internic.\n   net/instructions/overview.HTM#WARNING>", want: "http://ds.internic.net/instructions/overview.HTM#WARNING", at: 5, wrapped: true, repairs: 1},
	{src: "RFC 1738 appendix (references)", in: "<URL:ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol /Gopher+/Gopher+.txt>", want: "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt", at: 5, wrapped: true, repairs: 1},
	{src: "RFC 1738 3.10", in: "<URL:file://vms.host.edu/disk$user/my/notes/note12345.txt>", want: "file://vms.host.edu/disk$user/my/notes/note12345.txt", at: 5, wrapped: true},
	{src: "draft-06 3.11", in: "<URL:prospero://host.dom//pros/name>", want: "prospero://host.dom//pros/name", at: 5, wrapped: true},
	{src: "October 1993 draft, references (break after the colon)", in: "<ftp:\n                         //quake.think.com/pub/wais/doc/doc-ids.txt>", want: "ftp://quake.think.com/pub/wais/doc/doc-ids.txt", at: 1, wrapped: true, repairs: 1},
	{src: "October 1993 draft, references", in: "<wais://quake.think.com/wais-discussion-ar\n                         chives?lynch>", want: "wais://quake.think.com/wais-discussion-archives?lynch", at: 1, wrapped: true, repairs: 1},
	{src: "October 1993 draft, references (no-break spaces of the HTML copy)", in: "<ftp://info.cer\n\u00a0 \u00a0 n.ch/pub/www/doc/http-spec.txt>", want: "ftp://info.cern.ch/pub/www/doc/http-spec.txt", at: 1, wrapped: true, repairs: 2},
	{src: "October 1993 draft, example", in: "<ftp://ds.internic.ne\nt/rfc>", want: "ftp://ds.internic.net/rfc", at: 1, wrapped: true, repairs: 1},
	{src: "draft-03 wrapper without URL:", in: "<mailto:timbl@info.cern.ch>", want: "mailto:timbl@info.cern.ch", at: 1, wrapped: true},
	{src: "RFC 1738 appendix (any scheme after URL:)", in: "<URL:fxqn:/us/va/reston>", want: "fxqn:/us/va/reston", at: 5, wrapped: true},
	{src: "whitespace after < and URL:", in: "< URL:  http://info.cern.ch/ >", want: "http://info.cern.ch/", at: 8, wrapped: true},
	{src: "wrapper keeps trailing punctuation", in: "<URL:http://info.cern.ch/a.>", want: "http://info.cern.ch/a.", at: 5, wrapped: true},
	{src: "tabs and CRLF inside", in: "<URL:http://info.cern.ch/\r\n\t\thypertext/>", want: "http://info.cern.ch/hypertext/", at: 5, wrapped: true, repairs: 1},

	// The hyphen rule: the hyphen is kept, the other reading is offered.
	{src: "RFC 1738 appendix hyphen rule", in: "<URL:http://info.cern.ch/albert/bertram/marie-\n   claude>", want: "http://info.cern.ch/albert/bertram/marie-claude", at: 5, wrapped: true, alt: "http://info.cern.ch/albert/bertram/marieclaude", repairs: 1},
	{src: "hyphen rule: blanks before a CRLF break", in: "<URL:ftp://ds.internic.net/internet-  \r\n     drafts/draft-ietf-uri-irl-fun-req-02.txt>", want: "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt", at: 5, wrapped: true, alt: "ftp://ds.internic.net/internetdrafts/draft-ietf-uri-irl-fun-req-02.txt", repairs: 1},
	{src: "hyphen rule: in the host, twice", in: "<http://ds.inter-\n  nic.net/rfc-\n  index.txt>", want: "http://ds.inter-nic.net/rfc-index.txt", at: 1, wrapped: true, alt: "http://ds.internic.net/rfcindex.txt", repairs: 2},
}

// contexts surround each case.
var contexts = []struct{ name, before, after string }{
	{"alone", "", ""},
	{"sentence", "See ", " for details."},
	{"end of sentence", "It is at ", "."},
	{"comma", "At ", ", and more"},
	{"question", "Did you try ", "?"},
	{"exclamation", "Try ", "!"},
	{"semicolon", "one ", "; two"},
	{"colon", "see ", ": it works"},
	{"parentheses", "(", ")"},
	{"parentheses and period", "(see ", ")."},
	{"brackets", "[", "]"},
	{"braces", "{", "}"},
	{"double quotes", `"`, `"`},
	{"escaped quotes (JSON, C)", `"<a href=\"`, `\">x</a>"`},
	{"single quotes", "'", "'"},
	{"TeX quotes", "``", "''"},
	{"curly quotes", "“", "”"},
	{"guillemets", "« ", " »"},
	{"angle brackets", "<", ">"},
	{"label", "Note: ", ""},
	{"markdown", "**", "**"},
	{"lines", "first line\n", "\nlast line"},
	{"CRLF lines", "first line\r\n", "\r\nlast line\r\n"},
	{"indented", "\t  ", "  \n"},
	{"ideographic", "見て", "。"},
	{"no-break spaces", "\u00a0", "\u00a0"},
}

func lineCol(text string, off int) (int, int) {
	line := 1 + strings.Count(text[:off], "\n")
	return line, off - (strings.LastIndexByte(text[:off], '\n') + 1) + 1
}

func TestCases(t *testing.T) {
	for _, tc := range urlCases {
		for _, cx := range contexts {
			text := cx.before + tc.in + cx.after
			t.Run(tc.src+"/"+cx.name, func(t *testing.T) {
				items := FindAll(text)
				if len(items) != 1 {
					t.Fatalf("FindAll(%q) found %d URLs, want 1: %v", text, len(items), urls(items))
				}
				it := items[0]
				wrapped := tc.wrapped || cx.name == "angle brackets"
				if it.URL != tc.want || it.Wrapped != wrapped || it.Alternative != tc.alt {
					t.Errorf("FindAll(%q) = %q wrapped %v alternative %q, want %q wrapped %v alternative %q",
						text, it.URL, it.Wrapped, it.Alternative, tc.want, wrapped, tc.alt)
				}
				at := len(cx.before) + tc.at
				if it.Offset != int64(at) {
					t.Errorf("FindAll(%q): offset %d, want %d", text, it.Offset, at)
				}
				if l, c := lineCol(text, at); it.Line != l || it.Column != c {
					t.Errorf("FindAll(%q): line %d column %d, want %d, %d", text, it.Line, it.Column, l, c)
				}
				match := text[it.Start:it.End]
				switch {
				case tc.wrapped && match != tc.in:
					t.Errorf("FindAll(%q): match %q, want %q", text, match, tc.in)
				case !tc.wrapped && wrapped && match != "<"+tc.in+">":
					t.Errorf("FindAll(%q): match %q, want %q", text, match, "<"+tc.in+">")
				case !wrapped && match != tc.in:
					t.Errorf("FindAll(%q): match %q, want %q", text, match, tc.in)
				}
				if len(it.Repairs) != tc.repairs {
					t.Errorf("FindAll(%q): %d repairs %v, want %d", text, len(it.Repairs), it.Repairs, tc.repairs)
				}
				for _, r := range it.Repairs {
					if r.Offset < it.Start || r.Offset >= it.End {
						t.Errorf("FindAll(%q): repair %v outside the match [%d,%d)", text, r, it.Start, it.End)
					}
				}
				if u, _, err := urlkit.ParseMode(it.URL, urlkit.Lenient); err != nil || u.String() != it.URL {
					t.Errorf("ParseMode(Lenient) of (%q) = %q, %v", it.URL, u.String(), err)
				}
			})
		}
	}
}

func urls(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.URL)
	}
	return out
}

// TestCasesWrappedOnly: with bare detection off, only the wrapped cases
// are found.
func TestCasesWrappedOnly(t *testing.T) {
	c := &Config{WrappedOnly: true}
	for _, tc := range urlCases {
		got := urls(c.FindAll("See " + tc.in + " here."))
		want := []string(nil)
		if tc.wrapped {
			want = []string{tc.want}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: WrappedOnly FindAll(%q) = %q, want %q", tc.src, tc.in, got, want)
		}
	}
}

// Text that is not a URL, and how a URL's end is found.
func TestBoundaries(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"label", "Note: this is not a URL", nil},
		{"time", "at 12:30:45 on 2024-01-02T03:04:05Z", nil},
		{"scheme alone", "use http: or ftp: or mailto: here", nil},
		{"scheme and slashes alone", "all http:// URLs and file:/// too", nil},
		{"ip scheme without //", "http:foo is relative to nothing", nil},
		{"unknown scheme without //", "fxqn:/us/va/reston/cnri (RFC 1630 example 3)", nil},
		{"one-letter scheme", `C://Windows and c:\dos`, nil},
		{"dotted unknown scheme: the part after the dot", "foo.bar://host", []string{"bar://host"}},
		{"mail address in brackets", "Tim Berners-Lee <timbl@info.cern.ch>", nil},
		{"message id", "In-Reply-To: <12345@info.cern.ch>", nil},
		{"HTML tag", "<p>text</p> <br/>", nil},
		{"comparison", "if a < b && c > d", nil},
		{"mail header", "X-Mailer: urlkit", nil},
		{"empty wrapper body", "<http://>", nil},
		{"scheme after a dot", "(e.g.http://info.cern.ch/)", []string{"http://info.cern.ch/"}},
		{"unknown scheme after a dot", "e.g.ssh://host.example/x", []string{"ssh://host.example/x"}},
		{"scheme after a word", "see:http://info.cern.ch/", []string{"http://info.cern.ch/"}},
		{"two URLs", "http://a.example/,http://b.example/", []string{"http://a.example/,http://b.example/"}},
		{"two URLs spaced", "http://a.example/, http://b.example/.", []string{"http://a.example/", "http://b.example/"}},
		{"trailing punctuation run", "http://a.example/x...!?", []string{"http://a.example/x"}},
		{"unbalanced parenthesis", "(http://a.example/x)", []string{"http://a.example/x"}},
		{"markdown link", "[text](http://a.example/x)", []string{"http://a.example/x"}},
		{"markdown badge", "[![CI](https://a.example/b.svg?x=1)](https://a.example/actions?q=(a))", []string{"https://a.example/b.svg?x=1", "https://a.example/actions?q=(a)"}},
		{"closer inside", "(http://a.example/x)y", []string{"http://a.example/x"}},
		{"IP literal", "[http://[::1]:8080/]", []string{"http://[::1]:8080/"}},
		{"CVS pserver", "cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src", []string{"cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src"}},
		{"git remote helper", "persistent-https://kernel.googlesource.com/pub/scm/git/git", []string{"persistent-https://kernel.googlesource.com/pub/scm/git/git"}},
		{"parenthesis inside", "http://a.example/f(x)y", []string{"http://a.example/f(x)y"}},
		{"apostrophe inside", "see http://a.example/it's here", []string{"http://a.example/it's"}},
		{"single-quoted", "'http://a.example/it's'", []string{"http://a.example/it"}},
		{"backquoted", "`http://a.example/'", []string{"http://a.example/"}},
		{"HTML attribute", `<a href="http://a.example/x">link</a>`, []string{"http://a.example/x"}},
		{"URL then tag", "http://a.example/x<br>", []string{"http://a.example/x"}},
		{"URL: with space", "URL: http://a.example/", []string{"http://a.example/"}},
		{"URL: inside a word", "myURL:http://a.example/", []string{"http://a.example/"}},
		{"wrapper after URL", "<http://a.example/>http://b.example/", []string{"http://a.example/", "http://b.example/"}},
		{"double wrapper", "<<URL:http://a.example/>>", []string{"http://a.example/"}},
		{"wrapper inside prose brackets", "(<URL:http://a.example/>)", []string{"http://a.example/"}},
		{"no-break space ends", "http://a.example/\u00a0next", []string{"http://a.example/"}},
		{"non-ASCII letter kept", "http://a.example/café ok", []string{"http://a.example/caf%C3%A9"}},
		{"Latin-1 byte kept", "http://a.example/caf\xe9 ok", []string{"http://a.example/caf%E9"}},
		{"control character ends", "http://a.example/x\x00y", []string{"http://a.example/x"}},
		{"invalid port is not extracted", "listen on http://localhost:PORT/ now", nil},
		{"digit-first run", "1http://a.example/", nil},
	}
	for _, tc := range tests {
		got := urls(FindAll(tc.in))
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: FindAll(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestAppendixVerbatim runs RFC 1738's appendix example as the RFC prints
// it (the line breaks restored, specs/README.md errata), in LF and CRLF.
func TestAppendixVerbatim(t *testing.T) {
	const appendix = "   Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n" +
		"   type=d> but you can probably pick it up from <URL:ftp://ds.in\n" +
		"   ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n" +
		"   net/instructions/overview.HTM#WARNING>.\n"
	want := []struct {
		url       string
		line, col int
	}{
		{"ftp://info.cern.ch/pub/www/doc;type=d", 1, 36},
		{"ftp://ds.internic.net/rfc", 2, 54},
		{"http://ds.internic.net/instructions/overview.HTM#WARNING", 3, 47},
	}
	for _, eol := range []string{"\n", "\r\n"} {
		text := strings.ReplaceAll(appendix, "\n", eol)
		items := FindAll(text)
		if len(items) != len(want) {
			t.Fatalf("%q: found %q", eol, urls(items))
		}
		for i, w := range want {
			it := items[i]
			if it.URL != w.url || it.Line != w.line || it.Column != w.col || !it.Wrapped || !it.Prefixed {
				t.Errorf("%q: item %d = %q at %d:%d (wrapped %v), want %q at %d:%d", eol, i, it.URL, it.Line, it.Column, it.Wrapped, w.url, w.line, w.col)
			}
			if !strings.HasPrefix(text[it.Offset:], w.url[:8]) {
				t.Errorf("%q: offset %d points at %q", eol, it.Offset, text[it.Offset:it.Offset+8])
			}
		}
	}
	// The October 1993 draft's example: a wrapper without "URL:".
	const draft = "                Yes, Jim, I found it under <ftp://info.cern.ch/pub> but\n" +
		"                you can probably pick it up from <ftp://ds.internic.ne\nt/rfc>.\n"
	if got := urls(FindAll(draft)); fmt.Sprint(got) != "[ftp://info.cern.ch/pub ftp://ds.internic.net/rfc]" {
		t.Errorf("October 1993 draft example: %q", got)
	}
}

// TestProblems: unclosed wrappers, overlong URLs and rejected candidates
// are reported with their position and the rule broken.
func TestProblems(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		urls     []string
		problems []string
	}{
		{"blank line", "see <URL:http://a.example/\n\nnext paragraph> ok", 0,
			[]string{"http://a.example/"},
			[]string{`extract: line 1, column 5 (offset 4): "<URL:http://a.example/": wrapper not closed: blank line before the closing '>'`}},
		{"another <", "<http://a.example/ and <b>", 0,
			[]string{"http://a.example/"},
			[]string{`extract: line 1, column 1 (offset 0): "<http://a.example/ and <b>": wrapper not closed: '<' before the closing '>'`}},
		{"end of input", "x\n<URL:\n  http://a.example/", 0,
			[]string{"http://a.example/"}, // found bare: "URL:" and a line break is no prefix
			[]string{`extract: line 2, column 1 (offset 2): "<URL:": wrapper not closed: no '>' before the end of the input`}},
		{"limit", "<URL:http://a.example/" + strings.Repeat("a", 100) + ">", 50,
			nil,
			[]string{`extract: line 1, column 1 (offset 0): "<URL:http://a.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaa": wrapper not closed: no '>' within 50 bytes`,
				`extract: line 1, column 6 (offset 5): "URL:http://a.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": URL too long: no delimiter within 50 bytes`}},
		{"too long then more", "http://a.example/" + strings.Repeat("b", 100) + " http://c.example/", 50,
			[]string{"http://c.example/"},
			[]string{`extract: line 1, column 1 (offset 0): "http://a.example/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb": URL too long: no delimiter within 50 bytes`}},
		{"invalid wrapped", "x <URL:http://[::1/>", 0,
			nil,
			[]string{`extract: line 1, column 15 (offset 14): "<URL:http://[::1/>": IP literal without its closing ']' (RFC 3986 3.2.2) (after lenient repairs)`}},
		{"empty URL: wrapper", "RFC 1436. <URL:>.", 0,
			nil,
			[]string{`extract: line 1, column 16 (offset 15): "<URL:>": "URL:" is the prefix of RFC 1738's appendix, not a scheme`}},
		{"invalid bare", "a\nlisten on http://localhost:PORT/ now", 0,
			nil,
			[]string{`extract: line 2, column 28 (offset 29): "http://localhost:PORT/": 'P' in the port: a port is decimal digits`}},
		{"password redacted", "<URL:ftp://me:secret@host/\n\n>", 0,
			[]string{"ftp://me:secret@host/"},
			[]string{`extract: line 1, column 1 (offset 0): "<URL:ftp://me:xxxxx@host/": wrapper not closed: blank line before the closing '>'`}},
		// A wrapped URL may break its line in the password (RFC 1738
		// appendix), or the password may run past the snippet's length:
		// either way no "@" is left after the cut to find it by.
		{"password broken across lines", "<URL:ftp://joe:hunter2\n   x@host|/>", 0,
			nil,
			[]string{`extract: line 2, column 10 (offset 32): "<URL:ftp://joe:xxxxx@host|/>": '|' in the host: a host is a name, an address or an internationalized (IDNA) name, and encoding it would make none of these (RFC 1738 3.1, RFC 3986 3.2.2)`}},
		{"the second URL's password", "<URL:ftp://a/ <URL:ftp://joe:secret@h/>", 0,
			[]string{"ftp://a/", "ftp://joe:secret@h/"},
			[]string{`extract: line 1, column 1 (offset 0): "<URL:ftp://a/ <URL:ftp://joe:xxxxx@h/>": wrapper not closed: '<' before the closing '>'`}},
		{"a password past the window", "<URL:ftp://user:" + strings.Repeat("S", 2000) + "@h/", 0,
			[]string{"ftp://user:" + strings.Repeat("S", 2000) + "@h/"}, // found bare
			[]string{`extract: line 1, column 1 (offset 0): "<URL:ftp://user:xxxxx": wrapper not closed: no '>' before the end of the input`}},
		{"password past the snippet", "<URL:ftp://user:" + strings.Repeat("S", 70) + "@h|/>", 0,
			nil,
			[]string{`extract: line 1, column 89 (offset 88): "<URL:ftp://user:xxxxx@h|/>": '|' in the host: a host is a name, an address or an internationalized (IDNA) name, and encoding it would make none of these (RFC 1738 3.1, RFC 3986 3.2.2)`}},
	}
	for _, tc := range tests {
		var problems []string
		c := &Config{MaxLength: tc.max, Problem: func(p Problem) { problems = append(problems, p.Error()) }}
		got := urls(c.FindAll(tc.in))
		if fmt.Sprint(got) != fmt.Sprint(tc.urls) {
			t.Errorf("%s: URLs %q, want %q", tc.name, got, tc.urls)
		}
		if strings.Join(problems, "\n") != strings.Join(tc.problems, "\n") {
			t.Errorf("%s: problems\n%s\nwant\n%s", tc.name, strings.Join(problems, "\n"), strings.Join(tc.problems, "\n"))
		}
	}
}

func TestProblemCauses(t *testing.T) {
	var errs []error
	c := &Config{MaxLength: 20, Problem: func(p Problem) { errs = append(errs, p.Err) }}
	c.FindAll("<URL:http://a.example/aaaaaaaaaaaa> http://b.example/bbbbbbbbbbbbb http://c:x/")
	// The unclosed wrapper's text is scanned again: "URL:http://..." is
	// too long as a prefixed URL too.
	if len(errs) != 4 || !errors.Is(errs[0], ErrUnclosed) || !errors.Is(errs[1], ErrTooLong) ||
		!errors.Is(errs[2], ErrTooLong) || !errors.Is(errs[3], urlkit.ErrBadPort) {
		t.Errorf("causes %v", errs)
	}
}

// TestQuoted: in a quoted message, the quotation marks that start the
// continuation lines of a wrapper are part of the line break, not its
// closing '>'.
func TestQuoted(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		offset   int
	}{
		{"one level", "> see <URL:ftp://ds.internic.net/internet-drafts/draft-ietf-uri-url-\n> 08.txt>\n",
			[]string{"ftp://ds.internic.net/internet-drafts/draft-ietf-uri-url-08.txt"}, 11},
		{"two levels", "> > see <URL:http://info.cern.ch/hypertext/\n> >   WWW/Addressing/URL/Overview.html> ok",
			[]string{"http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html"}, 13},
		{"compact marks", ">> <http://info.cern.ch/a/\n>> b/c>",
			[]string{"http://info.cern.ch/a/b/c"}, 4},
		{"URL on the next line", "> <URL:\n>   http://info.cern.ch/a>",
			[]string{"http://info.cern.ch/a"}, 12},
		{"CRLF", "> <URL:http://info.cern.ch/a/\r\n> b>\r\n",
			[]string{"http://info.cern.ch/a/b"}, 7},
		{"shallower line closes", "> > <URL:http://info.cern.ch/a/\n> b>",
			[]string{"http://info.cern.ch/a/"}, 9},
		{"unquoted line: '>' closes", "<URL:http://info.cern.ch/a/\n> b>",
			[]string{"http://info.cern.ch/a/"}, 5},
		{"quoted blank line", "> <URL:http://info.cern.ch/a/\n>\n> b>",
			[]string{"http://info.cern.ch/a/"}, 7}, // found after "URL:" when the wrapper stays open
	}
	for _, tc := range tests {
		items := FindAll(tc.in)
		if fmt.Sprint(urls(items)) != fmt.Sprint(tc.want) {
			t.Errorf("%s: FindAll(%q) = %q, want %q", tc.name, tc.in, urls(items), tc.want)
			continue
		}
		if items[0].Offset != int64(tc.offset) {
			t.Errorf("%s: offset %d, want %d", tc.name, items[0].Offset, tc.offset)
		}
	}
}

// TestUnicodeBlankLine: a line of no-break spaces is a blank line, which
// a wrapper does not cross (the page breaks of the 1993 draft's copy).
func TestUnicodeBlankLine(t *testing.T) {
	var problems []Problem
	c := &Config{Problem: func(p Problem) { problems = append(problems, p) }}
	got := urls(c.FindAll("<ftp://boombox.micro.umn.edu/pub/gopher/\n\u00a0 \u00a0\nBerners-Lee  [Page 20]\ngopher_protocol> . See also"))
	if fmt.Sprint(got) != "[ftp://boombox.micro.umn.edu/pub/gopher/]" || len(problems) != 1 || !errors.Is(problems[0].Err, ErrUnclosed) {
		t.Errorf("found %q, problems %v", got, problems)
	}
}
