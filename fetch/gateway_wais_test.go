package fetch

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestWAISProsperoGateways: a gateway set for wais or prospero is used
// instead of the direct protocols (libwww's way): the whole URL on the
// request line for --gateway and <scheme>_proxy, the host and path
// appended for WWW_<scheme>_GATEWAY.
func TestWAISProsperoGateways(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.RequestURI)
		mu.Unlock()
		io.WriteString(w, "via gateway\n")
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name, url string
		f         *Fetcher
		want      string
	}{
		{"--gateway wais", "wais://wais.example/db?a%20b", &Fetcher{Gateways: map[string]Gateway{"wais": {URL: srv.URL}}, IgnoreEnvironment: true}, "wais://wais.example/db?a%20b"},
		{"WWW_wais_GATEWAY", "wais://wais.example/db?words", &Fetcher{Getenv: env(map[string]string{"WWW_wais_GATEWAY": srv.URL})}, "/wais.example/db?words"},
		{"--gateway prospero", "prospero://p.example/AFTP/pub", &Fetcher{Gateways: map[string]Gateway{"prospero": {URL: srv.URL}}, IgnoreEnvironment: true}, "prospero://p.example/AFTP/pub"},
		{"WWW_prospero_GATEWAY", "prospero://p.example/AFTP/pub", &Fetcher{Getenv: env(map[string]string{"WWW_prospero_GATEWAY": srv.URL})}, "/p.example/AFTP/pub"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			b, resp, err := getAll(t, tc.f, tc.url)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if string(b) != "via gateway\n" || len(got) != 1 || got[0] != tc.want || resp.Via == "" {
				t.Errorf("body %q, request %q (want %q), via %q", b, got, tc.want, resp.Via)
			}
			if strings.Contains(resp.ContentType, "wais") {
				t.Errorf("content type %q: the wais opener answered", resp.ContentType)
			}
		})
	}
}
