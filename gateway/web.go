package gateway

import (
	"io"
	"net/http"
)

// webConfig is what the web form needs from the gateway. This is serve's
// placeholder until the web form (engineer web's gateway/web.go) lands:
// the lead takes that file at the merge.
type webConfig struct {
	// Transport fetches the objects the pages render, through the
	// gateway's limits and policies.
	Transport http.RoundTripper
	// AllowPost and AllowSend enable the news posting and mail forms.
	AllowPost, AllowSend bool
	// NNTP and SMTP are the servers of news: URLs and of mail.
	NNTP, SMTP string
	// AllowFile is the directory file: URLs are served from, "" for none.
	AllowFile string
}

// webForm serves the web form: GET / is the home page.
type webForm struct {
	cfg webConfig
}

func newWebForm(cfg webConfig) *webForm { return &webForm{cfg: cfg} }

func (wf *webForm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, `<!doctype html><title>urlkit</title><form action="/"><input name="url"><button>Go</button></form>`)
}
