package edit

import (
	cc "github.com/urlkit/urlkit/internal/charclass"
	"github.com/urlkit/urlkit/internal/percent"
)

// The encodings of curl and trurl, as sets of the module's one escaper
// (charclass.ByteSet): curl's unreserved characters are RFC 3986's
// (ALPHA DIGIT - . _ ~), not RFC 1738's that the root's sets keep.
var (
	unreserved      = cc.NewByteSet(isUnreserved)
	unreservedSlash = cc.NewByteSet(func(c byte) bool { return c == '/' || isUnreserved(c) })
	// trurl keeps "*" in a query pair it writes back.
	queryPart = cc.NewByteSet(func(c byte) bool { return c == '*' || isUnreserved(c) })
)

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// Escape is curl_easy_escape: every byte but ALPHA DIGIT - . _ ~ is
// written %XX with upper-case hex digits.
func Escape(s string) string { return unreserved.Escape(s) }

// urlEncode is what curl_url_set does with CURLU_URLENCODE: the same
// set, lower-case hex digits, in the path "/" kept, in the query a
// space written "+".
func urlEncode(s string, keepSlash, plusSpace bool) string {
	if keepSlash {
		return unreservedSlash.EscapeLower(s, false)
	}
	return unreserved.EscapeLower(s, plusSpace)
}

// Unescape decodes every %XX escape and keeps any other "%", as curl does.
func Unescape(s string) string {
	return percent.Loose(s, false)
}
