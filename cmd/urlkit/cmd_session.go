package main

// get of a telnet, rlogin or tn3270 URL: a session (fetch.Session), on
// the user's terminal in raw mode or over pipes.

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/client/tn3270"
	"github.com/urlkit/urlkit/fetch"
)

// isSession reports whether u designates an interactive session.
func isSession(u *urlkit.URL) bool {
	switch u.SchemeName() {
	case "telnet", "rlogin", "tn3270":
		return true
	}
	return false
}

// session runs the session u designates and returns the exit status.
func (o *getOptions) session(ctx context.Context, st *Streams, f *fetch.Fetcher, u *urlkit.URL) int {
	if !o.urlsFromArgs {
		fmt.Fprintf(st.Err, "urlkit get: %s URLs are sessions: give the URL as an argument (standard input is the session's input)\n", u.SchemeName())
		return exitUsage
	}
	if o.keys != "" {
		if u.SchemeName() != "tn3270" {
			fmt.Fprintln(st.Err, "urlkit get: --keys is for tn3270 URLs")
			return exitUsage
		}
		if _, err := tn3270.ParseKeys(o.keys); err != nil {
			fmt.Fprintf(st.Err, "urlkit get: --keys: %v\n", err)
			return exitUsage
		}
	}
	t := &fetch.Terminal{In: st.In, Out: st.Out, Notes: st.Err, Raw: o.raw, Login: o.login, Keys: o.keys, LocalUser: localUser()}
	in, inOK := st.In.(*os.File)
	out, outOK := st.Out.(*os.File)
	interactive := inOK && outOK && term.IsTerminal(int(in.Fd())) && term.IsTerminal(int(out.Fd()))
	if !interactive {
		return sessionEnd(st, f.Session(ctx, u, t))
	}
	if u.SchemeName() == "tn3270" && o.keys == "" {
		if path, err := exec.LookPath("c3270"); err == nil {
			return runC3270(ctx, st, f, u, path)
		}
	}
	t.Interactive = true
	t.Term = os.Getenv("TERM")
	if u.SchemeName() == "telnet" {
		t.Term = strings.ToUpper(t.Term) // as BSD telnet sends it
	}
	t.Width, t.Height, _ = term.GetSize(int(out.Fd()))
	if _, err := rawMode(int(in.Fd())); err != nil {
		fmt.Fprintf(st.Err, "urlkit: the terminal: %v\n", err)
		return exitFail
	}
	// Restored on every way out: here, and by runUntilSignal after a
	// signal (the escape prompt re-enters raw mode, hence the registry).
	defer restorePendingTerminals()
	t.Notes = crlfWriter{st.Err}
	resize := make(chan [2]int, 1)
	winch := make(chan os.Signal, 1)
	if resizeSignal != nil { // Notify with no signal would relay them all
		signal.Notify(winch, resizeSignal)
		defer signal.Stop(winch)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-winch:
				if w, h, err := term.GetSize(int(out.Fd())); err == nil {
					select {
					case resize <- [2]int{w, h}:
					default:
					}
				}
			}
		}
	}()
	t.Resize = resize
	if u.SchemeName() != "tn3270" {
		t.Escape = telnet.DefaultEscape
		t.Prompt = escapePrompt(st, in, u.SchemeName())
		fmt.Fprintf(st.Err, "Escape character is '^]'.\r\n")
	}
	return sessionEnd(st, f.Session(ctx, u, t))
}

func sessionEnd(st *Streams, err error) int {
	if err != nil {
		fmt.Fprintln(st.Err, describe(err))
		return exitOf(err) // get's exit codes (a refused login, a timeout...)
	}
	return exitOK
}

// localUser is rlogin's local user name: the account running urlkit.
func localUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if s := os.Getenv("USER"); s != "" {
		return s
	}
	return "user"
}

// pendingRestore holds the restore of a terminal in raw mode, for
// runUntilSignal to call when a signal ends urlkit before the session
// returns.
var pendingRestore sync.Map // *func() -> struct{}

// rawMode puts the terminal fd in raw mode and returns the function that
// restores it, once, on whatever path the session ends: return, or a
// signal (restorePendingTerminals).
func rawMode(fd int) (func(), error) {
	state, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	restore := func() { once.Do(func() { term.Restore(fd, state) }) }
	key := &restore
	pendingRestore.Store(key, struct{}{})
	return func() { restore(); pendingRestore.Delete(key) }, nil
}

// restorePendingTerminals restores every terminal still in raw mode.
func restorePendingTerminals() {
	pendingRestore.Range(func(k, _ any) bool {
		(*k.(*func()))()
		pendingRestore.Delete(k)
		return true
	})
}

// escapePrompt returns the local prompt of the escape character, as BSD
// telnet's: the terminal back in its normal mode, "telnet> ", one line
// (quit, send brk, ...), then raw mode again.
func escapePrompt(st *Streams, in *os.File, scheme string) func() (telnet.Command, error) {
	fd := int(in.Fd())
	return func() (telnet.Command, error) {
		for {
			// The line is read in the terminal's own mode (echo, line
			// editing), then raw mode again.
			restorePendingTerminals()
			fmt.Fprintf(st.Err, "\n%s> ", scheme)
			line, rerr := readPromptLine(in)
			if _, err := rawMode(fd); err != nil {
				return telnet.CmdQuit, err
			}
			if rerr != nil {
				return telnet.CmdQuit, nil
			}
			cmd, perr := telnet.ParseCommand(line)
			if perr != nil || strings.TrimSpace(line) == "?" {
				fmt.Fprintf(st.Err, "%s\r\n", strings.ReplaceAll(telnet.PromptHelp, "\n", "\r\n"))
				continue
			}
			if scheme == "rlogin" && cmd != telnet.CmdQuit && cmd != telnet.CmdContinue && cmd != telnet.CmdSendEscape {
				fmt.Fprintf(st.Err, "rlogin has no telnet commands (send brk, ip, ao, ayt)\r\n")
				continue
			}
			if cmd == telnet.CmdQuit {
				fmt.Fprintf(st.Err, "Connection closed.\r\n")
			}
			return cmd, nil
		}
	}
}

// readPromptLine reads one line from f byte by byte (nothing read past it).
func readPromptLine(f *os.File) (string, error) {
	var b []byte
	var one [1]byte
	for len(b) < 1024 {
		n, err := f.Read(one[:])
		if n == 1 {
			if one[0] == '\n' || one[0] == '\r' {
				return string(b), nil
			}
			b = append(b, one[0])
		}
		if err != nil {
			return string(b), err
		}
	}
	return string(b), nil
}

// crlfWriter writes LF as CR LF, for notes on a terminal in raw mode.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	_, err := io.WriteString(c.w, strings.ReplaceAll(string(p), "\n", "\r\n"))
	return len(p), err
}

// runC3270 hands a tn3270 session on a terminal to c3270, the 3270
// emulator, with the URL's host and port; the URL is checked first, as
// for any session.
func runC3270(ctx context.Context, st *Streams, f *fetch.Fetcher, u *urlkit.URL, path string) int {
	if err := fetch.CheckURL(u, f.AllowPorts); err != nil {
		fmt.Fprintln(st.Err, describe(err))
		return exitFail
	}
	port := u.Port
	if port == "" {
		port = "23"
	}
	host := u.Hostname()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	target := host + ":" + port
	if _, err := net.LookupPort("tcp", port); err != nil {
		fmt.Fprintf(st.Err, "urlkit: bad port %q\n", port)
		return exitFail
	}
	cmd := exec.CommandContext(ctx, path, target)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(st.Err, "urlkit: c3270: %v\n", err)
		return exitFail
	}
	return exitOK
}
