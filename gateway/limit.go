package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// guard is the RoundTripper both forms fetch through: the Transport
// behind the gateway's own rules, which know the client (file: under
// AllowFile only, the bounds on upstream fetches in all and per client).
// What it refuses it answers as the Transport answers a refusal: a
// response with the status and a line of text, which the proxy form
// passes on and the web form renders as an error page.
type guard struct {
	next     http.RoundTripper
	lim      *limiter
	fileRoot string
}

// RoundTrip fetches r through the limits. The response's Body holds the
// slot until it is closed.
func (g *guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.EqualFold(r.URL.Scheme, "file") {
		if msg := g.fileRefusal(r); msg != "" {
			return refusal(r, http.StatusForbidden, msg), nil
		}
	}
	key, _ := r.Context().Value(clientKey{}).(netip.Prefix)
	release, code := g.lim.acquire(r.Context(), key)
	if code != 0 {
		return refusal(r, code, "gateway: too many fetches in progress; try again later"), nil
	}
	resp, err := g.next.RoundTrip(r)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// fileRefusal says why a file: URL is refused, or "" when it names a
// file under AllowFile. The path is judged as the system will open it:
// cleaned of dot segments, symbolic links followed.
func (g *guard) fileRefusal(r *http.Request) string {
	if g.fileRoot == "" {
		return "gateway: file: URLs are not served (urlkit serve --allow-file DIR serves the files under DIR)"
	}
	if h := strings.ToLower(r.URL.Host); h != "" && h != "localhost" {
		return "gateway: a file: URL names a file of this machine (host \"\" or localhost)"
	}
	p := filepath.Clean("/" + r.URL.Path)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	root, err := filepath.EvalSymlinks(g.fileRoot)
	if err != nil {
		return "gateway: the --allow-file directory is gone"
	}
	if rel, err := filepath.Rel(root, p); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "gateway: file: URLs are served from the --allow-file directory only"
	}
	return ""
}

// checkFileRoot checks an AllowFile setting: an existing directory.
func checkFileRoot(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("--allow-file %q: give an absolute path", dir)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--allow-file: %v", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--allow-file %q: not a directory", dir)
	}
	return nil
}

// refusal is the response to a request the gateway refuses by itself.
func refusal(r *http.Request, code int, msg string) *http.Response {
	body := fmt.Sprintf("%d %s\n%s\n", code, http.StatusText(code), msg)
	hd := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
	if code == http.StatusServiceUnavailable || code == http.StatusTooManyRequests {
		hd.Set("Retry-After", "5")
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", code, http.StatusText(code)),
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        hd,
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}

// releasingBody gives the fetch's slot back when the body is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// limiter bounds the fetches in progress: in all, and per client. A
// request over a bound waits for a slot as long as its context lets it;
// a client with too many requests waiting is refused at once.
type limiter struct {
	all     chan struct{}
	per     int
	maxWait int

	mu      sync.Mutex
	clients map[netip.Prefix]*clientSlots
}

// clientSlots are one client's slots and how many of its requests hold
// or wait for one (the entry goes when none does).
type clientSlots struct {
	sem   chan struct{}
	users int
}

func newLimiter(all, per, maxWait int) *limiter {
	if all <= 0 {
		all = defaultMaxConns
	}
	if per <= 0 {
		per = max(1, all/4)
	}
	if maxWait <= 0 {
		maxWait = defaultMaxWaiting
	}
	return &limiter{all: make(chan struct{}, all), per: per, maxWait: maxWait, clients: map[netip.Prefix]*clientSlots{}}
}

// acquire takes a slot for the client key, waiting while ctx lets it.
// It returns the function that gives the slot back (safe to call more
// than once), or the status of the refusal: 429 when the client already
// waits for too many, 503 when no slot came in time.
func (l *limiter) acquire(ctx context.Context, key netip.Prefix) (release func(), status int) {
	l.mu.Lock()
	c := l.clients[key]
	if c == nil {
		c = &clientSlots{sem: make(chan struct{}, l.per)}
		l.clients[key] = c
	}
	if c.users >= l.per+l.maxWait {
		l.mu.Unlock()
		return nil, http.StatusTooManyRequests
	}
	c.users++
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		c.users--
		if c.users == 0 {
			delete(l.clients, key)
		}
		l.mu.Unlock()
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, http.StatusServiceUnavailable
	}
	select {
	case l.all <- struct{}{}:
	case <-ctx.Done():
		<-c.sem
		leave()
		return nil, http.StatusServiceUnavailable
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-l.all
			<-c.sem
			leave()
		})
	}, 0
}
