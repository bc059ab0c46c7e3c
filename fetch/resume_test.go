package fetch

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// FetchFrom with a copy as long as the resource gets an empty Body at
// the copy's end (FTP: SIZE says so, no REST or RETR is sent; HTTP: 416
// naming that length), and with a longer copy the whole resource from
// byte 0 with a warning (FTP: RETR without REST; HTTP: the request
// again without Range): get -C - then leaves FILE alone, or restarts.
func TestFetchFromCompleteOrLonger(t *testing.T) {
	body := []byte("ok")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(body))
	}))
	defer srv.Close()
	ftpURL := func(s *wt.Server) string { return "ftp://" + s.Addr() + "/f.bin" }
	for _, c := range []struct {
		name   string
		url    func() string
		offset int64
		data   string // want Body
		from   int64  // want Offset
		warn   string
	}{
		{"ftp complete", func() string {
			return ftpURL(wt.Start(t, append(ftpLogin(), wt.Expect("QUIT"), wt.Send("221 bye"))...))
		}, 2, "", 2, ""},
		{"ftp longer", func() string {
			var d wt.Data
			return ftpURL(wt.Start(t, append(ftpLogin(),
				wt.Expect("EPSV"), wt.EPSV(&d),
				wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (2 bytes)"),
				wt.OnData(&d, wt.SendRaw("ok"), wt.Close()),
				wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))...))
		}, 5, "ok", 0, "the 5 bytes held are more than the remote file's 2 (SIZE)"},
		{"http complete", func() string { return srv.URL + "/f.bin" }, 2, "", 2, ""},
		{"http longer", func() string { return srv.URL + "/f.bin" }, 5, "ok", 0, "the 5 bytes held are more than the resource's 2 (416 Requested Range Not Satisfiable)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &Fetcher{Getenv: noEnv(), Timeout: 5 * time.Second}
			f.FTP.Email = "fault@example.org"
			u, _, err := urlkit.ParseMode(c.url(), urlkit.RFC3986)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.FetchFrom(testCtx(t), &u, Resume{Offset: c.offset})
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			if cerr := resp.Body.Close(); err == nil {
				err = cerr
			}
			if err != nil || string(b) != c.data || resp.Offset != c.from || resp.Size != int64(len(c.data)) {
				t.Errorf("%q from %d (size %d), %v; want %q from %d", b, resp.Offset, resp.Size, err, c.data, c.from)
			}
			if w := strings.Join(resp.Warnings, "\n"); c.warn == "" && w != "" || !strings.Contains(w, c.warn) {
				t.Errorf("warnings %q, want %q", w, c.warn)
			}
		})
	}
}
