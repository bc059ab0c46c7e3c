package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/normalize"
)

// surtVectors come from internetarchive/surt's tests/test_surt.py
// (test_surt, test_DefaultIAURLCanonicalizer, test_IAURLCanonicalizer,
// test_GoogleURLCanonicalizer, test_stripQuerySessionID and
// test_stripPathSessionID, themselves taken from webarchive-commons'
// Java tests), each rewritten as the SURT key the default canonicalizer
// gives; the last ones are ours.
var surtVectors = []struct{ in, want string }{
	// test_surt (WaybackURLKeyMakerTest.java)
	{"filedesc:foo.arc.gz", "filedesc:foo.arc.gz"},
	{"filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz"},
	{"filedesc://foo.arc.gz", "filedesc://foo.arc.gz"},
	{"warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz"},
	{"dns:alexa.com", "dns:alexa.com"},
	{"dns:archive.org", "dns:archive.org"},
	{"http://www.archive.org/", "org,archive)/"},
	{"http://archive.org/", "org,archive)/"},
	{"http://archive.org/goo/", "org,archive)/goo"},
	{"http://archive.org/goo/?", "org,archive)/goo"},
	{"http://archive.org/goo/?b&a", "org,archive)/goo?a&b"},
	{"http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
	{"http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221", "org,archive)/index.php?action=profile;u=4221"},
	{"whois://whois.isoc.org.il/shaveh.co.il", "il,org,isoc,whois)/shaveh.co.il"},
	{"http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
		"com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"},
	{"mailto:foo@example.com", "mailto:foo@example.com"},
	{"http://www.example.com/", "com,example)/"},
	{"ftp://www.example.com/", "com,example)/"},
	// test_DefaultIAURLCanonicalizer
	{"http://www.alexa.com/", "com,alexa)/"},
	{"http://archive.org/index.html", "org,archive)/index.html"},
	{"http://archive.org/index.html?", "org,archive)/index.html"},
	{"http://archive.org/index.html?a=b", "org,archive)/index.html?a=b"},
	{"http://archive.org/index.html?b=b&a=b", "org,archive)/index.html?a=b&b=b"},
	{"http://archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
	{"http://www34.archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
	// test_IAURLCanonicalizer
	{"http://ARCHIVE.ORG/", "org,archive)/"},
	{"http://www.archive.org:80/", "org,archive)/"},
	{"https://www.archive.org:80/", "org,archive:80)/"},
	{"http://www.archive.org:443/", "org,archive:443)/"},
	{"https://www.archive.org:443/", "org,archive)/"},
	{"http://www.archive.org/big/", "org,archive)/big"},
	{"dns:www.archive.org", "dns:www.archive.org"},
	{"http://example.com/foo?X=Y", "com,example)/foo?x=y"},
	// test_GoogleURLCanonicalizer
	{"http://host/%25%32%35", "host)/%25"},
	{"http://host/%25%32%35%25%32%35", "host)/%25%25"},
	{"http://host/%2525252525252525", "host)/%25"},
	{"http://host/asdf%25%32%35asd", "host)/asdf%25asd"},
	{"http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/", "26,99,188,168)/.secure/www.ebay.com"},
	{"http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/", "11,0,127,195)/uploads/%20%20%20%20/.verify/.ebaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx"},
	{"http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B", "com,host%23)/~a!b@c%23d$e%25f^00&11*22(33)44_55+"},
	{"http://3279880203/blah", "11,0,127,195)/blah"},
	{"http://39024579298/", "226,210,11,22)/"},
	{"http://017.0.0.1/", "1,0,0,15)/"},
	{"http://10.0.258/", "2,1,0,10)/"},
	{"http://1.2.3.256/", "256,3,2,1)/"},
	{"http://www.google.com/blah/..", "com,google)/"},
	{"http://www.evil.com/blah#frag", "com,evil)/blah"},
	{"http://www.GOOgle.com/", "com,google)/"},
	{"http://www.google.com.../", "com,google)/"},
	{"http://www.google.com/q?", "com,google)/q"},
	{"http://www.google.com/q?r?", "com,google)/q?r?"},
	{"http://evil.com/foo;", "com,evil)/foo;"},
	{"http://evil.com/foo?bar;", "com,evil)/foo?bar;"},
	{"http://www.t%EF%BF%BD%04.82.net/", "net,82,t%EF%BF%BD%04)/"},
	{"http://notrailingslash.com", "com,notrailingslash)/"},
	{"http://www.gotaport.com:1234/", "com,gotaport:1234)/"},
	{"https://www.securesite.com/", "com,securesite)/"},
	{"http://host.com/ab%23cd", "com,host)/ab%23cd"},
	{"http://host.com//twoslashes?more//slashes", "com,host)/twoslashes?more//slashes"},
	{"http://B%C3%BCcher.ch:8080/", "ch,xn--bcher-kva:8080)/"},
	// test_stripQuerySessionID and test_stripPathSessionID
	{"http://h/?jsessionid=0123456789abcdefghijklemopqrstuv", "h)/"},
	{"http://h/?jsessionid=0123456789abcdefghijklemopqrstuv0", "h)/?jsessionid=0123456789abcdefghijklemopqrstuv0"},
	{"http://h/?one=two&jsessionid=0123456789abcdefghijklemopqrstuv&x=y", "h)/?one=two&x=y"},
	{"http://h/?one=two&jsessionid=0123456789abcdefghijklemopqrstuv", "h)/?&one=two"},
	{"http://h/?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&x=y", "h)/?x=y"},
	{"http://h/?sid=9682993c8daa2c5497996114facdc805&jsessionid=0123456789abcdefghijklemopqrstuv", "h)/"},
	{"http://h/?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08%2F2006%7C06%3A58%3A11", "h)/?dtstamp=22/08/2006|06:58:11"},
	{"http://h/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "h)/mileg.aspx"},
	{"http://h/(4hqa0555fwsecu455xqckv45)/mileg.aspx", "h)/mileg.aspx"},
	{"http://h/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45)f(4hqa0555fwsecu455xqckv45))/mileg.aspx?page=sessionschedules", "h)/mileg.aspx?page=sessionschedules"},
	{"http://h/photos/36050182@N05/", "h)/photos/36050182@n05"},
	// Ours.
	{"HTTP://user:pw@WWW2.Example.COM:0080/A/./b/../C/?Z=1&a=%41#x", "com,example)/a/c?a=a&z=1"},
	{"http://[2001:DB8::1]:8080/", "2001:db8::1:8080)/"},
	{"file:///etc/Passwd/", "file:/etc/passwd"},
	{"news:comp.infosystems.www", "news:comp.infosystems.www"},
	{"gopher://gopher.example:70/1/a", "example,gopher:70)/1/a"},
	{"http://h/..//a", "h)/../a"},
	{"http://wwwexample.com/", "com,wwwexample)/"},
	{"http://www2.www2foo.com/", "com,www2foo)/"},
}

func TestSURT(t *testing.T) {
	for _, v := range surtVectors {
		u, _, err := urlkit.ParseMode(v.in, urlkit.Lenient)
		if err != nil {
			t.Errorf("%s: %v", v.in, err)
			continue
		}
		if got := normalize.SURT(&u); got != v.want {
			t.Errorf("SURT(%s)\n got %s\nwant %s", v.in, got, v.want)
		}
	}
}

// FuzzSURT checks that SURT never panics and that a key is printable
// text: every control, space, "#" and octet past 7F is escaped, so keys
// sort and split on whitespace as CDX files need.
func FuzzSURT(f *testing.F) {
	for _, v := range surtVectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, _, err := urlkit.ParseMode(s, urlkit.Lenient)
		if err != nil || strings.EqualFold(u.Scheme, "filedesc") {
			return
		}
		k := normalize.SURT(&u)
		if k == "" {
			t.Fatalf("SURT(%q) is empty", s)
		}
		for i := 0; i < len(k); i++ {
			if c := k[i]; c <= ' ' || c >= 0x7f || c == '#' {
				t.Fatalf("SURT(%q) = %q: byte %#x at %d is not escaped", s, k, c, i)
			}
		}
	})
}
