package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/ftp"
	"github.com/urlkit/urlkit/fetch"
)

// fetcherTransport is the RoundTripper the web form's tests fetch
// through until fetch.Transport lands (engineer transport): a Fetcher
// against the real servers, answering as the web form expects
// (webConfig.Transport): listings as JSON lines when asked
// ("Accept: application/x-ndjson"), a Gopher menu as it is, a fetch
// error as the error, a POST as Fetcher.Send.
type fetcherTransport struct {
	f fetch.Fetcher
}

func (t *fetcherTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	u, err := fetch.ParseURL(req.URL.String(), urlkit.RFC1738)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	if req.Method == http.MethodPost {
		sent, err := t.f.Send(ctx, &u, req.Body)
		if err != nil {
			return nil, err
		}
		return answer(200, "text/plain", strings.NewReader(sent.Reply)), nil
	}
	f := t.f
	wantList := strings.Contains(req.Header.Get("Accept"), "application/x-ndjson")
	f.NNTP.JSON, f.WAIS.JSON, f.Prospero.JSON = wantList, wantList, wantList
	if wantList && u.Scheme == "ftp" && (strings.HasSuffix(u.Path, "/") || strings.HasSuffix(u.Path, ";type=d")) {
		resp, err := f.List(ctx, &u)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			e, skip, err := ftp.ParseEntry(resp.ListFormat, sc.Text(), time.Now())
			if err != nil || skip {
				continue
			}
			obj := map[string]any{"name": e.Name, "type": e.Type}
			if e.Size >= 0 {
				obj["size"] = e.Size
			}
			if !e.Time.IsZero() {
				obj["time"] = e.Time.UTC().Format("2006-01-02 15:04")
			}
			line, _ := json.Marshal(obj)
			b.Write(append(line, '\n'))
		}
		return answer(200, "application/x-ndjson", &b), nil
	}
	resp, err := f.Fetch(ctx, &u)
	if err != nil {
		return nil, err
	}
	ct := resp.ContentType
	if resp.Listing && wantList && ct != "application/gopher-menu" {
		ct = "application/x-ndjson"
	} else if ct == "application/json" && wantList {
		ct = "application/x-ndjson"
	}
	r := answer(200, ct, resp.Body)
	r.Body = resp.Body
	if resp.Size >= 0 {
		r.Header.Set("Content-Length", strconv.FormatInt(resp.Size, 10))
	}
	return r, nil
}

func answer(status int, ct string, body io.Reader) *http.Response {
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(body)}
}

// server returns the port of a test server from its environment
// variable (scripts/with-servers.sh), skipping the test without it
// unless URLKIT_REQUIRE_SERVERS=1.
func server(t testing.TB, env string) string {
	t.Helper()
	p := os.Getenv(env)
	if p == "" {
		if os.Getenv("URLKIT_REQUIRE_SERVERS") == "1" {
			t.Fatalf("%s is not set: run under scripts/with-servers.sh", env)
		}
		t.Skipf("%s is not set (scripts/with-servers.sh starts the server)", env)
	}
	return p
}
