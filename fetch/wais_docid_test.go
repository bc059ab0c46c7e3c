package fetch

// The WAIS view's DocID (package scheme) checked against the WAIS
// client's encoder and parser (client/wais): the two meet here, in the
// access layer, so that neither imports the other.

import (
	"bytes"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/scheme"
)

func waisView(t testing.TB, raw string) (*scheme.WAIS, *urlkit.URL) {
	u, _, err := urlkit.ParseMode(raw, urlkit.Lenient)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	w, err := scheme.ParseWAIS(&u)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return w, &u
}

func TestWAISDocument(t *testing.T) {
	docID := wais.AppendDocID(nil, []wais.DocIDField{{Type: 1, Value: []byte("vm:210")}, {Type: 3, Value: []byte("0 137 /a b/c")}, {Type: 7, Value: []byte{0}}})
	for _, tc := range []struct {
		raw    string
		length int64
		form   string
	}{
		{"wais://h/db/TEXT/%01%06vm%3A210%03%0C0%20137%20%2Fa%20b%2Fc%07%01%00", -1, "rfc1738"},
		{"wais://h/db/TEXT/137/1=vm%3A210;3=0%20137%20%2Fa%20b%2Fc;7=%00;", 137, "fields"},
		{"wais://h/db/TEXT/1=vm%3A210;3=0%20137%20%2Fa%20b%2Fc;7=%00;", -1, "fields"},
	} {
		w, u := waisView(t, tc.raw)
		d := w.Document(u.String())
		got := d.DocID
		if d.Fields != nil {
			got = appendFields(d.Fields)
		}
		if !bytes.Equal(got, docID) || d.Length != tc.length || d.Form != tc.form {
			t.Errorf("%s: %q %d %s, want %q %d %s", tc.raw, d.DocID, d.Length, d.Form, docID, tc.length, tc.form)
		}
	}
}

// appendFields builds the DocID of fields with the WAIS client's encoder.
func appendFields(fields []scheme.WAISField) []byte {
	var fs []wais.DocIDField
	for _, f := range fields {
		fs = append(fs, wais.DocIDField{Type: uint64(f.Number), Value: []byte(f.Value)})
	}
	return wais.AppendDocID(nil, fs)
}

// FuzzWAISDocument: any DocID written in RFC 1738's form by URL reads
// back as the same bytes; any wpath decodes without panicking, and a
// fields-form DocID splits into fields again.
func FuzzWAISDocument(f *testing.F) {
	f.Add([]byte("\x01\x07vm:2211\x07\x01\x00"), "137/1=a;2=b;")
	f.Add([]byte("1=a;"), "1=x%3By;")
	f.Add([]byte{}, "0/")
	f.Fuzz(func(t *testing.T, docID []byte, wpath string) {
		w := &scheme.WAIS{Host: "h", Database: "db", HasDocument: true, WType: "TEXT", WPath: string(docID)}
		u := w.URL()
		s := u.String()
		v, _, err := urlkit.ParseMode(s, urlkit.RFC1738)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		w2, err := scheme.ParseWAIS(&v)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if d := w2.Document(v.String()); !bytes.Equal(d.DocID, docID) || d.Form != "rfc1738" {
			t.Fatalf("%q: DocID %q (%s), want %q", s, d.DocID, d.Form, docID)
		}
		v, _, err = urlkit.ParseMode("wais://h/db/TEXT/"+wpath, urlkit.Lenient)
		if err != nil {
			return
		}
		w3, err := scheme.ParseWAIS(&v)
		if err != nil || !w3.HasDocument {
			return
		}
		d := w3.Document(v.String())
		if d.Form == "fields" {
			fs, err := wais.ParseDocID(appendFields(d.Fields))
			if err != nil || len(fs) != len(d.Fields) {
				t.Fatalf("%q: the fields form built a DocID that does not split back: %v", wpath, err)
			}
		}
	})
}
