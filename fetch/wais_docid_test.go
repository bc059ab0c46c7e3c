package fetch

// The WAIS view's DocID (package scheme) checked against the WAIS
// client's encoder and parser (client/wais): the two meet here, in the
// access layer, so that neither imports the other.

import (
	"bytes"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

// waisRetrieval returns the request of the retrieval step of u's access
// plan, planned in mode; nil when the plan retrieves nothing or is refused.
func waisRetrieval(u *urlkit.URL, mode urlkit.Mode) (*request.WAIS, error) {
	p, err := scheme.PlanURL(u, scheme.PlanOptions{Mode: mode})
	if err != nil {
		return nil, err
	}
	for _, st := range p.Steps {
		if r, ok := st.Request.(*request.WAIS); ok && st.Op == request.WAISRetrieve {
			return r, nil
		}
	}
	return nil, nil
}

// docIDOf returns the DocID the retrieval sends and the form the URL
// wrote it in.
func docIDOf(r *request.WAIS) ([]byte, string) {
	if r.DocIDFields != nil {
		return appendFields(r.DocIDFields), "fields"
	}
	return r.DocID, "rfc1738"
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
		u, _, err := urlkit.ParseMode(tc.raw, urlkit.Lenient)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		r, err := waisRetrieval(&u, urlkit.Lenient)
		if r == nil {
			t.Fatalf("%s: the plan retrieves nothing: %v", tc.raw, err)
		}
		got, form := docIDOf(r)
		if !bytes.Equal(got, docID) || r.Length != tc.length || form != tc.form {
			t.Errorf("%s: %q %d %s, want %q %d %s", tc.raw, got, r.Length, form, docID, tc.length, tc.form)
		}
	}
}

// appendFields builds the DocID of fields with the WAIS client's encoder.
func appendFields(fields []request.DocIDField) []byte {
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
		r, err := waisRetrieval(&v, urlkit.RFC1738)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if r != nil {
			if got, form := docIDOf(r); !bytes.Equal(got, docID) || form != "rfc1738" {
				t.Fatalf("%q: DocID %q (%s), want %q", s, got, form, docID)
			}
		}
		v, _, err = urlkit.ParseMode("wais://h/db/TEXT/"+wpath, urlkit.Lenient)
		if err != nil {
			return
		}
		r, err = waisRetrieval(&v, urlkit.Lenient)
		if err != nil || r == nil || r.DocIDFields == nil {
			return
		}
		fs, err := wais.ParseDocID(appendFields(r.DocIDFields))
		if err != nil || len(fs) != len(r.DocIDFields) {
			t.Fatalf("%q: the fields form built a DocID that does not split back: %v", wpath, err)
		}
	})
}
