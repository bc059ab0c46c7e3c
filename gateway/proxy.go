package gateway

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// hopHeaders are the hop-by-hop fields (RFC 9110 section 7.6.1): they
// belong to one connection, so a proxy neither forwards nor returns them.
var hopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// removeHopHeaders deletes the hop-by-hop fields of hd, and those its
// Connection field names.
func removeHopHeaders(hd http.Header) {
	for _, v := range hd.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				hd.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		hd.Del(name)
	}
}

// forwarded are the request fields the proxy form passes to a scheme
// other than http: the password of this request (Authorization, used
// once, never kept), and what the client accepts (the structured
// listing).
var forwarded = []string{"Authorization", "Accept"}

// proxy serves the proxy form: the object the request line's absolute
// URL names, as a proxy returns it, streamed.
func (h *Handler) proxy(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		plainError(w, http.StatusMethodNotAllowed, "gateway: the proxy form serves GET and HEAD")
		return
	}
	u := *r.URL
	u.Scheme = strings.ToLower(u.Scheme)
	out := (&http.Request{
		Method:     r.Method,
		URL:        &u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     http.Header{},
		Host:       u.Host,
	}).WithContext(r.Context())
	if u.Scheme == "http" || u.Scheme == "https" {
		out.Header = r.Header.Clone()
		removeHopHeaders(out.Header)
	} else {
		for _, name := range forwarded {
			if v := r.Header.Values(name); len(v) > 0 {
				out.Header[name] = v
			}
		}
	}
	resp, err := h.rt.RoundTrip(out)
	if err != nil {
		plainError(w, errStatus(err), err.Error())
		return
	}
	defer resp.Body.Close()
	hd := w.Header()
	for k, v := range resp.Header {
		hd[k] = v
	}
	removeHopHeaders(hd)
	// An object from a server is not the gateway's page: whatever it is
	// (HTML, a Gopher h item), it runs sandboxed and without script.
	setSecurityHeaders(hd, cspObject)
	if resp.ContentLength >= 0 && hd.Get("Content-Length") == "" && resp.StatusCode != http.StatusNoContent {
		hd.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
	w.WriteHeader(resp.StatusCode)
	if r.Method == http.MethodHead {
		return
	}
	h.stream(w, resp.Body)
}

// stream copies an object to the client as it arrives. Each write must
// finish within the idle timeout (a client that stops reading cannot
// hold the fetch); what arrives slowly is flushed at once rather than
// held in a buffer. An object that breaks off (a stalled or over-long
// upstream, a refused data connection) aborts the response, so that the
// client sees a truncated transfer rather than a complete one.
func (h *Handler) stream(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	buf := make([]byte, 64<<10)
	var deadline time.Time
	for {
		n, rerr := body.Read(buf)
		if n > 0 {
			// Moving the deadline at most once a second costs nothing
			// per write of a fast transfer.
			if now := time.Now(); now.Add(h.idle - time.Second).After(deadline) {
				deadline = now.Add(h.idle)
				rc.SetWriteDeadline(deadline)
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return // the client went: the deferred Close ends the fetch
			}
			if n < len(buf) {
				rc.Flush()
			}
		}
		if rerr == io.EOF {
			return
		}
		if rerr != nil {
			if h.errLog != nil {
				h.errLog.Printf("gateway: the object broke off: %v", rerr) // fetch's errors are redacted
			}
			panic(http.ErrAbortHandler) // net/http's way to cut a response short: the client sees no clean end
		}
	}
}
