package wais

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseResponse: the response decoder never panics, and whatever it
// accepts holds only bytes that were in the message.
func FuzzParseResponse(f *testing.F) {
	f.Add([]byte(diagResponse))
	f.Add([]byte(hitResponse("A hit", 5)))
	f.Add([]byte(hitResponse("A hit", 300)))
	f.Add([]byte(message(85, "\x00K\x15\x01\x03\x01\x80\x04\x01\x80\x05\x03\x01\x86\xa0\x06\x03\x01\x86\xa0\x08\x03LS6\x09$University of Dortmund Informatik VI\x0a\x0c2.2.8 stringc\x06d\x01\x00e\x01\x00")))
	f.Add([]byte("0000000005z2wais        0\x00\x01\x17\x00\x00"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		resp, err := ParseResponse(msg)
		if err != nil {
			return
		}
		if sr, ok := resp.(*SearchResponse); ok {
			for _, h := range sr.Hits {
				if !bytes.Contains(msg, h.DocID) || !bytes.Contains(msg, []byte(h.Headline)) {
					t.Fatalf("hit %+v not from the message", h)
				}
			}
			for _, x := range sr.Texts {
				if !bytes.Contains(msg, x.Text) {
					t.Fatalf("text %q not from the message", x.Text)
				}
			}
		}
	})
}

// FuzzRequestRoundTrip: any search or retrieval request, whatever bytes
// its words, database and DocID hold, decodes to itself.
func FuzzRequestRoundTrip(f *testing.F) {
	f.Add("test", "gopher", []byte("\x01\x07vm:2210"), "TEXT", int64(0), int64(137), 40)
	f.Add("", "", []byte{}, "", int64(5), int64(6), 1)
	f.Add("db\x1fx", "a\x00b\nc", []byte{0x81, 0x16}, "WSRC", int64(1<<40), int64(1<<41), 0xffffff)
	f.Add("db", "w", []byte("id"), "TEXT", int64(0), int64(math.MaxInt64), 1) // a range end above 1<<62 was written but not read back
	f.Fuzz(func(t *testing.T, db, words string, id []byte, typ string, start, end int64, max int) {
		sreq := &SearchRequest{Database: db, SeedWords: words, MaxDocuments: max, Documents: []DocRef{{DocID: id, Type: typ, Start: start, End: end}}}
		if msg, err := sreq.Marshal(); err == nil {
			got, err := ParseRequest(msg)
			if err != nil {
				t.Fatalf("%+v: %v\n%s", sreq, err, FormatMessage(msg))
			}
			want := *sreq
			if want.MaxDocuments <= 0 {
				want.MaxDocuments = DefaultMaxDocuments
			}
			g := got.(*SearchRequest)
			if len(g.Documents) == 1 && len(g.Documents[0].DocID) == 0 {
				g.Documents[0].DocID = id // nil and empty
			}
			if !reflect.DeepEqual(g, &want) {
				t.Fatalf("round trip\n%+v\n%+v", g, &want)
			}
		}
		treq := &TextRequest{Database: db, DocID: id, Type: typ, Start: start, End: end}
		if msg, err := treq.Marshal(); err == nil {
			got, err := ParseRequest(msg)
			if err != nil {
				t.Fatalf("%+v: %v", treq, err)
			}
			g := got.(*TextRequest)
			if g.Database != db || !bytes.Equal(g.DocID, id) || g.Type != typ || g.Start != start || g.End != end {
				t.Fatalf("round trip\n%+v\n%+v", g, treq)
			}
		}
	})
}

// FuzzParseRequest: the request decoder never panics on any message,
// and the documents of a search it accepts hold only bytes that were in
// the message.
func FuzzParseRequest(f *testing.F) {
	for _, r := range []interface{ Marshal() ([]byte, error) }{
		&SearchRequest{Database: "db", SeedWords: "w", Documents: []DocRef{{DocID: []byte("a"), Type: "TEXT"}, {DocID: []byte("b"), Start: 1, End: 9}}},
		&TextRequest{Database: "db", DocID: []byte("id"), Type: "TEXT", End: 10},
		&InitRequest{ImplementationName: "urlkit", ReferenceID: []byte("r")},
	} {
		msg, err := r.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		req, err := ParseRequest(msg)
		if err != nil {
			return
		}
		if sr, ok := req.(*SearchRequest); ok {
			for _, d := range sr.Documents {
				if !bytes.Contains(msg, d.DocID) || !bytes.Contains(msg, []byte(d.Type)) {
					t.Fatalf("document %+v not from the message", d)
				}
			}
		}
	})
}

// FuzzDocID: ParseDocID never panics and AppendDocID gives back what it
// parsed.
func FuzzDocID(f *testing.F) {
	f.Add([]byte("\x01\x07vm:2210\x02\x15/tmp/wais-try/db/test\x07\x01\x00"))
	f.Add([]byte{0x81})
	f.Fuzz(func(t *testing.T, id []byte) {
		fs, err := ParseDocID(id)
		if err != nil {
			return
		}
		again := AppendDocID(nil, fs)
		fs2, err := ParseDocID(again)
		if err != nil || !reflect.DeepEqual(fs, fs2) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", id, fs, again, fs2, err)
		}
	})
}

// FuzzParseSource: the source-record reader never panics and finds the
// fields of a record it is given.
func FuzzParseSource(f *testing.F) {
	f.Add("(:source :version 3 :database-name \"/db/test\" :maintainer \"root@vm\" :description \"a \\\"b\\\" : c\")", "x")
	f.Add(":description", "")
	f.Add("\"", ":")
	f.Fuzz(func(t *testing.T, text, desc string) {
		parseSource(text)
		if strings.ContainsAny(desc, "\"\\") {
			return
		}
		s := parseSource("(:source :version 3 :description \"" + desc + "\" :maintainer \"m\")")
		if s.Description != desc || s.Maintainer != "m" {
			t.Fatalf("description %q -> %+v", desc, s)
		}
	})
}
