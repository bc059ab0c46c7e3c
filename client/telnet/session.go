package telnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// DefaultEscape is BSD telnet's escape character, ^] (GS, 0x1d).
const DefaultEscape byte = 0x1d

// Command is what the local prompt tells a Session to do after the
// escape character.
type Command int

// Commands of the local prompt, named after BSD telnet's.
const (
	CmdContinue    Command = iota // back to the session
	CmdQuit                       // close the connection, end the session
	CmdBreak                      // send IAC BRK
	CmdInterrupt                  // send IAC IP
	CmdAbortOutput                // send IAC AO
	CmdAreYouThere                // send IAC AYT
	CmdSendEscape                 // send the escape character itself as data
)

// PromptHelp lists the commands ParseCommand understands, for a prompt's
// "?" answer.
const PromptHelp = `close, quit    close the connection
send brk       send a break (IAC BRK)
send ip        interrupt the remote process (IAC IP)
send ao        abort output (IAC AO)
send ayt       are you there? (IAC AYT)
send escape    send the escape character
(empty line)   back to the session`

// ParseCommand reads a line typed at the local prompt, in BSD telnet's
// words: "quit" or "close", "send brk" (or "break"), "send ip", "send
// ao", "send ayt", "send escape"; an empty line continues the session.
// Unique prefixes are accepted ("q", "send i").
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(strings.ToLower(line))
	pick := func(word string, names map[string]Command) (Command, bool) {
		var found []Command
		for n, c := range names {
			if n == word {
				return c, true
			}
			if strings.HasPrefix(n, word) {
				found = append(found, c)
			}
		}
		if len(found) == 1 {
			return found[0], true
		}
		return 0, false
	}
	switch {
	case len(f) == 0:
		return CmdContinue, nil
	case len(f) == 1:
		if c, ok := pick(f[0], map[string]Command{"quit": CmdQuit, "close": CmdQuit, "continue": CmdContinue}); ok {
			return c, nil
		}
	case len(f) == 2 && strings.HasPrefix("send", f[0]):
		if c, ok := pick(f[1], map[string]Command{"brk": CmdBreak, "break": CmdBreak, "ip": CmdInterrupt,
			"ao": CmdAbortOutput, "ayt": CmdAreYouThere, "escape": CmdSendEscape}); ok {
			return c, nil
		}
	}
	return 0, fmt.Errorf("telnet: unknown command %q (try: quit, send brk, send ip, send ao, send ayt, send escape)", line)
}

// Login answers the server's login prompts once, for a user who asked for
// it: the first "login:" prompt gets UserLine, the first "Password:"
// prompt gets PasswordLine. Telnet has no login protocol; this matches
// prompt text, so it is opt-in.
type Login struct {
	// UserLine and PasswordLine are the lines typed, exactly as an
	// access plan writes them (its LOGIN and PASSWORD steps): the text
	// and its line end, CR LF for a telnet Conn (whose SendLine applies
	// the NVT's rules), CR for rlogin's raw byte stream. An empty one is
	// not typed: that prompt is left to the user.
	UserLine, PasswordLine string
	// Password is the secret PasswordLine carries: the Remote's SendLine
	// masks it in the trace once sent.
	Password string
	// Wait bounds how long the user's input is held back while the
	// prompts are expected (default 10 s): input typed before the login
	// would otherwise be read as the user name.
	Wait time.Duration
}

// Remote is the connection a Session drives: a *Conn, or another remote
// login byte stream (an rlogin connection). The telnet commands of the
// prompt need a SendCommand(cmd byte) error method (Session.Supports);
// the lines of Login are sent with a SendLine(line, secret string) error
// method (a *Conn applies the NVT's rules and masks the secret in its
// trace); a Remote without it gets them written as they are.
type Remote interface {
	io.ReadWriteCloser
}

type commandSender interface{ SendCommand(cmd byte) error }

type lineSender interface {
	SendLine(line, secret string) error
}

// Check returns an error if a line of l does not end with one line end
// (CR LF, or CR alone) or holds another CR, LF or NUL (an *ArgError,
// errors.Is ErrUnsafeArg), which would type more than one line. Run
// checks before sending anything; a client calls it before dialling so
// that a bad value never opens a connection.
func (l *Login) Check() error {
	if err := checkTyped(l.UserLine); err != nil {
		return fmt.Errorf("telnet: login user: %w", err)
	}
	if err := checkTyped(l.PasswordLine); err != nil {
		return fmt.Errorf("telnet: login password: %w", err)
	}
	return nil
}

// checkTyped checks a line typed at a prompt ("" is none).
func checkTyped(line string) error {
	if line == "" {
		return nil
	}
	body, ok := strings.CutSuffix(line, "\r\n")
	if !ok {
		if body, ok = strings.CutSuffix(line, "\r"); !ok {
			return wire.ErrNoLineEnd
		}
	}
	return wire.CheckArg(body, false)
}

// Session pipes a Remote to the user's streams: In to the server, the
// server's data to Out. It ends when the server closes the connection,
// when In ends (after Linger), at the Quit command, or when ctx ends.
type Session struct {
	Conn Remote
	In   io.Reader
	Out  io.Writer
	// Escape, when not zero and Prompt is set, is the byte of In that
	// hands control to Prompt instead of being sent (DefaultEscape).
	Escape byte
	// Prompt runs the local prompt (the caller restores the terminal,
	// reads a line, typically with ParseCommand) and returns what to do.
	// Output from the server is held back while it runs.
	Prompt func() (Command, error)
	// Login, if set, answers the login prompts once.
	Login *Login
	// Linger is how long the server's output is still copied after In
	// ends, as long as more keeps coming: the session ends when Linger
	// passes without output (or the server closes). Zero ends the session
	// as soon as In ends.
	Linger time.Duration

	outMu sync.Mutex // held while the prompt runs: no output over it
}

// Run runs the session until it ends and returns nil for a normal end
// (the server closed, the input ended, or the Quit command). Run closes
// the Conn and writes nothing to Out after it returns. A blocked read of
// In is not interrupted; its goroutine ends at its next read.
func (s *Session) Run(ctx context.Context) error {
	defer s.Conn.Close()
	if s.Login != nil {
		if err := s.Login.Check(); err != nil {
			return err
		}
		if s.Login.UserLine == "" && s.Login.PasswordLine == "" {
			s.Login = nil // nothing to type: no prompt to wait for
		}
	}
	release := wire.Bind(ctx, s.Conn)
	defer release()

	loginDone := make(chan struct{})
	if s.Login == nil {
		close(loginDone)
	}
	var lastOutput atomic.Int64
	lastOutput.Store(time.Now().UnixNano())
	outDone := make(chan error, 1)
	inDone := make(chan error, 1)
	go func() { outDone <- s.copyOut(loginDone, &lastOutput) }()
	go func() { inDone <- s.copyIn(ctx, loginDone) }()

	// Every end closes the connection and waits for the output copy, so
	// nothing is written to Out after Run returns (unless Out itself is
	// stuck in a write: then Run gives up waiting after outWait).
	outFinished := false
	finish := func(err error) error {
		s.Conn.Close()
		if !outFinished {
			select {
			case <-outDone:
			case <-time.After(outWait):
			}
		}
		return err
	}
	select {
	case err := <-outDone:
		outFinished = true
		return finish(s.ended(ctx, err))
	case err := <-inDone:
		if err != nil || s.Linger <= 0 {
			return finish(s.ended(ctx, err))
		}
	case <-ctx.Done():
		return finish(ctx.Err())
	}
	// Input ended: copy output while it keeps coming.
	t := time.NewTimer(s.Linger)
	defer t.Stop()
	for {
		select {
		case err := <-outDone:
			outFinished = true
			return finish(s.ended(ctx, err))
		case <-ctx.Done():
			return finish(ctx.Err())
		case <-t.C:
			idle := time.Since(time.Unix(0, lastOutput.Load()))
			if idle >= s.Linger {
				return finish(nil)
			}
			t.Reset(s.Linger - idle)
		}
	}
}

// outWait bounds how long Run waits for the output copy to stop.
const outWait = 2 * time.Second

// errQuit ends copyIn at the Quit command.
var errQuit = errors.New("quit")

func (s *Session) ended(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, errQuit) {
		return nil
	}
	return wire.ContextError(ctx, err)
}

func (s *Session) copyOut(loginDone chan struct{}, last *atomic.Int64) error {
	buf := make([]byte, 4096)
	var prompts *loginWatcher
	if s.Login != nil {
		prompts = &loginWatcher{login: s.Login, conn: s.Conn, done: loginDone}
		wait := s.Login.Wait
		if wait <= 0 {
			wait = 10 * time.Second
		}
		t := time.AfterFunc(wait, prompts.finish)
		defer t.Stop()
	}
	for {
		n, err := s.Conn.Read(buf)
		if n > 0 {
			last.Store(time.Now().UnixNano())
			s.outMu.Lock()
			_, werr := s.Out.Write(buf[:n])
			s.outMu.Unlock()
			if werr != nil {
				return werr
			}
			if prompts != nil {
				if err := prompts.see(buf[:n]); err != nil {
					return err
				}
			}
		}
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return io.EOF
			}
			return err
		}
	}
}

func (s *Session) copyIn(ctx context.Context, loginDone chan struct{}) error {
	select {
	case <-loginDone:
	case <-ctx.Done():
		return ctx.Err()
	}
	buf := make([]byte, 4096)
	for {
		n, err := s.In.Read(buf)
		if werr := s.send(buf[:n]); werr != nil {
			return werr
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// send writes user input, running the prompt at each escape byte.
func (s *Session) send(b []byte) error {
	for len(b) > 0 {
		i := -1
		if s.Escape != 0 && s.Prompt != nil {
			i = bytes.IndexByte(b, s.Escape)
		}
		if i < 0 {
			_, err := s.Conn.Write(b)
			return err
		}
		if i > 0 {
			if _, err := s.Conn.Write(b[:i]); err != nil {
				return err
			}
		}
		b = b[i+1:]
		s.outMu.Lock()
		cmd, err := s.Prompt()
		s.outMu.Unlock()
		if err != nil {
			return err
		}
		if err := s.do(cmd); err != nil {
			return err
		}
	}
	return nil
}

// Supports reports whether the session can carry out cmd: the commands
// that send telnet commands need a Remote that has SendCommand. A prompt
// should refuse the others; Run ignores them.
func (s *Session) Supports(cmd Command) bool {
	switch cmd {
	case CmdBreak, CmdInterrupt, CmdAbortOutput, CmdAreYouThere:
		_, ok := s.Conn.(commandSender)
		return ok
	}
	return true
}

func (s *Session) do(cmd Command) error {
	if !s.Supports(cmd) {
		return nil
	}
	cs, _ := s.Conn.(commandSender)
	switch cmd {
	case CmdQuit:
		s.Conn.Close()
		return errQuit
	case CmdBreak:
		return cs.SendCommand(BRK)
	case CmdInterrupt:
		return cs.SendCommand(IP)
	case CmdAbortOutput:
		return cs.SendCommand(AO)
	case CmdAreYouThere:
		return cs.SendCommand(AYT)
	case CmdSendEscape:
		_, err := s.Conn.Write([]byte{s.Escape})
		return err
	}
	return nil
}

// loginWatcher looks for the login prompts in the server's output.
type loginWatcher struct {
	login    *Login
	conn     Remote
	done     chan struct{}
	once     sync.Once
	tail     []byte // the end of the output so far, lower-cased
	userSent bool
	passSent bool
}

func (w *loginWatcher) finish() { w.once.Do(func() { close(w.done) }) }

// see is given each piece of output; a prompt is recognised when the
// output so far ends with it (trailing blanks ignored).
func (w *loginWatcher) see(b []byte) error {
	if w.passSent {
		return nil
	}
	w.tail = append(w.tail, bytes.ToLower(b)...)
	if len(w.tail) > 256 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-256:]...)
	}
	end := bytes.TrimRight(w.tail, " \t")
	switch {
	case !w.userSent && w.login.UserLine != "" && bytes.HasSuffix(end, []byte("login:")):
		w.userSent = true
		w.tail = w.tail[:0]
		err := w.send(w.login.UserLine, "")
		if w.login.PasswordLine == "" {
			w.passSent = true // no password to type: the user's input goes now
			w.finish()
		}
		return err
	case w.login.PasswordLine != "" && bytes.HasSuffix(end, []byte("password:")):
		w.passSent = true
		w.tail = nil
		err := w.send(w.login.PasswordLine, w.login.Password)
		w.finish()
		return err
	}
	return nil
}

// send types a line of the Login with the Remote's line writer.
func (w *loginWatcher) send(line, secret string) error {
	if ls, ok := w.conn.(lineSender); ok {
		return ls.SendLine(line, secret)
	}
	_, err := w.conn.Write([]byte(line))
	return err
}
