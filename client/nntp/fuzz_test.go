package nntp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// readBlock reads a data block from s with a line limit, as the client does.
func readBlock(s string, max int) (string, error) {
	d := &dotLines{lr: wire.NewLineReader(strings.NewReader(s), max)}
	b, err := io.ReadAll(&dotReader{lines: d})
	return string(b), err
}

// FuzzDotReader: server data never panics the block reader, which stops
// at the first "." line; and what writeDotStuffed sends, the reader gives
// back (with LF line ends).
func FuzzDotReader(f *testing.F) {
	for _, s := range []string{
		"line\r\n..dot\r\n.\r\n", ".\r\n", "no end\r\n", "a\nb\n.\n", "...\r\n.\r\n",
		"x\r\r\n.\r\n", strings.Repeat("z", 300) + "\r\n.\r\n", "\r\n\r\n.\r\nafter\r\n",
		// The writer reads 4096 bytes at a time: a CRLF split across
		// two reads (CR last in the first) gave CR CR LF.
		strings.Repeat("x", 4095) + "\r\nnext\r\n", strings.Repeat("y", 4095) + "\rz\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := readBlock(s, 256)
		if err == nil {
			if strings.Contains(out, "\r\n") && !strings.Contains(s, "\r\r\n") {
				t.Fatalf("CRLF left in %q", out)
			}
			if out != "" && !strings.HasSuffix(out, "\n") {
				t.Fatalf("output %q does not end with LF", out)
			}
		}
		// round trip through the writer
		var wire bytes.Buffer
		w := bufio.NewWriter(&wire)
		if err := writeDotStuffed(w, strings.NewReader(s)); err != nil {
			t.Fatal(err)
		}
		back, err := readBlock(wire.String(), 1<<20)
		if err != nil {
			t.Fatalf("reading back %q: %v", wire.String(), err)
		}
		want := strings.ReplaceAll(s, "\r\n", "\n")
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if back != want {
			t.Fatalf("round trip %q -> %q -> %q, want %q", s, wire.String(), back, want)
		}
		if !strings.HasSuffix(wire.String(), "\r\n.\r\n") && wire.String() != ".\r\n" {
			t.Fatalf("block %q not ended", wire.String())
		}
	})
}

// FuzzParseOverview: no panic; a parsed line survives String -> Parse.
func FuzzParseOverview(f *testing.F) {
	for _, s := range []string{
		"3\tCrossposted article\tTest Poster <poster@test.invalid>\tMon, 23 Nov 2026 17:47:59 +0000 (UTC)\t<cross@test.invalid>\t\t1029\t3\tXref: test.invalid local.test:3 local.general:1",
		"1\ts\tf\td\t<m@x>\t<r@x>\t\t", "x\t\t\t\t\t\t\t", "1\t2", "99999999999999999999\ta\tb\tc\td\te\t1\t2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOverview(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedReply) {
				t.Fatalf("error %v is not ErrMalformedReply", err)
			}
			return
		}
		again, err := ParseOverview(o.String())
		if err != nil || !reflect.DeepEqual(again, o) {
			t.Fatalf("round trip %+v -> %q -> %+v, %v", o, o.String(), again, err)
		}
	})
}

// FuzzParseActive and status lines: no panic, round trip.
func FuzzParseActive(f *testing.F) {
	for _, s := range []string{"local.test 0000000003 0000000001 y", "a 1 2 =b.c", "a b c d", "x 1 2", "200 ready", "2000", "999 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if g, err := ParseActive(s); err == nil {
			again, err := ParseActive(g.String())
			if err != nil || again != g {
				t.Fatalf("round trip %+v -> %q -> %+v, %v", g, g.String(), again, err)
			}
		}
		if r, err := parseStatus(s); err == nil {
			if r.code < 100 || r.code > 599 {
				t.Fatalf("code %d", r.code)
			}
			line := s[:3]
			if r.msg != "" {
				line += " " + r.msg
			}
			if again, err := parseStatus(line); err != nil || again != r {
				t.Fatalf("status %q -> %+v -> %+v, %v", s, r, again, err)
			}
		}
	})
}

// FuzzCheckArticle: no panic; an accepted article, checked again, is
// accepted unchanged (nothing more to add).
func FuzzCheckArticle(f *testing.F) {
	for _, s := range []string{
		"From: a@b.c\nSubject: s\nNewsgroups: a.b\n\nbody\n",
		"From: a@b.c\r\nSubject: s\r\n\r\nbody\r\n",
		"From: a@b.c\nSubject: s\nMessage-ID: <x@y>\nDate: Mon, 02 Nov 2026 12:00:00 +0000\n\n",
		"From: a\nSubject:\n\n", "\n", "Subject: a\n b\n\n", "From: a@b.c\nFrom: a@b.c\n\n",
	} {
		f.Add(s)
	}
	opt := ArticleOptions{Newsgroups: "local.test", Now: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC), Domain: "test.invalid"}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := CheckArticle([]byte(s), opt)
		if err != nil {
			if !errors.Is(err, ErrBadArticle) {
				t.Fatalf("error %v is not ErrBadArticle", err)
			}
			return
		}
		again, err := CheckArticle(out, ArticleOptions{})
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second check of %q: %q, %v", out, again, err)
		}
	})
}
