package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
)

// terminalPrompter returns the function fetch uses to ask the user (an
// FTP password, a Gopher+ form), or nil when standard input is not a
// terminal: in a pipe nobody can answer, and fetch then fails with a
// clear error instead of waiting.
func terminalPrompter(st *Streams) func(context.Context, fetch.Prompt) (string, error) {
	in, ok := st.In.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return nil
	}
	fd := int(in.Fd())
	lines := bufio.NewReader(in)
	return func(ctx context.Context, p fetch.Prompt) (string, error) {
		q := p.Text
		if len(p.Choices) > 0 {
			q += " [" + strings.Join(p.Choices, "/") + "]"
		} else if p.Default != "" {
			q += " [" + p.Default + "]"
		}
		for {
			// The question may come from a server (a Gopher+ ASK form).
			fmt.Fprintf(st.Err, "%s: ", safetext.Visible(q))
			answer, err := readAnswer(ctx, fd, lines, p.Secret)
			if p.Secret {
				fmt.Fprintln(st.Err)
			}
			if err != nil {
				return "", err
			}
			if answer == "" {
				answer = p.Default
			}
			if len(p.Choices) == 0 || slices.Contains(p.Choices, answer) {
				return answer, nil
			}
			fmt.Fprintf(st.Err, "please answer one of: %s\n", safetext.Visible(strings.Join(p.Choices, ", ")))
		}
	}
}

// readAnswer reads one line from the terminal, without echo if secret.
// Cancelling ctx (Ctrl-C) abandons the read and restores the terminal.
func readAnswer(ctx context.Context, fd int, lines *bufio.Reader, secret bool) (string, error) {
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		if secret {
			b, err := term.ReadPassword(fd)
			ch <- result{string(b), err}
			return
		}
		s, err := lines.ReadString('\n')
		ch <- result{strings.TrimRight(s, "\r\n"), err}
	}()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-ctx.Done():
		term.Restore(fd, state)
		return "", ctx.Err()
	}
}
