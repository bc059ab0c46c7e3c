package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/urlkit/urlkit/internal/bufpool"
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

// jobsFlag declares -j, the number of cores to use (default: all; at
// most maxJobsPerCore per core).
func jobsFlag(fs *flag.FlagSet, usage string) *int {
	n := runtime.GOMAXPROCS(0)
	fs.Var((*jobsValue)(&n), "j", usage)
	return &n
}

// maxJobsPerCore bounds -j: each worker keeps its batches in flight and
// its goroutine, and past the cores more of them only cost memory
// (-j 1000000 took 2.9 GB for 100,000 lines).
const maxJobsPerCore = 4

// jobsValue is -j's value: an integer, held to 1 to maxJobsPerCore per
// core.
type jobsValue int

func (v *jobsValue) String() string { return strconv.Itoa(int(*v)) }

func (v *jobsValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not a whole number")
	}
	*v = jobsValue(min(max(n, 1), maxJobsPerCore*runtime.GOMAXPROCS(0)))
	return nil
}

// linesJobsUsage is -j's usage text for the commands that read lines.
const linesJobsUsage = "handle standard input on `N` cores at once (the output stays in input order; at most 4 per core)"

// Batches of standard input handed to a worker: big enough that the hand
// over costs little (at 32 KiB, check -j 2 lost a tenth of its second
// core to waiting on the other worker's read or write), small enough
// that the batches in flight and kept for reuse (batchesAhead per
// worker, with their output: parse --json writes 10 times its input)
// stay within a few MB.
const batchBytes = 64 << 10

// batchesAhead bounds, per worker, the batches read and not yet written:
// a worker far ahead of a slow one waits instead of reading on.
const batchesAhead = 4

// inputBatch is a run of whole lines and, once handled, their output:
// out holds standard output, errText the messages, errs where they go
// in out.
type inputBatch struct {
	raw     []byte      // the lines as read (batchReader.next)
	items   []inputLine // the lines found in raw (splitLines), numbered from the input's start by place
	lines   int         // the number of lines in raw
	first   int         // index of items[0] among the inputs handed to the job
	out     bytes.Buffer
	errText []byte
	errs    []messageAt
	status  int
	// errApart: standard error is apart from standard output
	// (Streams.ErrApart): the batch's messages are kept as one.
	errApart bool
}

// spinTurns bounds how often a worker yields (runtime.Gosched, well
// under a microsecond each when nothing else is to run) while it waits
// for the input, before it sleeps on the lock.
const spinTurns = 2000

// inputPlace is where a batch starts in the input: after lines lines, of
// which inputs were handed to the job.
type inputPlace struct{ lines, inputs int }

// place numbers b's lines for a batch starting at at, registers their
// passwords, and returns where the next batch starts. Batches are placed
// in input order, so that a message masks every password of the lines
// before it, as with one worker.
func (b *inputBatch) place(st *Streams, at inputPlace) inputPlace {
	b.first = at.inputs
	for i := range b.items {
		it := &b.items[i]
		it.lineNo += at.lines
		if !it.tooLong {
			if it.atSign {
				st.addSecrets(it.s)
			}
			at.inputs++
		}
	}
	at.lines += b.lines
	return at
}

// messageAt is the text errText[start:end] for standard error, written
// when after bytes of the batch's standard output have been.
type messageAt struct{ after, start, end int }

// batchErr is the errw of a batch: it records each write with its place,
// or, when standard error is apart from standard output (Streams.ErrApart),
// keeps a batch's messages as one.
// (One pointer, so that it is an io.Writer without an allocation.)
type batchErr struct{ b *inputBatch }

// AvailableBuffer returns an empty buffer to append a message to and
// pass to Write (as bufio.Writer's): the batch's own message memory,
// reused from batch to batch.
func (w batchErr) AvailableBuffer() []byte {
	t := w.b.errText
	return t[len(t):]
}

func (w batchErr) Write(p []byte) (int, error) {
	b := w.b
	b.errText = append(b.errText, p...)
	if n := len(b.errs); n > 0 && (b.errApart || b.errs[n-1].after == b.out.Len()) {
		b.errs[n-1].end = len(b.errText)
	} else {
		b.errs = append(b.errs, messageAt{b.out.Len(), len(b.errText) - len(p), len(b.errText)})
	}
	return len(p), nil
}

// eachInputJobs runs a job on each of args or, when there are none, on
// each line of standard input (without its "\n" or "\r\n"), for the
// commands whose lines are independent: standard input is cut into
// batches handled by up to jobs workers, and the results are written in
// input order. A small input (one batch) is handled on the calling
// goroutine, as is a list of arguments. A line longer than maxLine is
// reported and skipped, and makes the status exitFail. With
// blankIsInput a blank line is an input (resolve's empty reference,
// RFC 3986 5.4.1's ""), so that each line has its line of output;
// otherwise blank lines are skipped.
func eachInputJobs(ctx context.Context, st *Streams, out *bufio.Writer, args []string, jobs int, blankIsInput bool, newJob func() lineJob, overLong ...overLongRecord) int {
	if len(args) > 0 {
		job, status := newJob(), exitOK
		for n, s := range args {
			if ctx.Err() != nil {
				return exitInterrupted
			}
			status = max(status, job(n, s, out, st.Err))
		}
		return status
	}
	out.Flush()
	r := &lineJobs{
		ctx: ctx, st: st, out: out, in: batchReader{in: st.In, limit: maxLine},
		jobs: max(1, jobs), blankIsInput: blankIsInput, newJob: newJob, overLong: overLong,
		start: make(chan inputPlace, 1),
	}
	r.start <- inputPlace{}
	r.ahead = batchesAhead * r.jobs
	r.done = make([]*inputBatch, r.ahead)
	r.room = sync.NewCond(&r.outMu)
	r.work() // the calling goroutine is the first worker
	r.workers.Wait()
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return finishInput(st, r.status, r.readErr)
}

// lineJobs is a run of eachInputJobs. Its workers each take the next
// batch from the input, handle it, and write the batches done in input
// order: there is no goroutine that only reads or only writes, so each
// of the jobs cores runs a worker all the time. (With a reader and a
// writer goroutine handing batches over, check -j 2 kept two cores
// busy only 60% of the time.)
type lineJobs struct {
	ctx          context.Context
	st           *Streams
	out          *bufio.Writer
	jobs         int
	blankIsInput bool
	newJob       func() lineJob
	overLong     []overLongRecord
	workers      sync.WaitGroup

	inMu    sync.Mutex
	in      batchReader
	readErr error           // what ended the input
	read    atomic.Int64    // batches read (read by finish without inMu)
	start   chan inputPlace // where the next batch read starts, once the one before is placed

	outMu   sync.Mutex
	room    *sync.Cond    // signalled as batches are written
	ahead   int           // batches read and not written, at most
	done    []*inputBatch // batches handled and not written, by number modulo ahead
	written int           // batches written
	free    []*inputBatch // written batches, for reuse
	status  int
}

// work is a worker: it handles batches until the input ends.
func (r *lineJobs) work() {
	job := r.newJob()
	w := bufio.NewWriterSize(io.Discard, 32<<10)
	for {
		b, n, start, end, ok := r.next()
		if !ok {
			return
		}
		b.items, b.lines = splitLines(b.items[:0], batchText(b.raw), maxLine, r.blankIsInput)
		if cap(b.raw) > 4*batchBytes {
			b.raw = nil // grown by a long line: not kept for reuse
		}
		end <- b.place(r.st, <-start)
		w.Reset(&b.out)
		r.handle(job, w, b)
		r.finish(n, b)
	}
}

// batchText is raw as a string, without a copy: the lines handed to
// the job are its substrings. raw is not written again until its batch
// has been written out and taken for a new one (next), so that the
// text stays as read while the job runs; a job does not keep a line
// after it returns (the redactor keeps copies of the passwords it is
// given). A copy here is every byte of the input once more, and the
// garbage it leaves is most of the collector's work in check: measured
// again without unsafe, check and normalize took 8 and 11% more CPU
// (DESIGN.md, "The two zero-copy views left").
func batchText(raw []byte) string { return unsafe.String(unsafe.SliceData(raw), len(raw)) }

// next reads the next batch, numbered n, which starts once start
// yields its place and sends the place after it on end. ok is false
// when the input has ended or the run is cancelled.
func (r *lineJobs) next() (b *inputBatch, n int, start, end chan inputPlace, ok bool) {
	// A worker that finds the input taken waits its turn awake, for a
	// while, before it sleeps: the read takes tens of microseconds, and
	// waking a sleeping worker on this virtual machine took longer, at
	// times for every batch (check -j 2 over 10M URLs: 0.67 and 1.68 s
	// in 2 of 11 runs with Lock alone, against 0.53-0.57 s; none of 11
	// so).
	for i := 0; !r.inMu.TryLock(); i++ {
		if i == spinTurns {
			r.inMu.Lock()
			break
		}
		runtime.Gosched()
	}
	defer r.inMu.Unlock()
	if r.readErr != nil || r.ctx.Err() != nil {
		return nil, 0, nil, nil, false
	}
	r.outMu.Lock()
	for int(r.read.Load())-r.written >= r.ahead {
		r.room.Wait()
	}
	if k := len(r.free); k > 0 {
		b, r.free = r.free[k-1], r.free[:k-1]
	} else {
		b = new(inputBatch)
	}
	r.outMu.Unlock()
	b.out.Reset()
	b.errText, b.errs, b.status = b.errText[:0], b.errs[:0], exitOK
	b.errApart = r.st.ErrApart
	b.raw, r.readErr = r.in.next(b.raw)
	n, start, end = int(r.read.Load()), r.start, make(chan inputPlace, 1)
	r.read.Add(1)
	r.start = end
	if n == 1 && r.jobs > 1 {
		// The input is more than a batch: the other workers start.
		growMemoryLimit(r.jobs)
		for range r.jobs - 1 {
			r.workers.Go(r.work)
		}
	}
	return b, n, start, end, true
}

// handle runs job on each line of b, its output to w (writing to
// b.out), its messages to b.
func (r *lineJobs) handle(job lineJob, w *bufio.Writer, b *inputBatch) {
	errw := batchErr{b}
	k := b.first
	for _, it := range b.items {
		if it.tooLong {
			for _, rec := range r.overLong {
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

// finish hands batch n over for writing, and writes, in input order,
// the batches done from the first not yet written.
func (r *lineJobs) finish(n int, b *inputBatch) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	r.done[n%r.ahead] = b
	for {
		b := r.done[r.written%r.ahead]
		if b == nil {
			break
		}
		r.done[r.written%r.ahead] = nil
		r.write(b)
		r.written++
		r.free = append(r.free, b)
		r.room.Broadcast()
	}
	if int(r.read.Load()) == r.written {
		r.out.Flush() // all read is written: the next read may wait
	}
}

// write writes b's output and messages, and notes its status.
func (r *lineJobs) write(b *inputBatch) {
	r.status = max(r.status, b.status)
	data := b.out.Bytes()
	if r.st.ErrApart {
		// Nothing shows the order of the two streams: the batch's
		// messages (one) are written without flushing its output.
		for _, m := range b.errs {
			r.st.Err.Write(b.errText[m.start:m.end])
		}
		r.out.Write(data)
		return
	}
	at := 0
	for _, m := range b.errs {
		r.out.Write(data[at:m.after])
		at = m.after
		r.out.Flush()
		r.st.Err.Write(b.errText[m.start:m.end])
	}
	r.out.Write(data[at:])
}

// Each worker beyond the first keeps batchesAhead more batches alive (in
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

// A unitJob is one piece of the work of an eachUnitJobs run: its
// results to out, its messages to errw, flushing out before it writes to
// errw. ok false means stop: the run then exits with code.
type unitJob func(ctx context.Context, out *bufio.Writer, errw io.Writer) (code int, ok bool)

// unitPart is a piece of one unit's results: standard output, or a
// message for standard error.
type unitPart struct{ out, msg []byte }

// unitResults carries one unit's results to the writer. parts is
// bounded, so that a worker ahead of the writer waits instead of keeping
// a whole unit's output; code and ok are set before parts is closed.
type unitResults struct {
	parts chan unitPart
	code  int
	ok    bool
}

// partWriter sends what is written to it as parts, of standard output
// or, with msg, of standard error.
type partWriter struct {
	ctx   context.Context
	parts chan<- unitPart
	msg   bool
}

func (w partWriter) Write(p []byte) (int, error) {
	part := unitPart{out: append(partBuffers.Get(unitPartBytes), p...)}
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

// partBuffers keeps the buffers of the output parts written.
var partBuffers bufpool.Pool

// unitPartBytes is the size of a unit's parts of output: more than the
// 64 KiB of the writer's buffer, so that a part goes to the output with
// no copy into it (bufio.Writer writes a longer write at once).
const unitPartBytes = 128 << 10

// unitPartsAhead bounds the parts of a unit waiting to be written: 4 MiB
// per worker. (A variable for the tests.)
var unitPartsAhead = 32

// unitsAhead bounds, per worker, the units made and not yet written: a
// worker waits instead of making more.
const unitsAhead = 1

// receive returns the next value from c (more false once c is closed).
// When none is ready it flushes out first, so that a pipeline sees what
// was written before the run waits for the next unit or part (whose
// input may be the pipeline's next line). ok is false when ctx ended.
func receive[T any](ctx context.Context, out *bufio.Writer, c <-chan T) (v T, more, ok bool) {
	select {
	case v, more = <-c:
		return v, more, true
	default:
	}
	out.Flush()
	select {
	case v, more = <-c:
		return v, more, true
	case <-ctx.Done():
		return v, false, false
	}
}

// eachUnitJobs runs the units, made one after the other by units, on up
// to jobs workers, and writes their results to out and st.Err unit by
// unit, in the order made, as one worker after the other would have:
// the combined output is byte-identical to that of a loop. The workers
// take turns at making the next unit (units reads the input): a
// goroutine that only made them got a core only when a worker waited,
// which then waited for it.
func eachUnitJobs(ctx context.Context, st *Streams, out *bufio.Writer, units iter.Seq[unitJob], jobs int) int {
	ctx, cancel := context.WithCancel(ctx)
	next, stop := iter.Pull(units)
	var workers sync.WaitGroup
	defer stop() // after the workers: next and stop are not to run at once
	defer workers.Wait()
	defer cancel() // first: the workers stop
	var nextMu sync.Mutex
	order := make(chan *unitResults, unitsAhead*jobs)
	growMemoryLimit(jobs)
	// take makes the next unit and queues its results for writing, in
	// the order made.
	take := func() (unitJob, *unitResults, bool) {
		nextMu.Lock()
		defer nextMu.Unlock()
		if ctx.Err() != nil {
			return nil, nil, false
		}
		job, ok := next()
		if !ok {
			return nil, nil, false
		}
		r := &unitResults{parts: make(chan unitPart, unitPartsAhead)}
		select {
		case order <- r:
			return job, r, true
		case <-ctx.Done():
			return nil, nil, false
		}
	}
	for range jobs {
		workers.Go(func() {
			w := bufio.NewWriterSize(nil, unitPartBytes)
			for {
				job, r, ok := take()
				if !ok {
					return
				}
				w.Reset(partWriter{ctx, r.parts, false})
				r.code, r.ok = job(ctx, w, partWriter{ctx, r.parts, true})
				w.Flush()
				close(r.parts)
			}
		})
	}
	go func() {
		workers.Wait()
		close(order)
	}()
	status := exitOK
	for {
		r, more, ok := receive(ctx, out, order)
		if !ok {
			return exitInterrupted
		}
		if !more {
			break
		}
		for {
			p, more, ok := receive(ctx, out, r.parts)
			if !ok {
				return exitInterrupted
			}
			if !more {
				break
			}
			if p.msg != nil {
				out.Flush()
				st.Err.Write(p.msg)
			} else {
				out.Write(p.out)
			}
			partBuffers.Put(p.out, unitPartBytes)
			partBuffers.Put(p.msg, unitPartBytes)
		}
		if !r.ok {
			return r.code
		}
		status = max(status, r.code)
	}
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return status
}
