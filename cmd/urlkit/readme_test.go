package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestReadmeExamples runs the README's console examples that need no
// server and no shell (no pipe, redirection or "&&"), from the module
// root, and compares what they print (standard output, then standard
// error) with what the README shows, so that the tour stays true. The
// file it reads, examples/notes.txt, ships with the module.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	ran := 0
	for _, ex := range consoleExamples(string(readme)) {
		args, ok := shellWords(ex.cmd)
		if ok && len(args) == 2 && args[0] == "cat" {
			// A file the README shows is the file shipped.
			b, err := os.ReadFile(args[1])
			if err != nil || string(b) != ex.want {
				t.Errorf("README: $ %s: the file holds %q (%v), the README shows %q", ex.cmd, b, err, ex.want)
			}
			continue
		}
		if !ok || len(args) < 2 || args[0] != "urlkit" || args[1] == "get" {
			continue
		}
		st, out, errOut := TestStreams("")
		run(context.Background(), args[1:], st)
		if got := out.String() + errOut.String(); got != ex.want {
			t.Errorf("README: $ %s\ngot:\n%s\nwant:\n%s", ex.cmd, got, ex.want)
		}
		ran++
	}
	if ran < 10 {
		t.Errorf("only %d README examples ran", ran)
	}
}

type consoleExample struct{ cmd, want string }

// consoleExamples returns the "$ command" lines of the README's console
// blocks with the lines that follow each, up to the next command.
func consoleExamples(readme string) []consoleExample {
	var list []consoleExample
	in := false
	var cur *consoleExample
	for line := range strings.Lines(readme) {
		switch {
		case strings.HasPrefix(line, "```console"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in, cur = false, nil
			continue
		case !in:
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			list = append(list, consoleExample{cmd: strings.TrimSuffix(cmd, "\n")})
			cur = &list[len(list)-1]
			continue
		}
		if cur != nil {
			if strings.TrimSpace(line) == "" && !strings.HasSuffix(cur.want, "\n") {
				continue
			}
			cur.want += line
		}
	}
	for i := range list {
		list[i].want = strings.TrimRight(list[i].want, "\n") + "\n"
		if list[i].want == "\n" {
			list[i].want = ""
		}
	}
	return list
}

// shellWords splits a command line of plain words and single-quoted
// strings; anything else a shell would interpret makes it refuse.
func shellWords(s string) ([]string, bool) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted:
			if c == '\'' {
				quoted = false
			} else {
				w.WriteByte(c)
			}
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case strings.IndexByte("|&;<>$`\"\\(){}*?#~", c) >= 0:
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, false
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, true
}
