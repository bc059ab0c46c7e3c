package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
)

// A lineJob handles the n-th input (0-based) s: it writes its results to
// out and its messages to errw, flushing out before it writes to errw so
// that the two streams interleave as they would on a terminal. Each
// worker has its own lineJob (from a newJob function), so a job may keep
// scratch buffers.
type lineJob func(n int, s string, out *bufio.Writer, errw io.Writer) int

// overLongRecord, when a command has one, writes the output record of a
// line longer than maxLine (parse --json: an object with the error), so
// that each input line has its line of output.
type overLongRecord func(lineNo int, out *bufio.Writer)

// blankRecord is the overLongRecord of a command whose output has one
// line per input line: an empty line stands for the one skipped.
func blankRecord(_ int, out *bufio.Writer) { out.WriteByte('\n') }

// jobsFlag declares -j, the number of cores to use (default: all).
func jobsFlag(fs *flag.FlagSet, usage string) *int {
	return fs.Int("j", runtime.GOMAXPROCS(0), usage)
}

// linesJobsUsage is -j's usage text for the commands that read lines.
const linesJobsUsage = "handle standard input on `N` cores at once (the output stays in input order)"

// Batches of standard input handed to a worker: big enough that the hand
// over costs little, small enough that the batches in flight and kept
// for reuse (about 5 per worker, with their output: parse --json writes
// 10 times its input) stay within a few MB. Bigger ones (128 KiB) met
// the 20 MB memory limit and made the collector run all the time (-j 2
// took 1.4 times the CPU of -j 1; now 1.05-1.2).
const (
	batchLines = 512
	batchBytes = 32 << 10
)

// inputItem is one line of standard input, or a line too long to read.
type inputItem struct {
	s          string
	start, end int // where s is in the batch's text, until s is set
	lineNo     int
	tooLong    bool
}

// inputBatch is a run of lines and, once done is closed, their output:
// out holds standard output, errs the messages with where they go in it.
type inputBatch struct {
	items  []inputItem
	text   []byte // the lines read, made one string at the end: one allocation per batch
	first  int    // index of items[0] among the inputs handed to the job
	out    bytes.Buffer
	errs   []messageAt
	status int
	done   chan struct{}
	// errApart: standard error is apart from standard output
	// (Streams.ErrApart): the batch's messages are kept as one.
	errApart bool
}

// messageAt is text for standard error written when after bytes of the
// batch's standard output have been.
type messageAt struct {
	after int
	text  []byte
}

// batchErr is the errw of a batch: it records each write with its place,
// or, when standard error is apart from standard output (Streams.ErrApart),
// keeps a batch's messages as one.
// (One pointer, so that it is an io.Writer without an allocation.)
type batchErr struct{ b *inputBatch }

func (w batchErr) Write(p []byte) (int, error) {
	b := w.b
	if n := len(b.errs); n > 0 && (b.errApart || b.errs[n-1].after == b.out.Len()) {
		b.errs[n-1].text = append(b.errs[n-1].text, p...)
	} else {
		b.errs = append(b.errs, messageAt{b.out.Len(), append([]byte(nil), p...)})
	}
	return len(p), nil
}

// eachInputJobs is eachInput for commands whose lines are independent:
// standard input is cut into batches handled by up to jobs workers, and
// the results are written in input order. A small input (one batch) is
// handled on the calling goroutine, as is a list of arguments. With
// blankIsInput a blank line is an input (resolve's empty reference,
// RFC 3986 5.4.1's ""), so that each line has its line of output;
// otherwise blank lines are skipped.
func eachInputJobs(ctx context.Context, st *Streams, out *bufio.Writer, args []string, jobs int, blankIsInput bool, newJob func() lineJob, overLong ...overLongRecord) int {
	job := newJob()
	n := 0
	one := func(s string) int {
		code := job(n, s, out, st.Err)
		n++
		return code
	}
	if len(args) > 0 {
		return eachInput(ctx, st, out, args, one)
	}
	r := bufio.NewReaderSize(st.In, 64<<10)
	lineNo := 0
	// next reads a batch; it stops early where a read would block, so
	// that a pipeline fed line by line sees each result at once.
	// Written batches come back through free, so that their buffers,
	// grown to the size of a batch's output, are not garbage.
	free := make(chan *inputBatch, 3*jobs+2)
	next := func(first int) (*inputBatch, error) {
		var b *inputBatch
		select {
		case b = <-free:
			b.items, b.text, b.errs, b.status = b.items[:0], b.text[:0], nil, exitOK
			b.out.Reset()
		default:
			b = new(inputBatch)
		}
		b.first, b.done = first, make(chan struct{})
		var err error
		for len(b.items) < batchLines && len(b.text) < batchBytes {
			if len(b.items) > 0 && r.Buffered() == 0 {
				break
			}
			start := len(b.text)
			b.text, err = appendLine(b.text, r)
			lineNo++
			switch {
			case err != nil && errors.Is(err, errLineTooLong):
				b.items = append(b.items, inputItem{lineNo: lineNo, tooLong: true})
				err = nil
			case len(b.text) > start || blankIsInput && err == nil:
				b.items = append(b.items, inputItem{start: start, end: len(b.text), lineNo: lineNo})
			}
			if err != nil {
				break
			}
		}
		text := string(b.text)
		if cap(b.text) > 4*batchBytes {
			b.text = nil // grown by a long line: not kept alive while it is handled
		}
		for i := range b.items {
			it := &b.items[i]
			if !it.tooLong {
				it.s = text[it.start:it.end]
				st.addSecrets(it.s)
			}
		}
		return b, err
	}
	status := exitOK
	note := func(code int) {
		if code > status {
			status = code
		}
	}
	handle := func(job lineJob, w *bufio.Writer, b *inputBatch) {
		errw := batchErr{b}
		b.errApart = st.ErrApart
		k := b.first
		for _, it := range b.items {
			if it.tooLong {
				for _, rec := range overLong {
					if rec != nil {
						rec(it.lineNo, w)
					}
				}
				w.Flush()
				fmt.Fprintf(errw, "urlkit: standard input line %d: longer than %d bytes; skipped\n", it.lineNo, maxLine)
				b.status = max(b.status, exitFail)
				continue
			}
			b.status = max(b.status, job(k, it.s, w, errw))
			k++
		}
		w.Flush()
	}
	count := func(b *inputBatch) int {
		c := 0
		for _, it := range b.items {
			if !it.tooLong {
				c++
			}
		}
		return c
	}
	write := func(b *inputBatch) error {
		note(b.status)
		data := b.out.Bytes()
		if st.ErrApart {
			// Nothing shows the order of the two streams: the batch's
			// messages (one) are written without flushing its output.
			for _, m := range b.errs {
				st.Err.Write(m.text)
			}
			_, err := out.Write(data)
			return err
		}
		at := 0
		for _, m := range b.errs {
			out.Write(data[at:m.after])
			at = m.after
			out.Flush()
			st.Err.Write(m.text)
		}
		_, err := out.Write(data[at:])
		return err
	}

	out.Flush()
	b, err := next(0)
	if err != nil || jobs <= 1 {
		// One batch is all there is, or one worker is asked for: the
		// batches are handled here. (Batched, the messages of lines
		// with no output between them are written at once.)
		w := bufio.NewWriterSize(io.Discard, 32<<10)
		first := 0
		for {
			w.Reset(&b.out)
			handle(job, w, b)
			write(b)
			if r.Buffered() == 0 {
				out.Flush()
			}
			if err != nil {
				return finishInput(st, status, err)
			}
			if ctx.Err() != nil {
				return exitInterrupted
			}
			first += count(b)
			free <- b // reused by next
			b, err = next(first)
		}
	}

	work := make(chan *inputBatch, jobs)
	order := make(chan *inputBatch, 2*jobs)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			job := newJob()
			w := bufio.NewWriterSize(io.Discard, 32<<10)
			for b := range work {
				w.Reset(&b.out)
				handle(job, w, b)
				close(b.done)
			}
		})
	}
	written := make(chan struct{})
	go func() {
		defer close(written)
		for b := range order {
			<-b.done
			write(b)
			select {
			case free <- b:
			default:
			}
			if len(order) == 0 {
				out.Flush()
			}
		}
	}()
	first, dispatched := 0, 0
	for {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		if b != nil && len(b.items) > 0 {
			if dispatched++; dispatched == 2 {
				growMemoryLimit(jobs) // the input is more than a batch
			}
			order <- b
			work <- b
			first += count(b)
		}
		if err != nil {
			break
		}
		b, err = next(first)
	}
	close(work)
	close(order)
	wg.Wait()
	<-written
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return finishInput(st, status, err)
}

// Each worker beyond the first keeps about five more batches alive (in
// flight and kept for reuse). Under the soft memory limit set for one,
// the collector then ran half again as often (-j 2 took 1.1 to 1.2 times
// the CPU of -j 1, the extra all in write barriers and marking); with
// workerMemory more per worker it runs as often as at -j 1.
const (
	workerMemory   = 8 << 20
	maxMemoryLimit = 48 << 20
)

// growMemoryLimit raises the soft memory limit main set (memoryLimit)
// for jobs workers, up to maxMemoryLimit; a limit set otherwise
// (GOMEMLIMIT, or none in tests) is left alone.
func growMemoryLimit(jobs int) {
	if debug.SetMemoryLimit(-1) == memoryLimit {
		debug.SetMemoryLimit(min(memoryLimit+int64(jobs-1)*workerMemory, maxMemoryLimit))
	}
}

// finishInput returns the status of a run whose reading ended with err.
func finishInput(st *Streams, status int, err error) int {
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(st.Err, "urlkit: reading standard input: %v\n", err)
		return max(status, exitFail)
	}
	return status
}

// A fileJob handles the file name: its results to out, its messages to
// errw, flushing out before it writes to errw. ok false means stop: the
// run then exits with code.
type fileJob func(ctx context.Context, name string, out *bufio.Writer, errw io.Writer) (code int, ok bool)

// filePart is a piece of one file's results: standard output, or a
// message for standard error.
type filePart struct{ out, msg []byte }

// fileResults carries one file's results to the writer. parts is
// bounded, so that a worker ahead of the writer waits instead of keeping
// a whole file's output; code and ok are set before parts is closed.
type fileResults struct {
	parts chan filePart
	code  int
	ok    bool
}

// partWriter sends what is written to it as parts, of standard output
// or, with msg, of standard error.
type partWriter struct {
	ctx   context.Context
	parts chan<- filePart
	msg   bool
}

func (w partWriter) Write(p []byte) (int, error) {
	part := filePart{out: append([]byte(nil), p...)}
	if w.msg {
		part.out, part.msg = nil, part.out
	}
	select {
	case w.parts <- part:
		return len(p), nil
	case <-w.ctx.Done():
		return 0, w.ctx.Err()
	}
}

// filePartsAhead bounds the parts of a file waiting to be written: with
// 32 KiB parts, 2 MiB per worker. (A variable for the tests.)
var filePartsAhead = 64

// eachFileJobs runs job for each of names on up to jobs workers, and
// writes their results to out and st.Err file by file, in the order of
// names, as one worker after the other would have: the combined output
// is byte-identical to that of a loop.
func eachFileJobs(ctx context.Context, st *Streams, out *bufio.Writer, names []string, jobs int, job fileJob) int {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel() // first: the workers stop
	results := make([]*fileResults, len(names))
	for i := range results {
		results[i] = &fileResults{parts: make(chan filePart, filePartsAhead)}
	}
	next := make(chan int)
	wg.Go(func() {
		defer close(next)
		for i := range names {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for range min(jobs, len(names)) {
		wg.Go(func() {
			for i := range next {
				r := results[i]
				w := bufio.NewWriterSize(partWriter{ctx, r.parts, false}, 32<<10)
				r.code, r.ok = job(ctx, names[i], w, partWriter{ctx, r.parts, true})
				w.Flush()
				close(r.parts)
			}
		})
	}
	status := exitOK
	for _, r := range results {
	parts:
		for {
			select {
			case p, more := <-r.parts:
				if !more {
					break parts
				}
				if p.msg != nil {
					out.Flush()
					st.Err.Write(p.msg)
				} else {
					out.Write(p.out)
				}
			case <-ctx.Done():
				return exitInterrupted
			}
		}
		if !r.ok {
			return r.code
		}
		status = max(status, r.code)
	}
	return status
}
