package main

// The fault-injection matrix: for each protocol, what a hostile or broken
// server (a wiretest script on loopback) or a real server does, and what
// urlkit must make of it: a typed fetch error, one clear line on stderr,
// a failing exit status and no file at the -o target (not even a hidden
// temporary one) — or, for the rows that must succeed, the file and the
// warning. Each row runs twice: through package fetch (the kind of the
// *fetch.Error) and through "urlkit get -o" (exit status, stderr, files).
//
// Rows are data: add a row (or a rows function) to faultMatrix. A row whose
// fault is on the local side (a FIFO, a device or a symlink as the target,
// a full file system) sets target and check instead of serving a fault.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/fetch"
	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// faultRow is one row of the matrix.
type faultRow struct {
	proto string // "ftp", "gopher", "http", "file"
	fault string // "garbage reply", "reset mid-data", ...
	// serve starts the server side of the fault and returns the URL to
	// get; it is called once per run. A real-server row skips (or fails
	// with URLKIT_REQUIRE_SERVERS=1) when its server is not running.
	serve func(t *testing.T) string
	// flags are extra "urlkit get" flags (--allow-port, --render, ...).
	flags []string
	// kind is the fetch error kind; nil for a row that must succeed.
	kind error
	// exit is get's exit status for a failure row (see exit.go).
	exit int
	// stderr must appear in the CLI's standard error (and in the fetch
	// error's message); for a success row, in its warning.
	stderr string
	// target, if set, prepares the -o target in dir and returns its
	// path; the default is dir/out, absent.
	target func(t *testing.T, dir string) string
	// check, if set, replaces the default check of dir after the run
	// (no file at all after a failure, only the target after success).
	check func(t *testing.T, dir, target string, exit int)
	// noFetch skips the package fetch run (rows about the CLI's output
	// file only).
	noFetch bool
}

func (r faultRow) name() string { return r.proto + "/" + r.fault }

// faultMatrix returns every row.
func faultMatrix() []faultRow {
	var rows []faultRow
	for _, f := range []func() []faultRow{ftpFaults, gopherFaults, httpFaults, realServerRows, waisProsperoFaults} {
		rows = append(rows, f()...)
	}
	return rows
}

func TestFaultMatrix(t *testing.T) {
	for _, row := range faultMatrix() {
		t.Run(row.name(), func(t *testing.T) {
			if !row.noFetch {
				t.Run("fetch", func(t *testing.T) { runFetchRow(t, row) })
			}
			t.Run("get", func(t *testing.T) { runGetRow(t, row) })
		})
	}
}

const faultEmail = "fault@example.org"

// runFetchRow fetches the row's URL with package fetch and checks the
// kind of the error.
func runFetchRow(t *testing.T, row faultRow) {
	url := row.serve(t)
	f := &fetch.Fetcher{Timeout: 2 * time.Second, IgnoreEnvironment: true, Getenv: func(string) string { return "" }}
	f.FTP.Email = faultEmail
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	resp, err := f.Get(ctx, url)
	render := false
	for _, fl := range row.flags {
		render = render || fl == "--render"
	}
	if err == nil && render {
		err = fetch.Render(io.Discard, resp)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
	} else if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
	}
	if row.kind == nil {
		if err != nil {
			t.Fatalf("err = %v, want success", err)
		}
		if w := strings.Join(resp.Warnings, "\n"); !strings.Contains(w, row.stderr) {
			t.Errorf("warnings %q, want %q", w, row.stderr)
		}
		return
	}
	var fe *fetch.Error
	if !errors.As(err, &fe) || !errors.Is(err, row.kind) {
		t.Fatalf("err = %v, want a *fetch.Error of kind %v", err, row.kind)
	}
	if !strings.Contains(err.Error(), row.stderr) {
		t.Errorf("err = %v, want it to say %q", err, row.stderr)
	}
}

// runGetRow runs "urlkit get -o TARGET URL" and checks the exit status,
// stderr and what is left in the target's directory.
func runGetRow(t *testing.T, row faultRow) {
	url := row.serve(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "out")
	if row.target != nil {
		target = row.target(t, dir)
	}
	args := append([]string{"get", "-q", "--timeout", "2s", "--email", faultEmail, "-o", target}, row.flags...)
	args = append(args, url)
	st, _, errOut := TestStreams("")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	start := time.Now()
	code := run(ctx, args, st)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	stderr := errOut.String()
	t.Logf("exit %d, stderr: %s", code, stderr)
	if !strings.Contains(stderr, row.stderr) {
		t.Errorf("stderr %q, want %q", stderr, row.stderr)
	}
	if row.kind != nil {
		if code != row.exit {
			t.Errorf("exit %d, want %d", code, row.exit)
		}
		if !strings.Contains(stderr, row.kind.Error()) {
			t.Errorf("stderr %q does not name the kind %q", stderr, row.kind)
		}
		if n := strings.Count(stderr, "\n"); n != 1 || !strings.HasPrefix(stderr, "urlkit: ") {
			t.Errorf("stderr has %d lines, want one \"urlkit: \" line: %q", n, stderr)
		}
	} else if code != exitOK {
		t.Errorf("exit %d, want %d (stderr %q)", code, exitOK, stderr)
	}
	if row.check != nil {
		row.check(t, dir, target, code)
		return
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{}
	if row.kind == nil {
		want = []string{filepath.Base(target)}
	}
	if fmt.Sprint(names) != fmt.Sprint(want) && !(len(names) == 0 && len(want) == 0) {
		t.Errorf("files left in the target's directory: %q, want %q", names, want)
	}
}

// fake returns a serve function that starts a wiretest server playing the
// script returned by steps (a new script for each run) and returns
// prefix + address + path.
func fake(prefix, path string, steps func() []wt.Step) func(t *testing.T) string {
	return func(t *testing.T) string {
		srv := wt.Start(t, steps()...)
		return prefix + srv.Addr() + path
	}
}

// endlessBytes sends n bytes of 'x' without a line end, stopping quietly
// when the client hangs up.
func endlessBytes(n int) wt.Step {
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

// endlessLines sends line+CRLF over and over (up to n bytes), stopping
// quietly when the client hangs up.
func endlessLines(line string, n int) wt.Step {
	return wt.Func(func(s *wt.Session) error {
		chunk := []byte(strings.Repeat(line+"\r\n", (64<<10)/(len(line)+2)+1))
		for sent := 0; sent < n; sent += len(chunk) {
			if _, err := s.Conn.Write(chunk); err != nil {
				return nil
			}
		}
		return nil
	})
}

// ftpRetr is an anonymous login and the setup of a RETR of name in the
// given TYPE (no SIZE in TYPE A), answered with the 150 reply; then more.
func ftpRetr(data *wt.Data, typ, name, reply150 string, more ...wt.Step) []wt.Step {
	s := []wt.Step{
		wt.Send("220 fake server"),
		wt.Expect("USER anonymous"), wt.Send("331 send your e-mail address"),
		wt.Expect("PASS " + faultEmail), wt.Send("230 logged in"),
		wt.Expect("TYPE " + typ), wt.Send("200 type set"),
	}
	if typ == "I" {
		s = append(s, wt.Expect("SIZE "+name), wt.Send("213 65536"))
	}
	s = append(s, wt.Expect("EPSV"), wt.EPSV(data), wt.Expect("RETR "+name), wt.Send(reply150))
	return append(s, more...)
}

func ftpFaults() []faultRow {
	url := func(path string, steps func() []wt.Step) func(t *testing.T) string {
		return fake("ftp://", path, steps)
	}
	part := strings.Repeat("x", 1000)
	login := []wt.Step{wt.Send("220 fake server"), wt.Expect("USER anonymous"), wt.Send("331 pw"), wt.Expect("PASS " + faultEmail), wt.Send("230 ok")}
	binary150 := "150 Opening BINARY mode data connection for f.bin (65536 bytes)"
	return []faultRow{
		{proto: "ftp", fault: "garbage reply", kind: fetch.ErrProtocol, exit: exitFail, stderr: "malformed reply",
			serve: url("/f.bin", func() []wt.Step {
				return []wt.Step{wt.Send("220 fake"), wt.Expect("USER anonymous"), wt.Send("hello?"), wt.Stall()}
			})},
		{proto: "ftp", fault: "reset mid-reply", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url("/f.bin", func() []wt.Step {
				return []wt.Step{wt.SendRaw("220-welcome\r\n220-more of it"), wt.Pause(20 * time.Millisecond), wt.Reset()}
			})},
		{proto: "ftp", fault: "reset mid-data", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url("/f.bin", func() []wt.Step {
				var d wt.Data
				return ftpRetr(&d, "I", "f.bin", binary150,
					wt.OnData(&d, wt.SendRaw(part), wt.Pause(20*time.Millisecond), wt.Reset()),
					wt.Send("426 Connection closed; transfer aborted"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		{proto: "ftp", fault: "oversized line", kind: fetch.ErrProtocol, exit: exitFail, stderr: "line too long",
			serve: url("/f.bin", func() []wt.Step { return []wt.Step{wt.SendRaw("220 "), endlessBytes(100 << 20)} })},
		{proto: "ftp", fault: "endless multi-line reply", kind: fetch.ErrProtocol, exit: exitFail, stderr: "too many reply lines",
			serve: url("/f.bin", func() []wt.Step {
				return []wt.Step{wt.Send("220-welcome"), endlessLines("220-and more", 100<<20)}
			})},
		{proto: "ftp", fault: "short transfer (TYPE I, 226 anyway)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "1000 of 65536 bytes",
			serve: url("/f.bin", func() []wt.Step {
				var d wt.Data
				return ftpRetr(&d, "I", "f.bin", binary150,
					wt.OnData(&d, wt.SendRaw(part), wt.Close()),
					wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		{proto: "ftp", fault: "short transfer (TYPE A, 150 announced 1048576, 226 anyway)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "262144 of 1048576 bytes",
			serve: url("/f.txt", func() []wt.Step {
				var d wt.Data
				line := strings.Repeat("y", 62) + "\r\n"
				return ftpRetr(&d, "A", "f.txt", "150 Opening ASCII mode data connection for f.txt (1048576 bytes)",
					wt.OnData(&d, wt.SendRaw(strings.Repeat(line, 262144/len(line))), wt.Close()),
					wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		{proto: "ftp", fault: "lying size (SIZE 65536, 150 without one)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "1000 of 65536 bytes (SIZE)",
			serve: url("/f.bin", func() []wt.Step {
				var d wt.Data
				return ftpRetr(&d, "I", "f.bin", "150 Opening BINARY mode data connection",
					wt.OnData(&d, wt.SendRaw(part), wt.Close()),
					wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		// More than SIZE is not "short", and not the file either.
		{proto: "ftp", fault: "more than SIZE (65536, then 66536 bytes)", kind: fetch.ErrLongTransfer, exit: exitFail, stderr: "the data went on past the 65536 bytes that SIZE announced",
			serve: url("/f.bin", func() []wt.Step {
				var d wt.Data
				return ftpRetr(&d, "I", "f.bin", "150 Opening BINARY mode data connection",
					wt.OnData(&d, wt.SendRaw(strings.Repeat("x", 66536)), wt.Close()),
					wt.Send("226 Transfer complete"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		{proto: "ftp", fault: "no completion reply", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "control connection closed by server",
			serve: url("/f.txt", func() []wt.Step {
				var d wt.Data
				return ftpRetr(&d, "A", "f.txt", "150 Opening ASCII mode data connection for f.txt (1000 bytes)",
					wt.OnData(&d, wt.SendRaw(part), wt.Close()), wt.Close())
			})},
		{proto: "ftp", fault: "EPSV names port 25", kind: fetch.ErrBlockedPort, exit: exitURLRefused, stderr: "--allow-port 25",
			serve: url("/f.bin", func() []wt.Step {
				return append(login, wt.Expect("TYPE I"), wt.Send("200 ok"), wt.Expect("SIZE f.bin"), wt.Send("213 2"),
					wt.Expect("EPSV"), wt.Send("229 Entering Extended Passive Mode (|||25|)"), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
		{proto: "ftp", fault: "PASV names port 6000", kind: fetch.ErrBlockedPort, exit: exitURLRefused, stderr: "--allow-port 6000",
			serve: url("/f.bin", func() []wt.Step {
				return append(login, wt.Expect("TYPE I"), wt.Send("200 ok"), wt.Expect("SIZE f.bin"), wt.Send("213 2"),
					wt.Expect("EPSV"), wt.Send("502 no EPSV"),
					wt.Expect("PASV"), wt.Send("227 Entering Passive Mode (127,0,0,1,23,112)."), wt.Expect("QUIT"), wt.Send("221 bye"))
			})},
	}
}

func gopherFaults() []faultRow {
	url := func(path string, steps func() []wt.Step) func(t *testing.T) string {
		return fake("gopher://", path, steps)
	}
	part := strings.Repeat("\x01", 1000)
	return []faultRow{
		{proto: "gopher", fault: "garbage reply (menu line without a type)", flags: []string{"--render"}, kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url("/1/m", func() []wt.Step {
				return []wt.Step{wt.Expect("/m"), wt.SendRaw("0ok\t/ok\th\t70\r\n\tno type\th\t70\r\n"), wt.Close()}
			})},
		{proto: "gopher", fault: "reset mid-reply (Gopher+ header)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url("/0/t%09%09+", func() []wt.Step {
				return []wt.Step{wt.Expect("/t\t+"), wt.SendRaw("+40"), wt.Pause(20 * time.Millisecond), wt.Reset()}
			})},
		{proto: "gopher", fault: "reset mid-data", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url("/9/f.bin", func() []wt.Step {
				return []wt.Step{wt.Expect("/f.bin"), wt.SendRaw(part), wt.Pause(20 * time.Millisecond), wt.Reset()}
			})},
		{proto: "gopher", fault: "oversized line", flags: []string{"--render"}, kind: fetch.ErrProtocol, exit: exitFail, stderr: "line too long",
			serve: url("/1/m", func() []wt.Step {
				return []wt.Step{wt.Expect("/m"), wt.SendRaw("0"), endlessBytes(100 << 20), wt.Close()}
			})},
		{proto: "gopher", fault: "endless multi-line reply (attribute block)", flags: []string{"--render"}, kind: fetch.ErrProtocol, exit: exitFail, stderr: "more than",
			serve: url("/0/x%09%09!", func() []wt.Step {
				return []wt.Step{wt.Expect("/x\t!"), wt.SendRaw("+-2\r\n+INFO: 0x\t/x\th\t70\r\n"), endlessLines(" and more", 100<<20), wt.Close()}
			})},
		{proto: "gopher", fault: "short transfer (+-1 closed before the dot)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: `before the "." line`,
			serve: url("/0/t%09%09+", func() []wt.Step {
				return []wt.Step{wt.Expect("/t\t+"), wt.SendRaw("+-1\r\nline one\r\nline two\r\n"), wt.Close()}
			})},
		{proto: "gopher", fault: "lying size (+65536, 1000 bytes)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "1000 of 65536 bytes",
			serve: url("/9/f.bin%09%09+", func() []wt.Step {
				return []wt.Step{wt.Expect("/f.bin\t+"), wt.SendRaw("+65536\r\n" + part), wt.Close()}
			})},
		{proto: "gopher", fault: "lying size in a text (+4096, one line)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "6 of 4096 bytes",
			serve: url("/0/t%09%09+", func() []wt.Step {
				return []wt.Step{wt.Expect("/t\t+"), wt.SendRaw("+4096\r\nline\r\n"), wt.Close()}
			})},
		{proto: "gopher", fault: "plain menu without the dot (kept, warned)", stderr: `after 12 bytes without the "." line that ends a Gopher menu`,
			serve: url("/1/m", func() []wt.Step {
				return []wt.Step{wt.Expect("/m"), wt.SendRaw("0a\t/a\th\t70\r\n"), wt.Close()}
			})},
	}
}

// httpHead reads a request head (up to the empty line).
func httpHead() wt.Step {
	return wt.Func(func(s *wt.Session) error {
		for {
			line, err := s.ReadLine()
			if err != nil || line == "" {
				return err
			}
		}
	})
}

func httpFaults() []faultRow {
	url := func(steps ...wt.Step) func(t *testing.T) string {
		return fake("http://", "/f", func() []wt.Step { return append([]wt.Step{httpHead()}, steps...) })
	}
	head := "HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n"
	part := strings.Repeat("x", 1000)
	return []faultRow{
		{proto: "http", fault: "garbage reply", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("220 ProFTPD ready\r\n\r\n"), wt.Close())},
		{proto: "http", fault: "reset mid-reply (head)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n"), wt.Pause(20*time.Millisecond), wt.Reset())},
		{proto: "http", fault: "reset mid-data", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "short transfer",
			serve: url(wt.SendRaw(head+part), wt.Pause(20*time.Millisecond), wt.Reset())},
		{proto: "http", fault: "oversized line", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nX-Long: "), endlessBytes(100<<20))},
		{proto: "http", fault: "endless multi-line reply (header lines)", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\n"), endlessLines("X-More: and more", 100<<20))},
		{proto: "http", fault: "short transfer (chunked, no last chunk)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "ended after 1000 bytes, without its last chunk",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3e8\r\n"+part+"\r\n"), wt.Close())},
		{proto: "http", fault: "lying size (Content-Length 65536, 1000 bytes)", kind: fetch.ErrShortTransfer, exit: exitShort, stderr: "1000 of the 65536 bytes of its Content-Length",
			serve: url(wt.SendRaw(head+part), wt.Close())},
		// A part is not the whole: saved, it would look complete.
		{proto: "http", fault: "206 to a request without Range", kind: fetch.ErrProtocol, exit: exitFail, stderr: `a part (HTTP 206, Content-Range "bytes 5-9/999") to a request for the whole resource`,
			serve: url(wt.SendRaw("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-9/999\r\nContent-Length: 5\r\n\r\nworld"), wt.Close())},
		// The framing of the body is broken: a protocol error, not an
		// HTTP status (exit 22 says the server answered 4xx or 5xx).
		{proto: "http", fault: "two Content-Lengths", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\nhello"), wt.Close())},
		{proto: "http", fault: "Content-Length not a number", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nhello"), wt.Close())},
		{proto: "http", fault: "unknown Transfer-Encoding", kind: fetch.ErrProtocol, exit: exitFail, stderr: "protocol error",
			serve: url(wt.SendRaw("HTTP/1.1 200 OK\r\nTransfer-Encoding: bogus\r\n\r\nhello"), wt.Close())},
	}
}

// realServerRows are the data-end decisions seen on the real servers: a
// plain gopher menu from pygopherd and a text from Gophernicus end
// without the "." line (kept, with a warning), and missing files.
func realServerRows() []faultRow {
	env := func(t *testing.T, key string) string { return wt.ServerEnv(t, key)[key] }
	return []faultRow{
		{proto: "gopher", fault: "pygopherd menu without the dot (real server)", stderr: `without the "." line that ends a Gopher menu`,
			serve: func(t *testing.T) string { return "gopher://127.0.0.1:" + env(t, "GOPHER_PORT") + "/1/" }},
		{proto: "gopher", fault: "Gophernicus text without the dot (real server)", stderr: `without the "." line that ends a Gopher text`,
			serve: func(t *testing.T) string { return "gopher://127.0.0.1:" + env(t, "GOPHERNICUS_PORT") + "/0/hello.txt" }},
		{proto: "ftp", fault: "missing file (real ProFTPD)", kind: fetch.ErrNotFound, exit: exitRemoteNoent, stderr: "550",
			serve: func(t *testing.T) string { return "ftp://127.0.0.1:" + env(t, "FTP_PORT") + "/pub/no-such-file.bin" }},
		{proto: "http", fault: "missing file (real nginx)", kind: fetch.ErrNotFound, exit: exitHTTPStatus, stderr: "404",
			serve: func(t *testing.T) string { return "http://127.0.0.1:" + env(t, "HTTP_PORT") + "/no-such-file" }},
	}
}
