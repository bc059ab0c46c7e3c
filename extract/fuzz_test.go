package extract

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/registry"
)

// FuzzFindAll checks, for any text: no panic; every URL reported parses
// with the lenient parser and is its canonical form; offsets, lines and
// columns point at the right bytes; the match is what the parser accepts;
// items come in order without overlapping; the result does not depend on
// how the input is read; the reference path (every ':' and '<' a
// trigger) finds the same items and problems as the scanner's look back
// from each ':'; WrappedOnly finds exactly the wrapped items.
func FuzzFindAll(f *testing.F) {
	for _, tc := range urlCases {
		f.Add("See " + tc.in + ", or (" + tc.in + ").\r\n")
	}
	for _, s := range []string{
		"<URL:http://a.example/\n\n>", "<http://ds.inter-\n  nic.net/x->", "<URL:ftp://a/b;\r\n type=d>",
		"URL:x:y", "e.g.http://a/", "'http://a/b'c'", "(http://a/(b)c))", "http://a/\u00a0b", "<URL:>",
		"http://localhost:PORT/", "<<URL:http://a/>>", "mailto:a@b.", "<ftp:\n //h/p>", "\xff<URL:http://\xff/>",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.http://a/",
		"> <URL:ftp://a/b-\r\n> c>", "> > x <http://a/\n> >\u00a0b>", ">> <URL:\n>> http://a/>", "> <URL:a:b\n>\n> c>",
		"<ftp://a/\n\u00a0\u3000\nb>", "<URL:http://a/\u00a0b>",
		// Where the trigger looks back from a ':' for a '<', or passes a
		// ':' over.
		"<p>Note: <a href=\"http://a/\">x</a> <li>see <http://b/>", "<<http://a/", "<a <b c http://a/>",
		"<\n> URL:\n> http://a/>", "<\u00a0http://a/>", "<URL\n:http://a/>", "x<URL:y", "<p:a <q:b>",
		"<a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z a b c:d>",
		"::http://a/ :a://b ':x' <:http://a/> a:<http://b/>", "URL:<http://a/>", "http:<x> <y:z>",
		// 19 bytes, so a limit of 16: the ':' of "URL:" 15 bytes after '<'.
		"<           URL:xyz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		// The length of the input picks the limit, so that limits are
		// exercised too.
		max := []int{0, 16, 40, 1, 5, 70}[len(data)%6]
		var problems []Problem
		c := &Config{MaxLength: max, Problem: func(p Problem) { problems = append(problems, p) }}
		items := c.FindAll(data)
		checkItems(t, data, items)
		var last int64
		for _, p := range problems {
			if p.Offset < p.Start || p.Offset > int64(len(data)) || p.Start < 0 || p.Offset < last {
				t.Fatalf("problem %+v out of place (previous at %d)", p, last)
			}
			last = p.Offset
			if l, col := lineCol(data, int(p.Offset)); p.Line != l || p.Column != col {
				t.Fatalf("problem %+v: want line %d column %d", p, l, col)
			}
			if p.Err == nil || p.Error() == "" {
				t.Fatalf("problem %+v without a cause", p)
			}
		}

		// Read one byte at a time: the same items and problems.
		var slow []Problem
		c2 := &Config{MaxLength: max, Problem: func(p Problem) { slow = append(slow, p) }}
		s := c2.NewScanner(iotest.OneByteReader(strings.NewReader(data)))
		var got []Item
		for s.Next() {
			got = append(got, s.Item())
		}
		if s.Err() != nil || !reflect.DeepEqual(got, items) || !reflect.DeepEqual(slow, problems) {
			t.Fatalf("one byte at a time:\n%+v\n%+v\nwant\n%+v\n%+v", got, slow, items, problems)
		}

		// One byte at a time, the URLs only appended (lent from the
		// buffer, never copied out) and checked after the scan: the same
		// URLs and problems.
		var lentProblems []Problem
		c3 := &Config{MaxLength: max, Problem: func(p Problem) { lentProblems = append(lentProblems, p) }}
		s = c3.NewScanner(iotest.OneByteReader(strings.NewReader(data)))
		var urls []byte
		for s.Next() {
			urls = append(s.AppendURL(urls), '\n')
		}
		var want []byte
		for _, it := range items {
			want = append(append(want, it.URL...), '\n')
		}
		if s.Err() != nil || !bytes.Equal(urls, want) || !reflect.DeepEqual(lentProblems, problems) {
			t.Fatalf("appended one byte at a time:\n%q\n%+v\nwant\n%q\n%+v", urls, lentProblems, want, problems)
		}

		// The reference path, every ':' and '<' a trigger, read whole and
		// one byte at a time: the same items and problems.
		for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data))} {
			ref, refProblems := scanReference(Config{MaxLength: max}, r)
			if !reflect.DeepEqual(ref, items) || !reflect.DeepEqual(refProblems, problems) {
				t.Fatalf("reference path:\n%+v\n%+v\nwant\n%+v\n%+v", ref, refProblems, items, problems)
			}
		}

		// WrappedOnly: exactly the wrapped items.
		var wrapped []Item
		for _, it := range items {
			if it.Wrapped {
				wrapped = append(wrapped, it)
			}
		}
		only := (&Config{MaxLength: max, WrappedOnly: true}).FindAll(data)
		if !reflect.DeepEqual(only, wrapped) {
			t.Fatalf("WrappedOnly:\n%+v\nwant\n%+v", only, wrapped)
		}
		if ref, _ := scanReference(Config{MaxLength: max, WrappedOnly: true}, strings.NewReader(data)); !reflect.DeepEqual(ref, wrapped) {
			t.Fatalf("WrappedOnly, reference path:\n%+v\nwant\n%+v", ref, wrapped)
		}
	})
}

func checkItems(t *testing.T, data string, items []Item) {
	t.Helper()
	var prevEnd int64
	for _, it := range items {
		if it.Start < prevEnd || it.Start > it.Offset || it.Offset >= it.End || it.End > int64(len(data)) {
			t.Fatalf("item %+v out of place (previous ends at %d)", it, prevEnd)
		}
		prevEnd = it.End
		if l, c := lineCol(data, int(it.Offset)); it.Line != l || it.Column != c {
			t.Fatalf("item %+v: want line %d column %d", it, l, c)
		}
		u, _, err := urlkit.ParseMode(it.URL, urlkit.Lenient)
		if err != nil || u.String() != it.URL || it.Parsed.String() != it.URL {
			t.Fatalf("item %+v: ParseMode(Lenient) of (URL) = %q, %v", it, u.String(), err)
		}
		for _, r := range it.Repairs {
			if r.Offset < it.Start || r.Offset >= it.End {
				t.Fatalf("item %+v: repair outside the match", it)
			}
		}
		match := data[it.Start:it.End]
		if isSpaceByte(data[it.Offset]) {
			t.Fatalf("item %+v: offset at whitespace", it)
		}
		switch {
		case it.Wrapped:
			if match[0] != '<' || match[len(match)-1] != '>' {
				t.Fatalf("item %+v: match %q is no wrapper", it, match)
			}
			// The quotation marks of a quoted message and Unicode spaces
			// removed, as the scanner removes them, the wrapper holds
			// "URL:" first when the item says so.
			lo := max(int(it.Start)-keepBehind, 0)
			clean, _, _ := wrapperText([]byte(match), quoteDepth([]byte(data[lo:it.Start]), lo == 0))
			if it.Prefixed != hasPrefixFold([]byte(strings.TrimLeft(string(clean[1:]), " \t\r\n\f\v")), "URL:") {
				t.Fatalf("item %+v: Prefixed wrong for %q (%q)", it, match, clean)
			}
			// Extraction agrees with validation: the parser, given the
			// wrapper, returns the URL, unless only the reading without
			// the hyphens parses.
			v, _, err := confirm(string(clean), 0)
			if err == nil && v.String() != it.URL || err != nil && it.Alternative != "" {
				t.Fatalf("item %+v: ParseMode(Lenient) of (%q) = %q, %v", it, match, v.String(), err)
			}
			if it.Alternative != "" {
				if _, _, err := urlkit.ParseMode(it.Alternative, urlkit.Lenient); err != nil {
					t.Fatalf("item %+v: alternative does not parse: %v", it, err)
				}
			}
		case it.Prefixed:
			if !hasPrefixFold([]byte(match), "URL:") || it.Offset != it.Start+4 {
				t.Fatalf("item %+v: match %q has no URL: prefix", it, match)
			}
			fallthrough
		default:
			raw := data[it.Offset:it.End]
			if v, _, err := confirm(raw, 0); err != nil || v.String() != it.URL {
				t.Fatalf("item %+v: ParseMode(Lenient) of (%q) = %q, %v", it, raw, v.String(), err)
			}
			if len(it.Repairs) == 0 && raw != it.URL {
				t.Fatalf("item %+v: unrepaired URL differs from the input %q", it, raw)
			}
			if it.Alternative != "" {
				t.Fatalf("item %+v: alternative outside a wrapper", it)
			}
		}
	}
}

func isSpaceByte(c byte) bool { return is(c, space) }

// scanReference runs a Scanner over r on the reference path, where every
// ':' and '<' is a trigger that bare or wrapped decides, and returns its
// items and problems.
func scanReference(c Config, r io.Reader) ([]Item, []Problem) {
	var problems []Problem
	c.Problem = func(p Problem) { problems = append(problems, p) }
	s := c.NewScanner(r)
	s.reference = true
	var items []Item
	for s.Next() {
		items = append(items, s.Item())
	}
	return items, problems
}

// FuzzLastNewline checks lastNewline, eight bytes at a time, against
// bytes.LastIndexByte, at every alignment of the text.
func FuzzLastNewline(f *testing.F) {
	for _, s := range []string{"", "\n", "abc", "a\nb", "0123456\n89", "\n0123456789abcdef", "\x0a\x0b\x09\x8a\x0b\x01\x0a\x00", "\x0b\x0b\x0b\x0b\x0b\x0b\x0b\n\x0b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		for i := 0; i <= len(b); i++ {
			if got, want := lastNewline(b[i:]), bytes.LastIndexByte(b[i:], '\n'); got != want {
				t.Fatalf("lastNewline(%q) = %d, want %d", b[i:], got, want)
			}
		}
	})
}

// FuzzKeep checks keep, which asks for the scheme's floor only when
// something would be trimmed or no body is left, against the plain
// definition, which always asks.
func FuzzKeep(f *testing.F) {
	for _, s := range []string{"http://a/", "http://a/.", "http://", "news:*", "news:*.", "mailto:.", "gopher://h/1a%09b%09%2B.",
		"gopher://h/1a\tb\t+).", "x:", "x:,", "http://a/(b))", "ftp://h/a?;", "news:a*"} {
		f.Add(s, strings.IndexByte(s, ':'))
	}
	f.Fuzz(func(t *testing.T, text string, colon int) {
		if colon < 0 || colon >= len(text) {
			return
		}
		u := []byte(text)
		want := 0
		floor := registry.TrimFloor(text)
		if e := max(trimEnd(u), floor); e > colon+1 && (hasBody(u[colon+1:e]) || floor >= e) {
			want = e
		}
		if got := keep(text, u, colon); got != want {
			t.Fatalf("keep(%q, %d) = %d, want %d", text, colon, got, want)
		}
	})
}

// FuzzCut checks that scanning a text cut where Cut says, each part by
// a Scanner of its own placed with Offset and Line and reading the part
// in place (NewBytesScanner), finds exactly the items and problems of
// one Scanner reading the whole text, and that every cut ends a line. The parts are at most size bytes long where Cut finds
// a line to end them, as extract -j cuts a big file.
func FuzzCut(f *testing.F) {
	for _, tc := range urlCases {
		f.Add("See "+tc.in+", or ("+tc.in+").\r\n<URL:http://a.example/\n b>\n", 7)
	}
	for _, s := range []string{
		"a\n<URL:http://a/\nb>\nhttp://c/\n", "<\n\n\nhttp://a/ <b\n\nc:d\n>\n", "x <URL:ftp://a/b-\r\n c>\nhttp://d/\n",
		"URL:\nhttp://a/\n:http://b/\n", "<ftp:\n //h/p>\n\nhttp://x/ <http://y/\n", "mailto:a@b\nnews:c\n<d:e\nf>\n",
		// Markup: a "<" that may not start a wrapper does not stop a
		// cut; one followed by scheme characters to the line's end does.
		"<p><a href=\"http://a/\">a</a></p>\n<li>see\nhttp://b/ c>\n</ul> <br>\n <http://c/\n d>\n<!-- x -->\n",
		"<li>URL\n:http://a/>\n<a>\n> <\nftp://b/>\n",
	} {
		f.Add(strings.Repeat(s, 5), 3)
	}
	// A wrapper keepBehind bytes into a quoted line that starts a part:
	// one scan of the whole cannot see the line's start (a reviewer's
	// input).
	f.Add("x\n> "+strings.Repeat("y", 69)+" <http://a/b\n> c>\n", 0)
	f.Fuzz(func(t *testing.T, data string, size int) {
		max := []int{0, 16, 40, 1, 5, 70}[len(data)%6]
		size = 1 + size&0xff
		var wantProblems, gotProblems []Problem
		whole := &Config{MaxLength: max, Problem: func(p Problem) { wantProblems = append(wantProblems, p) }}
		want := whole.FindAll(data)
		var got []Item
		at, line := 0, 1
		for at < len(data) {
			part := data[at:]
			limit := &Config{MaxLength: max}
			if n := limit.Cut([]byte(part[:min(len(part), size)]), 0); n > 0 {
				part = part[:n]
			} else if n := limit.Cut([]byte(part), min(len(part), size)); n > 0 && n < len(part) {
				part = part[:n] // the last line to end one, further on
			}
			if at > 0 && data[at-1] != '\n' {
				t.Fatalf("a cut at %d does not end a line", at)
			}
			c := &Config{MaxLength: max, Offset: int64(at), Line: line, Problem: func(p Problem) { gotProblems = append(gotProblems, p) }}
			text := []byte(part)
			s := c.NewBytesScanner(text)
			for s.Next() {
				got = append(got, s.Item())
			}
			if string(text) != part {
				t.Fatalf("the text scanned in place changed: %q, was %q", text, part)
			}
			at += len(part)
			line += strings.Count(part, "\n")
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProblems, wantProblems) {
			t.Fatalf("cut into parts:\n%+v\n%+v\nwant\n%+v\n%+v", got, gotProblems, want, wantProblems)
		}
	})
}
