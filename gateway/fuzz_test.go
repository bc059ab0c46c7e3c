package gateway

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// bytesTransport answers every request with the same body and media
// type: the fuzz target's server, which sends any bytes at all (a fake:
// the point is bytes no real server would send).
type bytesTransport struct {
	ct   string
	body []byte
}

func (b bytesTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return answer(200, b.ct, bytes.NewReader(b.body)), nil
}

// pageKinds are the answers the fuzz target renders, each with a URL of
// a scheme that gives it.
var pageKinds = []struct{ ct, path string }{
	{"application/gopher-menu", "/gopher://h.example/1/"},
	{"application/gopher+-attributes", "/gopher://h.example/0/x%09%09!"},
	{"application/x-ndjson", "/ftp://h.example/pub/"},
	{"application/x-ndjson", "/news:local.test"},
	{"application/x-ndjson", "/wais://h.example/db?q"},
	{"application/x-ndjson", "/prospero://h.example/AFTP/pub"},
	{"message/rfc822", "/news:a@b.example"},
	{"text/plain", "/gopher://h.example/0/t"},
}

// FuzzPage renders server bytes as each kind of page (a Gopher menu,
// Gopher+ attributes, every listing, an article, a text) and checks the
// page rules on the HTML: no script, iframe, object or embed element,
// no event attribute, every href, src and action a gateway link, and no
// control byte but TAB, LF and CR.
func FuzzPage(f *testing.F) {
	for _, s := range []string{
		"i<script>alert(1)</script>\tx\th\t70\r\n0a\"b\t/\"><script>x</script>\th\" onmouseover=\"x\t70\r\n.\r\n",
		"hJS\tURL:javascript:alert(1)\th\t70\r\nhData\tURL:data:text/html,<script>1</script>\th\t70\r\n1x\t/\t/evil.example\t70\r\n",
		"+INFO: 0x\t/x\th\t70\t+\r\n+VIEWS:\r\n text/plain: <1k>\r\n javascript:alert(1): <1k>\r\n+ASK:\r\n Ask: <b>name</b>\tdef\"ault\r\n Choose: c\ta\"\t<b>\r\n",
		`{"name":"<script>x</script>","type":"dir","url":"javascript:alert(1)"}` + "\n" + `{"group":"a\"<b>","high":2,"low":1,"status":"y"}` + "\n",
		`{"number":1,"subject":"<img src=x onerror=1>","message_id":"<a\"@b>"}` + "\n" + `{"headline":"<i>","url":"//evil.example/","score":1}` + "\n",
		"Subject: <script>1</script>\r\nReferences: <a\"onclick=x@b> <javascript:x@y>\r\nNewsgroups: a\"b,<c>\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-ID: <\"x@y>\r\n\r\n<script>\r\n--b--\r\n",
		"\x1b[31m<script>\xff\xfe\xb0\xb1",
	} {
		for k := range pageKinds {
			f.Add(uint8(k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		k := pageKinds[int(kind)%len(pageKinds)]
		wf := newWebForm(webConfig{Transport: bytesTransport{ct: k.ct, body: body}, AllowPost: true})
		req := httptest.NewRequest(http.MethodGet, "http://gw.example/", nil)
		req.RequestURI = k.path
		rec := httptest.NewRecorder()
		wf.ServeHTTP(rec, req)
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			return // a download
		}
		checkHTML(t, rec.Body.Bytes())
	})
}

// checkHTML fails t when a page breaks a page rule.
func checkHTML(t *testing.T, page []byte) {
	t.Helper()
	for _, c := range page {
		if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			t.Fatalf("control byte %#x in the page:\n%s", c, page)
		}
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("the page does not tokenize: %v", z.Err())
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "iframe", "object", "embed", "base", "meta":
				if tok.Data == "meta" && len(tok.Attr) > 0 && (tok.Attr[0].Key == "charset" || tok.Attr[0].Key == "name") {
					break // the page's own head
				}
				t.Fatalf("<%s> in the page:\n%s", tok.Data, page)
			}
			for _, a := range tok.Attr {
				switch {
				case strings.HasPrefix(a.Key, "on"):
					t.Fatalf("event attribute %s=%q in the page:\n%s", a.Key, a.Val, page)
				case a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "formaction":
					if !isGatewayLink(a.Val) {
						t.Fatalf("%s=%q is not a gateway link:\n%s", a.Key, a.Val, page)
					}
				}
			}
		}
	}
}
