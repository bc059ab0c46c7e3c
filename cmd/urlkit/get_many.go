package main

// get with many URLs: where they come from (arguments, --url-file,
// standard input), where each one's data goes (-o in order, -O,
// --output-dir), and how they run (one after the other, or -Z in
// parallel), with the exit status of the last failure.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
)

// manyOptions are the flags about many URLs.
type manyOptions struct {
	outs        []string // -o, one per URL in order
	remoteName  bool     // -O
	outputDir   string   // --output-dir
	urlFile     string   // --url-file
	parallel    bool     // -Z
	parallelMax int      // --parallel-max
}

// defaultParallelMax is curl's default for --parallel-max.
const defaultParallelMax = 50

// maxParallel bounds --parallel-max (curl's bound too).
const maxParallel = 300

func (m *manyOptions) flags(fs *flag.FlagSet) {
	fs.Func("o", "write the next URL's data to `FILE` (atomically); repeat for each URL, in order; - is standard output", func(s string) error {
		m.outs = append(m.outs, s)
		return nil
	})
	fs.BoolVar(&m.remoteName, "O", false, "write each URL without a -o to a file named after it: its last path segment, decoded")
	fs.StringVar(&m.outputDir, "output-dir", "", "put the files of -o and -O with a relative name in `DIR`")
	fs.StringVar(&m.urlFile, "url-file", "", "read URLs from `FILE`, one per line (# starts a comment line; - is standard input)")
	parallel := func(s string) error {
		switch s {
		case "true":
			m.parallel = true
		case "false":
			m.parallel = false
		default:
			return errors.New("takes no value")
		}
		return nil
	}
	fs.BoolFunc("Z", "fetch the URLs in parallel (see --parallel-max)", parallel)
	fs.BoolFunc("parallel", "fetch the URLs in parallel (see --parallel-max)", parallel)
	fs.IntVar(&m.parallelMax, "parallel-max", defaultParallelMax, "at most `N` transfers at a time with -Z (1 to 300)")
}

// getJob is one URL to fetch and where its data goes.
type getJob struct {
	index int        // in input order, from 0
	url   string     // as given
	u     urlkit.URL // url parsed (parseGetURL), once for all its tries
	perr  error      // the parse's error
	out   string     // the output file; "" for standard output
	fromO bool       // out was named by -o (else by -O, or none)
}

// outputFor returns the output file of the URL at index i: its -o, else
// with -O its remote name, else "" (standard output); a relative name
// goes under --output-dir. u and perr are the URL's parse.
func (m *manyOptions) outputFor(i int, u *urlkit.URL, perr error) (string, error) {
	var name string
	switch {
	case i < len(m.outs):
		name = m.outs[i]
		if name == "-" {
			return "", nil
		}
	case m.remoteName:
		if perr != nil {
			return "", perr
		}
		var err error
		if name, err = remoteName(u); err != nil {
			return "", err
		}
	default:
		return "", nil
	}
	if m.outputDir != "" && !filepath.IsAbs(name) {
		name = filepath.Join(m.outputDir, name)
	}
	return name, nil
}

// errRemoteName is the refusal of -O for a URL without a usable name.
var errRemoteName = errors.New("-O")

// remoteName is the file name -O gives a URL's data: the last segment of
// its path, decoded (without an FTP ;type=). It is refused when empty or
// when it would leave the current directory or hide itself from a
// listing (".", "..", "/", a NUL or control byte from %XX).
func remoteName(u *urlkit.URL) (string, error) {
	name, err := lastSegment(u, false)
	if err != nil {
		return "", fmt.Errorf("%w: %q: the last path segment does not decode: %v", errRemoteName, safetext.Visible(u.Redacted()), err)
	}
	why := ""
	switch {
	case name == "":
		why = "the URL's path has no last segment to name the file after; give -o FILE"
	case name == "." || name == "..":
		why = fmt.Sprintf("the name %q would leave the current directory; give -o FILE", name)
	case strings.ContainsAny(name, "/\\"):
		why = fmt.Sprintf(`the name "%s" (decoded) holds a slash and would leave the current directory; give -o FILE`, safetext.Visible(name))
	case safetext.Visible(name) != name:
		// A control (C0 or C1), a bidirectional override that shows
		// "x\u202etxt.exe" as "xexe.txt", or a byte that is not UTF-8:
		// no name to create unasked.
		why = fmt.Sprintf(`the name "%s" (decoded) holds a control character, a bidirectional control or invalid UTF-8; give -o FILE`, safetext.Visible(name)) // Visible's escapes, not escaped again
	}
	if why != "" {
		return "", fmt.Errorf("%w: %q: %s", errRemoteName, safetext.Visible(u.Redacted()), why)
	}
	return name, nil
}

// parseGetURL parses a URL in the --mode grammar; without --mode, a URL
// that RFC 1738 rejects is tried as RFC 3986 (IPv6 literals, a user in
// an http URL).
func parseGetURL(s string, mode urlkit.Mode, modeSet bool) (urlkit.URL, error) {
	if !modeSet {
		return fetch.ParseURL(s, mode)
	}
	u, _, err := urlkit.ParseMode(s, mode)
	return u, err
}

// eachURL calls fn with every URL, in order: the arguments, then the
// lines of --url-file; with neither, the lines of standard input. Blank
// lines are skipped, and in --url-file lines starting with "#". It
// returns a failure status for input that could not be read.
func (m *manyOptions) eachURL(ctx context.Context, st *Streams, args []string, fn func(raw string) bool) int {
	for _, a := range args {
		if ctx.Err() != nil || !fn(a) {
			return exitOK
		}
	}
	var r io.Reader
	name := "standard input"
	comments := false
	switch {
	case m.urlFile == "-":
		r, comments = st.In, true
	case m.urlFile != "":
		f, err := os.Open(m.urlFile)
		if err != nil {
			fmt.Fprintf(st.Err, "urlkit get: --url-file: %s\n", safetext.Visible(err.Error()))
			return exitUsage
		}
		defer f.Close()
		r, name, comments = f, m.urlFile, true
	case len(args) == 0:
		r = st.In
	default:
		return exitOK
	}
	br := bufio.NewReaderSize(r, 64<<10)
	status := exitOK
	for lineNo := 1; ctx.Err() == nil; lineNo++ {
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			// readLine has read past it: the next line is the next URL.
			fmt.Fprintf(st.Err, "urlkit: %s line %d: longer than %d bytes; skipped\n", safetext.Visible(name), lineNo, maxLine)
			status = exitFail
			continue
		}
		line = strings.TrimSpace(line)
		if line != "" && !(comments && strings.HasPrefix(line, "#")) {
			st.addSecrets(line)
			if !fn(line) {
				return status
			}
		}
		if err == io.EOF {
			return status
		}
		if err != nil {
			fmt.Fprintf(st.Err, "urlkit: reading %s: %s\n", safetext.Visible(name), safetext.Visible(err.Error()))
			return exitFail
		}
	}
	return status
}

// runMany fetches every URL, one at a time or, with -Z, up to
// --parallel-max at once. Data for standard output is written one URL
// at a time, whole. The exit status is that of the last URL (in input
// order) that failed, or 0.
func (o *getOptions) runMany(ctx context.Context, st *Streams, args []string, fetchOne func(ctx context.Context, st *Streams, job getJob, stdout *sync.Mutex) int) int {
	m := &o.many
	if m.parallelMax < 1 || m.parallelMax > maxParallel {
		fmt.Fprintf(st.Err, "urlkit get: --parallel-max %d: want 1 to %d\n", m.parallelMax, maxParallel)
		return exitUsage
	}
	if m.urlFile == "" && len(args) > 0 && len(m.outs) > len(args) {
		fmt.Fprintf(st.Err, "urlkit get: %d -o for %d URL(s): each -o names the file of one URL, in order\n", len(m.outs), len(args))
		return exitUsage
	}
	workers := 1
	if m.parallel {
		workers = m.parallelMax
	}
	var (
		mu       sync.Mutex
		lastFail = -1
		status   = exitOK
		stdout   sync.Mutex
		wg       sync.WaitGroup
	)
	note := func(i, code int) {
		mu.Lock()
		defer mu.Unlock()
		if code != exitOK && i >= lastFail {
			lastFail, status = i, code
		}
	}
	jobs := make(chan getJob)
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				note(j.index, fetchOne(ctx, st, j, &stdout))
			}
		})
	}
	n := 0
	inStatus := m.eachURL(ctx, st, args, func(raw string) bool {
		i := n
		n++
		job := getJob{index: i, url: raw, fromO: i < len(m.outs)}
		if i == 0 && o.first != nil && o.first.url == raw {
			job.u, job.perr = o.first.u, o.first.perr // parsed by run
		} else {
			job.u, job.perr = parseGetURL(raw, o.mode, o.modeSet)
		}
		out, err := m.outputFor(i, &job.u, job.perr)
		if err != nil {
			if errors.Is(err, errRemoteName) {
				fmt.Fprintf(st.Err, "urlkit: %s\n", err)
				note(i, exitWrite)
			} else {
				printErr(st.Err, err)
				note(i, exitURLRefused)
			}
			return true
		}
		job.out = out
		select {
		case jobs <- job:
			return true
		case <-ctx.Done():
			return false
		}
	})
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil {
		return exitInterrupted
	}
	if n < len(m.outs) {
		fmt.Fprintf(st.Err, "urlkit get: %d -o for %d URL(s): each -o names the file of one URL, in order\n", len(m.outs), n)
		return exitUsage
	}
	if inStatus != exitOK {
		return inStatus
	}
	return status
}

// summary prints the line get writes per URL on a terminal: what was
// fetched, where to, how much, how fast, or how it failed.
func summary(st *Streams, job getJob, n int64, d time.Duration, code int) {
	where := "standard output"
	if job.out != "" {
		where = job.out
	}
	name := quoteInput(redactURL(job.url), 0)
	if code != exitOK {
		fmt.Fprintf(st.Err, "urlkit: %s: failed (exit %d)\n", name, code)
		return
	}
	fmt.Fprintf(st.Err, "urlkit: %s -> %s: %d bytes in %.1fs\n", name, safetext.Visible(where), n, d.Seconds())
}

// lockedWriter serialises the writes of parallel transfers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lockedErr returns a copy of st whose Err may be written concurrently.
func (st *Streams) lockedErr() *Streams {
	g := *st
	g.Err = &lockedWriter{w: st.Err}
	return &g
}

// manyHelp is the part of get -h about many URLs.
const manyHelp = `Many URLs: get URL... fetches each in turn; without URL arguments (and
without --url-file) the URLs come from standard input, one per line, and
--url-file FILE reads them from FILE. Each -o names the file of the next
URL, in order (-o - is standard output); -O names the file of every other
URL after the last segment of its path, decoded, and refuses one that is
empty or would leave the current directory (. .. or a decoded slash);
--output-dir DIR puts relative names in DIR. URLs without a file go to
standard output, one whole after the other. -Z (--parallel) runs up to
--parallel-max N (default 50) transfers at once; each output file is still
written atomically. On a terminal a summary line per URL goes to standard
error.`
