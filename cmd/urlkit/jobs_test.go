package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// jobsInput is a stream of valid, invalid, blank, passworded and too
// long lines, several batches long.
func jobsInput() string {
	var b strings.Builder
	for i := range 3 * batchBytes / 32 { // about 40 bytes a line: 4 batches
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, "http://host%d.example/a/b?q=%d#f\n", i, i)
		case 1:
			fmt.Fprintf(&b, "ftp://u:secret%d@h/%%2Fetc/motd;type=a\n", i)
		case 2:
			fmt.Fprintf(&b, "http://a b/%d\n", i) // invalid
		case 3:
			b.WriteString("\n")
		case 4:
			fmt.Fprintf(&b, "HTTP://Info.CERN.ch:80/albert/%d/marie%%2dclaude\r\n", i)
		case 5:
			fmt.Fprintf(&b, "gopher://g/1%%%d\n", i)
		default:
			fmt.Fprintf(&b, "mailto:x%d@y.example\n", i)
		}
		if i == 515 {
			b.WriteString(strings.Repeat("x", maxLine+10) + "\n")
		}
	}
	return b.String()
}

// jobsPairs makes equal's input of the lines of in: each line with its
// lower-cased self (equal or not, as case matters in the path), and, on
// every fifth line, without a tab.
func jobsPairs(in string) string {
	var b strings.Builder
	for i, line := range strings.SplitAfter(in, "\n") {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			b.WriteString("\n")
		case i%5 == 4:
			b.WriteString(line + "\n")
		default:
			b.WriteString(line + "\t" + strings.ToLower(line) + "\n")
		}
	}
	return b.String()
}

// TestJobsSameOutput checks that -j N writes byte for byte what -j 1
// writes, standard output and standard error interleaved as one stream,
// with the same exit status.
func TestJobsSameOutput(t *testing.T) {
	in := jobsInput()
	for _, cmd := range [][]string{
		{"parse", "--json"}, {"parse"}, {"check"}, {"check", "--all"}, {"check", "-v"},
		{"normalize"}, {"normalize", "--mode", "rfc3986"}, {"normalize", "--explain"},
		{"resolve", "http://a/b/c/d;p?q"}, {"resolve", "--rule", "all", "--explain", "http://a/b/c/d;p?q"},
		{"relative", "http://host0.example/a/"},
		{"equal"}, {"equal", "--explain"}, {"equal", "--mode", "rfc3986", "--flags", "sort-query"},
		{"escape"}, {"escape", "--set", "all", "--plus"}, {"unescape"}, {"unescape", "--lenient"},
		{"explain"}, {"explain", "--proxy", "proxy.example:3128"},
	} {
		in := in
		if cmd[0] == "equal" {
			in = jobsPairs(in)
		}
		runJ := func(j string) (string, int) {
			var both bytes.Buffer
			st := &Streams{In: strings.NewReader(in), Out: &both, Err: &both}
			args := append([]string{cmd[0], "-j", j}, cmd[1:]...)
			code := run(context.Background(), args, st)
			return both.String(), code
		}
		want, wantCode := runJ("1")
		for _, j := range []string{"2", "4"} {
			got, code := runJ(j)
			if got != want || code != wantCode {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("%v -j %s: output differs from -j 1 at byte %d: %q vs %q (status %d vs %d)", cmd, j, i, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)], code, wantCode)
			}
		}
	}
}

// TestJobsSmallInput checks that an input of one batch is handled
// without workers, and still correctly.
func TestJobsSmallInput(t *testing.T) {
	st, out, _ := TestStreams("http://a/\nhttp://b/\n")
	if code := run(context.Background(), []string{"normalize", "-j", "8"}, st); code != exitOK {
		t.Fatalf("status %d", code)
	}
	if out.String() != "http://a/\nhttp://b/\n" {
		t.Fatalf("output %q", out)
	}
}

// TestResolveBlankLine checks that a blank line of standard input is the
// empty reference (RFC 3986 5.4.1: "" resolves to the base without its
// fragment), so that each input line has its output line.
func TestResolveBlankLine(t *testing.T) {
	for _, j := range []string{"1", "2"} {
		st, out, _ := TestStreams("g\n\n#s\r\n\r\n")
		if code := run(context.Background(), []string{"resolve", "-j", j, "http://a/b/c/d;p?q#f"}, st); code != exitOK {
			t.Fatalf("-j %s: status %d", j, code)
		}
		want := "http://a/b/c/g\nhttp://a/b/c/d;p?q\nhttp://a/b/c/d;p?q#s\nhttp://a/b/c/d;p?q\n"
		if out.String() != want {
			t.Errorf("-j %s: output %q, want %q", j, out, want)
		}
	}
}

// TestParseJSONRecordPerLine checks that parse --json writes one valid
// JSON object per non-blank input line, the invalid and the too long
// included, with -j 1 and -j 2.
func TestParseJSONRecordPerLine(t *testing.T) {
	in := jobsInput()
	lines := 0
	for l := range strings.SplitSeq(strings.TrimSuffix(in, "\n"), "\n") {
		if strings.TrimSuffix(l, "\r") != "" {
			lines++
		}
	}
	for _, j := range []string{"1", "2"} {
		st, out, _ := TestStreams(in)
		run(context.Background(), []string{"parse", "--json", "-j", j}, st)
		records := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(records) != lines {
			t.Fatalf("-j %s: %d records for %d lines", j, len(records), lines)
		}
		for i, r := range records {
			var v map[string]any
			if err := json.Unmarshal([]byte(r), &v); err != nil {
				t.Fatalf("-j %s: record %d is not JSON: %v", j, i, err)
			}
		}
	}
}

// TestExtractFilesJobs checks that extract over many files writes with
// -j N byte for byte what it writes with -j 1: URLs, problems (unclosed
// wrappers, a rejected URL, a missing file) and exit status, including a
// file whose output is more than the parts a worker may keep ahead. The
// files are cut into parts of about 2 KiB (extractPartBytes), and one of
// them has markup too dense with "<" to be cut in 16 KiB
// (extractMaxPartBytes): its rest is scanned as one part.
func TestExtractFilesJobs(t *testing.T) {
	defer func(n, p, m int) { unitPartsAhead, extractPartBytes, extractMaxPartBytes = n, p, m }(unitPartsAhead, extractPartBytes, extractMaxPartBytes)
	unitPartsAhead, extractPartBytes, extractMaxPartBytes = 2, 2<<10, 16<<10
	dir := t.TempDir()
	var names []string
	for i := range 12 {
		var b strings.Builder
		n := 50
		switch i {
		case 3:
			n = 3000 // 200 KB of output, more than 2 parts: the worker waits for the writer
		case 7, 11:
			n = 600
		}
		for k := range n {
			switch {
			case i == 7 && k > 20:
				fmt.Fprintf(&b, "<p>see <a href=\"http://m%d.example/\">x</a> <http://w%d.example/\n y> <b>\n", k, k)
				continue
			case i == 11 || k%5 != 0:
				fmt.Fprintf(&b, "see http://host%d.example/%d/a_(b), or URL:ftp://f%d.example/x.\n", i, k, k)
				continue
			}
			fmt.Fprintf(&b, "see http://host%d.example/%d/a_(b), and <URL:ftp://f%d.example/x\n  y>.\n", i, k, k)
			if k%17 == 0 {
				fmt.Fprintf(&b, "<URL:http://unclosed%d.example/\n\nhttp://x:PORT/ mailto:u%d@example.org\n", k, k)
			}
		}
		name := fmt.Sprintf("%s/f%02d.txt", dir, i)
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		if i == 5 {
			names = append(names, dir+"/missing.txt", "-")
		}
	}
	for _, flags := range [][]string{{"extract"}, {"extract", "--json"}, {"extract", "-q"}, {"extract", "--json", "--max-length", "200"}} {
		runJ := func(j string) (string, int) {
			var both bytes.Buffer
			st := &Streams{In: strings.NewReader("stdin: http://stdin.example/\n"), Out: &both, Err: &both}
			args := append(append(append([]string{}, flags...), "-j", j), names...)
			code := run(context.Background(), args, st)
			return both.String(), code
		}
		want, wantCode := runJ("1")
		if wantCode != exitFail || !strings.Contains(want, "missing.txt") || !strings.Contains(want, "stdin.example") {
			t.Fatalf("%v -j 1: status %d, output without the missing file or stdin", flags, wantCode)
		}
		for _, j := range []string{"2", "4"} {
			if got, code := runJ(j); got != want || code != wantCode {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("%v -j %s: output differs from -j 1 at byte %d (status %d vs %d)", flags, j, i, code, wantCode)
			}
		}
	}
}

// TestExtractFilesInterrupted checks that a cancelled run over many
// files stops with the interrupted status, leaving no worker behind.
func TestExtractFilesInterrupted(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 8 {
		name := fmt.Sprintf("%s/f%d.txt", dir, i)
		os.WriteFile(name, []byte(strings.Repeat("http://h.example/a ", 20000)), 0o644)
		names = append(names, name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, _, _ := TestStreams("")
	if code := run(ctx, append([]string{"extract", "-j", "3"}, names...), st); code != exitInterrupted {
		t.Fatalf("status %d, want %d", code, exitInterrupted)
	}
}

// TestJobsErrApart checks that with standard error apart from standard
// output (Streams.ErrApart: no flush of the output per message) each
// stream holds the same bytes as when they are interleaved.
func TestJobsErrApart(t *testing.T) {
	in := jobsInput()
	for _, cmd := range [][]string{{"parse", "--json"}, {"check", "--all"}, {"normalize"}} {
		var want [2]string
		for i, apart := range []bool{false, true} {
			for _, j := range []string{"1", "3"} {
				var out, errOut bytes.Buffer
				st := &Streams{In: strings.NewReader(in), Out: &out, Err: &errOut, ErrApart: apart}
				run(context.Background(), append([]string{cmd[0], "-j", j}, cmd[1:]...), st)
				got := [2]string{out.String(), errOut.String()}
				if i == 0 && j == "1" {
					want = got
					if got[1] == "" {
						t.Fatalf("%v: no messages", cmd)
					}
				} else if got != want {
					t.Errorf("%v -j %s apart %v: streams differ from the interleaved run", cmd, j, apart)
				}
			}
		}
	}
}

// lineSignal is an output that sends each write on a channel.
type lineSignal chan string

func (c lineSignal) Write(p []byte) (int, error) { c <- string(p); return len(p), nil }

// TestJobsStreaming checks that a pipeline fed one line at a time gets
// each line's result before it sends the next, with one worker and with
// several: the output is flushed whenever all that was read is written
// (extract -j 2: whenever the next part is not made yet; a line that
// Cut allows to end a part is scanned at once). extract -j 1 is not
// checked: one Scanner over the stream decides a URL only once it has
// read a wrapper's reach past it, or the end.
func TestJobsStreaming(t *testing.T) {
	for _, cmd := range []struct{ name, in string }{{"normalize", "HTTP://Example.COM/%d\n"}, {"extract", "see http://example.com/%d now\n"}} {
		for _, j := range []string{"1", "2"} {
			if cmd.name == "extract" && j == "1" {
				continue
			}
			pr, pw := io.Pipe()
			out := make(lineSignal, 100)
			st := &Streams{In: pr, Out: out, Err: io.Discard}
			code := make(chan int, 1)
			go func() { code <- run(context.Background(), []string{cmd.name, "-j", j}, st) }()
			for i := range 5 {
				fmt.Fprintf(pw, cmd.in, i)
				want := fmt.Sprintf("http://example.com/%d\n", i)
				select {
				case got := <-out:
					if got != want {
						t.Fatalf("%s -j %s: output %q, want %q", cmd.name, j, got, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%s -j %s: no output for line %d while the next is not sent", cmd.name, j, i)
				}
			}
			pw.Close()
			if c := <-code; c != exitOK {
				t.Fatalf("%s -j %s: status %d", cmd.name, j, c)
			}
		}
	}
}

// TestJobsPasswordOutlivesBatch checks that a password seen on the first
// line is still hidden in a message many batches later: the lines are
// read into batch buffers that are reused, and the redactor must keep
// its own copy of what it hides, not a view of a buffer since
// overwritten.
func TestJobsPasswordOutlivesBatch(t *testing.T) {
	var in strings.Builder
	in.WriteString("ftp://anon:early-secret@h/\n")
	filler := "http://filler.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
	for in.Len() < 20*batchBytes {
		in.WriteString(filler)
	}
	in.WriteString("http://h/a b early-secret\n") // invalid: its message quotes the line
	for _, j := range []string{"1", "2"} {
		st, _, errOut := TestStreams(in.String())
		if code := run(context.Background(), []string{"check", "-j", j}, st); code != exitFail {
			t.Fatalf("-j %s: status %d, want %d", j, code, exitFail)
		}
		if msg := errOut.String(); strings.Contains(msg, "early-secret") || !strings.Contains(msg, "xxxxx") {
			t.Errorf("-j %s: the password is not hidden: %q", j, msg)
		}
	}
}

// TestJobsBounded: -j is held to 1 to 4 workers per core: a huge value
// cost gigabytes (a worker's batches and goroutine each) for nothing.
func TestJobsBounded(t *testing.T) {
	most := maxJobsPerCore * runtime.GOMAXPROCS(0)
	for in, want := range map[string]int{"1000000": most, "0": 1, "-3": 1, "1": 1, strconv.Itoa(most): most} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		n := jobsFlag(fs, "")
		if err := fs.Parse([]string{"-j", in}); err != nil || *n != want {
			t.Errorf("-j %s: %d, %v; want %d", in, *n, err, want)
		}
	}
	var big bytes.Buffer
	for range 50000 {
		big.WriteString("http://a.example/x\n")
	}
	code, out, stderr := runCLI(t, big.String(), false, "normalize", "-j", "1000000")
	if code != exitOK || out != big.String() {
		t.Errorf("exit %d, %d bytes: %s", code, len(out), stderr)
	}
}

// TestOverLongLineKeepsItsPlace: the commands that give a line of output
// per line of input (normalize, resolve, equal, escape, unescape) give one
// for a line over maxLine too, an empty one, so that what follows stays
// beside its input.
func TestOverLongLineKeepsItsPlace(t *testing.T) {
	long := strings.Repeat("a", maxLine+10)
	for _, tc := range []struct {
		args      []string
		in, after string
	}{
		{[]string{"normalize"}, "HTTP://A/", "http://a/"},
		{[]string{"resolve", "http://a/b"}, "c", "http://a/c"},
		{[]string{"equal"}, "http://a/\thttp://A/", "equal"},
		{[]string{"escape"}, "a b", "a%20b"},
		{[]string{"unescape"}, "a%20b", "a b"},
	} {
		for _, j := range []string{"1", "2"} {
			st, out, _ := TestStreams(tc.in + "\n" + long + "\n" + tc.in + "\n")
			run(context.Background(), append(tc.args, "-j", j), st)
			if want := tc.after + "\n\n" + tc.after + "\n"; out.String() != want {
				t.Errorf("%v -j %s: %q, want %q", tc.args, j, out.String(), want)
			}
		}
	}
}
