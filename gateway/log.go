package gateway

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// accessLog writes one line per request in the Common Log Format
// (host ident authuser [date] "request" status bytes), as CERN httpd
// and its successors do, so the usual tools read it. A password never
// appears: not the Basic auth one (only its user is shown), not one in
// a URL of the request line (proxy form, web form, ?url=), escaped or
// not.
type accessLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *accessLog) write(r *http.Request, lw *logWriter, start time.Time) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	user := "-"
	if u, _, ok := r.BasicAuth(); ok && u != "" {
		user = logField(u)
	}
	size := "-"
	if lw.bytes > 0 {
		size = strconv.FormatInt(lw.bytes, 10)
	}
	var b strings.Builder
	b.WriteString(logField(host))
	b.WriteString(" - ")
	b.WriteString(user)
	b.WriteString(start.Format(" [02/Jan/2006:15:04:05 -0700] \""))
	b.WriteString(logField(r.Method))
	b.WriteByte(' ')
	b.WriteString(logField(redactTarget(r.RequestURI)))
	b.WriteByte(' ')
	b.WriteString(logField(r.Proto))
	b.WriteString("\" ")
	b.WriteString(strconv.Itoa(lw.status))
	b.WriteByte(' ')
	b.WriteString(size)
	b.WriteByte('\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, b.String())
}

// logField escapes what would break a log line or a terminal: spaces,
// quotes, backslashes, control bytes and non-ASCII as %XX.
func logField(s string) string {
	if s == "" {
		return "-"
	}
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == '"' || c == '\\' || c >= 0x7f {
			if b == nil {
				b = append(make([]byte, 0, len(s)+8), s[:i]...)
			}
			b = append(b, '%', hex[c>>4], hex[c&15])
			continue
		}
		if b != nil {
			b = append(b, c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// redactTarget replaces the password of every URL in a request target
// with "xxxxx": after each "://", written plainly or percent-encoded
// (a ?url= parameter), the text between the first ":" and the last "@"
// of the authority. The rest is kept byte for byte.
func redactTarget(s string) string {
	// Decode into units: each is one byte of the decoded text and the
	// span of s it came from ("%40" or "@").
	type unit struct {
		c          byte
		start, end int
	}
	units := make([]unit, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
			units = append(units, unit{unhex(s[i+1])<<4 | unhex(s[i+2]), i, i + 3})
			i += 3
			continue
		}
		units = append(units, unit{s[i], i, i + 1})
		i++
	}
	var out strings.Builder
	last := 0
	for k := 0; k+2 < len(units); k++ {
		if units[k].c != ':' || units[k+1].c != '/' || units[k+2].c != '/' {
			continue
		}
		a := k + 3 // the authority's first unit
		e := a
		for e < len(units) && !strings.ContainsRune("/?#&", rune(units[e].c)) {
			e++
		}
		at, colon := -1, -1
		for i := a; i < e; i++ {
			if units[i].c == '@' {
				at = i
			}
		}
		for i := a; i < at; i++ {
			if units[i].c == ':' {
				colon = i
				break
			}
		}
		if at < 0 || colon < 0 || colon+1 == at {
			continue
		}
		out.WriteString(s[last:units[colon+1].start])
		out.WriteString("xxxxx")
		last = units[at].start
		k = at
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// logWriter records what a response said, for the log: its status and
// how many bytes of body went out.
type logWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (w *logWriter) WriteHeader(code int) {
	if !w.wroteHeader && code >= 200 {
		w.status, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.wroteHeader = true
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flush, write
// deadlines).
func (w *logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes a flush on, for handlers that test for http.Flusher.
func (w *logWriter) Flush() {
	http.NewResponseController(w.ResponseWriter).Flush()
}
