package pipeline

import (
	"errors"
	"io"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/extract"
	"github.com/urlkit/urlkit/normalize"
	"github.com/urlkit/urlkit/resolve"
	"github.com/urlkit/urlkit/scale/records"
)

// Stats count what a file held, and what was left out and why: nothing
// is lost without being counted.
type Stats struct {
	Files   int64 // files read
	Records int64 // lines, CDX lines or WARC records read
	URLs    int64 // URLs counted
	Invalid int64 // URLs urlkit rejects in the mode, or without the host a pipeline needs
	Skipped int64 // bad lines or records skipped (--skip-bad)
	Unread  int64 // files whose end could not be read (--skip-bad: a truncated gzip, a lying Content-Length)
}

// scanner does a pipeline's work on one file: it reads its records,
// parses and normalizes the URLs, and counts the rows.
type scanner struct {
	o     *Options
	mode  urlkit.Mode
	rows  counts // the rows, or the edges of links
	verts counts // links: the vertices
	keys  *keys  // extract: the URLs, most of them distinct
	stats Stats
	buf   []byte
	// rows past this many distinct keys are handed on (flush) so that a
	// worker's memory stays bounded however large a file.
	limit int
	flush func(s *scanner)
	room  int // the distinct rows to make room for at once
}

func newScanner(o *Options) (*scanner, error) {
	m, err := o.mode()
	if err != nil {
		return nil, err
	}
	return &scanner{o: o, mode: m, rows: newCounts(), verts: newCounts(), limit: 1 << 20, room: 1 << 14}, nil
}

// expect makes room for the rows of size bytes of input: text holds a
// URL in a few hundred bytes, nearly all distinct, and a map grown from
// small rehashed over and over (a fifth of the scan's time).
func (s *scanner) expect(size int64) {
	s.room = int(min(max(size/256, 1<<14), int64(s.limit)))
	if !s.urlKeys() {
		s.rows = newCountsFor(s.room)
	} else if s.keys == nil {
		// The benchmark's text holds a byte of URL in four or five, a
		// URL in 280 bytes: room for that, so that the arena and the
		// lists are not copied as they grow.
		s.keys = getKeys(int(size/4), int(size/200)/s.o.Shards)
	}
}

// bad handles a bad input: with --skip-bad it is counted and the scan
// goes on (resync false: the file cannot be read further); otherwise it
// is the scan's error.
func (s *scanner) bad(err error, resync bool) (stop bool, _ error) {
	if !s.o.SkipBad {
		return true, err
	}
	if resync {
		s.stats.Skipped++
		return false, nil
	}
	s.stats.Unread++
	return true, nil
}

// scanFile reads the file name from r and counts its rows.
func (s *scanner) scanFile(name string, r io.Reader) error {
	return s.scan(name, r, 0, true)
}

// scan reads the file name from r and counts its rows: the whole file,
// or the range of it that starts at offset off (a Split's).
func (s *scanner) scan(name string, r io.Reader, off int64, whole bool) error {
	f, err := s.o.formatOf(name)
	if err != nil {
		return err
	}
	in := records.NewRange(name, r, off)
	if whole {
		if in, err = records.NewInput(name, r); err != nil {
			_, err = s.bad(err, false)
			return err
		}
	}
	defer in.Close()
	in.MaxLine = s.o.MaxLine
	if off == 0 {
		s.stats.Files++ // once per file, however split
	}
	switch f {
	case records.URLs, records.CDX:
		return s.scanLines(in, f == records.CDX)
	case records.Text:
		return s.scanText(in)
	default:
		return s.scanWARC(in, f)
	}
}

func (s *scanner) scanLines(in *records.Input, cdx bool) error {
	var c records.CDXReader
	for {
		line, err := in.Line()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			resync := errors.Is(err, records.ErrLineTooLong) || errors.Is(err, records.ErrBinary)
			if stop, err := s.bad(err, resync); stop {
				return err
			}
			if err := in.SkipLine(); err != nil {
				_, err = s.bad(err, false)
				return err
			}
			continue
		}
		s.stats.Records++
		if cdx {
			u, ok, err := c.URL(line)
			if err != nil {
				if stop, err := s.bad(&records.Error{File: in.Name, Offset: in.Offset() - int64(len(line)) - 1, Err: err}, true); stop {
					return err
				}
				continue
			}
			if !ok {
				continue
			}
			line = u
		}
		if len(line) == 0 {
			continue // a blank line, as the CLI skips it
		}
		s.url(string(line))
		s.maybeFlush()
	}
}

func (s *scanner) scanText(in *records.Input) error {
	sc := (&extract.Config{}).NewScanner(in.Reader())
	s.found(sc, true)
	if err := sc.Err(); err != nil {
		_, err = s.bad(err, false)
		return err
	}
	return nil
}

// found counts the URLs sc finds; flush: hand the rows on when there are
// too many.
func (s *scanner) found(sc *extract.Scanner, flush bool) {
	// The extractor parsed each URL in the lenient mode, and in the
	// RFC3986 and Lenient modes its canonical text parses to the same
	// URL again (FuzzFoundParsed): there extract's keys are normalized
	// from it as it lies, parsed once and copied once, into the arena,
	// before the next call to Next (the parse and the copies were a
	// tenth of the pipeline's time). Other modes, and --by-host's map
	// (whose keys must not hold the scanner's buffer), parse a copy.
	parsed := s.urlKeys() && (s.mode == urlkit.RFC3986 || s.mode == urlkit.Lenient)
	for sc.Next() {
		if parsed {
			n := normalize.Normalize(sc.Parsed(), s.mode)
			s.key(n.String())
			s.stats.URLs++
		} else {
			s.buf = sc.AppendURL(s.buf[:0])
			s.url(string(s.buf))
		}
		if flush {
			s.maybeFlush()
		}
	}
}

// key adds one normalized URL to extract's keys.
func (s *scanner) key(url string) {
	if s.keys == nil {
		s.keys = getKeys(1<<16, 1<<10)
	}
	s.keys.add(url, s.o.Shards)
}

func (s *scanner) scanWARC(in *records.Input, f records.Format) error {
	w := in.WARC()
	for {
		rec, err := w.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			_, err = s.bad(err, false) // a WARC file cannot be resynchronized
			return err
		}
		s.stats.Records++
		switch {
		case f == records.WARC:
			// The record URIs of what was captured (a request's URI
			// is its response's: counted once).
			if (rec.Type == "response" || rec.Type == "resource" || rec.Type == "revisit") && rec.TargetURI != "" {
				s.url(rec.TargetURI)
			}
		case f == records.WET && rec.Type == "conversion":
			body, err := w.Body()
			if err != nil {
				if stop, err := s.bad(err, errors.Is(err, records.ErrTooLarge)); stop {
					return err
				}
				continue
			}
			s.found((&extract.Config{}).NewBytesScanner(body), false)
		case f == records.WAT && rec.Type == "metadata":
			body, err := w.Body()
			if err != nil {
				if stop, err := s.bad(err, errors.Is(err, records.ErrTooLarge)); stop {
					return err
				}
				continue
			}
			if len(body) == 0 || body[0] != '{' {
				continue // a WAT file's warcinfo-like metadata
			}
			links, err := records.ParseWAT(body)
			if err != nil {
				if stop, err := s.bad(&records.Error{File: in.Name, Offset: rec.Offset, Err: err}, true); stop {
					return err
				}
				continue
			}
			s.page(&links)
		}
		s.maybeFlush()
	}
}

// urlKeys reports whether the rows are URLs (extract without --by-host),
// gathered as keys rather than counted in a map.
func (s *scanner) urlKeys() bool { return s.o.Pipeline == Extract && !s.o.ByHost }

func (s *scanner) maybeFlush() {
	if s.flush != nil && (s.rows.len()+s.verts.len()+s.keys.len() > s.limit || s.keys.full()) {
		s.flush(s)
	}
}

// parse parses and normalizes raw in the mode; ok is false (and the URL
// counted invalid) when urlkit rejects it.
func (s *scanner) parse(raw string) (u, n urlkit.URL, ok bool) {
	u, _, err := urlkit.ParseMode(raw, s.mode)
	if err != nil {
		s.stats.Invalid++
		return u, n, false
	}
	return u, normalize.Normalize(&u, s.mode), true
}

// url counts one URL of the hosts, extract or canon pipeline.
func (s *scanner) url(raw string) {
	u, n, ok := s.parse(raw)
	if !ok {
		return
	}
	switch s.o.Pipeline {
	case Hosts:
		if !n.HasAuthority || n.Host == "" {
			s.stats.Invalid++
			return
		}
		key := n.Host
		if s.o.By != "host" {
			suffix, registered, _ := domains(key)
			key = registered
			if s.o.By == "suffix" {
				key = suffix
			}
		}
		s.rows.add(key, 1, "")
	case Extract:
		if s.o.ByHost {
			if !n.HasAuthority || n.Host == "" {
				s.stats.Invalid++
				return
			}
			s.rows.add(n.Host, 1, "")
		} else {
			s.key(n.String())
		}
	case Canon:
		canonical, row := canonJSON(raw, &u, s.mode)
		if s.o.Dedup {
			s.rows.add(canonical, 1, row)
		} else {
			s.rows.add(raw, 1, row)
		}
	}
	s.stats.URLs++
}

// page counts the host links of one WAT page for the links pipeline (or
// its links' hosts for hosts): each link is resolved against the page's
// base (RFC 3986 5.2), normalized, and its host taken; cc-webgraph's
// host graph has no self-loops.
func (s *scanner) page(w *records.WATLinks) {
	_, page, ok := s.parse(w.TargetURI)
	if !ok {
		return
	}
	base := page
	if w.Base != "" {
		if ref, _, err := urlkit.ParseReference(w.Base, s.mode); err == nil {
			if b, err := resolve.Resolve(&page, &ref, resolve.Rule3986); err == nil {
				base = b
			}
		}
	}
	from := reverseHost(page.Host)
	for _, l := range w.Links {
		ref, _, err := urlkit.ParseReference(l, s.mode)
		if err != nil {
			s.stats.Invalid++
			continue
		}
		t, err := resolve.Resolve(&base, &ref, resolve.Rule3986)
		if err != nil {
			s.stats.Invalid++
			continue
		}
		t = normalize.Normalize(&t, s.mode)
		if !t.HasAuthority || t.Host == "" {
			continue // mailto:, javascript:, data: ... link no host
		}
		s.stats.URLs++
		if s.o.Pipeline == Hosts {
			s.url(t.String())
			s.stats.URLs-- // url counted it
			continue
		}
		to := reverseHost(t.Host)
		if page.Host == "" || to == from {
			continue
		}
		s.rows.add(from+"\t"+to, 1, "")
		s.verts.add(from, 1, "")
		s.verts.add(to, 1, "")
	}
}
