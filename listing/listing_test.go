package listing

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/urlkit/urlkit/internal/safetext"
)

var when = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

// The text and JSON of each format, byte for byte: the forms urlkit
// printed before the entries were structured (fetch's news, WAIS and
// Prospero renderings, the command line's --list), which the scripts
// and the command's tests pin against the real servers too.
func TestForms(t *testing.T) {
	for _, tc := range []struct {
		name       string
		h          Header
		es         []Entry
		text, json string
	}{
		{"ftp", Header{Format: FTP}, []Entry{
			{Name: "a file.txt", Kind: "file", Size: 26, Time: when},
			{Name: "pub", Kind: "dir", Size: -1},
			{Name: "x\x1b[2J", Size: -1},
		},
			"file            26 2006-01-02T15:04:05Z a file.txt\n" +
				"dir              - -                    pub\n" +
				"-                - -                    x\\x1b[2J\n",
			`{"name":"a file.txt","type":"file","size":26,"time":"2006-01-02T15:04:05Z"}` + "\n" +
				`{"name":"pub","type":"dir"}` + "\n" +
				`{"name":"x\u001b[2J"}` + "\n"},
		{"gopher", Header{Format: Gopher}, []Entry{
			{Name: "Welcome", Gopher: GopherItem{Type: 'i'}},
			{Name: "About", Kind: "file", URL: "gopher://h/0about", Gopher: GopherItem{Type: '0', Selector: "about", Host: "h", Port: "70"}},
			{Name: "oops", Gopher: GopherItem{Type: '3'}},
			{Name: "odd", URL: "gopher://h/xodd", Gopher: GopherItem{Type: 'x'}},
		},
			"         Welcome\n" +
				"[text]   About <gopher://h/0about>\n" +
				"[error]  oops\n" +
				"[type 'x'] odd <gopher://h/xodd>\n",
			`{"type":"info","name":"Welcome","selector":"","host":"","port":""}` + "\n" +
				`{"type":"text","name":"About","url":"gopher://h/0about","selector":"about","host":"h","port":"70"}` + "\n" +
				`{"type":"error","name":"oops","selector":"","host":"","port":""}` + "\n" +
				`{"type":"type 'x'","name":"odd","url":"gopher://h/xodd","selector":"","host":"","port":""}` + "\n"},
		{"articles", Header{Format: Articles}, []Entry{
			{Name: "Hello\tthere", Article: Article{Number: 3, From: "a@b", Date: "Mon, 2 Jan 2006", MessageID: "<1@b>"}},
		},
			"3\tMon, 2 Jan 2006\ta@b\tHello\\tthere\t<1@b>\n",
			`{"number":3,"date":"Mon, 2 Jan 2006","from":"a@b","subject":"Hello\tthere","message_id":"\u003c1@b\u003e"}` + "\n"},
		{"groups", Header{Format: Groups}, []Entry{
			{Name: "local.general", Group: Group{High: 9, Low: 1, Status: "y"}},
		},
			"local.general 9 1 y\n",
			`{"group":"local.general","high":9,"low":1,"status":"y"}` + "\n"},
		{"wais", Header{Format: WAIS, Server: "h:210", Of: "db", Query: "a\x1bb"}, []Entry{
			{Name: "Alpha\x07", Size: 137, URL: "wais://h:210/db/TEXT/%01", WAIS: WAISHit{Score: 1000, Lines: 3, Types: []string{"TEXT"}}},
			{Name: "Beta", Size: -1, URL: "wais://h:210/db/TEXT/%02", WAIS: WAISHit{Lines: -1}},
		},
			`WAIS search of "db" on h:210 for "a\x1bb": 2 hits` + "\n" +
				"  1. Alpha\\x07\n     score 1000, 3 lines, 137 bytes, TEXT\n     wais://h:210/db/TEXT/%01\n" +
				"  2. Beta\n     score 0, -1 lines, -1 bytes, \n     wais://h:210/db/TEXT/%02\n",
			`{"headline":"Alpha\\x07","score":1000,"lines":3,"length":137,"types":["TEXT"],"url":"wais://h:210/db/TEXT/%01"}` + "\n" +
				`{"headline":"Beta","score":0,"lines":-1,"length":-1,"types":[],"url":"wais://h:210/db/TEXT/%02"}` + "\n"},
		{"prospero", Header{Format: Prospero, Server: "h:1525", Of: "AFTP/pub"}, []Entry{
			{Name: "hello.txt", Time: when, URL: "prospero://h/AFTP/pub/hello.txt", Prospero: ProsperoLink{Target: "FILE", Host: "h", HSOName: "AFTP/pub/hello.txt", Size: "15 bytes", Modified: "20060102150405Z"}},
			{Name: "odd", Prospero: ProsperoLink{Target: "DIRECTORY", Host: "h(x)", HSOName: "o", Modified: "yesterday"}},
		},
			`Prospero directory "AFTP/pub" on h:1525: 2 links` + "\n" +
				"FILE      hello.txt                15 bytes  2006-01-02T15:04:05Z  h AFTP/pub/hello.txt\n" +
				"          prospero://h/AFTP/pub/hello.txt\n" +
				"DIRECTORY odd                                yesterday             h(x) o\n",
			`{"name":"hello.txt","target":"FILE","host":"h","hsoname":"AFTP/pub/hello.txt","size":"15 bytes","modified":"2006-01-02T15:04:05Z","url":"prospero://h/AFTP/pub/hello.txt"}` + "\n" +
				`{"name":"odd","target":"DIRECTORY","host":"h(x)","hsoname":"o","modified":"yesterday"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, FromSlice(tc.h, tc.es)); err != nil || b.String() != tc.text {
				t.Errorf("WriteText = %v\n%s\nwant\n%s", err, b.String(), tc.text)
			}
			b.Reset()
			if err := WriteJSON(&b, FromSlice(tc.h, tc.es)); err != nil || b.String() != tc.json {
				t.Errorf("WriteJSON = %v\n%s\nwant\n%s", err, b.String(), tc.json)
			}
			// One byte at a time, the stream is the same.
			got, err := io.ReadAll(iotest.OneByteReader(NewReader(FromSlice(tc.h, tc.es), false)))
			if err != nil || string(got) != tc.text {
				t.Errorf("NewReader byte by byte = %q, %v", got, err)
			}
		})
	}
}

// An empty WAIS or Prospero listing still says what it is of; the
// others are empty.
func TestEmpty(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		want string
	}{
		{WAIS, `WAIS search of "db" on h for "w": 0 hits` + "\n"},
		{Prospero, `Prospero directory "db" on h: 0 links` + "\n"},
		{FTP, ""},
		{Articles, ""},
	} {
		var b bytes.Buffer
		if err := WriteText(&b, FromSlice(Header{Format: tc.f, Server: "h", Of: "db", Query: "w"}, nil)); err != nil || b.String() != tc.want {
			t.Errorf("format %d: %q, %v; want %q", tc.f, b.String(), err, tc.want)
		}
	}
}

// A listing that fails on its third entry gives the two before it, then
// the error; Next stays false after it.
func TestErrorAfterEntries(t *testing.T) {
	boom := errors.New("connection reset")
	n := 0
	l := New(Header{Format: Groups}, func(e *Entry) (bool, error) {
		n++
		if n == 3 {
			return false, boom
		}
		e.Name = "g" + string(rune('0'+n))
		return true, nil
	})
	var b bytes.Buffer
	err := WriteText(&b, l)
	if !errors.Is(err, boom) || b.String() != "g1 0 0 \ng2 0 0 \n" {
		t.Errorf("WriteText = %q, %v", b.String(), err)
	}
	if l.Next() || !errors.Is(l.Err(), boom) {
		t.Errorf("after the error: Next true or Err %v", l.Err())
	}
}

// FuzzForms: whatever a server sent, the text form holds no byte that
// acts on a terminal but the line ends, and every JSON line decodes and
// holds no control byte (safetext.InertJSON's promise).
func FuzzForms(f *testing.F) {
	f.Add("a\x1b[2J", "b\u202e", "<1@b>", int64(3), "\x9b")
	f.Add("", "", "", int64(-1), "")
	f.Fuzz(func(t *testing.T, name, s1, s2 string, n int64, s3 string) {
		e := Entry{Name: name, Kind: s1, URL: s2, Size: n,
			Gopher:   GopherItem{Type: 'i', Selector: s1, Host: s2, Port: s3},
			Article:  Article{Number: n, From: s1, Date: s2, MessageID: s3, References: s1},
			Group:    Group{High: n, Low: n, Status: s3},
			WAIS:     WAISHit{Score: n, Lines: n, Types: []string{s1, s3}},
			Prospero: ProsperoLink{Target: s1, Host: s2, HSOName: s3, Size: s1, Modified: s2},
		}
		for f := FTP; f <= Prospero; f++ {
			for _, typ := range []byte{'i', '3', '1'} {
				e.Gopher.Type = typ
				h := Header{Format: f, Server: s1, Of: s2, Query: s3}
				var b bytes.Buffer
				if err := WriteText(&b, FromSlice(h, []Entry{e})); err != nil {
					t.Fatal(err)
				}
				if v := safetext.VisibleText(b.String()); v != b.String() || strings.Contains(b.String(), "\r") {
					t.Fatalf("format %d: text not inert: %q", f, b.String())
				}
				b.Reset()
				if err := WriteJSON(&b, FromSlice(h, []Entry{e})); err != nil {
					t.Fatal(err)
				}
				line := strings.TrimSuffix(b.String(), "\n")
				var m map[string]any
				inert := !strings.ContainsFunc(line, func(r rune) bool { return r < 0x20 || safetext.JSONEscaped(r) })
				if json.Unmarshal([]byte(line), &m) != nil || !inert {
					t.Fatalf("format %d: JSON line %q", f, line)
				}
			}
		}
	})
}
