package wais

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Vectors from the WAIS protocol specification 1.5, appendix B (sample
// APDUs), and from freeWAIS-sf's wire (the group tag 150 = 0x81 0x16).
func TestFieldEncoding(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"B.3.1 Max-Documents-Retrieved 16", appendNumber(nil, tagMaxDocuments, 16), []byte{0x72, 0x01, 0x10}},
		{"B.3.2 Chunk-Code 2", appendNumber(nil, tagChunkCode, 2), []byte{0x64, 0x01, 0x02}},
		{"B.3.1 Query-Type 3", appendStringField(nil, tagQueryType, "3"), []byte{0x14, 0x01, '3'}},
		{"B.3.2 Seed-Words Apple", appendStringField(nil, tagSeedWords, "Apple"), append([]byte{0x6a, 0x05}, "Apple"...)},
		{"B.2 Preferred-Message-Size 1024", appendNumber(nil, tagPreferredMessageSize, 1024), []byte{0x05, 0x02, 0x04, 0x00}},
		{"group tag 150, length 225", appendCompressed(appendCompressed(nil, 150), 225), []byte{0x81, 0x16, 0x81, 0x61}},
		{"length 458", appendCompressed(nil, 458), []byte{0x83, 0x4a}},
		{"zero", appendNumber(nil, tagScore, 0), []byte{0x76, 0x01, 0x00}},
	}
	for _, tt := range tests {
		if !bytes.Equal(tt.got, tt.want) {
			t.Errorf("%s: % x, want % x", tt.name, tt.got, tt.want)
		}
	}
}

func TestCompressedRoundTrip(t *testing.T) {
	for _, n := range []uint64{0, 1, 127, 128, 150, 16383, 16384, 1 << 21, 1<<32 - 1} {
		d := &decoder{b: appendCompressed(nil, n)}
		got, err := d.compressed("n")
		if err != nil || got != n || !d.done() {
			t.Errorf("%d: got %d, %v (done %v)", n, got, err, d.done())
		}
	}
	// padding with leading 0x80 bytes (freeWAIS's writeCompressedIntWithPadding)
	d := &decoder{b: []byte{0x80, 0x80, 0x81, 0x16}}
	if got, err := d.compressed("n"); err != nil || got != 150 {
		t.Errorf("padded: %d, %v", got, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		off  int
	}{
		{"cut tag", []byte{0x81}, 0},
		{"cut length", []byte{0x05}, 1},
		{"length beyond the end", []byte{0x05, 0x10, 1, 2}, 2},
		{"a 33-bit tag", appendCompressed(nil, 1<<32), 0},
		{"nine-byte compressed integer", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0},
		{"diagnostic length beyond the end", []byte{0x1c, 0x00, 0x40, 'S', '1'}, 0},
	}
	for _, tt := range tests {
		d := &decoder{b: tt.b, base: 100}
		_, _, err := d.field()
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v", tt.name, err)
			continue
		}
		if de.Offset != 100+tt.off {
			t.Errorf("%s: offset %d, want %d (%v)", tt.name, de.Offset, 100+tt.off, err)
		}
	}
}

func TestParseHeader(t *testing.T) {
	good := []byte("0000000040z2wais        0")
	if n, err := ParseHeader(good, 0); err != nil || n != 40 {
		t.Fatalf("ParseHeader = %d, %v", n, err)
	}
	for _, h := range []string{
		"000000004Xz2wais        0", // not digits
		"0000000040y2wais        0", // not 'z'
		"0000000040z2wais      x 0", // compression
		"0000000001z2wais        0", // too short for an APDU
		"0000000040z2wais",          // cut short
	} {
		if _, err := ParseHeader([]byte(h), 0); !errors.Is(err, ErrMalformed) {
			t.Errorf("ParseHeader(%q) = %v, want ErrMalformed", h, err)
		}
	}
	if _, err := ParseHeader([]byte("9999999999z2wais        0"), DefaultMaxMessage); !errors.Is(err, ErrMalformed) {
		t.Errorf("absurd length: %v", err)
	}
}

// A real response of freeWAIS-sf 2.2.10 (a search for "nosuch"'s words in
// a missing database): a diagnostic record inside the user information.
const diagResponse = "0000000089z2wais        0\x00\x0e\x17\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00cG\x1c\x00CS1The following database is not available: /tmp/wais-try/db/nosuch\x00\x1d"

func TestParseDiagnostic(t *testing.T) {
	resp, err := ParseResponse([]byte(diagResponse))
	if err != nil {
		t.Fatal(err)
	}
	sr := resp.(*SearchResponse)
	if len(sr.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v", sr.Diagnostics)
	}
	d := sr.Diagnostics[0]
	if d.Code != "S1" || d.AddInfo != "The following database is not available: /tmp/wais-try/db/nosuch" || d.Surrogate {
		t.Errorf("diagnostic %+v", d)
	}
}

func TestRequestRoundTrip(t *testing.T) {
	sreq := &SearchRequest{Database: "test", SeedWords: "gopher wais", MaxDocuments: 7, ReferenceID: []byte{1},
		Documents: []DocRef{{DocID: []byte("\x01\x02id"), Type: "TEXT"}, {DocID: []byte("x"), Start: 5, End: 99}}}
	treq := &TextRequest{Database: "test", DocID: []byte("\x01\x07vm:2210"), Type: "TEXT", Start: 0, End: 137}
	ireq := &InitRequest{PreferredMessageSize: 5, MaximumRecordSize: 6, ImplementationName: "urlkit", ReferenceID: []byte("r")}
	for _, req := range []interface{ Marshal() ([]byte, error) }{sreq, treq, ireq} {
		msg, err := req.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseRequest(msg)
		if err != nil {
			t.Fatalf("%T: %v", req, err)
		}
		again, _ := got.(interface{ Marshal() ([]byte, error) }).Marshal()
		if !bytes.Equal(again, msg) {
			t.Errorf("%T: round trip\n%s\n%s", req, FormatMessage(msg), FormatMessage(again))
		}
	}
}

func TestMarshalRefusesBadRanges(t *testing.T) {
	if _, err := (&TextRequest{Start: 10, End: 10}).Marshal(); err == nil {
		t.Error("empty range accepted")
	}
	if _, err := (&SearchRequest{Documents: []DocRef{{Start: -1, End: 3}}}).Marshal(); err == nil {
		t.Error("negative range accepted")
	}
}

func TestDocID(t *testing.T) {
	// the DocID freeWAIS sent for alpha.txt (Lynx wrote it as
	// 1=vm%3A2210;2=/tmp/wais-try/db/test;3=0%20137%20...;7=%00;)
	id := []byte("\x01\x07vm:2210\x02\x15/tmp/wais-try/db/test\x03$0 137 /tmp/wais-try/corpus/alpha.txt\x07\x01\x00")
	fs, err := ParseDocID(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 4 || fs[0].Type != 1 || string(fs[0].Value) != "vm:2210" || fs[3].Type != 7 || string(fs[3].Value) != "\x00" {
		t.Fatalf("fields %+v", fs)
	}
	if !bytes.Equal(AppendDocID(nil, fs), id) {
		t.Error("AppendDocID does not give the DocID back")
	}
	if _, err := ParseDocID([]byte("\x01\x09short")); !errors.Is(err, ErrMalformed) {
		t.Errorf("bad DocID: %v", err)
	}
}

func TestFormatMessage(t *testing.T) {
	if got := FormatMessage([]byte("a\\b\x00\n\xff~")); got != `a\\b\x00\x0a\xff~` {
		t.Errorf("FormatMessage = %s", got)
	}
}

// An error inside a document header group names the offset of the bad
// field in the message, also when the server pads the group's length
// with a leading 0x80 byte (as freeWAIS's writeCompressedIntWithPadding
// may): the offsets follow the bytes read, not the shortest encoding.
func TestDecodeErrorOffsetInPaddedGroup(t *testing.T) {
	for _, pad := range []string{"", "\x80", "\x80\x80"} {
		group := "t\x02id" + "{\x7f" + "short"
		user := "\x81\x16" + pad + string(appendCompressed(nil, uint64(len(group)))) + group
		apdu := "\x00\x0e\x17\x01\x00\x00\x01\x00\x00\x01\x00\x00\x00\x1b\x01\x00" + "c" + string(appendCompressed(nil, uint64(len(user)))) + user
		msg := message(len(apdu), apdu)
		_, err := ParseResponse([]byte(msg))
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("pad %q: err = %v", pad, err)
		}
		// where the value of the headline field (tag '{', length 0x7f)
		// would start: it claims more bytes than the group holds
		if want := strings.Index(msg, "{\x7f") + 2; de.Offset != want {
			t.Errorf("pad %q: offset %d, want %d (%v)", pad, de.Offset, want, err)
		}
	}
}
