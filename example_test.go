package urlkit_test

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/urlkit/urlkit"
)

func ExampleParse() {
	u, err := urlkit.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Scheme, u.User, u.Host, u.Path)
	fmt.Println(u.String())
	// Output:
	// ftp myname host.dom /%2Fetc/motd;type=a
	// ftp://myname@host.dom/%2Fetc/motd;type=a
}

func ExampleParse_absentAndEmpty() {
	// RFC 1738 3.1: an empty user name is not the same as no user name.
	for _, s := range []string{"ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/"} {
		u, _ := urlkit.Parse(s)
		user, hasUser := u.DecodedUser()
		pass, hasPass := u.DecodedPassword()
		fmt.Printf("%-22s user %q %v, password %q %v\n", s, user, hasUser, pass, hasPass)
	}
	// Output:
	// ftp://@host.com/       user "" true, password "" false
	// ftp://host.com/        user "" false, password "" false
	// ftp://foo:@host.com/   user "foo" true, password "" true
}

func ExampleParse_error() {
	_, err := urlkit.Parse("ftp://a b/")
	fmt.Println(err)
	fmt.Println(errors.Is(err, urlkit.ErrInvalidChar))
	// Output:
	// urlkit: "ftp://a b/": offset 7: space is unsafe and must be encoded as %20
	// true
}

func ExampleParseMode() {
	u, _, err := urlkit.ParseMode("http://[2001:db8::7]:8080/~user?q#top", urlkit.RFC3986)
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Hostname(), u.Port, u.Path, u.Query, u.Fragment)
	_, _, err = urlkit.ParseMode("http://[2001:db8::7]:8080/~user?q#top", urlkit.RFC1738)
	fmt.Println(err)
	// Output:
	// 2001:db8::7 8080 /~user q top
	// urlkit: "http://[2001:db8::7]:8080/~user?q#top": offset 7: '[' is unsafe and must be encoded as %5B
}

func ExampleCheck() {
	for _, e := range urlkit.Check("http://user:secret@host/a b{", urlkit.RFC1738) {
		fmt.Println(e)
	}
	// Output:
	// urlkit: "http://user:xxxxx@host/a b{": offset 7: a user name or password is not allowed in http URLs (RFC 1738 section 5, httpurl)
	// urlkit: "http://user:xxxxx@host/a b{": offset 25: space is unsafe and must be encoded as %20
	// urlkit: "http://user:xxxxx@host/a b{": offset 27: '{' is unsafe and must be encoded as %7B
}

func ExampleParseMode_lenient() {
	u, warnings, err := urlkit.ParseMode("<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d>", urlkit.Lenient)
	if err != nil {
		panic(err)
	}
	fmt.Println(u.String())
	for _, w := range warnings {
		fmt.Println(w)
	}
	// Output:
	// ftp://info.cern.ch/pub/www/doc;type=d
	// offset 0: <...> wrapper removed (RFC 1738 appendix)
	// offset 1: "URL:" prefix removed (RFC 1738 appendix)
	// offset 36: whitespace inside <...> removed (RFC 1738 appendix: it is ignored when extracting the URL)
}

func ExampleParseMode_urlPrefix() {
	// RFC 1738's appendix writes "URL:" before a URL in text: in every
	// mode it is the prefix, not a scheme, and a warning says so.
	u, warnings, err := urlkit.ParseMode("URL:ftp://ftp.example.com/pub/", urlkit.RFC1738)
	fmt.Println(u.SchemeName(), u.Host, err)
	fmt.Println(warnings)
	// Output:
	// ftp ftp.example.com <nil>
	// [offset 0: "URL:" prefix removed (RFC 1738 appendix)]
}

func ExamplePathUnescape() {
	s, err := urlkit.PathUnescape("marie%2Dclaude")
	fmt.Println(s, err)
	_, err = urlkit.PathUnescape("100%")
	fmt.Println(err)
	// Output:
	// marie-claude <nil>
	// urlkit: "100%": offset 3: '%' must be followed by two hex digits (RFC 1630 reserves other uses)
}

func ExampleURL_Redacted() {
	u, _ := urlkit.Parse("ftp://anonymous:guest@ftp.example.com/pub/")
	fmt.Println(u.Redacted())
	// Output: ftp://anonymous:xxxxx@ftp.example.com/pub/
}

// Parsing a URL from a buffer that is read into again, without a copy:
// the components are substrings of the text given to Parse, so the URL
// is cloned before it is kept.
func ExampleURL_Clone() {
	buf := []byte("gopher://gopher.example.org:70/0/notes.txt")
	u, _ := urlkit.Parse(unsafe.String(&buf[0], len(buf)))
	kept := u.Clone()
	copy(buf, "ftp://host.example/xxxxxxxxxxxxxxxxxxxxxxx") // the next read
	fmt.Println(kept.Host, kept.Port, kept.Path)
	fmt.Println(kept.String())
	// Output:
	// gopher.example.org 70 /0/notes.txt
	// gopher://gopher.example.org:70/0/notes.txt
}

func ExampleURL_NetURL() {
	u, _ := urlkit.Parse("http://info.cern.ch/albert/bertram%2Fmarie-claude")
	n := u.NetURL()
	fmt.Println(n.Path)
	fmt.Println(n.String())
	// Output:
	// /albert/bertram/marie-claude
	// http://info.cern.ch/albert/bertram%2Fmarie-claude
}

func ExampleURL_ResolveReference() {
	base, _ := urlkit.Parse("http://a/b/c/d;p?q")
	for _, s := range []string{"g", "../g?y", "//h/x", "#s"} {
		ref, _, _ := urlkit.ParseReference(s, urlkit.RFC3986)
		fmt.Println(base.ResolveReference(&ref))
	}
	// Output:
	// http://a/b/c/g
	// http://a/b/g?y
	// http://h/x
	// http://a/b/c/d;p?q#s
}
