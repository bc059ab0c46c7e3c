package fetch

// Fault injection with wiretest's scripted servers: what real servers do
// not do on demand (a reset in the middle of the data, a stall, garbage,
// an endless line). Each must end in a typed error, in bounded time and
// memory.

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
	"github.com/urlkit/urlkit/scheme"
)

// endless is a step that sends n bytes of 'x' without a line end, in
// chunks, stopping quietly when the client hangs up.
func endless(n int) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for sent := 0; sent < n; sent += len(chunk) {
			if _, err := s.Conn.Write(chunk); err != nil {
				return nil
			}
		}
		return nil
	})
}

// httpRequest reads a request head (up to the empty line).
func httpRequest() wt.Step {
	return wt.Func(func(s *wt.Session) error {
		for {
			line, err := s.ReadLine()
			if err != nil {
				return err
			}
			if line == "" {
				return nil
			}
		}
	})
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// faultTimeout is the Fetcher's idle timeout for a fault of kind: short
// where the fault is a stall, so that the test ends soon; long enough
// elsewhere that a loaded machine (-race, parallel packages) does not
// turn a protocol fault into a timeout.
func faultTimeout(kind error) time.Duration {
	if kind == ErrTimeout {
		return 500 * time.Millisecond
	}
	return 5 * time.Second
}

// faultCase is one fault: the server's script, the error kind, and
// whether it strikes while the body is read (else in Fetch).
type faultCase struct {
	name   string
	script []wt.Step
	kind   error
	inBody bool
}

// runFault fetches url from a server playing the script and checks the
// error, the time taken and the memory used.
func runFault(t *testing.T, tc faultCase, url func(addr string) string) {
	runFaultWith(t, tc, url, nil)
}

// runFaultWith is runFault with a function to configure the Fetcher.
func runFaultWith(t *testing.T, tc faultCase, url func(addr string) string, config func(*Fetcher)) {
	t.Run(tc.name, func(t *testing.T) {
		srv := wt.Start(t, tc.script...)
		f := &Fetcher{Getenv: noEnv(), Timeout: faultTimeout(tc.kind)}
		if config != nil {
			config(f)
		}
		start := time.Now()
		var err error
		mem := allocated(func() {
			var resp *Response
			resp, err = f.Get(testCtx(t), url(srv.Addr()))
			if err != nil {
				return
			}
			if !tc.inBody {
				t.Errorf("Fetch succeeded (%s)", resp.Reply)
			}
			_, err = io.Copy(io.Discard, resp.Body)
			if cerr := resp.Body.Close(); err == nil {
				err = cerr
			}
		})
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, tc.kind) {
			t.Fatalf("err = %v, want an *Error of kind %v", err, tc.kind)
		}
		if tc.inBody && fe.Op != "read" && fe.Op != "close" {
			// A reset can overtake the data it follows (the kernel drops
			// unread data on RST) when the client is slow to read, as
			// under -race on a loaded machine: the same kind, earlier.
			t.Logf("the fault struck before the body (%q): %v", fe.Op, err)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Errorf("took %v", d)
		}
		if mem > 32<<20 {
			t.Errorf("allocated %d MiB", mem>>20)
		}
	})
}

func TestFaultHTTP(t *testing.T) {
	url := func(addr string) string { return "http://" + addr + "/f" }
	head := "HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n"
	for _, tc := range []faultCase{
		{name: "reset mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Pause(20 * time.Millisecond), wt.Reset()},
			kind: ErrShortTransfer, inBody: true},
		{name: "close mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Close()},
			kind: ErrShortTransfer, inBody: true},
		{name: "stall mid-body", script: []wt.Step{httpRequest(), wt.SendRaw(head + strings.Repeat("x", 1000)), wt.Stall()},
			kind: ErrTimeout, inBody: true},
		{name: "stall before the head", script: []wt.Step{httpRequest(), wt.Stall()}, kind: ErrTimeout},
		{name: "garbage status line", script: []wt.Step{httpRequest(), wt.SendRaw("220 ProFTPD ready\r\n\r\n"), wt.Close()}, kind: ErrProtocol},
		{name: "endless header line", script: []wt.Step{httpRequest(), wt.SendRaw("HTTP/1.1 200 OK\r\nX-Long: "), endless(100 << 20)}, kind: ErrProtocol},
	} {
		runFault(t, tc, url)
	}
}

// ftpScript is an anonymous login, TYPE I, SIZE and EPSV for f.bin, and
// RETR answered with the 150 reply; then the steps.
func ftpScript(data *wt.Data, steps ...wt.Step) []wt.Step {
	return append([]wt.Step{
		wt.Send("220 fake server"),
		wt.Expect("USER anonymous"), wt.Send("331 send your e-mail address"),
		wt.Expect("PASS fault@example.org"), wt.Send("230 logged in"),
		wt.Expect("TYPE I"), wt.Send("200 type set"),
		wt.Expect("SIZE f.bin"), wt.Send("213 65536"),
		wt.Expect("EPSV"), wt.EPSV(data),
		wt.Expect("RETR f.bin"), wt.Send("150 Opening BINARY mode data connection for f.bin (65536 bytes)"),
	}, steps...)
}

func TestFaultFTP(t *testing.T) {
	url := func(addr string) string { return "ftp://" + addr + "/f.bin" }
	var d1, d2, d3 wt.Data
	part := strings.Repeat("x", 1000)
	for _, tc := range []faultCase{
		{name: "reset mid-transfer", script: ftpScript(&d1,
			wt.OnData(&d1, wt.SendRaw(part), wt.Pause(20*time.Millisecond), wt.Reset()),
			wt.Send("426 Connection closed; transfer aborted"), wt.Expect("QUIT"), wt.Send("221 bye")),
			kind: ErrShortTransfer, inBody: true},
		{name: "data ends early, 226 anyway", script: ftpScript(&d2,
			wt.OnData(&d2, wt.SendRaw(part), wt.Close()),
			wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye")),
			kind: ErrShortTransfer, inBody: true},
		{name: "stall mid-transfer", script: ftpScript(&d3, wt.OnData(&d3, wt.SendRaw(part)), wt.Stall()),
			kind: ErrTimeout, inBody: true},
		{name: "stall before the greeting", script: []wt.Step{wt.Stall()}, kind: ErrTimeout},
		{name: "stall after USER", script: []wt.Step{wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Stall()}, kind: ErrTimeout},
		{name: "garbage greeting", script: []wt.Step{wt.Send("SSH-2.0-OpenSSH_9.2"), wt.Stall()}, kind: ErrProtocol},
		{name: "garbage reply", script: []wt.Step{wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("hello?"), wt.Stall()}, kind: ErrProtocol},
		{name: "endless reply line", script: []wt.Step{wt.SendRaw("220 "), endless(100 << 20)}, kind: ErrProtocol},
		{name: "login refused", script: []wt.Step{wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("331 pw"),
			wt.Expect("PASS fault@example.org"), wt.Send("530 no anonymous access"), wt.Expect("QUIT"), wt.Send("221 bye")},
			kind: ErrAccessDenied},
	} {
		runFaultWith(t, tc, url, func(f *Fetcher) { f.FTP.Email = "fault@example.org" })
	}
}

func TestFaultGopher(t *testing.T) {
	part := strings.Repeat("\x01", 1000)
	bin := func(addr string) string { return "gopher://" + addr + "/9/f.bin" }
	plus := func(addr string) string { return "gopher://" + addr + "/9/f.bin%09%09+" }
	for _, c := range []struct {
		tc  faultCase
		url func(string) string
	}{
		{faultCase{name: "reset mid-binary", script: []wt.Step{wt.Expect("/f.bin"), wt.SendRaw(part), wt.Pause(20 * time.Millisecond), wt.Reset()},
			kind: ErrShortTransfer, inBody: true}, bin},
		{faultCase{name: "Gopher+ length not reached", script: []wt.Step{wt.Expect("/f.bin\t+"), wt.SendRaw("+65536\r\n" + part), wt.Close()},
			kind: ErrShortTransfer, inBody: true}, plus},
		{faultCase{name: "stall mid-binary", script: []wt.Step{wt.Expect("/f.bin"), wt.SendRaw(part), wt.Stall()},
			kind: ErrTimeout, inBody: true}, bin},
		{faultCase{name: "stall before the Gopher+ header", script: []wt.Step{wt.Expect("/f.bin\t+"), wt.Stall()}, kind: ErrTimeout}, plus},
		{faultCase{name: "Gopher+ error", script: []wt.Step{wt.Expect("/f.bin\t+"), wt.SendRaw("--1\r\n2 admin <a@b>\r\nbusy, try later\r\n.\r\n"), wt.Close()}, kind: ErrStatus}, plus},
	} {
		runFault(t, c.tc, c.url)
	}
}

// Garbage and endless lines where a menu or attributes are parsed (get
// --render): a typed error in bounded memory.
func TestFaultGopherRender(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		script     []wt.Step
		kind       error
	}{
		{"menu line without a type", "/1/m", []wt.Step{wt.Expect("/m"), wt.SendRaw("0ok\t/ok\th\t70\r\n\tno type\th\t70\r\n"), wt.Close()}, ErrProtocol},
		{"endless menu line", "/1/m", []wt.Step{wt.Expect("/m"), wt.SendRaw("0"), endless(100 << 20), wt.Close()}, ErrProtocol},
		{"endless attribute line", "/0/x%09%09!", []wt.Step{wt.Expect("/x\t!"), wt.SendRaw("+-2\r\n+INFO: "), endless(100 << 20), wt.Close()}, ErrProtocol},
		{"garbage attributes", "/0/x%09%09!", []wt.Step{wt.Expect("/x\t!"), wt.SendRaw("+-2\r\nnot a block\r\n"), wt.Close()}, ErrProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wt.Start(t, tc.script...)
			f := &Fetcher{Getenv: noEnv(), Timeout: 2 * time.Second}
			var err error
			mem := allocated(func() {
				resp, ferr := f.Get(testCtx(t), "gopher://"+srv.Addr()+tc.path)
				if ferr != nil {
					err = ferr
					return
				}
				err = Render(io.Discard, resp)
				resp.Body.Close()
			})
			if !errors.Is(classifyRender(err), tc.kind) {
				t.Errorf("err = %v, want %v", err, tc.kind)
			}
			if mem > 32<<20 {
				t.Errorf("allocated %d MiB", mem>>20)
			}
		})
	}
}

// classifyRender gives a Render error its kind, as the CLI sees it.
func classifyRender(err error) error {
	var fe *Error
	if err == nil || errors.As(err, &fe) {
		return err
	}
	return &Error{Kind: classify(context.Background(), err, true, classifiers{&FTPOpener{}, &GopherOpener{}}), Err: err}
}

// classifiers tries each classifier in turn.
type classifiers []classifier

func (cs classifiers) classify(err error) error {
	for _, c := range cs {
		if k := c.classify(err); k != nil {
			return k
		}
	}
	return nil
}

// TestClassifyTLS: a TLS error before any answer is the handshake's
// (curl's 35 and 60); once the body flows, it breaks the transfer off: a
// short transfer, which --retry tries again.
func TestClassifyTLS(t *testing.T) {
	garbled := &net.OpError{Op: "read", Err: tls.RecordHeaderError{Msg: "tls: first record does not look like a TLS handshake"}}
	for _, tc := range []struct {
		err  error
		body bool
		want error
	}{
		{garbled, false, ErrTLS},
		{garbled, true, ErrShortTransfer},
		{&tls.CertificateVerificationError{Err: errors.New("x509: unknown authority")}, false, ErrCertificate},
	} {
		if got := classify(context.Background(), tc.err, tc.body, nil); got != tc.want {
			t.Errorf("%v (body %v): %v, want %v", tc.err, tc.body, got, tc.want)
		}
	}
}

// Cond.Number compares a reply's number: SIZE against the copy held.
func TestCondNumber(t *testing.T) {
	for _, tc := range []struct {
		cmp, text string
		want      bool
	}{
		{"=19660", "19660", true}, {"=19660", " 19660", true}, {"=19660", "196600", false},
		{"<19660", "100", true}, {"<19660", "19660", false}, {">5", "6", true}, {">5", "5", false},
		{"=1", "one", false}, {"=x", "1", false}, {"~1", "1", false}, {"", "1", false},
	} {
		if got := compares(tc.cmp, tc.text); got != tc.want {
			t.Errorf("compares(%q, %q) = %v", tc.cmp, tc.text, got)
		}
	}
}

// The MODE READER condition as data (Cond.Lists with "!", Cond.Or) and
// the CAPABILITIES after it (Cond.And), evaluated on the outcomes of
// the first CAPABILITIES and MODE, as RFC 3977 5.3 says a reader
// decides.
func TestCondModeReader(t *testing.T) {
	u := mustParse(t, "nntp://h/g")
	p, err := scheme.PlanURL(u, scheme.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	caps, mode, again := -1, -1, -1
	for i, st := range p.Steps {
		switch {
		case st.Op == "CAPABILITIES" && caps < 0:
			caps = i
		case st.Op == "MODE":
			mode = i
		case st.Op == "CAPABILITIES" && mode >= 0 && again < 0:
			again = i
		}
	}
	for _, tc := range []struct {
		code       int
		labels     string
		modeReply  int
		mode, caps bool
	}{
		{101, "VERSION\nMODE-READER", 200, true, true},
		{101, "VERSION\nREADER", 0, false, false},
		{101, "VERSION\nREADER\nMODE-READER", 0, false, false},
		{101, "VERSION", 0, false, false},
		{500, "", 200, true, false}, // an RFC 977 server: no CAPABILITIES to ask again
		{480, "", 201, true, false},
		{101, "MODE-READER", 502, true, false},
	} {
		out := newOutcomes(p.Steps)
		out.set(caps, tc.code, tc.labels)
		if got := out.holds(mode); got != tc.mode {
			t.Errorf("%d %q: MODE READER %v, want %v", tc.code, tc.labels, got, tc.mode)
		}
		if tc.mode {
			out.set(mode, tc.modeReply, "")
		}
		if got := out.holds(again); got != tc.caps {
			t.Errorf("%d %q, MODE %d: CAPABILITIES again %v, want %v", tc.code, tc.labels, tc.modeReply, got, tc.caps)
		}
	}
}
